// The schemas of the orders API (issue 16): an order, its attempts (calls) and its one resolution. One definition
// documents REST (OpenAPI), shapes the MCP tools, types the read model and is the data of `order.resolved`.
import { z } from "zod";
import { CALL_OUTCOMES, CALL_STATUSES } from "../domain/calls.ts";
import { COUNTRIES, CURRENCIES, LANGUAGES } from "../domain/locale.ts";
import { AGENT_RESOLUTIONS, ORDER_RESOLUTIONS, ORDER_STATUSES, RESOLUTION_CHANNELS } from "../domain/orders.ts";
import { callItemSchema, dateFilter, outcomeDetailsSchema } from "./calls.ts";
import { pageQuery, safeString, timestamp } from "./common.ts";
import { orderDeliverySchema } from "./delivery.ts";

export const orderAttemptSchema = z
  .object({
    id: z.string().describe("The call id (UUID): GET /v1/calls/{id} shows the whole call."),
    status: z.enum(CALL_STATUSES),
    outcome: z.enum(CALL_OUTCOMES).nullable().describe("Set when the call is `completed`, else null."),
    created_at: timestamp,
    ended_at: timestamp.nullable(),
  })
  .meta({ id: "OrderAttempt" });

export const orderResolutionSchema = z
  .object({
    value: z
      .enum(ORDER_RESOLUTIONS)
      .describe(
        "`unresolved` until an answer settles the order. A later answer replaces the current one by the supersede rule: unresolved never " +
          "replaces anything; a decisive answer (confirmed, declined, rescheduled, change_requested, wrong_number) beats callback_requested, " +
          "which beats unresolved; between two answers of the same rank the later one wins if it says something else.",
      ),
    channel: z
      .enum(RESOLUTION_CHANNELS)
      .nullable()
      .describe(
        "How the answer came: `voice` (a call), `whatsapp` (a reply) or `agent` (a person of the shop, PUT .../resolution, after a transfer for example); null while unresolved.",
      ),
    resolved_at: timestamp.nullable().describe("When the customer gave the answer; null while unresolved."),
    details: outcomeDetailsSchema
      .nullable()
      .describe("The same typed details as a call's `outcome_details`; null while unresolved."),
    call_id: z.string().nullable().describe("The call that settled the order (channel `voice`), else null."),
    message_id: z
      .string()
      .nullable()
      .describe("The WhatsApp message id of the reply that settled the order (channel `whatsapp`), else null."),
  })
  .meta({ id: "OrderResolution" });

export const orderMessageSchema = z
  .object({
    direction: z
      .enum(["outbound", "inbound"])
      .describe(
        "`outbound`: a WhatsApp message Wakha sent (the template, the clarifying message); `inbound`: the customer's reply.",
      ),
    id: z
      .string()
      .nullable()
      .describe("The WhatsApp message id (`wamid...`); null for an outbound message not (yet) accepted by WhatsApp."),
    type: z
      .string()
      .describe(
        "outbound: `template` or `clarification`; inbound: `button`, `text`, or the WhatsApp type received (`image`, ...).",
      ),
    text: z.string().nullable().describe("inbound: the text, or the button's title."),
    status: z
      .enum(["pending", "accepted", "sent", "delivered", "read", "failed", "skipped"])
      .nullable()
      .describe(
        "outbound: the furthest delivery status WhatsApp reported (never moves backwards); `skipped` when not sent (do-not-call, no template, settings removed). Null inbound.",
      ),
    error: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("outbound, failed or skipped: why (`reason`, and the Cloud API's `code`, `message`, `details`)."),
    intent: z
      .string()
      .nullable()
      .describe(
        "inbound: what Wakha read: the button (`confirm`, `cancel`, `call_me`) or the intent classifier's label.",
      ),
    resolution: z
      .enum(ORDER_RESOLUTIONS)
      .nullable()
      .describe("inbound: the resolution the reply gave, if any (the order's own follows the supersede rule)."),
    action: z
      .string()
      .nullable()
      .describe(
        "inbound: `settled`, `call_scheduled`, `clarified`, `clarification_refused` (24-hour window closed) or `ignored`.",
      ),
    at: timestamp.describe("outbound: when it was queued; inbound: when the customer sent it (WhatsApp's timestamp)."),
  })
  .meta({ id: "OrderMessage" });

export const orderOutSchema = z
  .object({
    external_id: z.string().describe("Your order id, unique within the shop."),
    shop_external_id: z.string(),
    merchant_external_id: z.string().describe("The shop's merchant."),
    status: z
      .enum(ORDER_STATUSES)
      .describe(
        "`resolved` once the resolution is decisive (confirmed, declined, rescheduled, change_requested, wrong_number); `open` while it is unresolved or callback_requested.",
      ),
    customer: z.object({ name: z.string(), phone_number: z.string() }).describe("As the latest attempt has it."),
    items: z.array(callItemSchema).describe("The lines of the latest attempt, as resolved against the catalogue."),
    amount: z.string().describe("Decimal string: the latest attempt's amount to collect."),
    currency: z.enum(CURRENCIES),
    country: z.enum(COUNTRIES),
    language: z.enum(LANGUAGES),
    created_at: timestamp.describe("When the order's first call was created."),
    attempts: z
      .array(orderAttemptSchema)
      .describe("The order's calls, oldest first: the first call and its retries, manual or automatic."),
    resolution: orderResolutionSchema,
    messages: z
      .array(orderMessageSchema)
      .describe(
        "The WhatsApp fallback's messages on the order in the order Wakha recorded them (what it sent, and every reply as it arrived), each with its time.",
      ),
    delivery: orderDeliverySchema.describe(
      "What the courier or the store reported about the parcel (issue 35): POST .../delivery-events, the store connectors, a courier's webhook.",
    ),
  })
  .meta({ id: "OrderOut" });

export type OrderOut = z.output<typeof orderOutSchema>;

export const orderParams = z.object({
  shop_external_id: z.string().describe("The shop's external id (percent-encoded)."),
  order_external_id: z.string().describe("The order's external id in that shop (percent-encoded)."),
});

export const listOrdersQuery = z.object({
  ...pageQuery,
  status: z
    .string()
    .optional()
    .meta({ enum: [...ORDER_STATUSES] })
    .describe(`One of ${ORDER_STATUSES.join(", ")}; another value is 400 invalid_status_filter.`),
  resolution: z.enum(ORDER_RESOLUTIONS).optional(),
  shop_external_id: safeString().min(1).max(255).optional(),
  merchant_id: safeString()
    .min(1)
    .max(255)
    .optional()
    .describe("The shops' merchant_external_id: one merchant's orders across their shops."),
  created_after: dateFilter
    .optional()
    .describe(
      "Orders created at or after this time: RFC 3339 with an offset (2026-11-23T08:00:00Z), or YYYY-MM-DD for midnight UTC; years 0001 to 9999.",
    ),
  created_before: dateFilter
    .optional()
    .describe("Orders created strictly before this time; same format as created_after."),
});

export const agentResolutionInputSchema = z
  .strictObject({
    value: z
      .enum(AGENT_RESOLUTIONS)
      .describe(
        "What the shop's person settled with the customer: confirmed, declined, rescheduled, callback_requested, change_requested or wrong_number.",
      ),
    note: safeString()
      .min(1)
      .max(1000)
      .optional()
      .describe("The person's note (kept in the resolution's `details.note`)."),
    preferred_date: z.iso.date().optional().describe("rescheduled: the day agreed, YYYY-MM-DD."),
  })
  .meta({ id: "AgentResolutionInput" });
export type AgentResolutionInput = z.output<typeof agentResolutionInputSchema>;

export const agentResolutionResultSchema = z
  .object({
    changed: z
      .boolean()
      .describe(
        "Whether the order's resolution changed (then `order.resolved` was sent, once). false: the supersede rule kept the current one (a callback_requested never replaces a decision; the same answer again changes nothing).",
      ),
    order: orderOutSchema,
  })
  .meta({ id: "AgentResolutionResult" });
export type AgentResolutionResult = z.output<typeof agentResolutionResultSchema>;
