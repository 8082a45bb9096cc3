// Order analytics (issue 35): confirmation and delivery rates per group, counted exactly in SQL over the orders
// created in a range of at most a year. `orderRates` is the query any caller can use (the console's overview page);
// `getOrderAnalytics` is GET /v1/analytics/orders and the MCP tool get_order_analytics, with cursors for shop and product.
import type { AppContext, Principal } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
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

/** The group key (text) and its sort value per grouping; `po` is one order with its calls' aggregates. */
const GROUP_KEYS: Record<AnalyticsGroup, { key: string; sort: string; join?: string }> = {
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
  const g = GROUP_KEYS[o.groupBy];
  // Calls of an order are created with it or after it, so `c.created_at >= from` keeps every call of the range's orders.
  const products =
    o.groupBy === "product"
      ? `, pp AS (SELECT DISTINCT c.order_id, e->>'product_external_id' AS product
                FROM calls c CROSS JOIN LATERAL jsonb_array_elements(c.items) e
                WHERE c.account_id = $1 AND c.created_at >= $2 AND e->>'product_external_id' IS NOT NULL)`
      : "";
  const { rows } = await db.query<GroupRow>(
    `WITH o AS (
       SELECT o.id, o.shop_id, o.created_at, o.resolution, o.delivery_status FROM orders o
       WHERE o.account_id = $1 AND o.created_at >= $2 AND o.created_at < $3
         AND ($4::text IS NULL OR o.shop_id IN (SELECT id FROM shops WHERE account_id = $1 AND external_id = $4))
     ), c AS (
       SELECT c.order_id, count(*)::int AS attempts, bool_or(c.status = 'completed') AS reached, min(c.dialed_at) AS first_dial,
              sum(COALESCE(c.billed_seconds, 0)) AS billed, min(c.country) AS country
       FROM calls c WHERE c.account_id = $1 AND c.created_at >= $2
       GROUP BY c.order_id
     ), po AS (
       SELECT o.*, c.attempts, c.reached, c.first_dial, c.billed, c.country FROM o JOIN c ON c.order_id = o.id
     )${products}
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
     FROM po ${g.join ?? ""}
     GROUP BY 1, 2 ORDER BY 2 NULLS LAST, 1 NULLS LAST
     ${o.limit === undefined ? "" : "LIMIT $5 OFFSET $6"}`,
    [accountId, o.from, o.to, o.shopExternalId ?? null, ...(o.limit === undefined ? [] : [o.limit, o.offset ?? 0])],
  );
  return rows.map(toRow);
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
