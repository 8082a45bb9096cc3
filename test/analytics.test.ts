// GET /v1/analytics/orders and get_order_analytics (issue 35) against a seeded dataset whose every figure is
// computed by hand below: six orders in March 2026 over two shops, two products, two countries, retries, WhatsApp,
// deliveries; one order outside the range and another account's order inside it, which must not count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callBody, insertProduct, insertShop, postCall, type ShopFixture, uid } from "./calls-fixtures.ts";
import { connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";

interface Seed {
  shop: () => ShopFixture;
  created: string;
  items: Record<string, unknown>[];
  country?: "MA" | "FR";
  /** Per call: created, dialed (null: never), status, billed seconds. */
  calls: [string, string | null, string, number][];
  resolution?: [string, "voice" | "whatsapp", string];
  delivery?: string;
}

describe("GET /v1/analytics/orders (issue 35)", () => {
  let t: ListeningApp;
  let acct: TestAccount;
  let stranger: TestAccount;
  let s1: ShopFixture;
  let s2: ShopFixture;
  const p1 = uid("p1");
  const p2 = uid("p2");
  const get = (query: string, who: TestAccount = acct) =>
    t.app.inject({ method: "GET", url: `/v1/analytics/orders?${query}`, headers: who.headers });
  const MARCH = "from=2026-03-01&to=2026-04-01";

  async function seed(who: TestAccount, o: Seed): Promise<void> {
    const shop = o.shop();
    const country = o.country ?? "MA";
    const phone = country === "FR" ? "+33612345601" : "+212612345601";
    const ext = uid("order");
    const ids: string[] = [];
    for (const [i] of o.calls.entries()) {
      const body = callBody(shop.externalId, {
        country,
        customer: { name: "Amina", phone_number: phone },
        order: { external_id: ext, previous_attempts: i, items: o.items },
      });
      const res = await postCall(t, who, body);
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const db = t.ctx.db;
    const { rows } = await db.query<{ id: string }>("SELECT id FROM orders WHERE shop_id = $1 AND external_id = $2", [
      shop.id,
      ext,
    ]);
    const orderId = rows[0]!.id;
    await db.query("UPDATE orders SET created_at = $2 WHERE id = $1", [orderId, o.created]);
    for (const [i, [created, dialed, status, billed]] of o.calls.entries()) {
      await db.query(
        "UPDATE calls SET created_at = $2, dialed_at = $3, status = $4, billed_seconds = $5, ended_at = $2 WHERE id = $1",
        [ids[i], created, dialed, status, billed],
      );
    }
    if (o.resolution) {
      const [value, channel, at] = o.resolution;
      await db.query("UPDATE orders SET resolution = $2, resolution_channel = $3, resolved_at = $4 WHERE id = $1", [
        orderId,
        value,
        channel,
        at,
      ]);
    }
    if (o.delivery) {
      const res = await t.app.inject({
        method: "POST",
        url: `/v1/shops/${shop.externalId}/orders/${ext}/delivery-events`,
        headers: who.headers,
        payload: { event_id: "e1", status: o.delivery, occurred_at: "2026-03-20T10:00:00Z" },
      });
      expect(res.statusCode).toBe(201);
    }
  }

  beforeAll(async () => {
    t = await startListening();
    acct = await newAccount(t.ctx, 10_000);
    stranger = await newAccount(t.ctx, 10_000);
    s1 = await insertShop(t.ctx, acct.accountId, { externalId: uid("a-shop") });
    s2 = await insertShop(t.ctx, acct.accountId, { externalId: uid("b-shop") });
    for (const shop of [s1, s2]) {
      await insertProduct(t.ctx, shop.id, p1, [{ id: "v", price: "100.00" }]);
      await insertProduct(t.ctx, shop.id, p2, [{ id: "v", price: "50.00" }]);
    }
    const line = (p: string) => ({ product_external_id: p });
    const adhoc = { name: "Caftan", unit_price: "249.00" };
    // 1: S1, P1, dialed after 5 min, confirmed, delivered.
    await seed(acct, {
      shop: () => s1,
      created: "2026-03-02T10:00:00Z",
      items: [line(p1)],
      calls: [["2026-03-02T10:00:00Z", "2026-03-02T10:05:00Z", "completed", 40]],
      resolution: ["confirmed", "voice", "2026-03-02T10:06:00Z"],
      delivery: "delivered",
    });
    // 2: S1, P1+P2, no answer then a retry answered; first dial after 20 min; confirmed, refused at the door.
    await seed(acct, {
      shop: () => s1,
      created: "2026-03-02T11:00:00Z",
      items: [line(p1), line(p2)],
      calls: [
        ["2026-03-02T11:00:00Z", "2026-03-02T11:20:00Z", "no_answer", 0],
        ["2026-03-02T12:50:00Z", "2026-03-02T13:00:00Z", "completed", 30],
      ],
      resolution: ["confirmed", "voice", "2026-03-02T13:01:00Z"],
      delivery: "refused",
    });
    // 3: S2, P2, dialed after 10 min, declined.
    await seed(acct, {
      shop: () => s2,
      created: "2026-03-03T09:00:00Z",
      items: [line(p2)],
      calls: [["2026-03-03T09:00:00Z", "2026-03-03T09:10:00Z", "completed", 20]],
      resolution: ["declined", "voice", "2026-03-03T09:11:00Z"],
    });
    // 4: S2, France, ad-hoc line, dialed after 30 min, rescheduled.
    await seed(acct, {
      shop: () => s2,
      created: "2026-03-09T14:00:00Z",
      items: [adhoc],
      country: "FR",
      calls: [["2026-03-09T14:00:00Z", "2026-03-09T14:30:00Z", "completed", 50]],
      resolution: ["rescheduled", "voice", "2026-03-09T14:31:00Z"],
    });
    // 5: S1, P1, never dialed, unresolved.
    await seed(acct, {
      shop: () => s1,
      created: "2026-03-09T15:00:00Z",
      items: [line(p1)],
      calls: [["2026-03-09T15:00:00Z", null, "queued", 0]],
    });
    // 6: S1, ad-hoc, dialed after 2 min with no answer, confirmed on WhatsApp, delivered.
    await seed(acct, {
      shop: () => s1,
      created: "2026-03-10T08:00:00Z",
      items: [adhoc],
      calls: [["2026-03-10T08:00:00Z", "2026-03-10T08:02:00Z", "no_answer", 0]],
      resolution: ["confirmed", "whatsapp", "2026-03-10T09:00:00Z"],
      delivery: "delivered",
    });
    // Outside the range, and another account's: neither counts.
    await seed(acct, {
      shop: () => s1,
      created: "2026-04-15T08:00:00Z",
      items: [adhoc],
      calls: [["2026-04-15T08:00:00Z", "2026-04-15T08:01:00Z", "completed", 99]],
      resolution: ["confirmed", "voice", "2026-04-15T08:02:00Z"],
    });
    const other = await insertShop(t.ctx, stranger.accountId, { externalId: s1.externalId });
    await seed(stranger, {
      shop: () => other,
      created: "2026-03-02T10:00:00Z",
      items: [adhoc],
      calls: [["2026-03-02T10:00:00Z", "2026-03-02T10:01:00Z", "completed", 77]],
      resolution: ["confirmed", "voice", "2026-03-02T10:02:00Z"],
    });
  });
  afterAll(() => t?.close());

  const row = (
    key: string | null,
    f: [number, number, number, number, number, number, number],
    rates: [number | null, number | null, number | null],
    billed: number,
    per: [number | null, number | null],
  ) => ({
    key,
    orders: f[0],
    reached: f[1],
    confirmed: f[2],
    declined: f[3],
    other_outcomes: f[4],
    delivered: f[5],
    refused_or_returned: f[6],
    confirmation_rate: rates[0],
    delivered_rate: rates[1],
    median_minutes_to_first_dial: rates[2],
    billed_seconds: billed,
    billed_seconds_per_confirmed: per[0],
    billed_seconds_per_delivered: per[1],
  });

  it("groups by day, computed by hand", async () => {
    const res = await get(`${MARCH}&group_by=day`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      from: "2026-03-01T00:00:00.000Z",
      to: "2026-04-01T00:00:00.000Z",
      group_by: "day",
      has_more: false,
      next_cursor: null,
      data: [
        // Orders 1 and 2: both reached and confirmed, one delivered and one refused; dials after 5 and 20 min; 40+0+30 s.
        row("2026-03-02", [2, 2, 2, 0, 0, 1, 1], [1, 0.5, 12.5], 70, [35, 70]),
        row("2026-03-03", [1, 1, 0, 1, 0, 0, 0], [0, null, 10], 20, [null, null]),
        // Order 4 (rescheduled, 30 min) and order 5 (never dialed: no median value, not reached).
        row("2026-03-09", [2, 1, 0, 0, 1, 0, 0], [0, null, 30], 50, [null, null]),
        // Order 6: not reached by voice, confirmed on WhatsApp and delivered; nothing billed.
        row("2026-03-10", [1, 0, 1, 0, 0, 1, 0], [1, 1, 2], 0, [0, 0]),
      ],
    });
  });

  it("groups by ISO week (Mondays), country, hour of first dial and attempts", async () => {
    expect((await get(`${MARCH}&group_by=week`)).json().data).toEqual([
      row("2026-03-02", [3, 3, 2, 1, 0, 1, 1], [0.6667, 0.5, 10], 90, [45, 90]),
      row("2026-03-09", [3, 1, 1, 0, 1, 1, 0], [0.3333, 1, 16], 50, [50, 50]),
    ]);
    expect((await get(`${MARCH}&group_by=country`)).json().data).toEqual([
      row("FR", [1, 1, 0, 0, 1, 0, 0], [0, null, 30], 50, [null, null]),
      row("MA", [5, 3, 3, 1, 0, 2, 1], [0.6, 0.6667, 7.5], 90, [30, 45]),
    ]);
    expect(
      (await get(`${MARCH}&group_by=hour_called`))
        .json()
        .data.map((r: { key: string | null; orders: number }) => [r.key, r.orders]),
    ).toEqual([
      ["8", 1],
      ["9", 1],
      ["10", 1],
      ["11", 1],
      ["14", 1],
      [null, 1],
    ]);
    expect((await get(`${MARCH}&group_by=attempts`)).json().data).toEqual([
      row("1", [5, 3, 2, 1, 1, 2, 0], [0.4, 1, 7.5], 110, [55, 55]),
      row("2", [1, 1, 1, 0, 0, 0, 1], [1, 0, 20], 30, [30, null]),
    ]);
  });

  it("pages shops and products with a cursor, and filters one shop", async () => {
    const first = (await get(`${MARCH}&group_by=shop&limit=1`)).json();
    expect(first).toMatchObject({
      has_more: true,
      data: [row(s1.externalId, [4, 2, 3, 0, 0, 2, 1], [0.75, 0.6667, 5], 70, [23.3, 35])],
    });
    const second = (await get(`${MARCH}&group_by=shop&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`)).json();
    expect(second).toMatchObject({
      has_more: false,
      next_cursor: null,
      data: [row(s2.externalId, [2, 2, 0, 1, 1, 0, 0], [0, null, 20], 70, [null, null])],
    });
    expect((await get(`${MARCH}&group_by=product`)).json().data).toEqual([
      row(p1, [3, 2, 2, 0, 0, 1, 1], [0.6667, 0.5, 12.5], 70, [35, 70]),
      row(p2, [2, 2, 1, 1, 0, 0, 1], [0.5, 0, 15], 50, [50, null]),
    ]);
    expect(
      (await get(`${MARCH}&group_by=day&shop_external_id=${s2.externalId}`))
        .json()
        .data.map((r: { key: string }) => r.key),
    ).toEqual(["2026-03-03", "2026-03-09"]);
    // A cursor belongs to its query.
    problem(
      await get(`${MARCH}&group_by=product&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`),
      "invalid_cursor",
      400,
    );
  });

  it("refuses a missing, reversed or over-a-year range and an unknown grouping in the contract's shape", async () => {
    const cases: [string, string, string][] = [
      ["to=2026-04-01", "query.from", "missing"],
      ["from=2026-04-01&to=2026-03-01", "query.to", "value_error"],
      ["from=2025-01-01&to=2026-03-01", "query.to", "value_error"],
      ["from=2026-03-01&to=tomorrow", "query.to", "datetime_parsing"],
      [`${MARCH}&group_by=month`, "query.group_by", "enum"],
      [`${MARCH}&group_by=shop&limit=0`, "query.limit", "too_small"],
    ];
    for (const [query, loc, type] of cases) {
      const body = problem(await get(query), "validation_error", 422);
      const entries = (body["errors"] as { loc: string[]; type: string }[]).map((e) => [e.loc.join("."), e.type]);
      expect(
        entries.map((e) => e[0]),
        query,
      ).toContain(loc);
      if (type !== "too_small") expect(entries, query).toContainEqual([loc, type]);
    }
    // Exactly a leap year's 366 days is allowed.
    expect((await get("from=2027-03-01&to=2028-03-01")).statusCode).toBe(200);
  });

  it("shows another account nothing of this one, and refuses a bad key", async () => {
    const theirs = (await get(`${MARCH}&group_by=shop`, stranger)).json().data;
    expect(theirs).toEqual([row(s1.externalId, [1, 1, 1, 0, 0, 0, 0], [1, 0, 1], 77, [77, null])]);
    problem(
      await t.app.inject({
        method: "GET",
        url: `/v1/analytics/orders?${MARCH}`,
        headers: { authorization: "Bearer nope" },
      }),
      "invalid_api_key",
      401,
    );
  });

  it("answers the same through the MCP tool get_order_analytics", async () => {
    const client = await connect(t.url, acct.apiKey);
    const rest = (await get(`${MARCH}&group_by=week`)).json();
    expect(await ok(client, "get_order_analytics", { from: "2026-03-01", to: "2026-04-01", group_by: "week" })).toEqual(
      rest,
    );
    await fails(client, "get_order_analytics", { from: "2025-01-01", to: "2026-04-01" }, "validation_error");
    await client.close();
  });
});
