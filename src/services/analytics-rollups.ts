// The order analytics rollups (issue 35, migration 130): the writers only append markers (a trigger, one INSERT per
// statement), and foldAnalytics, run every few seconds by the foldAnalytics job and the worker nodes' timer, folds the
// marked orders into per-day and per-month rollups. Safe with any number of folders (one at a time under an advisory
// lock; the others return at once), idempotent (a fold applies the difference between an order's live figures and its
// last folded ones), and the markers it takes are deleted in its own transaction, so a crash folds them again.
import type { Database, Queryable } from "../db/pool.ts";

/** pg_advisory_xact_lock key of the fold and the rebuild (any constant; the migrations use 7_242_001). */
const FOLD_LOCK = 7_242_035;
/** The all-shops rollups' shop id. */
export const ALL_SHOPS = "00000000-0000-0000-0000-000000000000";
/** Markers taken per fold transaction. */
const FOLD_BATCH = 20_000;
/** How often a worker node folds (besides the minute cron job). */
export const FOLD_EVERY_MS = 2_000;

/** The rollup dimensions (analytics_counts.dim). */
export const DIM = { all: 0, country: 1, hour: 2, attempts: 3, product: 4 } as const;

/** analytics_orders' columns, in order (analytics_order_live has the same). */
export const FIGURES =
  "order_id, account_id, shop_id, created_at, country, hour, delay_seconds, attempts, reached, resolution, delivery_status, billed, products";

/**
 * A signed set of orders `source` (sign, then analytics_orders' columns) as the few values the rollups add up: the
 * outcome flags as 0/1 integers, so the sums below multiply and add integers only.
 */
const narrow = (source: string) => `SELECT sign, account_id, shop_id, created_at, country, hour, attempts, products,
    delay_seconds, billed, reached::int AS r, (resolution = 'confirmed')::int AS c, (resolution = 'declined')::int AS d,
    (resolution IN ('rescheduled', 'callback_requested', 'change_requested', 'wrong_number'))::int AS o,
    COALESCE(delivery_status = 'delivered', false)::int AS dl, COALESCE(delivery_status IN ('refused', 'returned'), false)::int AS rr,
    (resolution = 'confirmed' AND COALESCE(delivery_status = 'delivered', false))::int AS cd
  FROM ${source}`;

/**
 * The rollup rows of `narrow` orders: per shop and all shops, per grain (`d` days only, `dm` days and months), per
 * dimension value; only the columns the sums read.
 */
function expand(source: string, grains: "d" | "dm"): string {
  const periods =
    grains === "d"
      ? "VALUES ('d'::\"char\", (f.created_at AT TIME ZONE 'UTC')::date)"
      : "VALUES ('d'::\"char\", (f.created_at AT TIME ZONE 'UTC')::date), ('m'::\"char\", date_trunc('month', f.created_at AT TIME ZONE 'UTC')::date)";
  return `SELECT f.account_id, lvl.shop, g.grain, g.period, d.dim, d.value, f.sign, f.r, f.c, f.d, f.o, f.dl, f.rr, f.cd,
      f.billed, f.delay_seconds
    FROM (${narrow(source)}) f
    CROSS JOIN LATERAL (VALUES (f.shop_id), ('${ALL_SHOPS}'::uuid)) lvl(shop)
    CROSS JOIN LATERAL (${periods}) g(grain, period)
    CROSS JOIN LATERAL (SELECT ${DIM.all}::smallint, ''::text UNION ALL SELECT ${DIM.country}, f.country
      UNION ALL SELECT ${DIM.hour}, COALESCE(f.hour::text, '') UNION ALL SELECT ${DIM.attempts}, f.attempts::text
      UNION ALL SELECT ${DIM.product}, p FROM unnest(f.products) p) d(dim, value)`;
}

/** Signed sums of the count columns over rows of `expand` (aliased x), named as analytics_counts' columns. */
const SUMS = `sum(x.sign)::int AS orders, sum(x.sign * x.r)::int AS reached, sum(x.sign * x.c)::int AS confirmed,
  sum(x.sign * x.d)::int AS declined, sum(x.sign * x.o)::int AS other_outcomes, sum(x.sign * x.dl)::int AS delivered,
  sum(x.sign * x.rr)::int AS refused_or_returned, sum(x.sign * x.cd)::int AS confirmed_delivered,
  sum(x.sign * x.billed)::bigint AS billed`;
const COUNT_COLUMNS =
  "account_id, shop_id, grain, dim, period, value, orders, reached, confirmed, declined, other_outcomes, delivered, refused_or_returned, confirmed_delivered, billed";
const KEY = "account_id, shop_id, grain, dim, period, value";
const ADD_COUNTS = ["orders", "reached", "confirmed", "declined", "other_outcomes", "delivered", "refused_or_returned"]
  .concat(["confirmed_delivered", "billed"])
  .map((c) => `${c} = analytics_counts.${c} + EXCLUDED.${c}`)
  .join(", ");

// One statement, one snapshot: the marked orders' live figures replace their folded ones, and the difference goes to
// the rollups. The live figures are read after the markers were deleted (an earlier statement of the transaction), so
// a change committed in between is both in them and still marked: the next fold finds a zero difference.
export const FOLD_SQL = `WITH ids AS (SELECT DISTINCT unnest($1::uuid[]) AS order_id),
  live AS MATERIALIZED (SELECT ${FIGURES} FROM analytics_order_live WHERE order_id IN (SELECT order_id FROM ids)),
  old AS MATERIALIZED (SELECT ${FIGURES} FROM analytics_orders WHERE order_id IN (SELECT order_id FROM ids)),
  -- Only the orders whose figures changed (a marker says something may have, not that it did).
  changed AS MATERIALIZED (
    SELECT order_id FROM live l FULL JOIN old o USING (order_id) WHERE ROW(l.*) IS DISTINCT FROM ROW(o.*)
  ),
  put AS (
    INSERT INTO analytics_orders (${FIGURES}) SELECT ${FIGURES} FROM live WHERE order_id IN (SELECT order_id FROM changed)
    ON CONFLICT (order_id) DO UPDATE SET ${FIGURES.split(", ")
      .slice(1)
      .map((c) => `${c} = EXCLUDED.${c}`)
      .join(", ")}
  ), gone AS (
    DELETE FROM analytics_orders WHERE order_id IN (SELECT order_id FROM old) AND order_id NOT IN (SELECT order_id FROM live)
  ), f AS (
    SELECT 1 AS sign, * FROM live WHERE order_id IN (SELECT order_id FROM changed)
    UNION ALL SELECT -1, * FROM old WHERE order_id IN (SELECT order_id FROM changed)
  ),
  x AS MATERIALIZED (${expand("f", "dm")}),
  counts AS (
    INSERT INTO analytics_counts (${COUNT_COLUMNS})
    SELECT * FROM (SELECT x.account_id, x.shop, x.grain, x.dim, x.period, x.value, ${SUMS} FROM x
      GROUP BY x.account_id, x.shop, x.grain, x.dim, x.period, x.value) s
    -- An order folded again unchanged adds nothing: its rows are not written.
    WHERE (orders, reached, confirmed, declined, other_outcomes, delivered, refused_or_returned, confirmed_delivered, billed)
      <> (0, 0, 0, 0, 0, 0, 0, 0, 0)
    ON CONFLICT (${KEY}) DO UPDATE SET ${ADD_COUNTS}
  ), minutes AS (
    INSERT INTO analytics_minutes (${KEY}, seconds, n)
    SELECT x.account_id, x.shop, x.grain, x.dim, x.period, x.value, x.delay_seconds, sum(x.sign)::int FROM x
    WHERE x.delay_seconds IS NOT NULL
    GROUP BY x.account_id, x.shop, x.grain, x.dim, x.period, x.value, x.delay_seconds HAVING sum(x.sign) <> 0
    ON CONFLICT (${KEY}, seconds) DO UPDATE SET n = analytics_minutes.n + EXCLUDED.n
  )
  SELECT count(*)::int AS n FROM ids`;

/**
 * Folds up to FOLD_BATCH markers into the rollups; the number of orders folded (0 when another folder holds the lock
 * or nothing is marked). Call it again while it returns a full batch.
 */
export async function foldAnalytics(db: Database): Promise<number> {
  return db.tx(async (client) => {
    const { rows: lock } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS ok", [
      FOLD_LOCK,
    ]);
    if (!lock[0]!.ok) return 0;
    const { rows } = await client.query<{ ids: string[] | null }>(
      `WITH d AS (DELETE FROM analytics_dirty WHERE ctid = ANY(ARRAY(SELECT ctid FROM analytics_dirty LIMIT $1)) RETURNING order_id)
       SELECT array_agg(DISTINCT order_id)::text[] AS ids FROM d`,
      [FOLD_BATCH],
    );
    const ids = rows[0]!.ids;
    if (!ids) return 0;
    await client.query(FOLD_SQL, [ids]);
    return ids.length;
  });
}

/**
 * Folds until no marker is left, or for at most 20 batches (400,000 markers): under a constant stream of writes the
 * next run goes on. The orders folded.
 */
export async function foldAllAnalytics(db: Database): Promise<number> {
  let total = 0;
  for (let i = 0; i < 20; i++) {
    const n = await foldAnalytics(db);
    total += n;
    if (n === 0) break;
  }
  return total;
}

/**
 * Recomputes the rollups from scratch, set-based (an account's, or every account's): the backfill of data written
 * before the rollups, and a repair. Waits for a fold under way; folds wait for it.
 */
export async function rebuildAnalytics(db: Database, accountId: string | null = null): Promise<void> {
  await db.tx(async (client: Queryable) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [FOLD_LOCK]);
    const where = accountId === null ? "" : "WHERE account_id = $1";
    const args = accountId === null ? [] : [accountId];
    // Markers first: the live figures below are read by later statements, so they include every marked change.
    for (const table of ["analytics_dirty", "analytics_counts", "analytics_minutes", "analytics_orders"])
      await client.query(`DELETE FROM ${table} ${where}`, args);
    await client.query(
      `INSERT INTO analytics_orders (${FIGURES}) SELECT ${FIGURES} FROM analytics_order_live ${where}`,
      args,
    );
    const src = `(SELECT 1 AS sign, * FROM analytics_orders ${where}) a`;
    await client.query(
      `INSERT INTO analytics_counts (${COUNT_COLUMNS})
       SELECT x.account_id, x.shop, x.grain, x.dim, x.period, x.value, ${SUMS} FROM (${expand(src, "d")}) x
       GROUP BY x.account_id, x.shop, x.grain, x.dim, x.period, x.value`,
      args,
    );
    await client.query(
      `INSERT INTO analytics_minutes (${KEY}, seconds, n)
       SELECT x.account_id, x.shop, x.grain, x.dim, x.period, x.value, x.delay_seconds, count(*)::int FROM (${expand(src, "d")}) x
       WHERE x.delay_seconds IS NOT NULL
       GROUP BY x.account_id, x.shop, x.grain, x.dim, x.period, x.value, x.delay_seconds`,
      args,
    );
    // The months from the days.
    const days = accountId === null ? "WHERE grain = 'd'" : "WHERE grain = 'd' AND account_id = $1";
    const month = "date_trunc('month', period::timestamp)::date";
    await client.query(
      `INSERT INTO analytics_counts (${COUNT_COLUMNS})
       SELECT account_id, shop_id, 'm', dim, ${month}, value, sum(orders), sum(reached), sum(confirmed), sum(declined),
              sum(other_outcomes), sum(delivered), sum(refused_or_returned), sum(confirmed_delivered), sum(billed)
       FROM analytics_counts ${days} GROUP BY account_id, shop_id, dim, ${month}, value`,
      args,
    );
    await client.query(
      `INSERT INTO analytics_minutes (${KEY}, seconds, n)
       SELECT account_id, shop_id, 'm', dim, ${month}, value, seconds, sum(n)
       FROM analytics_minutes ${days} GROUP BY account_id, shop_id, dim, ${month}, value, seconds`,
      args,
    );
  });
}
