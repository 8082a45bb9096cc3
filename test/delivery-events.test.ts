// Delivery events by API (issue 35): POST /v1/shops/{shop}/orders/{order}/delivery-events, idempotent on event_id,
// out-of-order safe (the latest occurred_at decides), listed on the order, order.delivery_updated once per change,
// the 404/401/422/409 cases and the MCP tool record_delivery_event.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidingEvent } from "../src/domain/delivery.ts";
import { callBody, insertShop, postCall, type ShopFixture } from "./calls-fixtures.ts";
import { call, connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";

describe("delivery events (issue 35)", () => {
  let t: ListeningApp;
  let acct: TestAccount;
  let stranger: TestAccount;
  let shop: ShopFixture;

  const url = (shopExt: string, orderExt: string) =>
    `/v1/shops/${encodeURIComponent(shopExt)}/orders/${encodeURIComponent(orderExt)}/delivery-events`;
  const post = (u: string, payload: unknown, who: TestAccount = acct) =>
    t.app.inject({ method: "POST", url: u, headers: who.headers, payload: payload as object });
  const getOrder = async (orderExt: string) =>
    (
      await t.app.inject({
        method: "GET",
        url: `/v1/shops/${encodeURIComponent(shop.externalId)}/orders/${encodeURIComponent(orderExt)}`,
        headers: acct.headers,
      })
    ).json();
  const eventsOf = async (orderExt: string) =>
    (
      await t.ctx.db.query<{ payload: { external_id: string; delivery: { status: string } } }>(
        "SELECT payload FROM webhook_events WHERE account_id = $1 AND type = 'order.delivery_updated' AND payload->>'external_id' = $2 ORDER BY created_at, id",
        [acct.accountId, orderExt],
      )
    ).rows.map((r) => r.payload.delivery.status);

  async function newOrder(): Promise<string> {
    const body = callBody(shop.externalId);
    expect((await postCall(t, acct, body)).statusCode).toBe(201);
    return (body["order"] as { external_id: string }).external_id;
  }

  beforeAll(async () => {
    t = await startListening({ env: { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on" } });
    acct = await newAccount(t.ctx, 1000);
    stranger = await newAccount(t.ctx, 1000);
    // The event is written only for an account with an active webhook; no delivery worker runs here.
    const hook = await t.app.inject({
      method: "POST",
      url: "/v1/me/webhooks",
      headers: acct.headers,
      payload: { url: "http://127.0.0.1:9999/hooks" },
    });
    expect(hook.statusCode).toBe(201);
    shop = await insertShop(t.ctx, acct.accountId);
  });
  afterAll(() => t?.close());

  it("records an event, lists it on the order and sends order.delivery_updated", async () => {
    const order = await newOrder();
    expect((await getOrder(order)).delivery).toEqual({ status: null, updated_at: null, events: [] });
    const res = await post(url(shop.externalId, order), {
      event_id: "ev-1",
      status: "in_transit",
      occurred_at: "2026-11-20T09:00:00+01:00",
      carrier: "yalidine",
      tracking_number: "YAL-123",
    });
    expect(res.statusCode).toBe(201);
    const event = {
      event_id: "ev-1",
      status: "in_transit",
      occurred_at: "2026-11-20T08:00:00.000Z",
      carrier: "yalidine",
      tracking_number: "YAL-123",
      reason: null,
      source: "api",
      received_at: expect.any(String),
    };
    expect(res.json()).toEqual({
      recorded: true,
      event,
      delivery: { status: "in_transit", updated_at: "2026-11-20T08:00:00.000Z", events: [event] },
    });
    expect((await getOrder(order)).delivery).toEqual({
      status: "in_transit",
      updated_at: "2026-11-20T08:00:00.000Z",
      events: [event],
    });
    expect(await eventsOf(order)).toEqual(["in_transit"]);
  });

  it("records a repeated event_id once (200, recorded false) and refuses the same event_id with other content (409)", async () => {
    const order = await newOrder();
    const body = { event_id: "dup", status: "delivered", occurred_at: "2026-11-21T10:00:00Z" };
    expect((await post(url(shop.externalId, order), body)).statusCode).toBe(201);
    const again = await post(url(shop.externalId, order), body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      recorded: false,
      delivery: { status: "delivered", events: [expect.objectContaining({ event_id: "dup" })] },
    });
    problem(await post(url(shop.externalId, order), { ...body, status: "refused" }), "conflict", 409);
    expect((await getOrder(order)).delivery.events).toHaveLength(1);
    expect(await eventsOf(order)).toEqual(["delivered"]);
  });

  it("records two identical concurrent requests once", async () => {
    const order = await newOrder();
    const body = { event_id: "race", status: "out_for_delivery", occurred_at: "2026-11-21T10:00:00Z" };
    const codes = (await Promise.all(Array.from({ length: 4 }, () => post(url(shop.externalId, order), body))))
      .map((r) => r.statusCode)
      .sort();
    expect(codes).toEqual([200, 200, 200, 201]);
    expect((await getOrder(order)).delivery.events).toHaveLength(1);
    expect(await eventsOf(order)).toEqual(["out_for_delivery"]);
  });

  it("lets the latest occurred_at decide whatever the arrival order, and sends an event only when the status changes", async () => {
    const order = await newOrder();
    const u = url(shop.externalId, order);
    expect(
      (await post(u, { event_id: "c", status: "delivered", occurred_at: "2026-11-22T15:00:00Z" })).statusCode,
    ).toBe(201);
    expect(
      (await post(u, { event_id: "a", status: "in_transit", occurred_at: "2026-11-21T08:00:00Z" })).statusCode,
    ).toBe(201);
    const late = await post(u, { event_id: "b", status: "out_for_delivery", occurred_at: "2026-11-22T08:00:00Z" });
    expect(late.json().delivery.status).toBe("delivered");
    expect(late.json().delivery.events.map((e: { event_id: string }) => e.event_id)).toEqual(["a", "b", "c"]);
    // A return after the delivery (the customer sent it back) is later, so it decides.
    const back = await post(u, {
      event_id: "d",
      status: "returned",
      occurred_at: "2026-11-25T08:00:00Z",
      reason: "customer changed mind",
    });
    expect(back.json().delivery).toMatchObject({ status: "returned", updated_at: "2026-11-25T08:00:00.000Z" });
    expect(await eventsOf(order)).toEqual(["delivered", "returned"]);
  });

  it("decides the same status for every arrival order, ties included (domain rule)", () => {
    const at = (iso: string) => new Date(iso);
    const events = [
      { status: "in_transit" as const, occurredAt: at("2026-11-21T08:00:00Z"), eventId: "1" },
      { status: "out_for_delivery" as const, occurredAt: at("2026-11-22T08:00:00Z"), eventId: "2" },
      { status: "refused" as const, occurredAt: at("2026-11-22T08:00:00Z"), eventId: "0" },
    ];
    const perms = (xs: typeof events): (typeof events)[] =>
      xs.length <= 1
        ? [xs]
        : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
    expect(new Set(perms(events).map((p) => decidingEvent(p)!.status))).toEqual(new Set(["refused"]));
  });

  it("answers 404 not_found for an unknown order, an unknown shop and another account's order", async () => {
    const order = await newOrder();
    const body = { event_id: "x", status: "delivered", occurred_at: "2026-11-21T10:00:00Z" };
    problem(await post(url(shop.externalId, "no-such-order"), body), "not_found", 404);
    problem(await post(url("no-such-shop", order), body), "not_found", 404);
    problem(await post(url(shop.externalId, order), body, stranger), "not_found", 404);
    expect((await getOrder(order)).delivery.events).toEqual([]);
  });

  it("answers 401 for a bad key and 422 for a bad body", async () => {
    const order = await newOrder();
    const u = url(shop.externalId, order);
    const bad = await t.app.inject({ method: "POST", url: u, headers: { authorization: "Bearer nope" }, payload: {} });
    problem(bad, "invalid_api_key", 401);
    const cases: [unknown, string, string][] = [
      [{ status: "delivered", occurred_at: "2026-11-21T10:00:00Z" }, "body.event_id", "missing"],
      [{ event_id: "e", status: "shipped", occurred_at: "2026-11-21T10:00:00Z" }, "body.status", "enum"],
      [{ event_id: "e", status: "delivered", occurred_at: "yesterday" }, "body.occurred_at", "datetime_parsing"],
      [
        { event_id: "e", status: "delivered", occurred_at: "2026-11-21T10:00:00Z", extra: 1 },
        "body.extra",
        "extra_forbidden",
      ],
      [
        { event_id: "e".repeat(256), status: "delivered", occurred_at: "2026-11-21T10:00:00Z" },
        "body.event_id",
        "string_too_long",
      ],
    ];
    for (const [payload, loc, type] of cases) {
      const body = problem(await post(u, payload), "validation_error", 422);
      const entries = (body["errors"] as { loc: string[]; type: string }[]).map((e) => [
        e.loc.slice(0, 2).join("."),
        e.type,
      ]);
      expect(entries, JSON.stringify(payload)).toContainEqual([loc, type]);
    }
    expect((await getOrder(order)).delivery.events).toEqual([]);
  });

  it("records through the MCP tool record_delivery_event, with the same rules", async () => {
    const order = await newOrder();
    const client = await connect(t.url, acct.apiKey);
    const args = {
      shop_external_id: shop.externalId,
      order_external_id: order,
      event_id: "m1",
      status: "refused",
      occurred_at: "2026-11-23T10:00:00Z",
      reason: "not home",
    };
    const first = await ok<{ recorded: boolean; delivery: { status: string } }>(client, "record_delivery_event", args);
    expect(first).toMatchObject({ recorded: true, delivery: { status: "refused" } });
    expect(await ok(client, "record_delivery_event", args)).toMatchObject({ recorded: false });
    await fails(client, "record_delivery_event", { ...args, order_external_id: "missing" }, "not_found");
    expect((await call(client, "record_delivery_event", { ...args, status: "gone" })).isError).toBe(true);
    await client.close();
  });
});
