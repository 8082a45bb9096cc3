// The schemas of /v1/me/webhooks/deliveries and list_webhook_deliveries: one delivery of an event and its attempts.
import { z } from "zod";
import { DELIVERY_STATUSES, EVENT_TYPES } from "../domain/webhooks.ts";
import { pageQuery, timestamp } from "./common.ts";
import { webhookSchema } from "./webhooks.ts";

export const deliverySchema = z
  .object({
    id: z.string().describe("UUID of the delivery."),
    event_id: z
      .string()
      .describe("`evt_...`: the same at every retry; de-duplicate on it (also in `X-Service-Event-Id`)."),
    event_type: z.enum(EVENT_TYPES),
    url: webhookSchema.shape.url.describe("The webhook URL the delivery goes to."),
    status: z
      .enum(DELIVERY_STATUSES)
      .describe(
        "`pending` until a 2xx (`delivered`) or the retry schedule is spent (`failed`: the dead-letter queue).",
      ),
    attempts: z.int().describe("Attempts made so far."),
    last_attempt_at: timestamp.nullable(),
    last_status_code: z.int().nullable().describe("HTTP status of the last attempt; null when it got no answer."),
    last_error: z
      .string()
      .nullable()
      .describe("Why the last attempt failed (timeout, refused address, redirect, status)."),
    last_response_excerpt: z.string().nullable().describe("The first KiB of the receiver's last answer."),
    last_duration_ms: z.int().nullable(),
    next_attempt_at: timestamp.nullable().describe("When the next retry is due, while `pending`."),
    created_at: timestamp,
    delivered_at: timestamp.nullable(),
    failed_at: timestamp.nullable(),
  })
  .meta({ id: "WebhookDelivery" });

export const deliveryListQuery = z.object({
  ...pageQuery,
  status: z
    .string()
    .meta({ enum: [...DELIVERY_STATUSES] })
    .optional()
    .describe(
      "`delivered`, `failed` (the dead-letter queue) or `pending`; omit for all. Any other value is 400 `invalid_status_filter`.",
    ),
});

export const deliveryIdParams = z.object({
  id: z.string().describe("The delivery's id (UUID), as listed by GET /v1/me/webhooks/deliveries."),
});

export type DeliveryOut = z.output<typeof deliverySchema>;
