// The analytics rollups (issue 35, round 3; migration 130): GET /v1/analytics/orders reads rollups folded by a job,
// plus the orders still marked since the last fold, and must equal a from-scratch recount (the query of issue 35's
// first round, kept here as the reference) at any moment: before any fold, while writers and two folders run at once,
// after the fold, after more writes, and after a rebuild. The fold's rollups must also equal the rebuild's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Queryable } from "../src/db/pool.ts";
import type { AnalyticsGroup, AnalyticsRow } from "../src/schemas/analytics.ts";
import { orderRates } from "../src/services/analytics.ts";
import { FOLD_EVERY_MS, foldAllAnalytics, foldAnalytics, rebuildAnalytics } from "../src/services/analytics-rollups.ts";
import { createWorkers } from "../src/root/job-handlers.ts";
import { callBody, insertProduct, insertShop, postCall, type ShopFixture, uid } from "./calls-fixtures.ts";
import { newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";

const GROUPINGS: AnalyticsGroup[] = ["day", "week", "shop", "country", "product", "hour_called", "attempts"];

/** Issue 35's first query: every call of the range aggregated per order, then per group. */
async function recount(
  db: Queryable,
  accountId: string,
  o: { from: Date; to: Date; groupBy: AnalyticsGroup; shopExternalId?: string },
): Promise<AnalyticsRow[]> {
  const keys: Record<AnalyticsGroup, { key: string; sort: string; join?: string }> = {
    day: { key: "to_char(po.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')", sort: "NULL::int" },
    week: { key: "to_char(date_trunc('week', po.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')", sort: "NULL::int" },
    shop: { key: "s.external_id", sort: "NULL::int", join: "JOIN shops s ON s.id = po.shop_id" },
    country: { key: "po.country", sort: "NULL::int" },
    hour_called: {
      key: "extract(hour FROM po.first_dial AT TIME ZONE 'UTC')::int::text",
      sort: "extract(hour FROM po.first_dial AT TIME ZONE 'UTC')::int",
    },
    attempts: { key: "po.attempts::text", sort: "po.attempts" },
    product: { key: "pp.product", sort: "NULL::int", join: "JOIN pp ON pp.order_id = po.id" },
  };
  const g = keys[o.groupBy];
  const { rows } = await db.query(
    `WITH o AS (
       SELECT o.id, o.shop_id, o.created_at, o.resolution, o.delivery_status FROM orders o
       WHERE o.account_id = $1 AND o.created_at >= $2 AND o.created_at < $3
         AND ($4::text IS NULL OR o.shop_id IN (SELECT id FROM shops WHERE account_id = $1 AND external_id = $4))
     ), c AS (
       SELECT c.order_id, count(*)::int AS attempts, bool_or(c.status = 'completed') AS reached, min(c.dialed_at) AS first_dial,
              sum(COALESCE(c.billed_seconds, 0)) AS billed, min(c.country) AS country
       FROM calls c WHERE c.account_id = $1 AND c.created_at >= $2 GROUP BY c.order_id
     ), po AS (SELECT o.*, c.attempts, c.reached, c.first_dial, c.billed, c.country FROM o JOIN c ON c.order_id = o.id),
     pp AS (SELECT DISTINCT c.order_id, e->>'product_external_id' AS product
            FROM calls c CROSS JOIN LATERAL jsonb_array_elements(c.items) e
            WHERE c.account_id = $1 AND c.created_at >= $2 AND e->>'product_external_id' IS NOT NULL)
     SELECT ${g.key} AS key, ${g.sort} AS sort, count(*)::int AS orders,
            count(*) FILTER (WHERE po.reached)::int AS reached,
            count(*) FILTER (WHERE po.resolution = 'confirmed')::int AS confirmed,
            count(*) FILTER (WHERE po.resolution = 'declined')::int AS declined,
            count(*) FILTER (WHERE po.resolution IN ('rescheduled', 'callback_requested', 'change_requested', 'wrong_number'))::int AS other_outcomes,
            count(*) FILTER (WHERE po.delivery_status = 'delivered')::int AS delivered,
            count(*) FILTER (WHERE po.delivery_status IN ('refused', 'returned'))::int AS refused_or_returned,
            count(*) FILTER (WHERE po.resolution = 'confirmed' AND po.delivery_status = 'delivered')::int AS confirmed_delivered,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM po.first_dial - po.created_at) / 60) AS median_minutes,
            sum(po.billed)::text AS billed_seconds
     FROM po ${g.join ?? ""} GROUP BY 1, 2 ORDER BY 2 NULLS LAST, 1 NULLS LAST`,
    [accountId, o.from, o.to, o.shopExternalId ?? null],
  );
  const ratio = (n: number, d: number, k: number) => (d === 0 ? null : Number((n / d).toFixed(k)));
  return rows.map((r) => ({
    key: r.key,
    orders: r.orders,
    reached: r.reached,
    confirmed: r.confirmed,
    declined: r.declined,
    other_outcomes: r.other_outcomes,
    delivered: r.delivered,
    refused_or_returned: r.refused_or_returned,
    confirmation_rate: ratio(r.confirmed, r.orders, 4),
    delivered_rate: ratio(r.confirmed_delivered, r.confirmed, 4),
    median_minutes_to_first_dial: r.median_minutes === null ? null : Number(r.median_minutes.toFixed(1)),
    billed_seconds: Number(r.billed_seconds),
    billed_seconds_per_confirmed: ratio(Number(r.billed_seconds), r.confirmed, 1),
    billed_seconds_per_delivered: ratio(Number(r.billed_seconds), r.delivered, 1),
  }));
}

/** A deterministic generator, so a failure can be replayed (the seed is in the test's name). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const SEED = 35_003;

describe(`analytics rollups equal a from-scratch recount (issue 35, round 3; seed ${SEED})`, () => {
  let t: TestApp;
  let acct: TestAccount;
  let stranger: TestAccount;
  const shops: ShopFixture[] = [];
  const products = [uid("p1"), uid("p2"), uid("p3"), uid("p4")];
  const orders: { id: string; shop: ShopFixture; calls: string[] }[] = [];
  const rand = rng(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  // Whole seconds between 2026-01-10 and 2026-04-20, so the recount's exact median equals the histogram's.
  const START = Date.parse("2026-01-10T00:00:00Z");
  const instant = () => new Date(START + Math.floor(rand() * 100 * 86_400) * 1000);

  // Ranges with partial edge days, whole days, whole months (Feb, Mar), one within a day, and a whole year.
  const RANGES: [string, string][] = [
    ["2026-01-15T06:30:00Z", "2026-04-18T12:00:00Z"],
    ["2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"],
    ["2026-02-03T10:00:00Z", "2026-02-03T20:00:00Z"],
    ["2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"],
    ["2026-03-09T00:00:00Z", "2026-03-23T17:45:00Z"],
  ];

  async function compareAll(label: string): Promise<number> {
    let compared = 0;
    for (const [a, b] of RANGES) {
      for (const groupBy of GROUPINGS) {
        const o = { from: new Date(a), to: new Date(b), groupBy };
        // One snapshot for both sides: nothing may commit between the two reads.
        await t.ctx.db.tx(async (client) => {
          await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
          const want = await recount(client, acct.accountId, o);
          expect(await orderRates(client, acct.accountId, o), `${label}: ${a}..${b} by ${groupBy}`).toEqual(want);
          compared += want.length;
        });
      }
      for (const groupBy of ["day", "product", "hour_called", "shop"] as const) {
        const o = { from: new Date(a), to: new Date(b), groupBy, shopExternalId: shops[0]!.externalId };
        await t.ctx.db.tx(async (client) => {
          await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
          const want = await recount(client, acct.accountId, o);
          expect(await orderRates(client, acct.accountId, o), `${label}: shop 1, ${a}..${b} by ${groupBy}`).toEqual(
            want,
          );
        });
      }
    }
    expect(
      await orderRates(t.ctx.db, acct.accountId, {
        from: new Date(RANGES[1]![0]),
        to: new Date(RANGES[1]![1]),
        groupBy: "day",
        shopExternalId: "no-such-shop",
      }),
    ).toEqual([]);
    return compared;
  }

  /** One random change of an order or one of its calls, in its own transaction. */
  async function mutate(): Promise<void> {
    const o = pick(orders);
    const db = t.ctx.db;
    const r = rand();
    if (r < 0.2) {
      // The order moves in time; its calls move with it (a call is never created before its order).
      const at = instant();
      await db.tx(async (c) => {
        await c.query("UPDATE orders SET created_at = $2 WHERE id = $1", [o.id, at]);
        await c.query(
          "UPDATE calls SET created_at = $2::timestamptz + previous_attempts * interval '1 hour', dialed_at = CASE WHEN dialed_at IS NULL THEN NULL ELSE $2::timestamptz + (previous_attempts * 3600 + $3::int) * interval '1 second' END WHERE order_id = $1",
          [o.id, at, Math.floor(rand() * 3000)],
        );
      });
    } else if (r < 0.55) {
      const call = pick(o.calls);
      const dialed = rand() < 0.2 ? null : Math.floor(rand() * 4000);
      const status = dialed === null ? "queued" : pick(["completed", "no_answer", "busy", "completed"]);
      await db.query(
        `UPDATE calls SET dialed_at = CASE WHEN $2::int IS NULL THEN NULL ELSE (SELECT created_at FROM orders WHERE id = calls.order_id) + $2::int * interval '1 second' END,
                status = $3, billed_seconds = $4 WHERE id = $1`,
        [call, dialed, status, status === "completed" ? Math.floor(rand() * 120) : 0],
      );
    } else if (r < 0.8) {
      const resolution = pick(["confirmed", "confirmed", "declined", "rescheduled", "wrong_number", "unresolved"]);
      await db.query(
        "UPDATE orders SET resolution = $2, resolution_channel = CASE WHEN $2 = 'unresolved' THEN NULL ELSE 'voice' END, resolved_at = CASE WHEN $2 = 'unresolved' THEN NULL ELSE now() END WHERE id = $1",
        [o.id, resolution],
      );
    } else {
      const status = pick([null, "delivered", "delivered", "refused", "returned", "in_transit"]);
      await db.query("UPDATE orders SET delivery_status = $2, delivery_updated_at = now() WHERE id = $1", [
        o.id,
        status,
      ]);
    }
  }

  async function createOrder(who: TestAccount, shop: ShopFixture, i: number): Promise<void> {
    const ext = uid("order");
    const fr = rand() < 0.25;
    const lines = products.filter(() => rand() < 0.4).map((p) => ({ product_external_id: p }));
    const items = lines.length > 0 && rand() < 0.8 ? lines : [{ name: "Caftan", unit_price: "249.00" }];
    const calls: string[] = [];
    for (let attempt = 0; attempt < (i % 3 === 0 ? 2 : 1); attempt++) {
      const res = await postCall(
        t,
        who,
        callBody(shop.externalId, {
          country: fr ? "FR" : "MA",
          customer: { name: "Amina", phone_number: fr ? "+33612345601" : "+212612345601" },
          order: { external_id: ext, previous_attempts: attempt, items },
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      calls.push(res.json().id);
    }
    const { rows } = await t.ctx.db.query<{ id: string }>(
      "SELECT id FROM orders WHERE shop_id = $1 AND external_id = $2",
      [shop.id, ext],
    );
    const at = instant();
    await t.ctx.db.query("UPDATE orders SET created_at = $2 WHERE id = $1", [rows[0]!.id, at]);
    await t.ctx.db.query(
      "UPDATE calls SET created_at = $2::timestamptz + previous_attempts * interval '1 hour' WHERE order_id = $1",
      [rows[0]!.id, at],
    );
    if (who === acct) orders.push({ id: rows[0]!.id, shop, calls });
  }

  async function rollups(): Promise<unknown[]> {
    const { rows } = await t.ctx.db.query(
      `SELECT 'c' AS t, shop_id, grain, dim, period::text, value, orders, reached, confirmed, declined, other_outcomes,
              delivered, refused_or_returned, confirmed_delivered, billed, NULL::int AS seconds
       FROM analytics_counts WHERE account_id = $1
         AND (orders, reached, confirmed, declined, other_outcomes, delivered, refused_or_returned, confirmed_delivered, billed) <> (0, 0, 0, 0, 0, 0, 0, 0, 0)
       UNION ALL
       SELECT 'm', shop_id, grain, dim, period::text, value, n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, seconds
       FROM analytics_minutes WHERE account_id = $1 AND n <> 0
       ORDER BY 1, 2, 3, 4, 5, 6, 16`,
      [acct.accountId],
    );
    return rows;
  }

  beforeAll(async () => {
    t = await startApp();
    acct = await newAccount(t.ctx, 100_000);
    stranger = await newAccount(t.ctx, 100_000);
    for (let i = 0; i < 3; i++) {
      const shop = await insertShop(t.ctx, acct.accountId, { externalId: uid(`shop${i}`) });
      for (const p of products) await insertProduct(t.ctx, shop.id, p, [{ id: "v", price: "100.00" }]);
      shops.push(shop);
    }
    // Another account's orders in the same days never count.
    const theirs = await insertShop(t.ctx, stranger.accountId, { externalId: shops[0]!.externalId });
    for (const p of products) await insertProduct(t.ctx, theirs.id, p, [{ id: "v", price: "100.00" }]);
    for (let i = 0; i < 6; i++) await createOrder(stranger, theirs, i);
    for (let i = 0; i < 45; i++) await createOrder(acct, pick(shops), i);
  }, 120_000);
  afterAll(() => t?.close());

  it("is exact before any fold, while writers and two folders race, after the fold, after more writes and after a rebuild", async () => {
    expect(await compareAll("before any fold")).toBeGreaterThan(100);

    // Four writers and two folders at once.
    let folds = 0;
    const writers = Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 30; i++) await mutate();
    });
    const folders = Array.from({ length: 2 }, async () => {
      for (let i = 0; i < 15; i++) {
        folds += await foldAnalytics(t.ctx.db);
        await new Promise((r) => setTimeout(r, 5));
      }
    });
    const check = (async () => {
      for (let i = 0; i < 2; i++) await compareAll(`during the race ${i}`);
    })();
    await Promise.all([...writers, ...folders, check]);
    expect(folds).toBeGreaterThan(0);
    await compareAll("after the race");

    await foldAllAnalytics(t.ctx.db);
    const { rows: left } = await t.ctx.db.query("SELECT 1 FROM analytics_dirty WHERE account_id = $1", [
      acct.accountId,
    ]);
    expect(left).toEqual([]);
    await compareAll("everything folded");
    const folded = await rollups();
    expect(folded.length).toBeGreaterThan(100);

    for (let i = 0; i < 40; i++) await mutate();
    await compareAll("more writes, not folded");
    await foldAllAnalytics(t.ctx.db);
    const refolded = await rollups();

    // The fold's rollups are what a rebuild from scratch computes.
    await rebuildAnalytics(t.ctx.db, acct.accountId);
    expect(await rollups()).toEqual(refolded);
    await compareAll("after a rebuild");
  }, 300_000);

  it("is folded by a worker node within seconds of the writes (the fold-analytics job type's timer)", async () => {
    const workers = createWorkers(t.ctx, () => {});
    await workers.start(["foldAnalytics"]);
    try {
      for (let i = 0; i < 10; i++) await mutate();
      const marked = async () =>
        (await t.ctx.db.query("SELECT 1 FROM analytics_dirty WHERE account_id = $1", [acct.accountId])).rows.length;
      const deadline = Date.now() + 10 * FOLD_EVERY_MS;
      while ((await marked()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await marked()).toBe(0);
      await compareAll("folded by the worker");
    } finally {
      await workers.stop();
    }
  }, 60_000);

  it("answers the other account from its own orders only", async () => {
    const o = { from: new Date(RANGES[1]![0]), to: new Date(RANGES[1]![1]), groupBy: "shop" as const };
    const rows = await orderRates(t.ctx.db, stranger.accountId, o);
    expect(rows.map((r) => r.orders)).toEqual([6]);
    expect(rows).toEqual(await recount(t.ctx.db, stranger.accountId, o));
  });
});
