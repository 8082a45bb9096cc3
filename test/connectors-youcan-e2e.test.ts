// Issue 17 end to end, YouCan: a shop connected with a YouCan OAuth token and the OAuth app's client secret
// (PUT /v1/shops/{id}/connector), its catalogue imported from a local YouCan Store Admin API (test/fakes/youcan.ts),
// order.create REST hooks built and signed as YouCan does (x-youcan-signature) posted to the connector's
// `webhook_url`; each COD order becomes a call, the simulated customer decides (CONTRACT §5: a number ending 01
// confirms, 02 declines, 09 asks for a change) and the decision lands on the fake store as the order's status, or is
// logged as nothing to write where YouCan has no status for it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createYouCanPlatform } from "../src/connectors/platforms/youcan.ts";
import { type ConnectorEngine, startConnectorEngine } from "./connector-fixtures.ts";
import type { EngineApp } from "./engine-fixtures.ts";
import { FakeYouCan, type YouCanOrderInput, youcanOrder } from "./fakes/youcan.ts";
import type { TestAccount } from "./helpers.ts";

const TOKEN = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.e2e-youcan-token";
const CLIENT_SECRET = "Yc7q2Lr9sZ5kPq0vB7nM2xL9tH4gF6dA";

describe("YouCan connector, end to end", () => {
  let fake: FakeYouCan;
  let env: ConnectorEngine;
  let t: EngineApp;
  let a: TestAccount;
  let shop: string;
  let webhookUrl: string;
  let path: string;
  let listening: string;
  let caftan: { id: string; variantIds: string[] };
  let argan: { id: string; variantIds: string[] };

  beforeAll(async () => {
    fake = await new FakeYouCan({ accessToken: TOKEN, clientSecret: CLIENT_SECRET }).start();
    caftan = fake.addProduct("Caftan marocain", [
      { sku: "CAFTAN-S-RED", price: 450, values: ["S", "Rouge"] },
      { sku: "CAFTAN-M-RED", price: 450, values: ["M", "Rouge"] },
    ]);
    argan = fake.addProduct("Huile d'argan 100 ml", [{ sku: "ARGAN-100", price: 90 }]);
    env = await startConnectorEngine({ WAKHA_WEBHOOK_ALLOW_PRIVATE: "on" });
    ({ t, a, shop, listening } = env);
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    await fake?.close();
  });

  const events = () => env.events();
  const callsOf = (orderId: string) => env.callsOf(orderId);
  const argLine = () => ({ ...fake.variantOf(argan.id), quantity: 1 });
  /** Places the order on the fake store and delivers its order.create hook; returns the order id and Wakha's answer. */
  async function place(
    input: Partial<YouCanOrderInput> & Pick<YouCanOrderInput, "payment" | "phone">,
  ): Promise<{ id: string; result: unknown }> {
    const order = youcanOrder({ countryCode: "MA", lines: [argLine()], ...input });
    fake.addOrder(order);
    const delivery = fake.orderCreate(order);
    const res = await t.app.inject({ method: "POST", url: path, headers: delivery.headers, payload: delivery.rawBody });
    if (res.statusCode !== 200) throw new Error(`delivery: ${res.statusCode} ${res.body}`);
    return { id: String(order["id"]), result: res.json().result };
  }
  const writeBack = (orderId: string, timeoutMs?: number) => env.writeBackOf(orderId, timeoutMs);
  const decided = (orderId: string) => env.outcomeOf(orderId);
  const statusCalls = (orderId: string) =>
    fake.requests.filter((r) => r.path === `/orders/${orderId}/status`).map((r) => r.status);

  it("connects with the store's OAuth token and the OAuth app's client secret as webhook secret", async () => {
    const res = await t.app.inject({
      method: "PUT",
      url: `/v1/shops/${shop}/connector`,
      headers: a.headers,
      payload: { platform: "youcan", store_url: fake.url, access_token: TOKEN, webhook_secret: CLIENT_SECRET },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      platform: "youcan",
      store_url: fake.url,
      credential_last4: TOKEN.slice(-4),
      webhook_secret_last4: CLIENT_SECRET.slice(-4),
    });
    expect(res.body).not.toContain(CLIENT_SECRET);
    webhookUrl = res.json().webhook_url as string;
    expect(webhookUrl).toMatch(/\/connectors\/youcan\/[A-Za-z0-9_-]{32}$/);
    path = new URL(webhookUrl).pathname;
    // The subscription docs/connectors.md has the merchant make (POST /resthooks/subscribe) names that address.
    await createYouCanPlatform({ allowPrivate: true }).subscribeOrderCreate(
      { platform: "youcan", storeUrl: fake.url, accessToken: TOKEN, webhookSecret: CLIENT_SECRET },
      webhookUrl,
    );
    expect(fake.subscriptions).toEqual([expect.objectContaining({ event: "order.create", target_url: webhookUrl })]);
  });

  it("imports products with their variants by YouCan's ids; a product's `default` variant has no name of its own", async () => {
    const res = await t.app.inject({ method: "POST", url: `/v1/shops/${shop}/connector/sync`, headers: a.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ products: 2, variants: 3, archived: 0 });
    const product = await t.app.inject({
      method: "GET",
      url: `/v1/shops/${shop}/products/${caftan.id}`,
      headers: a.headers,
    });
    expect(product.json()).toMatchObject({
      name: "Caftan marocain",
      variants: [
        { variant_external_id: caftan.variantIds[0], name: "S / Rouge", price: "450" },
        { variant_external_id: caftan.variantIds[1], name: "M / Rouge", price: "450" },
      ],
    });
    const single = await t.app.inject({
      method: "GET",
      url: `/v1/shops/${shop}/products/${argan.id}`,
      headers: a.headers,
    });
    expect(single.json()).toMatchObject({
      variants: [{ variant_external_id: argan.variantIds[0], name: null, price: "90" }],
    });
    expect(
      fake.requests
        .filter((r) => r.path === "/products")
        .every((r) => r.status === 200 && r.query["include"] === "variants"),
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
    // A revoked token: 502 store_api_error, logged.
    fake.revoked = true;
    try {
      const refused = await t.app.inject({
        method: "POST",
        url: `/v1/shops/${shop}/connector/sync`,
        headers: a.headers,
      });
      expect(refused.statusCode).toBe(502);
      expect(refused.json().detail).toMatch(/Unauthenticated/);
    } finally {
      fake.revoked = false;
    }
    expect((await events()).slice(0, 2).map((e) => [e["type"], e["status"], e["reason"]])).toEqual([
      ["catalogue_sync", "failed", "store_refused"],
      ["catalogue_sync", "succeeded", null],
    ]);
  });

  it("a Moroccan COD order, posted by YouCan to the subscribed address, calls +212612345601 with its lines mapped; confirmed, the order is `processed`", async () => {
    const tajine = fake.addProduct("Tajine en terre", [{ sku: "TAJINE-01", price: 120 }]);
    const plateau = fake.addProduct("Plateau en cuivre", [{ sku: "PLATEAU-X", price: 35.5 }]);
    const order = youcanOrder({
      payment: "cod",
      phone: "06 12 34 56 01",
      countryCode: "MA",
      lines: [
        { ...fake.variantOf(caftan.id, 1), quantity: 1 },
        { ...fake.variantOf(argan.id), quantity: 2, price: 85.5 },
        { ...fake.variantOf(tajine.id), quantity: 1 },
        { ...fake.variantOf(plateau.id), quantity: 1 },
      ],
    });
    const id = String(order["id"]);
    fake.addOrder(order);
    // Over the wire, to the subscription's target as YouCan posts it.
    const res = await fake.deliverTo(
      `${listening}${new URL(fake.subscriptions[0]!.target_url).pathname}`,
      fake.orderCreate(order),
    );
    expect(res).toEqual({ status: 200, body: JSON.stringify({ status: "ok", result: "call_created" }) });
    const [call] = await callsOf(id);
    expect(call).toMatchObject({ customer_phone: "+212612345601", amount: "776.50", currency: "MAD", country: "MA" });
    expect(call!.items).toEqual([
      {
        product_external_id: caftan.id,
        variant_external_id: caftan.variantIds[1],
        name: "Caftan marocain",
        variant_name: "M / Rouge",
        unit_price: "450.00",
        quantity: 1,
      },
      {
        product_external_id: argan.id,
        variant_external_id: argan.variantIds[0],
        name: "Huile d'argan 100 ml",
        variant_name: null,
        unit_price: "85.50",
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
        unit_price: "35.50",
        quantity: 1,
      },
    ]);
    expect(await decided(id)).toBe("confirmed");
    expect(await writeBack(id)).toMatchObject({
      status: "succeeded",
      resolution: "confirmed",
      attempts: 1,
      call_id: call!.id,
      detail: { note: "commande confirmée par le client par téléphone. Livraison : adresse confirmée par le client." },
    });
    expect(fake.orders.get(id)!.statusHistory).toEqual([{ context: "status", slug: "processed" }]);
    expect(fake.statusOf(id)).toBe("processed");
  });

  it("a Tunisian order (20 123 402, TND, no gateway named) declined is `canceled-by-seller`", async () => {
    const { id, result } = await place({ payment: "unnamed", phone: "20 123 402", countryCode: "TN", currency: "TND" });
    expect(result).toBe("call_created");
    expect(await callsOf(id)).toMatchObject([
      { customer_phone: "+21620123402", amount: "90.000", currency: "TND", country: "TN" },
    ]);
    expect(await decided(id)).toBe("declined");
    expect(await writeBack(id)).toMatchObject({ status: "succeeded", resolution: "declined" });
    expect(fake.statusOf(id)).toBe("canceled-by-seller");
  });

  it("an Algerian order (0550 12 34 09, DZD) with a change request: YouCan has no status for it, logged as nothing written, the note kept", async () => {
    const { id, result } = await place({ payment: "cod", phone: "0550 12 34 09", countryCode: "DZ", currency: "DZD" });
    expect(result).toBe("call_created");
    expect(await callsOf(id)).toMatchObject([{ customer_phone: "+213550123409", currency: "DZD", country: "DZ" }]);
    expect(await decided(id)).toBe("change_requested");
    const entry = await writeBack(id);
    expect(entry).toMatchObject({
      status: "skipped",
      reason: "nothing_to_write",
      resolution: "change_requested",
      attempts: 1,
      last_error: null,
    });
    const detail = entry["detail"] as Record<string, string>;
    expect(detail["note"]).toMatch(/^le client par téléphone demande une modification : .+\.$/);
    expect(detail["why"]).toMatch(/no order status for change_requested/);
    expect(statusCalls(id)).toEqual([]);
    expect(fake.statusOf(id)).toBeUndefined();
  });

  it("refuses a hook signed with another app's secret (401 {detail}), logged; nothing is called", async () => {
    const order = youcanOrder({ payment: "cod", phone: "0612345601", countryCode: "MA", lines: [argLine()] });
    const forged = new FakeYouCan({ accessToken: TOKEN, clientSecret: "another-apps-client-secret-000" }).orderCreate(
      order,
    );
    const res = await t.app.inject({ method: "POST", url: path, headers: forged.headers, payload: forged.rawBody });
    expect(res.statusCode).toBe(401);
    expect(Object.keys(res.json())).toEqual(["detail"]);
    const unsigned = await t.app.inject({
      method: "POST",
      url: path,
      headers: { "content-type": "application/json" },
      payload: fake.orderCreate(order).rawBody,
    });
    expect(unsigned.statusCode).toBe(401);
    expect(await callsOf(String(order["id"]))).toEqual([]);
    expect((await events()).slice(0, 2).map((e) => [e["type"], e["status"], e["reason"]])).toEqual(
      Array(2).fill(["webhook_refused", "refused", "bad_signature"]),
    );
  });

  it("answers 400 {detail} to a signed order it cannot read, logged; acknowledges another event", async () => {
    const broken = fake.orderCreate({
      id: randomUUID(),
      ref: "77",
      total: 10,
      currency: "MAD",
      variants: [{ quantity: 1 }],
    });
    const res = await t.app.inject({ method: "POST", url: path, headers: broken.headers, payload: broken.rawBody });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(["detail"]);
    expect((await events())[0]).toMatchObject({ type: "order", status: "rejected", reason: "malformed_payload" });
    const low = fake.orderCreate({ id: randomUUID(), name: "Huile d'argan 100 ml", inventory: 2 });
    const ignored = await t.app.inject({ method: "POST", url: path, headers: low.headers, payload: low.rawBody });
    expect(ignored.json()).toEqual({ status: "ok", result: "ignored" });
    expect((await events())[0]).toMatchObject({ reason: "malformed_payload" });
  });

  it("takes a hook delivered twice, one after the other and at once, in once", async () => {
    const orders = [0, 1].map(() =>
      youcanOrder({ payment: "cod", phone: "0612345601", countryCode: "MA", lines: [argLine()] }),
    );
    for (const o of orders) fake.addOrder(o);
    const [first, second] = orders.map((o) => fake.orderCreate(o));
    const send = (d: typeof first) =>
      t.app.inject({ method: "POST", url: path, headers: d!.headers, payload: d!.rawBody });
    expect((await send(first)).json().result).toBe("call_created");
    expect((await send(first)).json().result).toBe("duplicate");
    const results = await Promise.all(Array.from({ length: 6 }, () => send(second)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
    expect(results.map((r) => r.json().result).sort()).toEqual(["call_created", ...Array(5).fill("duplicate")].sort());
    for (const o of orders) {
      const id = String(o["id"]);
      expect(await callsOf(id)).toHaveLength(1);
      expect(await writeBack(id)).toMatchObject({ status: "succeeded", resolution: "confirmed" });
      expect(statusCalls(id)).toEqual([200]);
    }
  });

  it("skips a paid order as paid and an unpaid bank transfer as not_cod", async () => {
    const paid = await place({ payment: "paid", phone: "0612345601" });
    const other = await place({ payment: "other", phone: "0612345601" });
    expect([paid.result, other.result]).toEqual(["skipped", "skipped"]);
    expect(await callsOf(paid.id)).toEqual([]);
    const log = await events();
    expect(log.find((e) => e["platform_order_id"] === paid.id)).toMatchObject({
      type: "order",
      status: "skipped",
      reason: "paid",
    });
    const skipped = log.find((e) => e["platform_order_id"] === other.id)!;
    expect(skipped).toMatchObject({ status: "skipped", reason: "not_cod" });
    expect(String((skipped["detail"] as Record<string, unknown>)["payment"])).toContain("Bank Transfer");
  });

  it("retries a status write refused with 429 and Retry-After, then succeeds", async () => {
    fake.throttle(1, "1");
    const { id } = await place({ payment: "cod", phone: "0612345601" });
    expect(await decided(id)).toBe("confirmed");
    expect(await writeBack(id, 30_000)).toMatchObject({
      status: "succeeded",
      resolution: "confirmed",
      attempts: 2,
      last_error: null,
    });
    expect(statusCalls(id)).toEqual([429, 200]);
    expect(fake.statusOf(id)).toBe("processed");
  });

  it("records a write-back with a revoked token as failed, the order untouched", async () => {
    fake.revoked = true;
    try {
      const { id } = await place({ payment: "cod", phone: "0612345602" });
      expect(await decided(id)).toBe("declined");
      const entry = await writeBack(id);
      expect(entry).toMatchObject({ status: "failed", reason: "credentials_refused", attempts: 1 });
      expect(String(entry["last_error"])).toMatch(/refused the credentials.*Unauthenticated/);
      expect(fake.orders.get(id)!.statusHistory).toEqual([]);
    } finally {
      fake.revoked = false;
    }
  });

  it("logged no engine or worker error", () => {
    expect(t.errors).toEqual([]);
  });
});
