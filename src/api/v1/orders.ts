import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.ts";
import { pageSchema } from "../../schemas/common.ts";
import {
  agentResolutionInputSchema,
  agentResolutionResultSchema,
  listOrdersQuery,
  orderOutSchema,
  orderParams,
} from "../../schemas/orders.ts";
import { deliveryEventInputSchema, deliveryEventResultSchema } from "../../schemas/delivery.ts";
import { recordDeliveryEvent } from "../../services/delivery.ts";
import { getOrder, listOrders, resolveOrderByAgent } from "../../services/orders.ts";

/** /v1/orders and /v1/shops/{shop_external_id}/orders/{order_external_id} (issue 16): read-only. */
export function orderRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/orders",
    {
      schema: {
        operationId: "listOrders",
        tags: ["Orders"],
        summary: "List orders, newest first",
        description:
          "The account's orders (each created by its first call), with their attempts and resolution. `status` is `open` " +
          "(unresolved or callback_requested) or `resolved` (a decisive answer); `resolution` filters on one value.",
        querystring: listOrdersQuery,
        response: { 200: pageSchema(orderOutSchema) },
      },
      config: { paginated: true, errors: ["invalid_status_filter"] },
    },
    (req) => {
      const { limit, cursor, ...filters } = req.query;
      return listOrders(ctx, req.principal, filters, { limit, cursor });
    },
  );

  r.get(
    "/shops/:shop_external_id/orders/:order_external_id",
    {
      schema: {
        operationId: "getOrder",
        tags: ["Orders"],
        summary: "Read an order",
        description:
          "The order, its calls in order (`attempts`) and its `resolution`: the customer's answer, by voice or WhatsApp, and " +
          "when it came. A missing shop, a missing order and another account's are the same 404 `not_found`. An archived shop's orders stay readable.",
        params: orderParams,
        response: { 200: orderOutSchema },
      },
      config: { errors: ["not_found"] },
    },
    (req) => getOrder(ctx, req.principal, req.params.shop_external_id, req.params.order_external_id),
  );

  r.post(
    "/shops/:shop_external_id/orders/:order_external_id/delivery-events",
    {
      schema: {
        operationId: "recordDeliveryEvent",
        tags: ["Orders"],
        summary: "Record what the courier reported about an order's parcel",
        description:
          "Records a delivery event (issue 35) on the order: 201 when new, 200 with `recorded: false` for an `event_id` already " +
          "recorded on the order (a courier's retry). The event with the latest `occurred_at` decides the order's `delivery.status`, whatever " +
          "order the events arrive in; when that status changes, `order.delivery_updated` is sent. The same `event_id` with other content is 409 " +
          "`conflict`; a missing shop or order, or another account's, is 404 `not_found`.",
        params: orderParams,
        body: deliveryEventInputSchema,
        response: { 200: deliveryEventResultSchema, 201: deliveryEventResultSchema },
      },
      config: { errors: ["not_found", "conflict"] },
    },
    async (req, reply) => {
      const { created, result } = await recordDeliveryEvent(
        ctx,
        req.principal,
        req.params.shop_external_id,
        req.params.order_external_id,
        req.body,
      );
      return reply.code(created ? 201 : 200).send(result);
    },
  );

  r.put(
    "/shops/:shop_external_id/orders/:order_external_id/resolution",
    {
      schema: {
        operationId: "resolveOrder",
        tags: ["Orders"],
        summary: "Settle an order on behalf of the shop's person",
        description:
          "What a person of the shop settled with the customer (issue 34: after a warm transfer, or a call of their own) becomes the " +
          "order's resolution through channel `agent`, now, by the same supersede rule as voice and WhatsApp answers: a decision replaces a " +
          "callback_requested, a later decision replaces an earlier one when it says something else, callback_requested never replaces a decision. " +
          "`order.resolved` is sent once when the resolution changes; `changed: false` says the rule kept the current one. A missing shop or order, " +
          "or another account's, is 404 `not_found`.",
        params: orderParams,
        body: agentResolutionInputSchema,
        response: { 200: agentResolutionResultSchema },
      },
      config: { errors: ["not_found"] },
    },
    (req) =>
      resolveOrderByAgent(ctx, req.principal, req.params.shop_external_id, req.params.order_external_id, req.body),
  );
}
