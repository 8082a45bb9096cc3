// The schemas of GET /v1/analytics/orders (issue 35): the confirmation and delivery rates per group. One definition
// documents REST (OpenAPI), shapes the MCP tool get_order_analytics and types the service.
import { z } from "zod";
import { dateFilter } from "./calls.ts";
import { pageQuery, safeString } from "./common.ts";

export const ANALYTICS_GROUPS = ["day", "week", "shop", "country", "product", "hour_called", "attempts"] as const;
export type AnalyticsGroup = (typeof ANALYTICS_GROUPS)[number];
/** The groupings with one row per shop or product: the only ones paginated (the others have at most 366 rows). */
export const PAGINATED_GROUPS: readonly AnalyticsGroup[] = ["shop", "product"];

/** The longest range one query may cover: a year, leap day included. */
export const ANALYTICS_MAX_DAYS = 366;

/** A date filter as an instant: YYYY-MM-DD is midnight UTC. */
export function filterInstant(value: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
}

export const analyticsQueryShape = {
  from: dateFilter.describe(
    "Orders created at or after this time: RFC 3339 with an offset, or YYYY-MM-DD for midnight UTC. Required.",
  ),
  to: dateFilter.describe(
    "Orders created strictly before this time; same format; after `from` and at most 366 days later. Required.",
  ),
  group_by: z
    .enum(ANALYTICS_GROUPS)
    .default("day")
    .describe(
      "`day`, `week` (ISO weeks, keyed by their Monday; UTC), `shop` (shop external id), `country`, `product` (product external id: an order counts " +
        "once in each product of its lines; ad-hoc lines have none), `hour_called` (UTC hour, 0-23, of the order's first dial; null for orders never dialed) " +
        "or `attempts` (the order's number of calls). Default `day`.",
    ),
  shop_external_id: safeString().min(1).max(255).optional().describe("Only this shop's orders."),
  ...pageQuery,
};

function checkRange(q: { from: string; to: string }, ctx: z.RefinementCtx): void {
  const from = filterInstant(q.from).getTime();
  const to = filterInstant(q.to).getTime();
  if (!(to > from))
    ctx.addIssue({ code: "custom", path: ["to"], message: "to must be after from", params: { type: "value_error" } });
  else if (to - from > ANALYTICS_MAX_DAYS * 86_400_000) {
    ctx.addIssue({
      code: "custom",
      path: ["to"],
      message: `A query covers at most ${ANALYTICS_MAX_DAYS} days: split a longer range`,
      params: { type: "value_error" },
    });
  }
}

export const analyticsQuery = z.object(analyticsQueryShape).superRefine(checkRange);
export const analyticsToolInput = z.strictObject(analyticsQueryShape).superRefine(checkRange);
export type AnalyticsQuery = z.output<typeof analyticsQuery>;

const rate = z.number().nullable();
export const analyticsRowSchema = z
  .object({
    key: z
      .string()
      .nullable()
      .describe(
        "The group: YYYY-MM-DD (day, week), the shop's or product's external id, the country, the hour 0-23, the number of calls; null for orders never dialed under hour_called.",
      ),
    orders: z.int().describe("Orders created in the range (each order counts once, however many calls it took)."),
    reached: z.int().describe("Orders with at least one call a person answered (status `completed`)."),
    confirmed: z.int().describe("Orders whose resolution is `confirmed` (by voice or WhatsApp)."),
    declined: z.int().describe("Orders whose resolution is `declined`."),
    other_outcomes: z
      .int()
      .describe(
        "Orders resolved otherwise: rescheduled, callback_requested, change_requested or wrong_number. The rest are unresolved.",
      ),
    delivered: z.int().describe("Orders whose delivery status is `delivered`."),
    refused_or_returned: z.int().describe("Orders whose delivery status is `refused` or `returned`."),
    confirmation_rate: rate.describe("confirmed / orders, 4 decimals; null with no orders."),
    delivered_rate: rate.describe(
      "Confirmed orders that were delivered / confirmed orders, 4 decimals; null with none confirmed.",
    ),
    median_minutes_to_first_dial: rate.describe(
      "Median minutes from the order's creation to its first dial, over the orders dialed, 1 decimal; null if none was dialed.",
    ),
    billed_seconds: z.int().describe("Seconds billed for every call of these orders."),
    billed_seconds_per_confirmed: rate.describe("billed_seconds / confirmed, 1 decimal; null with none confirmed."),
    billed_seconds_per_delivered: rate.describe("billed_seconds / delivered, 1 decimal; null with none delivered."),
  })
  .meta({ id: "OrderAnalyticsRow" });
export type AnalyticsRow = z.output<typeof analyticsRowSchema>;

export const analyticsOutSchema = z
  .object({
    from: z.string().describe("The range's start as applied (RFC 3339 UTC)."),
    to: z.string().describe("The range's end as applied (exclusive)."),
    group_by: z.enum(ANALYTICS_GROUPS),
    data: z
      .array(analyticsRowSchema)
      .describe(
        "One row per group: by key ascending (days, weeks, hours, attempts in order; shops and products by external id).",
      ),
    has_more: z.boolean().describe("Only for group_by shop or product: more groups on the next page."),
    next_cursor: z
      .string()
      .nullable()
      .describe("Pass as `cursor` with the same query to read the next page; null on the last page."),
  })
  .meta({ id: "OrderAnalytics" });
export type AnalyticsOut = z.output<typeof analyticsOutSchema>;
