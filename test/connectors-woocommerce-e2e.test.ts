// Issue 17 end to end, WooCommerce: a shop connected with WooCommerce's REST keys (PUT /v1/shops/{id}/connector), its
// catalogue imported from a local WooCommerce (test/fakes/woocommerce.ts: REST API v3, OAuth 1.0a over http), its
// order.created webhooks built and signed as WC_Webhook::deliver does, posted to the connector's `webhook_url`; each
// COD order becomes a call, the simulated customer decides (CONTRACT §5: a number ending 01 confirms, 02 declines,
// 09 asks for a change) and the decision lands on the fake store as an order status and a private note.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inMinorUnits } from "../src/services/connector-intake.ts";
import { type ConnectorEngine, startConnectorEngine } from "./connector-fixtures.ts";
import type { EngineApp } from "./engine-fixtures.ts";
import { FakeWooCommerce, type WooOrderInput, wooOrder } from "./fakes/woocommerce.ts";
import type { TestAccount } from "./helpers.ts";

const KEY = `ck_${"3f1c0a9b".repeat(5)}`;
const SECRET = `cs_${"9a8b7c6d".repeat(5)}`;
const WEBHOOK_SECRET = "woo-webhook-secret-5f0c9a7e1b3d";

describe("WooCommerce connector, end to end", () => {
  let fake: FakeWooCommerce;
  let env: ConnectorEngine;
  let t: EngineApp;
  let a: TestAccount;
  let shop: string;
  let path: string;
  let listening: string;
  let caftan: { id: number; variationIds: number[] };
  let argan: number;
  let orderSeq = 40_000 + Math.floor(Math.random() * 1_000_000) * 100;

  beforeAll(async () => {
    fake = await new FakeWooCommerce({
      consumerKey: KEY,
      consumerSecret: SECRET,
      webhookSecret: WEBHOOK_SECRET,
    }).start();
    caftan = fake.addVariableProduct("Caftan brodé", "Taille", [
      { option: "S", sku: "CAFTAN-S", price: "450.00" },
      { option: "M", sku: "CAFTAN-M", price: "450.00" },
    ]);
    argan = fake.addSimpleProduct("Huile d'argan 100 ml", "ARGAN-100", "90.00");
    fake.addSimpleProduct("Brouillon", "DRAFT-1", "10.00", "draft");
    env = await startConnectorEngine({ WAKHA_WEBHOOK_ALLOW_PRIVATE: "on" });
    ({ t, a, shop, listening } = env);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    await fake?.close();
  });

  const events = () => env.events();
  const callsOf = (orderId: number) => env.callsOf(orderId);
  /** Places the order on the fake store and delivers its order.created webhook; returns the order id and Wakha's answer. */
  async function place(input: Omit<WooOrderInput, "id">): Promise<{ id: number; result: unknown; status: number }> {
    const id = ++orderSeq;
    const order = wooOrder({ id, ...input }, fake.url);
    fake.addOrder(order);
    const delivery = fake.orderCreated(order);
    const res = await t.app.inject({ method: "POST", url: path, headers: delivery.headers, payload: delivery.rawBody });
    if (res.statusCode !== 200) throw new Error(`delivery of ${id}: ${res.statusCode} ${res.body}`);
    return { id, status: res.statusCode, result: res.json().result };
  }
  const line = () => ({ productId: argan, sku: "ARGAN-100", name: "Huile d'argan 100 ml", quantity: 1, price: 90 });
  const writeBack = (orderId: number, timeoutMs?: number) => env.writeBackOf(orderId, timeoutMs);
  const decided = (orderId: number) => env.outcomeOf(orderId);

  it("connects with WooCommerce's consumer key and secret, pointed at the store (http on loopback in development)", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: `/v1/shops/${shop}/connector`,
      headers: a.headers,
      payload: {
        platform: "woocommerce",
        store_url: `${fake.url}/`,
        consumer_key: KEY,
        consumer_secret: SECRET,
        webhook_secret: WEBHOOK_SECRET,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      platform: "woocommerce",
      store_url: fake.url,
      credential_last4: SECRET.slice(-4),
      webhook_secret_last4: WEBHOOK_SECRET.slice(-4),
    });
    expect(res.body).not.toContain(SECRET);
    expect(res.json().webhook_url).toMatch(/\/connectors\/woocommerce\/[A-Za-z0-9_-]{32}$/);
    path = new URL(res.json().webhook_url as string).pathname;
  });

  it("answers WooCommerce's unsigned activation ping with exactly 200, recording nothing", async () => {
    const before = await events();
    // Over the wire as WP_Http sends it (form-encoded body `webhook_id=N`, no signature).
    const res = await fake.deliverTo(`${listening}${path}`, fake.ping(31));
    expect(res).toEqual({ status: 200, body: JSON.stringify({ status: "ok", result: "ignored" }) });
    for (const headers of [{ "content-type": "application/x-www-form-urlencoded; charset=UTF-8" }, {}]) {
      const again = await t.app.inject({ method: "POST", url: path, headers, payload: "webhook_id=31" });
      expect(again.statusCode).toBe(200);
    }
    expect(await events()).toEqual(before);
    // Only that body passes unsigned: anything else without a signature is refused.
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: path,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: "webhook_id=31&status=paid",
        })
      ).statusCode,
    ).toBe(401);
  });

  it("imports simple and variable products by their WooCommerce ids; drafts are not imported", async () => {
    const res = await t.app.inject({ method: "POST", url: `/v1/shops/${shop}/connector/sync`, headers: a.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ products: 2, variants: 3, archived: 0 });
    const variable = await t.app.inject({
      method: "GET",
      url: `/v1/shops/${shop}/products/${caftan.id}`,
      headers: a.headers,
    });
    expect(variable.json()).toMatchObject({
      name: "Caftan brodé",
      variants: [
        { variant_external_id: String(caftan.variationIds[0]), name: "S", price: "450.00" },
        { variant_external_id: String(caftan.variationIds[1]), name: "M", price: "450.00" },
      ],
    });
    // A simple product is its own only variant, named by the product's id, without a second name.
    const simple = await t.app.inject({
      method: "GET",
      url: `/v1/shops/${shop}/products/${argan}`,
      headers: a.headers,
    });
    expect(simple.json()).toMatchObject({
      name: "Huile d'argan 100 ml",
      variants: [{ variant_external_id: String(argan), name: null, price: "90.00" }],
    });
    // Signed with OAuth 1.0a over http (WooCommerce refuses Basic there); the keys never in the URL.
    const calls = fake.requests.filter((r) => r.path.startsWith("/wp-json/wc/v3/products"));
    expect(
      calls.every((r) => r.auth === "oauth" && r.status === 200 && !JSON.stringify(r.query).includes(SECRET)),
    ).toBe(true);
    // A product created through the API with its SKU as variant id: store lines find it by SKU.
    const api = await t.app.inject({
      method: "POST",
      url: `/v1/shops/${shop}/products`,
      headers: a.headers,
      payload: {
        external_id: "api-tajine",
        name: "Tajine",
        variants: [{ variant_external_id: "TAJINE-01", price: "120.00" }],
      },
    });
    expect(api.statusCode).toBe(201);
    // Revoked keys: 502 store_api_error, logged, nothing imported half-way.
    fake.revoked = true;
    try {
      const refused = await t.app.inject({
        method: "POST",
        url: `/v1/shops/${shop}/connector/sync`,
        headers: a.headers,
      });
      expect(refused.statusCode).toBe(502);
      expect(refused.json().detail).toMatch(/Consumer key is invalid/);
    } finally {
      fake.revoked = false;
    }
    expect((await events()).slice(0, 2).map((e) => [e["type"], e["status"], e["reason"]])).toEqual([
      ["catalogue_sync", "failed", "store_refused"],
      ["catalogue_sync", "succeeded", null],
    ]);
  });

  it("a Moroccan COD order becomes a call to +212612345601 with its lines mapped; confirmed, the store shows processing and a private note", async () => {
    const { id, result } = await place({
      payment: "cod",
      phone: "06 12 34 56 01",
      country: "MA",
      lines: [
        {
          productId: caftan.id,
          variationId: caftan.variationIds[1],
          sku: "CAFTAN-M",
          name: "Caftan brodé - M",
          quantity: 1,
          price: 450,
        },
        { ...line(), quantity: 2 },
        { productId: 999, sku: "TAJINE-01", name: "Tajine en terre", quantity: 1, price: 120 },
        // A discount spread over 3 units: WooCommerce's line price is the float 100 / 3.
        { productId: 777, sku: "PLATEAU-X", name: "Plateau en cuivre", quantity: 3, price: 100 / 3 },
      ],
    });
    expect(result).toBe("call_created");
    const [call] = await callsOf(id);
    expect(call).toMatchObject({ customer_phone: "+212612345601", amount: "880.00", currency: "MAD", country: "MA" });
    // Line prices in the currency's minor unit (WooCommerce's `price` is a float).
    expect(call!.items).toEqual([
      {
        product_external_id: String(caftan.id),
        variant_external_id: String(caftan.variationIds[1]),
        name: "Caftan brodé",
        variant_name: "M",
        unit_price: "450.00",
        quantity: 1,
      },
      {
        product_external_id: String(argan),
        variant_external_id: String(argan),
        name: "Huile d'argan 100 ml",
        variant_name: null,
        unit_price: "90.00",
        quantity: 2,
      },
      {
        product_external_id: "api-tajine",
        variant_external_id: "TAJINE-01",
        name: "Tajine",
        variant_name: null,
        unit_price: "120.00",
        quantity: 1,
      },
      {
        product_external_id: null,
        variant_external_id: null,
        name: "Plateau en cuivre",
        variant_name: null,
        unit_price: "33.33",
        quantity: 3,
      },
    ]);
    expect(await decided(id)).toBe("confirmed");
    const entry = await writeBack(id);
    expect(entry).toMatchObject({
      status: "succeeded",
      resolution: "confirmed",
      attempts: 1,
      call_id: call!.id,
      detail: { note: "commande confirmée par le client par téléphone. Livraison : adresse confirmée par le client." },
    });
    const stored = fake.orders.get(id)!;
    expect(stored.statusHistory).toEqual(["processing", "processing"]);
    expect(stored.notes.map((n) => [n.note, n.customer_note])).toEqual([
      ["Wakha: commande confirmée par le client par téléphone. Livraison : adresse confirmée par le client.", false],
    ]);
  });

  it("an Algerian order (0550 12 34 02, DZD) declined is cancelled on the store, with a note", async () => {
    const { id, result } = await place({
      payment: "cod",
      phone: "0550 12 34 02",
      country: "DZ",
      city: "Alger",
      currency: "DZD",
      lines: [{ ...line(), price: 2500 }],
    });
    expect(result).toBe("call_created");
    expect(await callsOf(id)).toMatchObject([
      { customer_phone: "+213550123402", amount: "2530.00", currency: "DZD", country: "DZ" },
    ]);
    // The shipping address comes with the call (issue 35).
    expect((await callsOf(id))[0]).toMatchObject({ customer_address: expect.objectContaining({ city: "Alger" }) });
    expect(await decided(id)).toBe("declined");
    expect(await writeBack(id)).toMatchObject({ status: "succeeded", resolution: "declined" });
    const stored = fake.orders.get(id)!;
    expect(stored.order["status"]).toBe("cancelled");
    expect(stored.notes[0]!.note).toMatch(/^Wakha: commande refusée par le client par téléphone/);
  });

  it("a French order (06 12 34 56 09, EUR) with a change request is put on hold, the change in the note", async () => {
    const { id, result } = await place({
      payment: "cod",
      phone: "06 12 34 56 09",
      country: "FR",
      city: "Lyon",
      currency: "EUR",
      lines: [{ ...line(), price: 19.9 }],
      shippingTotal: "4.90",
    });
    expect(result).toBe("call_created");
    expect(await callsOf(id)).toMatchObject([
      { customer_phone: "+33612345609", amount: "24.80", currency: "EUR", country: "FR" },
    ]);
    expect(await decided(id)).toBe("change_requested");
    expect(await writeBack(id)).toMatchObject({ status: "succeeded", resolution: "change_requested" });
    const stored = fake.orders.get(id)!;
    expect(stored.order["status"]).toBe("on-hold");
    expect(stored.notes.map((n) => n.customer_note)).toEqual([false]);
    expect(stored.notes[0]!.note).toMatch(/^Wakha: le client par téléphone demande une modification : .+\.$/);
  });

  it("refuses a delivery signed with another secret (401 {detail}), logged; nothing is called", async () => {
    const id = ++orderSeq;
    const forged = new FakeWooCommerce({
      consumerKey: KEY,
      consumerSecret: SECRET,
      webhookSecret: "guessed-secret-0000",
    }).orderCreated(wooOrder({ id, payment: "cod", phone: "0612345601", country: "MA", lines: [line()] }));
    const res = await t.app.inject({ method: "POST", url: path, headers: forged.headers, payload: forged.rawBody });
    expect(res.statusCode).toBe(401);
    expect(Object.keys(res.json())).toEqual(["detail"]);
    expect(await callsOf(id)).toEqual([]);
    expect((await events())[0]).toMatchObject({ type: "webhook_refused", status: "refused", reason: "bad_signature" });
  });

  it("answers 400 {detail} to a signed body that is not an order, logged; acknowledges other topics", async () => {
    const malformed = fake.orderCreated({ id: ++orderSeq, status: "processing", currency: "MAD", total: "10.00" });
    const res = await t.app.inject({
      method: "POST",
      url: path,
      headers: malformed.headers,
      payload: malformed.rawBody,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/line_items/);
    expect((await events())[0]).toMatchObject({ type: "order", status: "rejected", reason: "malformed_payload" });
    const updated = fake.orderCreated(
      wooOrder({ id: ++orderSeq, payment: "cod", phone: "0612345601", country: "MA", lines: [line()] }),
    );
    updated.headers["x-wc-webhook-topic"] = "order.updated";
    updated.headers["x-wc-webhook-signature"] = createHmac("sha256", WEBHOOK_SECRET)
      .update(updated.rawBody)
      .digest("base64");
    const ignored = await t.app.inject({
      method: "POST",
      url: path,
      headers: updated.headers,
      payload: updated.rawBody,
    });
    expect(ignored.json()).toEqual({ status: "ok", result: "ignored" });
    expect(await callsOf(orderSeq)).toEqual([]);
  });

  it("takes an order delivered twice, one after the other and at once, in once", async () => {
    const first = ++orderSeq;
    const order1 = wooOrder({ id: first, payment: "cod", phone: "0612345601", country: "MA", lines: [line()] });
    fake.addOrder(order1);
    const delivery = fake.orderCreated(order1);
    const send = () =>
      t.app.inject({ method: "POST", url: path, headers: delivery.headers, payload: delivery.rawBody });
    expect((await send()).json().result).toBe("call_created");
    expect((await send()).json().result).toBe("duplicate");
    const second = ++orderSeq;
    const order2 = wooOrder({ id: second, payment: "cod", phone: "0612345601", country: "MA", lines: [line()] });
    fake.addOrder(order2);
    const again = fake.orderCreated(order2);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.inject({ method: "POST", url: path, headers: again.headers, payload: again.rawBody }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(results.map((r) => r.json().result).sort()).toEqual(["call_created", ...Array(5).fill("duplicate")].sort());
    expect(await callsOf(first)).toHaveLength(1);
    expect(await callsOf(second)).toHaveLength(1);
    // One call each, so one write-back each.
    for (const id of [first, second])
      expect(await writeBack(id)).toMatchObject({ status: "succeeded", resolution: await decided(id) });
    expect(
      (await events()).filter(
        (e) => e["type"] === "write_back" && [String(first), String(second)].includes(String(e["platform_order_id"])),
      ),
    ).toHaveLength(2);
  });

  it("skips a card order as paid and a bank transfer as not_cod, with the payment words", async () => {
    const card = await place({ payment: "card", phone: "0612345601", country: "MA", lines: [line()] });
    const bacs = await place({ payment: "bacs", phone: "0612345601", country: "MA", lines: [line()] });
    expect([card.result, bacs.result]).toEqual(["skipped", "skipped"]);
    expect(await callsOf(card.id)).toEqual([]);
    const log = await events();
    expect(log.find((e) => e["platform_order_id"] === String(card.id))).toMatchObject({
      type: "order",
      status: "skipped",
      reason: "paid",
    });
    const skipped = log.find((e) => e["platform_order_id"] === String(bacs.id))!;
    expect(skipped).toMatchObject({ status: "skipped", reason: "not_cod" });
    expect(String((skipped["detail"] as Record<string, unknown>)["payment"])).toContain("(bacs)");
  });

  it("retries a write-back refused with 429 and Retry-After, then succeeds", async () => {
    fake.throttle(1, "1");
    const { id } = await place({ payment: "cod", phone: "0612345602", country: "MA", lines: [line()] });
    expect(await decided(id)).toBe("declined");
    expect(await writeBack(id, 30_000)).toMatchObject({
      status: "succeeded",
      resolution: "declined",
      attempts: 2,
      last_error: null,
    });
    expect(fake.orders.get(id)!.order["status"]).toBe("cancelled");
    expect(fake.requests.filter((r) => r.path === `/wp-json/wc/v3/orders/${id}`).map((r) => r.status)).toEqual([
      429, 200,
    ]);
  });

  it("records a write-back with revoked keys as failed, the store untouched", async () => {
    fake.revoked = true;
    try {
      const { id } = await place({ payment: "cod", phone: "0612345601", country: "MA", lines: [line()] });
      await decided(id);
      const entry = await writeBack(id);
      expect(entry).toMatchObject({ status: "failed", reason: "credentials_refused", attempts: 1 });
      expect(String(entry["last_error"])).toMatch(/refused the credentials.*Consumer key is invalid/);
      expect(fake.orders.get(id)!.statusHistory).toEqual(["processing"]);
      expect(fake.orders.get(id)!.notes).toEqual([]);
    } finally {
      fake.revoked = false;
    }
  });

  it("logged no engine or worker error", () => {
    expect(t.errors).toEqual([]);
  });
});

describe("store amounts in the currency's minor unit", () => {
  it("rounds half up to the currency's decimals and pads short ones; leaves what is not a plain decimal to the call's checks", () => {
    const cases: [string, string, string][] = [
      ["33.333333333333336", "MAD", "33.33"],
      ["66.666666666666671", "EUR", "66.67"],
      ["776.5", "MAD", "776.50"],
      ["450", "DZD", "450.00"],
      ["90", "TND", "90.000"],
      ["12.3456", "TND", "12.346"],
      ["9.995", "MAD", "10.00"],
      ["0.004", "EUR", "0.00"],
      ["-1", "MAD", "-1"],
      ["1e5", "MAD", "1e5"],
    ];
    for (const [value, currency, expected] of cases)
      expect(inMinorUnits(value, currency), `${value} ${currency}`).toBe(expected);
  });
});
