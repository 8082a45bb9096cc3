// customer.address on POST /v1/calls (issue 35): validated, stored, shown on the CallOut (create, read, replay), on the
// batch path (group commit) as on a creation alone, and sent in call.ended (the CallOut).
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShopifyPlatform } from "../src/connectors/platforms/shopify.ts";
import { WooCommercePlatform } from "../src/connectors/platforms/woocommerce.ts";
import { callBody, insertShop, postCall, uid } from "./calls-fixtures.ts";
import { type EngineApp, startEngineWithReceiver, waitForEnd } from "./engine-fixtures.ts";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import type { Receiver } from "./webhook-receiver.ts";

const ADDRESS = {
  line1: "12 rue Ibn Battouta",
  city: "Casablanca",
  region: "Casablanca-Settat",
  postal_code: "20250",
  landmark: "près de la mosquée",
};

describe("customer.address on POST /v1/calls (issue 35)", () => {
  let t: TestApp;
  let acct: TestAccount;
  let shop: string;
  beforeAll(async () => {
    t = await startApp({
      env: { WAKHA_CREATE_BATCHES: "1", WAKHA_CREATE_BATCH_SIZE: "64", WAKHA_RATE_LIMIT_SCALE: "100" },
    });
    acct = await newAccount(t.ctx, 100_000);
    shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  });
  afterAll(() => t?.close());

  const withAddress = (address: unknown) =>
    callBody(shop, { customer: { name: "Amina", phone_number: "+212612345601", address } });

  it("stores the address and shows it on the created call, its read and its replay; a call without one has none", async () => {
    const key = uid("key");
    const body = withAddress(ADDRESS);
    const created = await postCall(t, acct, body, key);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().customer).toEqual({ name: "Amina", phone_number: "+212612345601", address: ADDRESS });
    const read = await t.app.inject({ method: "GET", url: `/v1/calls/${created.json().id}`, headers: acct.headers });
    expect(read.json().customer.address).toEqual(ADDRESS);
    const replay = await postCall(t, acct, body, key);
    expect(replay.headers["x-idempotent-replay"]).toBe("true");
    expect(replay.body).toBe(created.body);
    const plain = await postCall(t, acct, callBody(shop));
    expect(plain.json().customer).toEqual({ name: "Fatima Zahra", phone_number: "+212612345601" });
    expect(
      (await t.ctx.db.query("SELECT customer_address FROM calls WHERE id = $1", [plain.json().id])).rows[0]!
        .customer_address,
    ).toBeNull();
  });

  it("stores each address on the batch path (concurrent creations written together)", async () => {
    const cities = Array.from({ length: 30 }, (_, i) => `City ${i}`);
    const responses = await Promise.all(cities.map((city) => postCall(t, acct, withAddress({ city }))));
    for (const r of responses) expect(r.statusCode, r.body).toBe(201);
    const ids = responses.map((r) => r.json().id as string);
    const { rows } = await t.ctx.db.query<{ id: string; city: string; xmin: string }>(
      "SELECT id, customer_address->>'city' AS city, xmin::text FROM calls WHERE id = ANY($1)",
      [ids],
    );
    expect(new Map(rows.map((r) => [r.id, r.city]))).toEqual(new Map(ids.map((id, i) => [id, cities[i]])));
    expect(new Set(rows.map((r) => r.xmin)).size).toBeLessThan(30); // several creations per transaction: the batch statement ran
  });

  it("refuses an address without a city, with an unknown field, or too long, in the contract's shape, and writes nothing", async () => {
    const cases: [unknown, string, string][] = [
      [{ line1: "12 rue X" }, "body.customer.address.city", "missing"],
      [{ city: "Rabat", floor: 3 }, "body.customer.address.floor", "extra_forbidden"],
      [{ city: "x".repeat(101) }, "body.customer.address.city", "string_too_long"],
      [{ city: "" }, "body.customer.address.city", "string_too_short"],
      ["Rabat", "body.customer.address", "model_type"],
    ];
    const before = (
      await t.ctx.db.query("SELECT count(*)::int AS n FROM calls WHERE account_id = $1", [acct.accountId])
    ).rows[0]!.n;
    for (const [address, loc, type] of cases) {
      const body = problem(await postCall(t, acct, withAddress(address)), "validation_error", 422);
      const entries = (body["errors"] as { loc: string[]; type: string }[]).map((e) => [e.loc.join("."), e.type]);
      expect(
        entries.map((e) => e[0]),
        JSON.stringify(address),
      ).toContain(loc);
      if (type !== "model_type") expect(entries, JSON.stringify(address)).toContainEqual([loc, type]);
    }
    expect(
      (await t.ctx.db.query("SELECT count(*)::int AS n FROM calls WHERE account_id = $1", [acct.accountId])).rows[0]!.n,
    ).toBe(before);
  });
});

describe("the store connectors read the shipping address from the platforms' own samples (issue 35)", () => {
  const sample = (path: string) => readFileSync(new URL(`./fixtures/vendors/${path}`, import.meta.url));

  it("Shopify: shipping_address address1, address2, city, province, zip", () => {
    const event = new ShopifyPlatform().parseWebhook({
      headers: { "x-shopify-topic": "orders/create" },
      rawBody: sample("shopify/orders-create-test-notification.json"),
    });
    expect(event.kind === "order_created" ? event.order.address : "not an order").toEqual({
      line1: "123 Shipping Street",
      line2: null,
      city: "Shippington",
      region: "Kentucky",
      postalCode: "40003",
    });
  });

  it("WooCommerce: shipping address_1, address_2, city, state, postcode", () => {
    const event = new WooCommercePlatform({ allowPrivate: true }).parseWebhook({
      headers: { "x-wc-webhook-topic": "order.created" },
      rawBody: sample("woocommerce/order-retrieve-example.json"),
    });
    expect(event.kind === "order_created" ? event.order.address : "not an order").toEqual({
      line1: "969 Market",
      line2: null,
      city: "San Francisco",
      region: "CA",
      postalCode: "94103",
    });
  });
});

describe("an address call end to end: the simulator's 16 corrects the city, and call.ended carries it (issue 35)", () => {
  let t: EngineApp;
  let receiver: Receiver;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ t, receiver, close } = await startEngineWithReceiver());
  });
  afterAll(async () => {
    await close?.();
  });

  it("confirmed with outcome_details.delivery, on the call and in call.ended", async () => {
    const acct = await newAccount(t.ctx, 2000);
    const shop = await insertShop(t.ctx, acct.accountId);
    const hook = await t.app.inject({
      method: "POST",
      url: "/v1/me/webhooks",
      headers: acct.headers,
      payload: { url: `http://127.0.0.1:${receiver.port}/address` },
    });
    expect(hook.statusCode).toBe(201);
    const res = await postCall(
      t,
      acct,
      callBody(shop.externalId, {
        customer: {
          name: "Amina",
          phone_number: "+212612345616",
          address: { city: "Casablanca", line1: "12 rue Ibn Battouta" },
        },
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const ended = await waitForEnd(t, acct, res.json().id, 60_000);
    expect(ended).toMatchObject({
      status: "completed",
      outcome: "confirmed",
      outcome_details: { delivery: { address_confirmed: false, corrected: { city: "Rabat" } } },
    });
    const event = await until(() =>
      receiver.requests.find((r) => r.path === "/address" && r.headers["x-service-event-type"] === "call.ended"),
    );
    expect(JSON.parse(event.body).data).toMatchObject({
      customer: { address: { city: "Casablanca" } },
      outcome_details: { delivery: { corrected: { city: "Rabat" } } },
    });
  });
});

async function until<T>(probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const got = probe();
    if (got !== undefined) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("never came");
}

describe("the address is personal data (issue 35 with issue 36)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t?.close());

  it("the retention sweep's and the erasure's strip removes outcome_details.delivery (the customer's words about the address)", async () => {
    const { STRIP_WORDS } = await import("../src/calls/compliance/retention.ts");
    const details = {
      delivery: { address_confirmed: true, landmark: "près de la mosquée" },
      transcript_excerpt: "oui",
      reason: null,
    };
    const { rows } = await t.ctx.db.query<{ d: Record<string, unknown> }>(
      `SELECT ${STRIP_WORDS("x")} AS d FROM (SELECT $1::jsonb AS x) s`,
      [JSON.stringify(details)],
    );
    expect(rows[0]!.d).toEqual({ reason: null });
  });
});
