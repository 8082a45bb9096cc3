// The WooCommerce adapter (issue 17) against a local WooCommerce at its protocol boundary (test/fakes/woocommerce.ts):
// webhook signatures and the activation ping, order parsing, the catalogue over paginated REST calls signed with
// OAuth 1.0a (plain http), status and note write-backs, throttling and revoked keys.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type StoreCredentials, StoreApiError, type StoreWriteBack } from "../src/connectors/platform.ts";
import {
  authorize,
  WOOCOMMERCE_STATUS_BY_RESOLUTION,
  WooCommercePlatform,
} from "../src/connectors/platforms/woocommerce.ts";
import { FakeWooCommerce, wooOrder } from "./fakes/woocommerce.ts";

const KEY = "ck_3f1c0a9be2d54e7c8a1b6f0d9e2c4a7b5d8e1f03";
const SECRET = "cs_9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b";
const WEBHOOK_SECRET = "w3bh00k s3cr3t & <more>";

const platform = new WooCommercePlatform({ allowPrivate: true });
let store: FakeWooCommerce;
let credentials: StoreCredentials;

beforeAll(async () => {
  store = await new FakeWooCommerce({
    consumerKey: KEY,
    consumerSecret: SECRET,
    webhookSecret: WEBHOOK_SECRET,
  }).start();
  credentials = {
    platform: "woocommerce",
    storeUrl: store.url,
    consumerKey: KEY,
    consumerSecret: SECRET,
    webhookSecret: WEBHOOK_SECRET,
  };
});
afterAll(() => store.close());
beforeEach(() => {
  store.revoked = false;
  store.failNext.length = 0;
});

const codOrder = (id = 4101) =>
  wooOrder({
    id,
    payment: "cod",
    phone: "06 12 34 56 01",
    country: "MA",
    firstName: "سلمى",
    lastName: "Bennani",
    lines: [
      { productId: 51, variationId: 53, sku: "CAFTAN-M", name: "Caftan - M", quantity: 1, price: 450 },
      { productId: 60, sku: "ARGAN-100", name: "Huile d'argan 100 ml", quantity: 3, price: 33.333333333333336 },
    ],
  });

describe("webhook signature", () => {
  it("accepts the delivery WooCommerce signs, and refuses a wrong secret, a missing or a tampered one", () => {
    const delivery = store.orderCreated(codOrder());
    expect(platform.verifyWebhook(WEBHOOK_SECRET, delivery)).toEqual({ ok: true });
    expect(platform.verifyWebhook("another secret", delivery)).toMatchObject({ ok: false });

    const { "x-wc-webhook-signature": _sig, ...unsigned } = delivery.headers;
    expect(platform.verifyWebhook(WEBHOOK_SECRET, { headers: unsigned, rawBody: delivery.rawBody })).toEqual({
      ok: false,
      reason: "missing X-WC-Webhook-Signature",
    });

    const tampered = Buffer.from(delivery.rawBody.toString("utf8").replace('"total":"580.00"', '"total":"5.00"'));
    expect(tampered.equals(delivery.rawBody)).toBe(false);
    expect(platform.verifyWebhook(WEBHOOK_SECRET, { headers: delivery.headers, rawBody: tampered })).toMatchObject({
      ok: false,
    });
  });

  it("signs with the secret's HTML entities decoded, as wp_specialchars_decode does", () => {
    const entitySecret = "a&amp;b&lt;c";
    const decodedStore = new FakeWooCommerce({ consumerKey: KEY, consumerSecret: SECRET, webhookSecret: "a&b<c" });
    const delivery = decodedStore.orderCreated(codOrder());
    expect(platform.verifyWebhook(entitySecret, delivery)).toEqual({ ok: true });
  });

  it("acknowledges the unsigned activation ping, and only that body unsigned", () => {
    const ping = store.ping(12);
    expect(platform.verifyWebhook(WEBHOOK_SECRET, ping)).toEqual({ ok: true });
    expect(platform.parseWebhook(ping)).toEqual({ kind: "ignored", topic: "ping" });
    // The same body claiming a topic is a delivery, and a delivery must be signed.
    expect(
      platform.verifyWebhook(WEBHOOK_SECRET, {
        headers: { ...ping.headers, "x-wc-webhook-topic": "order.created" },
        rawBody: ping.rawBody,
      }),
    ).toMatchObject({ ok: false });
    expect(
      platform.verifyWebhook(WEBHOOK_SECRET, { headers: ping.headers, rawBody: Buffer.from("webhook_id=12&x=1") }),
    ).toMatchObject({ ok: false });
  });
});

describe("over the wire", () => {
  it("verifies and reads deliveries as a receiver gets them, the ping answered 200", async () => {
    const seen: string[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const request = { headers: req.headers as Record<string, string>, rawBody: Buffer.concat(chunks) };
        const verdict = platform.verifyWebhook(WEBHOOK_SECRET, request);
        if (!verdict.ok) return void res.writeHead(401).end(verdict.reason);
        const event = platform.parseWebhook(request);
        seen.push(
          event.kind === "order_created"
            ? event.order.platformOrderId
            : event.kind === "delivery"
              ? event.platformOrderId
              : event.topic,
        );
        res.writeHead(200).end("{}");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/connectors/woocommerce/shop-1`;
    try {
      expect((await store.deliverTo(target, store.ping(3))).status).toBe(200);
      expect((await store.deliverTo(target, store.orderCreated(codOrder(4111)))).status).toBe(200);
      const forged = new FakeWooCommerce({
        consumerKey: KEY,
        consumerSecret: SECRET,
        webhookSecret: "guessed",
      }).orderCreated(codOrder(4112));
      expect(await store.deliverTo(target, forged)).toEqual({
        status: 401,
        body: "X-WC-Webhook-Signature does not match the body",
      });
      expect(seen).toEqual(["ping", "4111"]);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe("order parsing", () => {
  it("reads a COD order (processing, date_paid stamped by WooCommerce) as cash on delivery, with its lines", () => {
    const delivery = store.orderCreated(codOrder());
    expect(delivery.rawBody.toString("utf8")).toContain("\\u0633\\u0644\\u0645\\u0649"); // PHP's json_encode escapes
    const event = platform.parseWebhook(delivery);
    expect(event.kind).toBe("order_created");
    if (event.kind !== "order_created") return;
    expect(event.order).toMatchObject({
      platformOrderId: "4101",
      displayName: "#4101",
      payment: "cod",
      total: "580.00",
      currency: "MAD",
      customerName: "سلمى Bennani",
      phone: "06 12 34 56 01",
      countryCode: "MA",
      city: "Casablanca",
    });
    expect(event.order.paymentDescription).toContain("(cod)");
    expect(event.order.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(event.order.lines).toEqual([
      {
        productId: "51",
        variantId: "53",
        sku: "CAFTAN-M",
        title: "Caftan - M",
        variantTitle: null,
        unitPrice: "450",
        quantity: 1,
      },
      {
        productId: "60",
        variantId: null,
        sku: "ARGAN-100",
        title: "Huile d'argan 100 ml",
        variantTitle: null,
        unitPrice: "33.3333",
        quantity: 3,
      },
    ]);
  });

  it("reads a card order as paid and a bank transfer waiting on-hold as other", () => {
    const card = platform.parseWebhook(
      store.orderCreated(
        wooOrder({
          id: 5,
          payment: "card",
          phone: "+33612345678",
          country: "FR",
          currency: "EUR",
          lines: [{ productId: 1, sku: "X", name: "X", quantity: 1, price: 10 }],
        }),
      ),
    );
    const bacs = platform.parseWebhook(
      store.orderCreated(
        wooOrder({
          id: 6,
          payment: "bacs",
          phone: "0550123456",
          country: "DZ",
          currency: "DZD",
          lines: [{ productId: 1, sku: "X", name: "X", quantity: 1, price: 10 }],
        }),
      ),
    );
    expect(card.kind === "order_created" && card.order.payment).toBe("paid");
    expect(bacs.kind === "order_created" && bacs.order.payment).toBe("other");
  });

  it("ignores other topics and refuses malformed bodies with a plain message", () => {
    const delivery = store.orderCreated(codOrder());
    expect(
      platform.parseWebhook({
        headers: { ...delivery.headers, "x-wc-webhook-topic": "order.updated" },
        rawBody: delivery.rawBody,
      }),
    ).toEqual({ kind: "ignored", topic: "order.updated:processing" });
    // order.updated is read for the delivery statuses only (issue 35, test/connector-delivery.test.ts); another topic is ignored.
    expect(
      platform.parseWebhook({
        headers: { ...delivery.headers, "x-wc-webhook-topic": "order.deleted" },
        rawBody: delivery.rawBody,
      }),
    ).toEqual({ kind: "ignored", topic: "order.deleted" });
    expect(() =>
      platform.parseWebhook({ headers: delivery.headers, rawBody: Buffer.from("<html>nope</html>") }),
    ).toThrow(/not a JSON object/);
    const { line_items: _l, ...noLines } = codOrder();
    expect(() =>
      platform.parseWebhook({ headers: delivery.headers, rawBody: Buffer.from(JSON.stringify(noLines)) }),
    ).toThrow(/line_items/);
    expect(() =>
      platform.parseWebhook({
        headers: delivery.headers,
        rawBody: Buffer.from(JSON.stringify({ ...codOrder(), total: "lots" })),
      }),
    ).toThrow(/total/);
    expect(() =>
      platform.parseWebhook({
        headers: delivery.headers,
        rawBody: Buffer.from(JSON.stringify({ order: { id: 1, order_number: 1 } })),
      }),
    ).toThrow(/API version to WP REST API Integration v3/);
    const { "x-wc-webhook-topic": _t, ...noTopic } = delivery.headers;
    expect(() => platform.parseWebhook({ headers: noTopic, rawBody: delivery.rawBody })).toThrow(/X-WC-Webhook-Topic/);
  });
});

describe("catalogue", () => {
  it("follows X-WP-TotalPages and fetches the variations of variable products, signed with OAuth over http", async () => {
    const fresh = await new FakeWooCommerce({
      consumerKey: KEY,
      consumerSecret: SECRET,
      webhookSecret: WEBHOOK_SECRET,
    }).start();
    try {
      for (let i = 0; i < 205; i++) fresh.addSimpleProduct(`Produit ${i}`, `SKU-${i}`, `${100 + i}.00`);
      fresh.addSimpleProduct("Brouillon", "DRAFT-1", "9.00", "draft");
      const caftan = fresh.addVariableProduct("Caftan", "Taille", [
        { option: "S", sku: "CAFTAN-S", price: "450.00" },
        { option: "M", sku: "CAFTAN-M", price: "450.00" },
        { option: "XL", sku: "CAFTAN-XL", price: "480.00" },
      ]);
      const products = await platform.fetchCatalogue({ ...credentials, storeUrl: fresh.url });
      expect(products).toHaveLength(207);
      expect(products[0]).toEqual({
        id: expect.any(String),
        title: "Produit 0",
        active: true,
        variants: [{ id: products[0]!.id, sku: "SKU-0", title: "Produit 0", price: "100.00" }],
      });
      expect(products.find((p) => p.title === "Brouillon")?.active).toBe(false);
      expect(products.find((p) => p.id === String(caftan.id))?.variants).toEqual([
        { id: String(caftan.variationIds[0]), sku: "CAFTAN-S", title: "S", price: "450.00" },
        { id: String(caftan.variationIds[1]), sku: "CAFTAN-M", title: "M", price: "450.00" },
        { id: String(caftan.variationIds[2]), sku: "CAFTAN-XL", title: "XL", price: "480.00" },
      ]);
      const lists = fresh.requests.filter((r) => r.path === "/wp-json/wc/v3/products");
      expect(lists.map((r) => [r.query["page"], r.query["per_page"], r.status])).toEqual([
        ["1", "100", 200],
        ["2", "100", 200],
        ["3", "100", 200],
      ]);
      expect(fresh.requests.every((r) => r.auth === "oauth" && r.query["consumer_secret"] === undefined)).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it("uses HTTP Basic over https, which WooCommerce accepts there", async () => {
    const { url, headers } = authorize(
      "GET",
      new URL("https://shop.example/wp-json/wc/v3/products?page=1"),
      credentials as Extract<StoreCredentials, { platform: "woocommerce" }>,
    );
    expect(url.search).toBe("?page=1");
    expect(headers).toEqual({ authorization: `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString("base64")}` });
    const tls = await new FakeWooCommerce({
      consumerKey: KEY,
      consumerSecret: SECRET,
      webhookSecret: WEBHOOK_SECRET,
      ssl: true,
    }).start();
    try {
      const res = await fetch(`${tls.url}/wp-json/wc/v3/products`, { headers });
      expect(res.status).toBe(200);
      expect(tls.requests[0]?.auth).toBe("basic");
    } finally {
      await tls.close();
    }
  });
});

describe("write-back", () => {
  const writeBack = (id: number, resolution: StoreWriteBack["resolution"], note: string): StoreWriteBack => ({
    platformOrderId: String(id),
    resolution,
    tags: [`wakha:${resolution}`],
    note,
  });

  it("sets the mapped status and adds a private note", async () => {
    store.addOrder(codOrder(4201));
    expect(
      await platform.writeBack(credentials, writeBack(4201, "confirmed", "commande confirmée par la cliente.")),
    ).toEqual({ written: true });
    expect(store.statusOf(4201)).toBe("processing");
    // Signed as Wakha's: a note added with an API key shows as WooCommerce's own.
    expect(store.orders.get(4201)?.notes.map((n) => [n.note, n.customer_note])).toEqual([
      ["Wakha: commande confirmée par la cliente.", false],
    ]);

    store.addOrder(codOrder(4202));
    await platform.writeBack(credentials, writeBack(4202, "declined", "la cliente refuse (trop cher)."));
    expect(store.orders.get(4202)?.statusHistory).toEqual(["processing", "cancelled"]);

    store.addOrder(codOrder(4203));
    await platform.writeBack(credentials, writeBack(4203, "rescheduled", "livraison demandée pour samedi 28/11."));
    expect(store.statusOf(4203)).toBe("on-hold");
    expect(store.orders.get(4203)?.notes[0]?.note).toContain("samedi");
  });

  it("maps every resolution to a status WooCommerce knows, and skips an empty note", async () => {
    expect(new Set(Object.values(WOOCOMMERCE_STATUS_BY_RESOLUTION))).toEqual(
      new Set(["processing", "cancelled", "on-hold"]),
    );
    store.addOrder(codOrder(4204));
    await platform.writeBack(credentials, writeBack(4204, "unresolved", "  "));
    expect(store.statusOf(4204)).toBe("on-hold");
    expect(store.orders.get(4204)?.notes).toEqual([]);
  });

  it("reports a deleted order as a permanent failure", async () => {
    const err = await platform.writeBack(credentials, writeBack(999_999, "confirmed", "x")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreApiError);
    expect(err).toMatchObject({ status: 400, transient: false });
    expect((err as Error).message).toContain("woocommerce_rest_shop_order_invalid_id");
  });
});

describe("failures", () => {
  it("passes 429 and 5xx on as transient, with Retry-After in seconds or as a date", async () => {
    store.throttle(1, "7");
    await expect(platform.fetchCatalogue(credentials)).rejects.toMatchObject({
      name: "StoreApiError",
      status: 429,
      transient: true,
      retryAfterMs: 7000,
    });
    store.throttle(1, new Date(Date.now() + 60_000).toUTCString());
    const dated = (await platform.fetchCatalogue(credentials).catch((e: unknown) => e)) as StoreApiError;
    expect(dated.retryAfterMs).toBeGreaterThan(55_000);
    expect(dated.retryAfterMs).toBeLessThanOrEqual(60_000);
    store.failNext.push({ status: 503 });
    store.addOrder(codOrder(4301));
    await expect(
      platform.writeBack(credentials, { platformOrderId: "4301", resolution: "confirmed", tags: [], note: "n" }),
    ).rejects.toMatchObject({ status: 503, transient: true, retryAfterMs: null });
    expect(store.statusOf(4301)).toBe("processing");
    expect(store.orders.get(4301)?.statusHistory).toEqual(["processing"]);
  });

  it("reports a revoked key and a read-only key as permanent", async () => {
    store.revoked = true;
    const revoked = (await platform.fetchCatalogue(credentials).catch((e: unknown) => e)) as StoreApiError;
    expect(revoked).toMatchObject({ status: 401, transient: false, retryAfterMs: null });
    expect(revoked.message).toContain("Consumer key is invalid.");
    store.revoked = false;

    const readOnly = await new FakeWooCommerce({
      consumerKey: KEY,
      consumerSecret: SECRET,
      webhookSecret: WEBHOOK_SECRET,
      permissions: "read",
    }).start();
    try {
      readOnly.addOrder(codOrder(4401));
      const err = (await platform
        .writeBack(
          { ...credentials, storeUrl: readOnly.url },
          { platformOrderId: "4401", resolution: "confirmed", tags: [], note: "n" },
        )
        .catch((e: unknown) => e)) as StoreApiError;
      expect(err).toMatchObject({ status: 401, transient: false });
      expect(err.message).toContain("does not have write permissions");
    } finally {
      await readOnly.close();
    }
  });

  it("does not follow a redirect, and does not take a page answered 200 for a written order", async () => {
    store.rawNext.push({
      status: 301,
      headers: { location: "https://www.shop.example/wp-json/wc/v3/products?per_page=100&page=1" },
      body: "",
    });
    const moved = (await platform.fetchCatalogue(credentials).catch((e: unknown) => e)) as StoreApiError;
    expect(moved).toMatchObject({ status: 301, transient: false });
    expect(moved.message).toContain("redirected to https://www.shop.example/");
    store.addOrder(codOrder(4501));
    store.rawNext.push({ status: 200, body: "<!doctype html><title>Boutique</title>" });
    const page = (await platform
      .writeBack(credentials, { platformOrderId: "4501", resolution: "confirmed", tags: [], note: "n" })
      .catch((e: unknown) => e)) as StoreApiError;
    expect(page).toMatchObject({ status: 200, transient: false });
    expect(page.message).toContain("not the updated order");
    expect(store.orders.get(4501)?.notes).toEqual([]);
  });

  it("refuses a wrong consumer secret (the OAuth signature does not match)", async () => {
    const err = (await platform
      .fetchCatalogue({ ...credentials, consumerSecret: "cs_wrong" } as StoreCredentials)
      .catch((e: unknown) => e)) as StoreApiError;
    expect(err).toMatchObject({ status: 401, transient: false });
    expect(err.message).toContain("provided signature does not match");
  });

  it("refuses a private store address unless development mode allows it", async () => {
    const guarded = new WooCommercePlatform({ allowPrivate: false });
    const before = store.requests.length;
    const err = (await guarded.fetchCatalogue(credentials).catch((e: unknown) => e)) as StoreApiError;
    expect(err).toMatchObject({ name: "StoreApiError", status: null, transient: false });
    expect(err.message).toMatch(/store address is refused/);
    expect(store.requests.length).toBe(before);
  });

  it("refuses credentials of another platform", async () => {
    await expect(
      platform.fetchCatalogue({ platform: "youcan", storeUrl: store.url, accessToken: "t", webhookSecret: "s" }),
    ).rejects.toMatchObject({ transient: false });
  });
});
