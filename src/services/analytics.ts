// Order analytics (issue 35): confirmation and delivery rates per group, counted exactly in SQL over the orders
// created in a range of at most a year. `orderRates` is the query any caller can use (the console's overview page);
// `getOrderAnalytics` is GET /v1/analytics/orders and the MCP tool get_order_analytics, with cursors for shop and product.
import type { AppContext, Principal } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import { ALL_SHOPS, DIM, FIGURES } from "./analytics-rollups.ts";
import { ApiError } from "../errors.ts";
import {
  ANALYTICS_MAX_DAYS,
  type AnalyticsGroup,
  type AnalyticsOut,
  type AnalyticsQuery,
  type AnalyticsRow,
  filterInstant,
  PAGINATED_GROUPS,
} from "../schemas/analytics.ts";

export interface OrderRatesOptions {
  from: Date;
  /** Exclusive. */
  to: Date;
  groupBy: AnalyticsGroup;
  shopExternalId?: string | undefined;
  /** Rows to skip and to return (groups ordered by key); all rows when limit is absent. */
  offset?: number;
  limit?: number;
}

/**
 * Per grouping: the rollup dimension, the key of a rollup row `r`, and the key of one order's figures `f` (a row of
 * analytics_orders or analytics_order_live; `p` is one of its products). Days and weeks read the daily rollups only
 * (a month does not split into weeks); the others read whole months from the monthly ones.
 */
const GROUPS: Record<AnalyticsGroup, { dim: number; rollup: string; order: string; months: boolean }> = {
  day: {
    dim: DIM.all,
    rollup: "to_char(r.period, 'YYYY-MM-DD')",
    order: "to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
    months: false,
  },
  week: {
    dim: DIM.all,
    rollup: "to_char(date_trunc('week', r.period::timestamp), 'YYYY-MM-DD')",
    order: "to_char(date_trunc('week', f.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')",
    months: false,
  },
  shop: { dim: DIM.all, rollup: "r.shop_id::text", order: "f.shop_id::text", months: true },
  country: { dim: DIM.country, rollup: "r.value", order: "f.country", months: true },
  hour_called: { dim: DIM.hour, rollup: "NULLIF(r.value, '')", order: "f.hour::text", months: true },
  attempts: { dim: DIM.attempts, rollup: "r.value", order: "f.attempts::text", months: true },
  product: { dim: DIM.product, rollup: "r.value", order: "p", months: true },
};

const DAY_MS = 86_400_000;
const dayFloor = (d: Date): Date => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const dayCeil = (d: Date): Date => new Date(Math.ceil(d.getTime() / DAY_MS) * DAY_MS);
const monthCeil = (d: Date): Date => {
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  return m < d ? new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)) : m;
};
const monthFloor = (d: Date): Date => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * How [from, to) splits: the whole UTC days [d1, d2) come from the rollups (monthly for [m1, m2), daily for the days
 * around), and the orders of the partial days at both ends from analytics_orders. With no whole day, d1 = d2.
 */
export function rangeParts(from: Date, to: Date, months: boolean): { d1: Date; m1: Date; m2: Date; d2: Date } {
  let d1 = dayCeil(from);
  let d2 = dayFloor(to);
  if (d1 >= d2) d2 = d1 = from;
  let m1 = d2;
  let m2 = d2;
  if (months && d1 < d2) {
    const a = monthCeil(d1);
    const b = monthFloor(d2);
    if (a < b) [m1, m2] = [a, b];
  }
  return { d1, m1, m2, d2 };
}

interface GroupRow {
  key: string | null;
  orders: number;
  reached: number;
  confirmed: number;
  declined: number;
  other_outcomes: number;
  delivered: number;
  refused_or_returned: number;
  confirmed_delivered: number;
  median_minutes: number | null;
  billed_seconds: string;
}

const ratio = (n: number, d: number, decimals: number): number | null =>
  d === 0 ? null : Number((n / d).toFixed(decimals));

function toRow(g: GroupRow): AnalyticsRow {
  const billed = Number(g.billed_seconds);
  return {
    key: g.key,
    orders: g.orders,
    reached: g.reached,
    confirmed: g.confirmed,
    declined: g.declined,
    other_outcomes: g.other_outcomes,
    delivered: g.delivered,
    refused_or_returned: g.refused_or_returned,
    confirmation_rate: ratio(g.confirmed, g.orders, 4),
    delivered_rate: ratio(g.confirmed_delivered, g.confirmed, 4),
    median_minutes_to_first_dial: g.median_minutes === null ? null : Number(g.median_minutes.toFixed(1)),
    billed_seconds: billed,
    billed_seconds_per_confirmed: ratio(billed, g.confirmed, 1),
    billed_seconds_per_delivered: ratio(billed, g.delivered, 1),
  };
}

/**
 * The account's orders created in [from, to) counted per group (exact, from the database): outcomes from the order's
 * resolution, delivery from its delivery status, attempts, reach, first dial and billed seconds from its calls.
 * Ordered by key (numerically for hour_called and attempts). A range over 366 days throws validation_error.
 */
export async function orderRates(db: Queryable, accountId: string, o: OrderRatesOptions): Promise<AnalyticsRow[]> {
  return (await groupRows(db, accountId, o)).map(toRow);
}

/** The figures of [from, to) all groups together (the console's tiles): the counts and both rates, exact. */
export interface RateTotals {
  orders: number;
  confirmed: number;
  delivered: number;
  confirmedDelivered: number;
  confirmationRate: number | null;
  deliveredRate: number | null;
}

export async function orderRateTotals(
  db: Queryable,
  accountId: string,
  o: Omit<OrderRatesOptions, "groupBy" | "offset" | "limit">,
): Promise<RateTotals> {
  // Grouped by attempts: a handful of rows, read from the monthly rollups where the range has whole months.
  const rows = await groupRows(db, accountId, { ...o, groupBy: "attempts" });
  const sum = (k: "orders" | "confirmed" | "delivered" | "confirmed_delivered") => rows.reduce((n, r) => n + r[k], 0);
  const [orders, confirmed, delivered, confirmedDelivered] = [
    sum("orders"),
    sum("confirmed"),
    sum("delivered"),
    sum("confirmed_delivered"),
  ];
  return {
    orders,
    confirmed,
    delivered,
    confirmedDelivered,
    confirmationRate: ratio(confirmed, orders, 4),
    deliveredRate: ratio(confirmedDelivered, confirmed, 4),
  };
}

async function groupRows(db: Queryable, accountId: string, o: OrderRatesOptions): Promise<GroupRow[]> {
  if (!(o.to > o.from) || o.to.getTime() - o.from.getTime() > ANALYTICS_MAX_DAYS * 86_400_000) {
    throw new ApiError("validation_error", `The range must be positive and at most ${ANALYTICS_MAX_DAYS} days.`, {
      issues: [
        {
          path: ["to"],
          msg: `to must be after from and at most ${ANALYTICS_MAX_DAYS} days later`,
          type: "value_error",
        },
      ],
    });
  }
  const g = GROUPS[o.groupBy];
  const { d1, m1, m2, d2 } = rangeParts(o.from, o.to, g.months);
  // $1 account, $2 from, $3 to, $4 shop external id, $5-$8 d1, m1, m2, d2 (dates), $9 d1, $10 d2 (instants).
  const shopOf = (alias: string) =>
    o.groupBy === "shop"
      ? `${alias}.shop_id <> '${ALL_SHOPS}' AND ($4::text IS NULL OR ${alias}.shop_id = (SELECT id FROM shop))`
      : `${alias}.shop_id = CASE WHEN $4::text IS NULL THEN '${ALL_SHOPS}'::uuid ELSE (SELECT id FROM shop) END`;
  const orderShop = "($4::text IS NULL OR f.shop_id = (SELECT id FROM shop))";
  const rollupRows = `r.account_id = $1 AND r.dim = ${g.dim} AND ${shopOf("r")} AND (
      (r.grain = 'd' AND ((r.period >= $5::date AND r.period < $6::date) OR (r.period >= $7::date AND r.period < $8::date)))
      OR (r.grain = 'm' AND r.period >= $6::date AND r.period < $7::date))`;
  // The live figures of the marked orders; their products (a second look-up per order) only when grouped by product.
  const live = FIGURES.split(", ")
    .map((c) => (c === "products" && o.groupBy !== "product" ? "'{}'::text[] AS products" : `l.${c}`))
    .join(", ");
  const keyed = o.groupBy === "product" ? "CROSS JOIN LATERAL unnest(f.products) p" : "";
  const final =
    o.groupBy === "shop"
      ? "SELECT s.external_id AS key, NULL::int AS sort, a.* FROM a JOIN shops s ON s.id::text = a.k"
      : o.groupBy === "hour_called" || o.groupBy === "attempts"
        ? "SELECT a.k AS key, a.k::int AS sort, a.* FROM a"
        : "SELECT a.k AS key, NULL::int AS sort, a.* FROM a";
  // One statement, one snapshot. The orders still marked since the last fold (analytics_dirty) count with their live
  // figures instead of their folded ones, so the answer is exact whenever it is asked.
  const { rows } = await db.query<GroupRow>(
    `WITH shop AS (SELECT id FROM shops WHERE account_id = $1 AND external_id = $4),
     dirty AS (SELECT DISTINCT order_id FROM analytics_dirty WHERE account_id = $1),
     f AS (
       SELECT 1 AS sign, a.* FROM analytics_orders a WHERE a.account_id = $1 AND a.created_at >= $2 AND a.created_at < $3
         AND NOT (a.created_at >= $9 AND a.created_at < $10)
       UNION ALL
       SELECT -1, a.* FROM analytics_orders a WHERE a.order_id IN (SELECT order_id FROM dirty) AND a.account_id = $1
         AND a.created_at >= $2 AND a.created_at < $3
       UNION ALL
       SELECT 1, ${live} FROM analytics_order_live l WHERE l.order_id IN (SELECT order_id FROM dirty) AND l.account_id = $1
         AND l.created_at >= $2 AND l.created_at < $3
     ), fk AS (
       SELECT ${g.order} AS k, f.* FROM f ${keyed} WHERE ${orderShop}
     ), counts AS (
       SELECT k, sum(sign) AS orders, sum(sign * reached::int) AS reached,
              sum(sign * (resolution = 'confirmed')::int) AS confirmed, sum(sign * (resolution = 'declined')::int) AS declined,
              sum(sign * (resolution IN ('rescheduled', 'callback_requested', 'change_requested', 'wrong_number'))::int) AS other_outcomes,
              sum(sign * COALESCE(delivery_status = 'delivered', false)::int) AS delivered,
              sum(sign * COALESCE(delivery_status IN ('refused', 'returned'), false)::int) AS refused_or_returned,
              sum(sign * (resolution = 'confirmed' AND COALESCE(delivery_status = 'delivered', false))::int) AS confirmed_delivered,
              sum(sign * billed) AS billed
       FROM fk GROUP BY k
       UNION ALL
       SELECT ${g.rollup}, orders, reached, confirmed, declined, other_outcomes, delivered, refused_or_returned,
              confirmed_delivered, billed
       FROM analytics_counts r WHERE ${rollupRows}
     ), hist AS (
       SELECT k, delay_seconds AS seconds, sum(sign)::int AS n FROM fk WHERE delay_seconds IS NOT NULL GROUP BY k, delay_seconds
       UNION ALL
       SELECT ${g.rollup}, r.seconds, r.n FROM analytics_minutes r WHERE ${rollupRows}
     ), h AS MATERIALIZED (
       SELECT k, seconds, n, sum(n) OVER (PARTITION BY k ORDER BY seconds) AS cum, sum(n) OVER (PARTITION BY k) AS total
       FROM (SELECT k, seconds, sum(n)::int AS n FROM hist GROUP BY k, seconds HAVING sum(n) <> 0) s
     ), med AS MATERIALIZED (
       -- percentile_cont(0.5) of the minutes, computed as it does (in float8, from the numeric minutes): the values
       -- at 0-based ranks floor((total - 1) / 2) and floor(total / 2), and lo + 0.5 * (hi - lo).
       SELECT k, (lo::numeric(20, 6) / 60)::float8 + 0.5::float8 * ((hi::numeric(20, 6) / 60)::float8 - (lo::numeric(20, 6) / 60)::float8) AS median_minutes
       FROM (SELECT k, min(seconds) FILTER (WHERE cum - n <= div(total - 1, 2) AND div(total - 1, 2) < cum) AS lo,
                    min(seconds) FILTER (WHERE cum - n <= div(total, 2) AND div(total, 2) < cum) AS hi
             FROM h GROUP BY k) m
     ), sums AS (
       SELECT c.k, sum(orders)::int AS orders, sum(reached)::int AS reached, sum(confirmed)::int AS confirmed,
              sum(declined)::int AS declined, sum(other_outcomes)::int AS other_outcomes, sum(delivered)::int AS delivered,
              sum(refused_or_returned)::int AS refused_or_returned, sum(confirmed_delivered)::int AS confirmed_delivered,
              sum(billed)::text AS billed_seconds
       FROM counts c GROUP BY c.k HAVING sum(orders) > 0
     ), a AS (SELECT sums.*, med.median_minutes FROM sums LEFT JOIN med ON COALESCE(med.k, '') = COALESCE(sums.k, ''))
     SELECT * FROM (${final}) z ORDER BY sort NULLS LAST, key NULLS LAST
     ${o.limit === undefined ? "" : "LIMIT $11 OFFSET $12"}`,
    [
      accountId,
      o.from,
      o.to,
      o.shopExternalId ?? null,
      isoDay(d1),
      isoDay(m1),
      isoDay(m2),
      isoDay(d2),
      d1,
      d2,
      ...(o.limit === undefined ? [] : [o.limit, o.offset ?? 0]),
    ],
  );
  return rows;
}

/** GET /v1/analytics/orders: the rates per group; shop and product groupings are paged (the cursor holds the offset). */
export async function getOrderAnalytics(ctx: AppContext, who: Principal, q: AnalyticsQuery): Promise<AnalyticsOut> {
  const from = filterInstant(q.from);
  const to = filterInstant(q.to);
  const base = { from: from.toISOString(), to: to.toISOString(), group_by: q.group_by };
  if (!PAGINATED_GROUPS.includes(q.group_by)) {
    const data = await orderRates(ctx.db, who.accountId, {
      from,
      to,
      groupBy: q.group_by,
      shopExternalId: q.shop_external_id,
    });
    return { ...base, data, has_more: false, next_cursor: null };
  }
  const scope = `analytics-orders|${who.accountId}|${JSON.stringify([base.from, base.to, q.group_by, q.shop_external_id ?? null])}`;
  const offset = ctx.paginator.start(scope, q.cursor) ?? 0;
  if (offset < 0)
    throw new ApiError("invalid_cursor", "The cursor does not belong to this list; restart without `cursor`.");
  const rows = await orderRates(ctx.db, who.accountId, {
    from,
    to,
    groupBy: q.group_by,
    shopExternalId: q.shop_external_id,
    limit: q.limit + 1,
    offset,
  });
  const hasMore = rows.length > q.limit;
  return {
    ...base,
    data: rows.slice(0, q.limit),
    has_more: hasMore,
    next_cursor: hasMore ? ctx.paginator.encode(scope, offset + q.limit) : null,
  };
}

/** The console's rates page (/console/rates): the periods it offers, in days back from now. */
export const RATE_PERIODS = [30, 90, 365] as const;
export type RatePeriod = (typeof RATE_PERIODS)[number];

export interface RatesPage {
  from: string;
  to: string;
  /** `day` for 30 days, `week` beyond. */
  grain: "day" | "week";
  totals: RateTotals;
  overTime: AnalyticsRow[];
  /** The first 50 shops by external id. */
  byShop: AnalyticsRow[];
  /** By UTC hour of the first dial; null: never dialed. */
  byHour: AnalyticsRow[];
}

/** The rates of the account's orders created in the last `days`, over time, by shop and by hour of the first dial. */
export async function getRatesPage(
  ctx: AppContext,
  who: Principal,
  days: RatePeriod,
  shopExternalId?: string,
): Promise<RatesPage> {
  const to = new Date(ctx.now());
  const from = new Date(to.getTime() - days * 86_400_000);
  const grain = days <= 31 ? "day" : "week";
  const base = { from, to, shopExternalId };
  const [totals, overTime, byShop, byHour] = await Promise.all([
    orderRateTotals(ctx.db, who.accountId, base),
    orderRates(ctx.db, who.accountId, { ...base, groupBy: grain }),
    orderRates(ctx.db, who.accountId, { ...base, groupBy: "shop", limit: 50, offset: 0 }),
    orderRates(ctx.db, who.accountId, { ...base, groupBy: "hour_called" }),
  ]);
  return { from: from.toISOString(), to: to.toISOString(), grain, totals, overTime, byShop, byHour };
}
