// The YouCan adapter (issue 17) against a local YouCan Store Admin API at its documented boundary
// (test/fakes/youcan.ts): x-youcan-signature, order.create parsing, the paginated catalogue, the status write-back,
// throttling and revoked tokens.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type StoreCredentials, StoreApiError, type StoreWriteBack } from "../src/connectors/platform.ts";
import { YOUCAN_STATUS_BY_RESOLUTION, YouCanPlatform } from "../src/connectors/platforms/youcan.ts";
import { FakeYouCan, youcanOrder } from "./fakes/youcan.ts";

const TOKEN = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.fake-youcan-token";
const CLIENT_SECRET = "Wq3r8yYc1sZ5kPq0vB7nM2xL9tH4gF6d";

const platform = new YouCanPlatform({ allowPrivate: true });
let store: FakeYouCan;
let credentials: StoreCredentials;
let caftan: { id: string; variantIds: string[] };
let argan: { id: string; variantIds: string[] };

beforeAll(async () => {
  store = await new FakeYouCan({ accessToken: TOKEN, clientSecret: CLIENT_SECRET }).start();
  credentials = { platform: "youcan", storeUrl: store.url, accessToken: TOKEN, webhookSecret: CLIENT_SECRET };
  caftan = store.addProduct("قفطان مغربي", [
    { sku: "CAFTAN-S-RED", price: 450, values: ["S", "Rouge"] },
    { sku: "CAFTAN-M-RED", price: 450, values: ["M", "Rouge"] },
  ]);
  argan = store.addProduct("Huile d'argan 100 ml", [{ sku: "ARGAN-100", price: 90 }]);
});
afterAll(() => store.close());
beforeEach(() => {
  store.revoked = false;
  store.failNext.length = 0;
});

const order = (
  payment: Parameters<typeof youcanOrder>[0]["payment"],
  phone: string | null = "0612345601",
  countryCode: string | null = "MA",
) =>
  youcanOrder({
    payment,
    phone,
    countryCode,
    lines: [
      { ...store.variantOf(caftan.id, 1), quantity: 1 },
      { ...store.variantOf(argan.id), quantity: 2, price: 85.5 },
    ],
  });

describe("webhook signature", () => {
  it("accepts the delivery YouCan signs, and refuses a wrong secret, a missing or a tampered one", () => {
    const delivery = store.orderCreate(order("cod"));
    expect(platform.verifyWebhook(CLIENT_SECRET, delivery)).toEqual({ ok: true });
    expect(platform.verifyWebhook("another client secret", delivery)).toMatchObject({ ok: false });
    expect(
      platform.verifyWebhook(CLIENT_SECRET, {
        headers: { "content-type": "application/json" },
        rawBody: delivery.rawBody,
      }),
    ).toEqual({ ok: false, reason: "missing x-youcan-signature" });
    const tampered = Buffer.from(delivery.rawBody.toString("utf8").replace('"total":621', '"total":62'));
    expect(tampered.equals(delivery.rawBody)).toBe(false);
    expect(platform.verifyWebhook(CLIENT_SECRET, { headers: delivery.headers, rawBody: tampered })).toMatchObject({
      ok: false,
    });
  });
});

describe("over the wire", () => {
  it("verifies a delivery as a receiver gets it", async () => {
    const verdicts: boolean[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        verdicts.push(
          platform.verifyWebhook(CLIENT_SECRET, {
            headers: req.headers as Record<string, string>,
            rawBody: Buffer.concat(chunks),
          }).ok,
        );
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/connectors/youcan/shop-1`;
      await store.deliverTo(target, store.orderCreate(order("cod")));
      await store.deliverTo(
        target,
        new FakeYouCan({ accessToken: TOKEN, clientSecret: "other app" }).orderCreate(order("cod")),
      );
      expect(verdicts).toEqual([true, false]);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe("order parsing", () => {
  it("reads a Cash on Delivery order with the delivery phone, country and the lines' variants", () => {
    const payload = order("cod");
    const delivery = store.orderCreate(payload);
    expect(delivery.rawBody.toString("utf8")).toContain("\\u0642\\u0641\\u0637\\u0627\\u0646"); // json_encode escapes
    const event = platform.parseWebhook(delivery);
    expect(event.kind).toBe("order_created");
    if (event.kind !== "order_created") return;
    expect(event.order).toMatchObject({
      platformOrderId: payload["id"],
      displayName: "#025",
      payment: "cod",
      total: "621",
      currency: "MAD",
      customerName: "Youssef El Amrani",
      phone: "0612345601",
      countryCode: "MA",
      city: "Rabat",
    });
    expect(event.order.paymentDescription).toBe("Cash on Delivery, payment unpaid");
    expect(event.order.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(event.order.lines).toEqual([
      {
        productId: caftan.id,
        variantId: caftan.variantIds[1],
        sku: "CAFTAN-M-RED",
        title: "قفطان مغربي",
        variantTitle: "M / Rouge",
        unitPrice: "450",
        quantity: 1,
      },
      {
        productId: argan.id,
        variantId: argan.variantIds[0],
        sku: "ARGAN-100",
        title: "Huile d'argan 100 ml",
        variantTitle: null,
        unitPrice: "85.5",
        quantity: 2,
      },
    ]);
  });

  it("reads paid as paid, another gateway as other, and no gateway at all (the documented example) as COD", () => {
    const kind = (p: Parameters<typeof order>[0]) => {
      const event = platform.parseWebhook(store.orderCreate(order(p)));
      return event.kind === "order_created" ? event.order.payment : event.kind;
    };
    expect(kind("paid")).toBe("paid");
    expect(kind("other")).toBe("other");
    expect(kind("unnamed")).toBe("cod");
    const failed = platform.parseWebhook(
      store.orderCreate({ ...order("unnamed"), payment: { status: 0, status_text: "failed" } }),
    );
    expect(failed.kind === "order_created" && failed.order.payment).toBe("other");
  });

  it("falls back to the customer's phone when the order has no shipping address", () => {
    const payload = youcanOrder({
      payment: "cod",
      phone: null,
      countryCode: null,
      customerPhone: "+212 6 12 34 56 07",
      lines: [{ ...store.variantOf(argan.id), quantity: 1 }],
    });
    const event = platform.parseWebhook(store.orderCreate(payload));
    expect(event.kind === "order_created" && [event.order.phone, event.order.countryCode, event.order.city]).toEqual([
      "+212 6 12 34 56 07",
      null,
      null,
    ]);
  });

  it("ignores bodies that are not orders and refuses malformed ones with a plain message", () => {
    expect(platform.parseWebhook(store.orderCreate({ id: "e1f4", product_id: "abc", inventory: 2 }))).toEqual({
      kind: "ignored",
      topic: "not an order",
    });
    expect(() => platform.parseWebhook({ headers: {}, rawBody: Buffer.from("not json") })).toThrow(/not a JSON object/);
    expect(() => platform.parseWebhook({ headers: {}, rawBody: Buffer.from("[1,2]") })).toThrow(/not a JSON object/);
    expect(() => platform.parseWebhook(store.orderCreate({ ...order("cod"), variants: "none" }))).toThrow(/variants/);
    expect(() => platform.parseWebhook(store.orderCreate({ ...order("cod"), total: "a lot" }))).toThrow(/total/);
    const { currency: _c, ...noCurrency } = order("cod");
    expect(() => platform.parseWebhook(store.orderCreate(noCurrency))).toThrow(/no currency/);
    const customerCurrency = platform.parseWebhook(
      store.orderCreate({ ...noCurrency, customer_currency: { name: "Moroccan Dirham", code: "MAD", symbol: "د.م" } }),
    );
    expect(customerCurrency.kind === "order_created" && customerCurrency.order.currency).toBe("MAD");
  });
});

describe("catalogue", () => {
  it("follows meta.pagination over several pages, with variants, hidden and deleted products inactive", async () => {
    const fresh = await new FakeYouCan({ accessToken: TOKEN, clientSecret: CLIENT_SECRET }).start();
    try {
      for (let i = 0; i < 21; i++) fresh.addProduct(`Produit ${i}`, [{ sku: `P-${i}`, price: 100 + i }]);
      const robe = fresh.addProduct("Robe", [
        { sku: "ROBE-S", price: 300, values: ["S"] },
        { sku: "ROBE-L", price: 320.5, values: ["L"] },
      ]);
      fresh.addProduct("Caché", [{ sku: "HIDDEN", price: 1 }], { visible: false });
      fresh.addProduct("Supprimé", [{ sku: "GONE", price: 1 }], { deleted: true });
      const products = await platform.fetchCatalogue({ ...credentials, storeUrl: fresh.url });
      expect(products).toHaveLength(24);
      expect(products[0]).toEqual({
        id: expect.any(String),
        title: "Produit 0",
        active: true,
        variants: [{ id: expect.any(String), sku: "P-0", title: "Produit 0", price: "100" }],
      });
      expect(products.find((p) => p.id === robe.id)?.variants).toEqual([
        { id: robe.variantIds[0], sku: "ROBE-S", title: "S", price: "300" },
        { id: robe.variantIds[1], sku: "ROBE-L", title: "L", price: "320.5" },
      ]);
      expect(products.filter((p) => !p.active).map((p) => p.title)).toEqual(["Caché", "Supprimé"]);
      expect(fresh.requests.map((r) => [r.path, r.query["page"], r.query["include"], r.status])).toEqual([
        ["/products", "1", "variants", 200],
        ["/products", "2", "variants", 200],
        ["/products", "3", "variants", 200],
      ]);
    } finally {
      await fresh.close();
    }
  });
});

describe("write-back", () => {
  const writeBack = (id: string, resolution: StoreWriteBack["resolution"]): StoreWriteBack => ({
    platformOrderId: id,
    resolution,
    tags: [`wakha:${resolution}`],
    note: "Wakha : détails",
  });

  it("sets the documented status slug for confirmed and declined orders", async () => {
    const confirmed = order("cod");
    const declined = order("cod");
    store.addOrder(confirmed);
    store.addOrder(declined);
    expect(await platform.writeBack(credentials, writeBack(String(confirmed["id"]), "confirmed"))).toEqual({
      written: true,
    });
    await platform.writeBack(credentials, writeBack(String(declined["id"]), "declined"));
    expect(store.statusOf(String(confirmed["id"]))).toBe("processed");
    expect(store.orders.get(String(declined["id"]))?.statusHistory).toEqual([
      { context: "status", slug: "canceled-by-seller" },
    ]);
  });

  it("leaves the order open, without a call, for answers that have no status, and says nothing was written", async () => {
    const open = order("cod");
    store.addOrder(open);
    const before = store.requests.length;
    for (const resolution of [
      "rescheduled",
      "callback_requested",
      "change_requested",
      "wrong_number",
      "unresolved",
    ] as const) {
      expect(YOUCAN_STATUS_BY_RESOLUTION[resolution]).toBeNull();
      expect(await platform.writeBack(credentials, writeBack(String(open["id"]), resolution))).toEqual({
        written: false,
        reason: expect.stringContaining(`no order status for ${resolution}`),
      });
    }
    expect(store.requests.length).toBe(before);
    expect(store.orders.get(String(open["id"]))?.statusHistory).toEqual([]);
  });

  it("reports a missing order as a permanent failure", async () => {
    await expect(
      platform.writeBack(credentials, writeBack("00000000-0000-0000-0000-000000000000", "confirmed")),
    ).rejects.toMatchObject({ name: "StoreApiError", status: 404, transient: false });
  });

  it("subscribes a target URL to order.create", async () => {
    const id = await platform.subscribeOrderCreate(credentials, "https://wakha.example/connectors/youcan/shop-1");
    expect(store.subscriptions).toContainEqual({
      id,
      event: "order.create",
      target_url: "https://wakha.example/connectors/youcan/shop-1",
    });
  });
});

describe("failures", () => {
  it("passes 429 and 5xx on as transient, with Retry-After", async () => {
    store.throttle(1, "30");
    await expect(platform.fetchCatalogue(credentials)).rejects.toMatchObject({
      status: 429,
      transient: true,
      retryAfterMs: 30_000,
    });
    const pending = order("cod");
    store.addOrder(pending);
    store.failNext.push({ status: 500 });
    await expect(
      platform.writeBack(credentials, {
        platformOrderId: String(pending["id"]),
        resolution: "confirmed",
        tags: [],
        note: "",
      }),
    ).rejects.toMatchObject({ status: 500, transient: true });
    expect(store.orders.get(String(pending["id"]))?.statusHistory).toEqual([]);
  });

  it("reports a revoked token as permanent", async () => {
    store.revoked = true;
    const err = (await platform.fetchCatalogue(credentials).catch((e: unknown) => e)) as StoreApiError;
    expect(err).toBeInstanceOf(StoreApiError);
    expect(err).toMatchObject({ status: 401, transient: false, retryAfterMs: null });
    expect(err.message).toContain("Unauthenticated");
    store.revoked = false;
    await expect(
      platform.fetchCatalogue({ ...credentials, accessToken: "wrong" } as StoreCredentials),
    ).rejects.toMatchObject({ status: 401, transient: false });
  });

  it("refuses a private API address unless development mode allows it", async () => {
    await expect(new YouCanPlatform({ allowPrivate: false }).fetchCatalogue(credentials)).rejects.toMatchObject({
      status: null,
      transient: false,
    });
  });
});
