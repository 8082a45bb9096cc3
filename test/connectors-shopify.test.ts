// Issue 17: a shop's Shopify connector (/v1/shops/{id}/connector, its MCP tools) and Shopify's orders/create webhooks
// in (/connectors/shopify/{token}), against a local Shopify at its documented boundary (test/fakes/shopify.ts).
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleOrder } from "../src/calls/orders/settle.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";
import { FakeShopify, shopifyOrder } from "./fakes/shopify.ts";

const TOKEN = "shpat_0123456789abcdef0123456789abcdef";
const SECRET = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
const shopifyBody = (over: Record<string, unknown> = {}) => ({
  platform: "shopify",
  store_url: "https://wakha-test.myshopify.com",
  access_token: TOKEN,
  webhook_secret: SECRET,
  ...over,
});

describe("Shopify connector", () => {
  let fake: FakeShopify;
  let t: ListeningApp;
  let a: TestAccount;
  let b: TestAccount;
  let client: Client;
  let orderSeq = 5_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
  const nextOrderId = () => ++orderSeq;

  beforeAll(async () => {
    fake = await new FakeShopify().start();
    fake.tokens.add(TOKEN);
    t = await startListening({ env: { WAKHA_SHOPIFY_ADMIN_URL: fake.url } });
    a = await newAccount(t.ctx, 100_000);
    b = await newAccount(t.ctx, 100_000);
    client = await connect(t.url, a.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
    await fake?.close();
  });

  async function newShop(acct: TestAccount, country: string | null = "MA"): Promise<string> {
    const id = `shop-${randomUUID().slice(0, 8)}`;
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/shops",
      headers: acct.headers,
      payload: { external_id: id, merchant_external_id: "m1", name: "Boutique Atlas", default_country: country },
    });
    expect(res.statusCode).toBe(201);
    return id;
  }
  const put = (acct: TestAccount, shop: string, body: unknown) =>
    t.app.inject({ method: "PUT", url: `/v1/shops/${shop}/connector`, headers: acct.headers, payload: body as object });
  const get = (acct: TestAccount, shop: string, suffix = "") =>
    t.app.inject({ method: "GET", url: `/v1/shops/${shop}/connector${suffix}`, headers: acct.headers });
  async function connected(
    acct: TestAccount = a,
    country: string | null = "MA",
  ): Promise<{ shop: string; path: string }> {
    const shop = await newShop(acct, country);
    const res = await put(acct, shop, shopifyBody());
    expect(res.statusCode).toBe(200);
    return { shop, path: new URL(res.json().webhook_url as string).pathname };
  }
  function deliver(
    path: string,
    body: unknown,
    options: { secret?: string; topic?: string; raw?: string; headers?: Record<string, string> } = {},
  ) {
    const raw = options.raw ?? JSON.stringify(body);
    const headers = { ...fake.deliveryHeaders(raw, options.secret ?? SECRET, options.topic), ...options.headers };
    return t.app.inject({ method: "POST", url: path, headers, payload: raw });
  }
  async function events(acct: TestAccount, shop: string): Promise<Record<string, unknown>[]> {
    const res = await get(acct, shop, "/events?limit=100");
    expect(res.statusCode).toBe(200);
    return res.json().data as Record<string, unknown>[];
  }
  async function callsOfOrder(orderId: number) {
    const { rows } = await t.ctx.db.query<{
      id: string;
      customer_phone: string;
      amount: string;
      currency: string;
      country: string;
      items: unknown[];
      status: string;
    }>(
      "SELECT id, customer_phone, amount::text, currency, country, items, status FROM calls WHERE order_external_id = $1",
      [String(orderId)],
    );
    return rows;
  }

  describe("PUT/GET/DELETE /v1/shops/{id}/connector", () => {
    it("stores the connector with its secrets sealed, shows only their last 4 characters and an opaque webhook address", async () => {
      const shop = await newShop(a);
      problem(await get(a, shop), "connector_not_found", 404);
      const res = await put(a, shop, shopifyBody({ store_url: "wakha-test.myshopify.com" }));
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        shop_external_id: shop,
        platform: "shopify",
        store_url: "https://wakha-test.myshopify.com",
        credential_last4: "cdef",
        webhook_secret_last4: "8f90",
        last_sync_at: null,
      });
      expect(body.webhook_url).toMatch(/\/connectors\/shopify\/[A-Za-z0-9_-]{32}$/);
      expect(res.body).not.toContain(TOKEN);
      expect(res.body).not.toContain(SECRET);
      expect((await get(a, shop)).json()).toEqual(body);
      const { rows } = await t.ctx.db.query<{ credentials_sealed: string; webhook_secret_sealed: string }>(
        "SELECT credentials_sealed, webhook_secret_sealed FROM store_connectors c JOIN shops s ON s.id = c.shop_id WHERE s.external_id = $1",
        [shop],
      );
      expect(rows[0]!.credentials_sealed).not.toContain(TOKEN);
      expect(rows[0]!.webhook_secret_sealed).not.toContain(SECRET);
      // Replacing keeps the address the store already posts to.
      const again = await put(a, shop, shopifyBody({ access_token: "shpat_ffffffffffffffffffffffffffff9999" }));
      expect(again.json()).toMatchObject({ credential_last4: "9999", webhook_url: body.webhook_url });
    });

    it("refuses credentials that are not Shopify's shape, fields of another platform and non-myshopify addresses (422)", async () => {
      const shop = await newShop(a);
      const cases: [Record<string, unknown>, string][] = [
        [shopifyBody({ access_token: "not-a-token" }), "access_token"],
        [shopifyBody({ store_url: "https://evil.example.com" }), "store_url"],
        [shopifyBody({ consumer_key: "ck_0123" }), "consumer_key"],
        [shopifyBody({ webhook_secret: "short" }), "webhook_secret"],
        [{ ...shopifyBody(), platform: "magento" }, "platform"],
      ];
      for (const [payload, field] of cases) {
        const body = problem(await put(a, shop, payload), "validation_error", 422);
        expect(JSON.stringify(body["errors"]), field).toContain(field);
      }
      problem(await get(a, shop), "connector_not_found", 404);
    });

    it("refuses a platform this installation has no adapter for, and store addresses on this machine or a private network", async () => {
      const shop = await newShop(a);
      const woo = {
        platform: "woocommerce",
        store_url: "https://shop.example.com",
        consumer_key: `ck_${"a".repeat(40)}`,
        consumer_secret: `cs_${"b".repeat(40)}`,
        webhook_secret: SECRET,
      };
      const stores = t.ctx.stores as Record<string, unknown>;
      const had = stores["woocommerce"];
      if (!had) {
        const body = problem(await put(a, shop, woo), "validation_error", 422);
        expect(JSON.stringify(body["errors"])).toContain("platform");
      }
      // With an adapter present (the WooCommerce one lands separately), the address is checked before anything is stored.
      const unused = () => {
        throw new Error("not called");
      };
      stores["woocommerce"] ??= {
        name: "woocommerce",
        verifyWebhook: unused,
        parseWebhook: unused,
        fetchCatalogue: unused,
        writeBack: unused,
      };
      try {
        for (const url of [
          "http://shop.example.com",
          "https://127.0.0.1",
          "https://10.1.2.3",
          "https://169.254.169.254",
          "https://[::1]",
          "https://shop.example.com:5432",
          "https://u:p@shop.example.com",
        ]) {
          const body = problem(await put(a, shop, { ...woo, store_url: url }), "validation_error", 422);
          expect(JSON.stringify(body["errors"]), url).toContain("store_url");
        }
        problem(await get(a, shop), "connector_not_found", 404);
        const okRes = await put(a, shop, woo);
        expect(okRes.statusCode).toBe(200);
        expect(okRes.json()).toMatchObject({
          platform: "woocommerce",
          store_url: "https://shop.example.com",
          credential_last4: "bbbb",
        });
        expect(okRes.body).not.toContain("cs_");
      } finally {
        if (!had) delete stores["woocommerce"];
      }
    });

    it("scopes by account: another account's shop is shop_not_found; a bad key is 401", async () => {
      const { shop } = await connected(a);
      problem(await get(b, shop), "shop_not_found", 404);
      problem(await put(b, shop, shopifyBody()), "shop_not_found", 404);
      problem(
        await t.app.inject({ method: "DELETE", url: `/v1/shops/${shop}/connector`, headers: b.headers }),
        "shop_not_found",
        404,
      );
      problem(await get(b, shop, "/events"), "shop_not_found", 404);
      problem(
        await t.app.inject({
          method: "GET",
          url: `/v1/shops/${shop}/connector`,
          headers: { authorization: "Bearer wk_nope" },
        }),
        "invalid_api_key",
        401,
      );
      expect((await get(a, shop)).statusCode).toBe(200);
    });

    it("DELETE removes it: the webhook address answers 404 and the log is gone", async () => {
      const { shop, path } = await connected();
      const del = await t.app.inject({ method: "DELETE", url: `/v1/shops/${shop}/connector`, headers: a.headers });
      expect(del.statusCode).toBe(204);
      problem(await get(a, shop), "connector_not_found", 404);
      problem(
        await t.app.inject({ method: "DELETE", url: `/v1/shops/${shop}/connector`, headers: a.headers }),
        "connector_not_found",
        404,
      );
      const res = await deliver(path, shopifyOrder({ id: nextOrderId(), phone: "0612345601" }));
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json())).toEqual(["detail"]);
    });

    it("POST .../sync imports products and variants by their Shopify ids; a revoked token is 502 store_api_error, logged", async () => {
      fake.products.push(
        {
          id: "7001",
          title: "T-shirt",
          status: "ACTIVE",
          variants: [
            { id: "8001", sku: "TSHIRT-RED-M", title: "Rouge / M", price: "149.00" },
            { id: "8002", sku: "TSHIRT-BLUE-M", title: "Bleu / M", price: "149.00" },
          ],
        },
        {
          id: "7002",
          title: "Casquette",
          status: "ACTIVE",
          variants: Array.from({ length: 95 }, (_, i) => ({
            id: String(9000 + i),
            sku: null,
            title: `Taille ${i}`,
            price: "59.90",
          })),
        },
        {
          id: "7003",
          title: "Ancien modèle",
          status: "ARCHIVED",
          variants: [{ id: "8100", sku: null, title: "Default Title", price: "10.00" }],
        },
      );
      const { shop } = await connected();
      const res = await t.app.inject({ method: "POST", url: `/v1/shops/${shop}/connector/sync`, headers: a.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ products: 2, variants: 97, archived: 0 });
      const product = await t.app.inject({ method: "GET", url: `/v1/shops/${shop}/products/7002`, headers: a.headers });
      expect(product.json().variants).toHaveLength(95);
      expect((await get(a, shop)).json().last_sync_at).not.toBeNull();
      // Only the token's own store is read; a throttled page is an error to retry, not a partial import.
      fake.tokens.delete(TOKEN);
      try {
        const refused = problem(
          await t.app.inject({ method: "POST", url: `/v1/shops/${shop}/connector/sync`, headers: a.headers }),
          "store_api_error",
          502,
        );
        expect(String(refused["detail"])).toMatch(/access token/);
      } finally {
        fake.tokens.add(TOKEN);
      }
      expect((await events(a, shop)).slice(0, 2).map((e) => [e["type"], e["status"]])).toEqual([
        ["catalogue_sync", "failed"],
        ["catalogue_sync", "succeeded"],
      ]);
    });

    it("lists events newest first with a cursor", async () => {
      const { shop, path } = await connected();
      for (let i = 0; i < 3; i++)
        await deliver(path, shopifyOrder({ id: nextOrderId(), phone: "0612345601", financialStatus: "paid" }));
      const first = await get(a, shop, "/events?limit=2");
      expect(first.json()).toMatchObject({ has_more: true });
      const second = await get(
        a,
        shop,
        `/events?limit=2&cursor=${encodeURIComponent(first.json().next_cursor as string)}`,
      );
      expect(second.json()).toMatchObject({ has_more: false, next_cursor: null });
      expect([...first.json().data, ...second.json().data]).toHaveLength(3);
      problem(await get(a, shop, "/events?limit=0"), "validation_error", 422);
      problem(await get(a, shop, "/events?cursor=garbage"), "invalid_cursor", 400);
    });

    it("has MCP tools: set_connector, get_connector, list_connector_events, delete_connector", async () => {
      const shop = await newShop(a);
      const set = await ok(client, "set_connector", { shop_external_id: shop, ...shopifyBody() });
      expect(set).toMatchObject({ platform: "shopify", credential_last4: "cdef" });
      expect(JSON.stringify(set)).not.toContain(TOKEN);
      expect(await ok(client, "get_connector", { shop_external_id: shop })).toEqual(set);
      expect(await ok(client, "list_connector_events", { shop_external_id: shop })).toMatchObject({
        data: [],
        has_more: false,
      });
      await fails(
        client,
        "set_connector",
        { shop_external_id: shop, ...shopifyBody({ access_token: "nope" }) },
        "validation_error",
      );
      expect(await ok(client, "delete_connector", { shop_external_id: shop })).toEqual({ deleted: true });
      await fails(client, "get_connector", { shop_external_id: shop }, "connector_not_found");
    });
  });

  describe("POST /connectors/shopify/{token}", () => {
    it("turns a COD order into a call to the E.164 number with its items mapped, amount and currency", async () => {
      const { shop, path } = await connected();
      await t.app.inject({
        method: "POST",
        url: `/v1/shops/${shop}/products`,
        headers: a.headers,
        payload: {
          external_id: "7001",
          name: "T-shirt coton",
          variants: [{ variant_external_id: "8001", price: "149.00", name: "Rouge / M" }],
        },
      });
      await t.app.inject({
        method: "POST",
        url: `/v1/shops/${shop}/products`,
        headers: a.headers,
        payload: {
          external_id: "api-cap",
          name: "Casquette",
          variants: [{ variant_external_id: "CAP-01", price: "60.00" }],
        },
      });
      const id = nextOrderId();
      const res = await deliver(
        path,
        shopifyOrder({
          id,
          phone: "06 12 34 56 01",
          total: "398.00",
          lines: [
            {
              product_id: 7001,
              variant_id: 8001,
              sku: "TSHIRT-RED-M",
              title: "T-shirt",
              variant_title: "Rouge / M",
              price: "149.00",
              quantity: 2,
            },
            {
              product_id: 7777,
              variant_id: 8888,
              sku: "CAP-01",
              title: "Cap",
              price: "60.00",
              quantity: 1,
              total_discount: "10.00",
            },
            { product_id: null, variant_id: null, title: "Frais de livraison", price: "40.00", quantity: 1 },
          ],
        }),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: "ok", result: "call_created" });
      const [call] = await callsOfOrder(id);
      expect(call).toMatchObject({
        customer_phone: "+212612345601",
        amount: "398.00",
        currency: "MAD",
        country: "MA",
        status: "queued",
      });
      expect(call!.items).toEqual([
        {
          product_external_id: "7001",
          variant_external_id: "8001",
          name: "T-shirt coton",
          variant_name: "Rouge / M",
          unit_price: "149.00",
          quantity: 2,
        },
        {
          product_external_id: "api-cap",
          variant_external_id: "CAP-01",
          name: "Casquette",
          variant_name: null,
          unit_price: "50.00",
          quantity: 1,
        },
        {
          product_external_id: null,
          variant_external_id: null,
          name: "Frais de livraison",
          variant_name: null,
          unit_price: "40.00",
          quantity: 1,
        },
      ]);
      const [event] = await events(a, shop);
      expect(event).toMatchObject({
        type: "order",
        status: "call_created",
        platform_order_id: String(id),
        call_id: call!.id,
        reason: null,
      });
      // The call is an ordinary call of the shop, visible through the API.
      const api = await t.app.inject({ method: "GET", url: `/v1/calls/${call!.id}`, headers: a.headers });
      expect(api.json()).toMatchObject({ shop_external_id: shop, order: { external_id: String(id) } });
    });

    it("takes a delivered-twice order in once, sequentially and concurrently", async () => {
      const { shop, path } = await connected();
      const id = nextOrderId();
      const body = shopifyOrder({ id, phone: "0612345601" });
      expect((await deliver(path, body)).json().result).toBe("call_created");
      expect((await deliver(path, body)).json().result).toBe("duplicate");
      const id2 = nextOrderId();
      const body2 = shopifyOrder({ id: id2, phone: "0612345602" });
      const results = await Promise.all(Array.from({ length: 8 }, () => deliver(path, body2)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
      expect(results.map((r) => r.json().result).sort()).toEqual(
        ["call_created", ...Array(7).fill("duplicate")].sort(),
      );
      expect(await callsOfOrder(id)).toHaveLength(1);
      expect(await callsOfOrder(id2)).toHaveLength(1);
      expect((await events(a, shop)).filter((e) => e["type"] === "order")).toHaveLength(2);
    });

    it("takes over an intake a dead node left half-done, once it is 60 s old, without a second call", async () => {
      const { shop, path } = await connected();
      const { rows } = await t.ctx.db.query<{ id: string; account_id: string }>(
        "SELECT c.id, c.account_id FROM store_connectors c JOIN shops s ON s.id = c.shop_id WHERE s.external_id = $1",
        [shop],
      );
      const stale = (orderId: number, age: string) =>
        t.ctx.db.query(
          `INSERT INTO connector_events (id, connector_id, account_id, kind, status, platform_order_id, updated_at)
         VALUES ($1, $2, $3, 'order', 'received', $4, now() - $5::interval)`,
          [randomUUID(), rows[0]!.id, rows[0]!.account_id, String(orderId), age],
        );
      // Died before creating the call: a delivery within 60 s is a duplicate in flight, a later one takes the order in.
      const first = nextOrderId();
      await stale(first, "10 seconds");
      expect((await deliver(path, shopifyOrder({ id: first, phone: "0612345601" }))).json().result).toBe("duplicate");
      await t.ctx.db.query(
        "UPDATE connector_events SET updated_at = now() - interval '2 minutes' WHERE platform_order_id = $1",
        [String(first)],
      );
      expect((await deliver(path, shopifyOrder({ id: first, phone: "0612345601" }))).json().result).toBe(
        "call_created",
      );
      expect(await callsOfOrder(first)).toHaveLength(1);
      // Died after the call committed: the call is linked, not made twice.
      const second = nextOrderId();
      const made = await t.app.inject({
        method: "POST",
        url: "/v1/calls",
        headers: { ...a.headers, "idempotency-key": randomUUID() },
        payload: {
          shop_external_id: shop,
          customer: { name: "Yassine", phone_number: "+212612345601" },
          amount: "298.00",
          country: "MA",
          order: { external_id: String(second), items: [{ name: "T-shirt", unit_price: "149.00", quantity: 2 }] },
        },
      });
      expect(made.statusCode).toBe(201);
      await stale(second, "5 minutes");
      expect((await deliver(path, shopifyOrder({ id: second, phone: "0612345601" }))).json().result).toBe(
        "call_created",
      );
      expect((await callsOfOrder(second)).map((c) => c.id)).toEqual([made.json().id]);
      expect((await events(a, shop)).find((e) => e["platform_order_id"] === String(second))).toMatchObject({
        status: "call_created",
        call_id: made.json().id,
      });
      expect((await events(a, shop)).filter((e) => e["type"] === "write_back")).toEqual([]);
      // An order already settled when its intake is linked gets its write-back then (settleOrder found no intake).
      const third = nextOrderId();
      const made3 = await t.app.inject({
        method: "POST",
        url: "/v1/calls",
        headers: { ...a.headers, "idempotency-key": randomUUID() },
        payload: {
          shop_external_id: shop,
          customer: { name: "Yassine", phone_number: "+212612345601" },
          amount: "298.00",
          country: "MA",
          order: { external_id: String(third), items: [{ name: "T-shirt", unit_price: "149.00", quantity: 2 }] },
        },
      });
      const { rows: order } = await t.ctx.db.query<{ id: string }>("SELECT order_id AS id FROM calls WHERE id = $1", [
        made3.json().id,
      ]);
      await settleOrder(t.ctx, t.ctx.db, {
        accountId: a.accountId,
        orderId: order[0]!.id,
        resolution: "confirmed",
        channel: "voice",
        at: new Date(),
        details: null,
        callId: made3.json().id,
      });
      await stale(third, "5 minutes");
      expect((await deliver(path, shopifyOrder({ id: third, phone: "0612345601" }))).json().result).toBe(
        "call_created",
      );
      const backs = (await events(a, shop)).filter((e) => e["type"] === "write_back");
      expect(backs).toEqual([
        expect.objectContaining({
          status: "pending",
          resolution: "confirmed",
          platform_order_id: String(third),
          attempts: 0,
        }),
      ]);
    });

    it("refuses and logs unsigned and mis-signed deliveries (401 {detail}); an unknown address is 404", async () => {
      const { shop, path } = await connected();
      const id = nextOrderId();
      const body = shopifyOrder({ id, phone: "0612345601" });
      const wrong = await deliver(path, body, { secret: "another-secret-0123456789abcdef" });
      expect(wrong.statusCode).toBe(401);
      expect(Object.keys(wrong.json())).toEqual(["detail"]);
      const unsigned = await deliver(path, body, { headers: { "x-shopify-hmac-sha256": "" } });
      expect(unsigned.statusCode).toBe(401);
      // The body changed after signing.
      const raw = JSON.stringify(body);
      const headers = fake.deliveryHeaders(raw, SECRET);
      const tampered = await t.app.inject({
        method: "POST",
        url: path,
        headers,
        payload: raw.replace("0612345601", "0612345699"),
      });
      expect(tampered.statusCode).toBe(401);
      expect(await callsOfOrder(id)).toHaveLength(0);
      const log = await events(a, shop);
      expect(log.map((e) => [e["type"], e["status"], e["reason"]])).toEqual(
        Array(3).fill(["webhook_refused", "refused", "bad_signature"]),
      );
      for (const url of [
        `/connectors/shopify/${"x".repeat(32)}`,
        path.replace("/shopify/", "/youcan/"),
        "/connectors/constructor/abcdefabcdefabcdef",
      ]) {
        const res = await deliver(url, body);
        expect(res.statusCode, url).toBe(404);
      }
    });

    it("logs at most 100 refused deliveries a connector and hour, so its log cannot be flooded", async () => {
      const { shop, path } = await connected();
      const body = shopifyOrder({ id: nextOrderId(), phone: "0612345601" });
      for (let i = 0; i < 105; i += 15) {
        const res = await Promise.all(
          Array.from({ length: 15 }, () => deliver(path, body, { secret: "wrong-secret-0123456789abcdef" })),
        );
        expect(res.every((r) => r.statusCode === 401)).toBe(true);
      }
      const { rows } = await t.ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM connector_events e JOIN store_connectors c ON c.id = e.connector_id JOIN shops s ON s.id = c.shop_id
         WHERE s.external_id = $1 AND e.kind = 'webhook_refused'`,
        [shop],
      );
      // Exactly: 15 refusals at once must not all count the same 90 rows and pass the cap together.
      expect(rows[0]!.n).toBe(100);
    });

    it("skips paid and non-COD orders with the reason, and acknowledges other topics", async () => {
      const { shop, path } = await connected();
      const paid = nextOrderId();
      const card = nextOrderId();
      expect(
        (
          await deliver(
            path,
            shopifyOrder({ id: paid, phone: "0612345601", financialStatus: "paid", gateways: ["shopify_payments"] }),
          )
        ).json().result,
      ).toBe("skipped");
      expect(
        (await deliver(path, shopifyOrder({ id: card, phone: "0612345601", gateways: ["bogus"] }))).json().result,
      ).toBe("skipped");
      expect(
        (
          await deliver(path, shopifyOrder({ id: nextOrderId(), phone: "0612345601" }), { topic: "orders/updated" })
        ).json().result,
      ).toBe("ignored");
      expect(await callsOfOrder(paid)).toHaveLength(0);
      const log = await events(a, shop);
      expect(log.map((e) => [e["status"], e["reason"], e["platform_order_id"]])).toEqual([
        ["skipped", "not_cod", String(card)],
        ["skipped", "paid", String(paid)],
      ]);
      expect((log[0]!["detail"] as Record<string, unknown>)["payment"]).toBe(
        "financial_status=pending; gateways=bogus",
      );
    });

    it("records unreadable phones, foreign currencies and refused calls as rejected with the reason, never dropped", async () => {
      const { shop, path } = await connected();
      const cases: [Record<string, unknown>, string][] = [
        [shopifyOrder({ id: nextOrderId(), phone: "12" }), "phone_not_normalisable"],
        [shopifyOrder({ id: nextOrderId(), phone: "0612345601", currency: "EUR" }), "currency_mismatch"],
        [shopifyOrder({ id: nextOrderId(), phone: "0612345601", country: "US", currency: "USD" }), "currency_mismatch"],
        [shopifyOrder({ id: nextOrderId(), phone: "0612345601", lines: [] }), "no_items"],
      ];
      for (const [body] of cases) expect((await deliver(path, body)).json().result).toBe("rejected");
      const log = await events(a, shop);
      expect(log.map((e) => e["reason"]).reverse()).toEqual(cases.map(([, reason]) => reason));
      expect((log.at(-1)!["detail"] as Record<string, unknown>)["phone"]).toBe("12");
      // A premium-rate number (MA 0890) is refused like at POST /v1/calls (issue 31.5): the classic revenue-share fraud.
      expect((await deliver(path, shopifyOrder({ id: nextOrderId(), phone: "0890123456" }))).json().result).toBe(
        "rejected",
      );
      expect((await events(a, shop))[0]).toMatchObject({ status: "rejected", reason: "phone_number_not_allowed" });
      // The balance gate of POST /v1/calls applies.
      const poor = await newAccount(t.ctx, 0);
      const { shop: poorShop, path: poorPath } = await connected(poor);
      expect((await deliver(poorPath, shopifyOrder({ id: nextOrderId(), phone: "0612345601" }))).json().result).toBe(
        "rejected",
      );
      expect((await events(poor, poorShop))[0]).toMatchObject({ status: "rejected", reason: "insufficient_balance" });
      // A shop without a country takes the order's shipping country; one outside the four is rejected.
      const { shop: noCountry, path: noCountryPath } = await connected(a, null);
      expect(
        (
          await deliver(
            noCountryPath,
            shopifyOrder({ id: nextOrderId(), phone: "06 12 34 56 01", country: "FR", currency: "EUR" }),
          )
        ).json().result,
      ).toBe("call_created");
      expect(
        (
          await deliver(
            noCountryPath,
            shopifyOrder({ id: nextOrderId(), phone: "0612345601", country: "ES", currency: "EUR" }),
          )
        ).json().result,
      ).toBe("rejected");
      expect((await events(a, noCountry))[0]).toMatchObject({ reason: "country_not_served" });
    });

    it("answers 400 {detail} to a signed body that is not an order, logged; 413 over 256 KiB", async () => {
      const { shop, path } = await connected();
      const notJson = await deliver(path, null, { raw: "{not json" });
      expect(notJson.statusCode).toBe(400);
      expect(Object.keys(notJson.json())).toEqual(["detail"]);
      const noLines = await deliver(path, { id: nextOrderId(), total_price: "10.00", currency: "MAD" });
      expect(noLines.statusCode).toBe(400);
      expect(noLines.json().detail).toMatch(/line_items/);
      expect((await events(a, shop)).map((e) => [e["status"], e["reason"]])).toEqual([
        ["rejected", "malformed_payload"],
        ["rejected", "malformed_payload"],
      ]);
      const big = await deliver(path, null, { raw: JSON.stringify({ pad: "x".repeat(300 * 1024) }) });
      expect(big.statusCode).toBe(413);
    });

    it("fails closed without an encryption key (503 on PUT)", async () => {
      const { startApp } = await import("./helpers.ts");
      const bare = await startApp({ encryptionKey: null });
      try {
        const acct = await newAccount(bare.ctx);
        const id = `shop-${randomUUID().slice(0, 8)}`;
        await bare.app.inject({
          method: "POST",
          url: "/v1/shops",
          headers: acct.headers,
          payload: { external_id: id, merchant_external_id: "m", name: "n" },
        });
        problem(
          await bare.app.inject({
            method: "PUT",
            url: `/v1/shops/${id}/connector`,
            headers: acct.headers,
            payload: shopifyBody(),
          }),
          "service_unavailable",
          503,
        );
      } finally {
        await bare.close();
      }
    });
  });
});
