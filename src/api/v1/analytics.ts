import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.ts";
import { analyticsOutSchema, analyticsQuery } from "../../schemas/analytics.ts";
import { getOrderAnalytics } from "../../services/analytics.ts";

/** GET /v1/analytics/orders (issue 35): confirmation and delivered rates per group. */
export function analyticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/analytics/orders",
    {
      schema: {
        operationId: "getOrderAnalytics",
        tags: ["Orders"],
        summary: "Confirmation and delivered rates per day, week, shop, country, product, hour or attempts",
        description:
          "Counts the account's orders created in [`from`, `to`) (at most 366 days; both required) exactly, per group: orders, reached, " +
          "confirmed, declined, other outcomes, delivered, refused or returned, the confirmation rate, the delivered rate of confirmed orders, " +
          "the median minutes from an order's creation to its first dial, and billed seconds per confirmed and per delivered order. " +
          "`group_by` shop and product are paginated (`limit`, `cursor`); the others answer every group at once. A range that is empty, " +
          "reversed or over 366 days is 422 `validation_error` on `to`.",
        querystring: analyticsQuery,
        response: { 200: analyticsOutSchema },
      },
      config: { paginated: true },
    },
    (req) => getOrderAnalytics(ctx, req.principal, req.query),
  );
}
