// get_order_analytics: GET /v1/analytics/orders (issue 35), the confirmation and delivered rates per group.
import { analyticsOutSchema, analyticsToolInput } from "../../schemas/analytics.ts";
import { getOrderAnalytics } from "../../services/analytics.ts";
import { defineTool, rootObject } from "./tool.ts";

export const getOrderAnalyticsTool = defineTool({
  name: "get_order_analytics",
  title: "Confirmation and delivered rates",
  description: [
    "Counts the account's orders created from `from` (inclusive) to `to` (exclusive), both RFC 3339 or YYYY-MM-DD, at most 366 days apart, per `group_by`: day (default), week, shop, country, product, hour_called (UTC hour of the first dial) or attempts (calls per order); `shop_external_id` keeps one shop.",
    "Each row: orders, reached (a person answered), confirmed, declined, other_outcomes, delivered, refused_or_returned, confirmation_rate (confirmed/orders), delivered_rate (delivered among confirmed / confirmed), median_minutes_to_first_dial, billed_seconds, billed_seconds_per_confirmed, billed_seconds_per_delivered. Counts are exact.",
    'Use it to answer "how many of last month\'s confirmed orders were delivered?" or "which hour of the day confirms best?". Grouped by shop or product, pages hold `limit` groups: call again with `cursor` = `next_cursor` and the same other arguments.',
  ].join("\n\n"),
  input: analyticsToolInput,
  output: rootObject(analyticsOutSchema, "The range, the grouping and one row per group."),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/analytics/orders" },
  run: (q, { ctx, who }) => getOrderAnalytics(ctx, who, q),
});

export const ANALYTICS_TOOLS = [getOrderAnalyticsTool];
