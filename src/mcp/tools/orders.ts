// get_order, list_orders, record_delivery_event, resolve_order: the orders API (GET /v1/shops/{shop_external_id}/orders/{order_external_id}, GET /v1/orders).
import { z } from "zod";
import { pageSchema } from "../../schemas/common.ts";
import { deliveryEventInputSchema, deliveryEventResultSchema } from "../../schemas/delivery.ts";
import {
  agentResolutionInputSchema,
  agentResolutionResultSchema,
  listOrdersQuery,
  orderOutSchema,
} from "../../schemas/orders.ts";
import { recordDeliveryEvent } from "../../services/delivery.ts";
import { getOrder, listOrders, resolveOrderByAgent } from "../../services/orders.ts";
import { defineTool, rootObject } from "./tool.ts";

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const getOrderTool = defineTool({
  name: "get_order",
  title: "Read an order and its resolution",
  description: [
    "Reads one order by its shop and its own external id (the `order.external_id` given to create_call): its items, amount, every call made about it in order (`attempts`: the first call and its retries) and its one `resolution`.",
    "`resolution.value` is what the customer answered about the order: confirmed, declined, rescheduled, callback_requested, change_requested, wrong_number, or unresolved (nobody reached yet, or no decision). `channel` says how the answer came (`voice`: a call, `whatsapp`: a reply), `resolved_at` when, `details` the same details as a call's outcome_details, `call_id` or `message_id` which call or message gave it.",
    "A later answer replaces an earlier one by a fixed rule: unresolved never replaces anything; a decisive answer (confirmed, declined, rescheduled, change_requested, wrong_number) beats callback_requested, which beats unresolved; between two answers of the same kind the later one wins. `status` is `resolved` once the answer is decisive, else `open`.",
    'Use it to answer "is order X confirmed?" without reading each call. A missing shop or order, or another account\'s, is not_found.',
  ].join("\n\n"),
  input: z.strictObject({
    shop_external_id: z.string().describe("The order's shop, as given to create_call."),
    order_external_id: z.string().describe("The order's `external_id`, as given to create_call."),
  }),
  output: rootObject(orderOutSchema, "An order: its attempts (calls) and its resolution."),
  annotations: READ,
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/shops/{shop_external_id}/orders/{order_external_id}" },
  run: ({ shop_external_id, order_external_id }, { ctx, who }) =>
    getOrder(ctx, who, shop_external_id, order_external_id),
});

export const listOrdersTool = defineTool({
  name: "list_orders",
  title: "List orders",
  description:
    "Lists the account's orders, newest first, each with its attempts and resolution (see get_order), with optional filters: `status` (`open`: unresolved or callback_requested; `resolved`: a decisive answer), `resolution` (one value), `shop_external_id`, `merchant_id` (a merchant's `merchant_external_id`, across their shops), `created_after` and `created_before` (RFC 3339 or YYYY-MM-DD). Pages hold `limit` orders (1 to 100, default 20); when `has_more` is true, call again with `cursor` set to `next_cursor` and the SAME filters. A bad `status` is invalid_status_filter.",
  input: z.strictObject(listOrdersQuery.shape),
  output: pageSchema(orderOutSchema),
  annotations: READ,
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/orders" },
  run: ({ limit, cursor, ...filters }, { ctx, who }) => listOrders(ctx, who, filters, { limit, cursor }),
});

export const recordDeliveryEventTool = defineTool({
  name: "record_delivery_event",
  title: "Record a courier's report about an order's parcel",
  description: [
    "Records what happened to a confirmed order's parcel: `status` is in_transit, out_for_delivery, delivered, refused, returned, unreachable or lost, `occurred_at` when (RFC 3339 with its offset), and optionally `carrier`, `tracking_number`, `reason`.",
    "`event_id` makes it idempotent: the same event_id on the same order is recorded once (`recorded: false` on a repeat); the same event_id with other content is conflict. The event with the latest occurred_at decides the order's `delivery.status`, whatever order events are sent in; a status change sends the webhook event order.delivery_updated.",
    "The order is named by its shop and its own external id, as given to create_call; a missing one, or another account's, is not_found.",
  ].join("\n\n"),
  input: z.strictObject({
    shop_external_id: z.string().describe("The order's shop, as given to create_call."),
    order_external_id: z.string().describe("The order's `external_id`, as given to create_call."),
    ...deliveryEventInputSchema.shape,
  }),
  output: rootObject(deliveryEventResultSchema, "The event as recorded and the order's delivery (status and events)."),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "POST", path: "/v1/shops/{shop_external_id}/orders/{order_external_id}/delivery-events" },
  run: async ({ shop_external_id, order_external_id, ...event }, { ctx, who }) =>
    (await recordDeliveryEvent(ctx, who, shop_external_id, order_external_id, event)).result,
});

export const resolveOrderTool = defineTool({
  name: "resolve_order",
  title: "Settle an order for the shop's person",
  description: [
    "Records what a person of the shop settled with the customer (after a warm transfer, or a call of their own): `value` is confirmed, declined, rescheduled, callback_requested, change_requested or wrong_number, with an optional `note` and, for rescheduled, `preferred_date` (YYYY-MM-DD).",
    "It becomes the order's resolution through channel `agent` by the same supersede rule as the customer's answers by voice or WhatsApp: a decision replaces callback_requested, a later decision replaces an earlier one when it says something else, callback_requested never replaces a decision. `changed` says whether it did; order.resolved is sent once when it does.",
    "The order is named by its shop and its own external id, as given to create_call; a missing one, or another account's, is not_found.",
  ].join("\n\n"),
  input: z.strictObject({
    shop_external_id: z.string().describe("The order's shop, as given to create_call."),
    order_external_id: z.string().describe("The order's `external_id`, as given to create_call."),
    ...agentResolutionInputSchema.shape,
  }),
  output: rootObject(agentResolutionResultSchema, "Whether the resolution changed, and the order."),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "PUT", path: "/v1/shops/{shop_external_id}/orders/{order_external_id}/resolution" },
  run: ({ shop_external_id, order_external_id, ...input }, { ctx, who }) =>
    resolveOrderByAgent(ctx, who, shop_external_id, order_external_id, input),
});

export const ORDER_TOOLS = [getOrderTool, listOrdersTool, recordDeliveryEventTool, resolveOrderTool];
