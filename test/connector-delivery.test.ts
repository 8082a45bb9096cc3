// Store webhooks about parcels (issue 35): Shopify's fulfillment_events/create and WooCommerce's order.updated
// (completed, refunded, failed) become delivery events on the order the connector took in; repeats are recorded once,
// late events do not override later ones, an order the connector never took in is ignored.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WooCommercePlatform } from "../src/connectors/platforms/woocommerce.ts";
import { newAccount, type TestAccount } from "./helpers.ts";
import { type ListeningApp, startListening } from "./mcp-client.ts";
import { FakeShopify, shopifyOrder } from "./fakes/shopify.ts";

const TOKEN = "shpat_0123456789abcdef0123456789abcdef";
const SECRET = "a1b2c3d4e5f60718293a4b5c6d7e8f90";

/** A FulfillmentEvent as Shopify's REST resource describes it (id, fulfillment_id, order_id, status, happened_at, message, ...). */
const fulfillmentEvent = (
  id: number,
  orderId: string,
  status: string,
  happenedAt: string,
  message: string | null = null,
) =>
  `{"id":${id},"fulfillment_id":255858046,"status":"${status}","message":${message === null ? "null" : JSON.stringify(message)},"happened_at":"${happenedAt}",` +
  `"city":null,"province":null,"country":null,"zip":null,"address1":null,"latitude":null,"longitude":null,"shop_id":548380009,` +
  `"created_at":"${happenedAt}","updated_at":"${happenedAt}","estimated_delivery_at":null,"order_id":${orderId},"admin_graphql_api_id":"gid://shopify/FulfillmentEvent/${id}"}`;

describe("Shopify fulfillment events become delivery events (issue 35)", () => {
  let fake: FakeShopify;
  let t: ListeningApp;
  let a: TestAccount;
  let shop: string;
  let path: string;
  let orderSeq = 7_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

  beforeAll(async () => {
    fake = await new FakeShopify().start();
    fake.tokens.add(TOKEN);
    t = await startListening({ env: { WAKHA_SHOPIFY_ADMIN_URL: fake.url } });
    a = await newAccount(t.ctx, 100_000);
    shop = `shop-${randomUUID().slice(0, 8)}`;
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/v1/shops",
          headers: a.headers,
          payload: { external_id: shop, merchant_external_id: "m1", name: "Atlas", default_country: "MA" },
        })
      ).statusCode,
    ).toBe(201);
    const res = await t.app.inject({
      method: "PUT",
      url: `/v1/shops/${shop}/connector`,
      headers: a.headers,
      payload: {
        platform: "shopify",
        store_url: "https://wakha-test.myshopify.com",
        access_token: TOKEN,
        webhook_secret: SECRET,
      },
    });
    path = new URL(res.json().webhook_url as string).pathname;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const deliver = (raw: string, topic: string) =>
    t.app.inject({ method: "POST", url: path, headers: fake.deliveryHeaders(raw, SECRET, topic), payload: raw });
  const delivery = async (orderId: string) =>
    (await t.app.inject({ method: "GET", url: `/v1/shops/${shop}/orders/${orderId}`, headers: a.headers })).json()
      .delivery;

  async function takenIn(): Promise<string> {
    const id = String(++orderSeq);
    const res = await deliver(JSON.stringify(shopifyOrder({ id: Number(id), phone: "0612345601" })), "orders/create");
    expect(res.json()).toEqual({ status: "ok", result: "call_created" });
    return id;
  }

  it("records in_transit, out_for_delivery and delivered on the order; a repeat once; a late event does not win", async () => {
    const id = await takenIn();
    expect(
      (
        await deliver(
          fulfillmentEvent(1001, id, "in_transit", "2026-11-20T09:00:00-05:00"),
          "fulfillment_events/create",
        )
      ).json(),
    ).toEqual({ status: "ok", result: "delivery_recorded" });
    expect(
      (
        await deliver(
          fulfillmentEvent(1003, id, "delivered", "2026-11-22T10:00:00Z", "Livré"),
          "fulfillment_events/create",
        )
      ).json().result,
    ).toBe("delivery_recorded");
    expect(
      (
        await deliver(
          fulfillmentEvent(1003, id, "delivered", "2026-11-22T10:00:00Z", "Livré"),
          "fulfillment_events/create",
        )
      ).json().result,
    ).toBe("duplicate");
    expect(
      (
        await deliver(
          fulfillmentEvent(1002, id, "out_for_delivery", "2026-11-22T08:00:00Z"),
          "fulfillment_events/create",
        )
      ).json().result,
    ).toBe("delivery_recorded");
    const d = await delivery(id);
    expect(d).toMatchObject({ status: "delivered", updated_at: "2026-11-22T10:00:00.000Z" });
    expect(
      d.events.map((e: { event_id: string; status: string; source: string }) => [e.event_id, e.status, e.source]),
    ).toEqual([
      ["shopify:1001", "in_transit", "shopify"],
      ["shopify:1002", "out_for_delivery", "shopify"],
      ["shopify:1003", "delivered", "shopify"],
    ]);
  });

  it("maps a failed attempt to unreachable, ignores label statuses and orders it never took in", async () => {
    const id = await takenIn();
    expect(
      (
        await deliver(fulfillmentEvent(2001, id, "label_printed", "2026-11-20T09:00:00Z"), "fulfillment_events/create")
      ).json().result,
    ).toBe("ignored");
    expect(
      (
        await deliver(
          fulfillmentEvent(2002, id, "attempted_delivery", "2026-11-21T09:00:00Z", "Client absent"),
          "fulfillment_events/create",
        )
      ).json().result,
    ).toBe("delivery_recorded");
    expect(await delivery(id)).toMatchObject({ status: "unreachable", events: [{ reason: "Client absent" }] });
    expect(
      (
        await deliver(
          fulfillmentEvent(2003, "999999999999", "delivered", "2026-11-21T09:00:00Z"),
          "fulfillment_events/create",
        )
      ).json().result,
    ).toBe("ignored");
    // A body that is not a fulfillment event is 400; a bad signature 401.
    expect((await deliver(`{"hello":"world"}`, "fulfillment_events/create")).statusCode).toBe(400);
    const raw = fulfillmentEvent(2004, id, "delivered", "2026-11-22T09:00:00Z");
    const forged = await t.app.inject({
      method: "POST",
      url: path,
      headers: fake.deliveryHeaders(raw, "not-the-secret-0000000000000000", "fulfillment_events/create"),
      payload: raw,
    });
    expect(forged.statusCode).toBe(401);
    expect((await delivery(id)).status).toBe("unreachable");
  });
});

describe("WooCommerce order.updated statuses become delivery events (issue 35)", () => {
  const platform = new WooCommercePlatform({ allowPrivate: true });
  // WooCommerce's own documented order (the order.updated body is the order object); only the status and dates differ.
  const sample = JSON.parse(
    readFileSync(new URL("./fixtures/vendors/woocommerce/order-retrieve-example.json", import.meta.url), "utf8"),
  ) as Record<string, unknown>;
  const updated = (status: string, modified: string) =>
    platform.parseWebhook({
      headers: { "x-wc-webhook-topic": "order.updated" },
      rawBody: Buffer.from(
        JSON.stringify({
          ...sample,
          status,
          date_modified_gmt: modified,
          date_completed_gmt: status === "completed" ? modified : null,
        }),
      ),
    });

  it("maps completed to delivered, refunded to returned, failed to refused, with their UTC time; others are ignored", () => {
    expect(updated("completed", "2026-11-22T10:00:00")).toEqual({
      kind: "delivery",
      platformOrderId: "727",
      event: {
        eventId: "woocommerce:727:completed:2026-11-22T10:00:00.000Z",
        status: "delivered",
        occurredAt: "2026-11-22T10:00:00.000Z",
        reason: null,
      },
    });
    expect(updated("refunded", "2026-11-23T10:00:00")).toMatchObject({
      kind: "delivery",
      event: { status: "returned" },
    });
    expect(updated("failed", "2026-11-23T10:00:00")).toMatchObject({ kind: "delivery", event: { status: "refused" } });
    expect(updated("processing", "2026-11-23T10:00:00")).toEqual({
      kind: "ignored",
      topic: "order.updated:processing",
    });
    // The documented sample as it is (processing): nothing about delivery.
    expect(
      platform.parseWebhook({
        headers: { "x-wc-webhook-topic": "order.updated" },
        rawBody: Buffer.from(JSON.stringify(sample)),
      }).kind,
    ).toBe("ignored");
  });
});
