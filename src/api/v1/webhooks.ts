import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageSchema } from "../../pagination.ts";
import { EVENT_TYPES } from "../../webhooks/events.ts";
import { createWebhook, DELIVERY_STATUSES, deleteWebhook, getWebhook, listWebhookDeliveries, testWebhook } from "../../services/webhooks.ts";

const timestamp = z.string().describe("RFC 3339 UTC timestamp.");

export const webhookSchema = z.object({
  id: z.string().describe("UUID."),
  url: z.string().describe("Where events are POSTed (normalised)."),
  description: z.string().nullable(),
  status: z.enum(["active"]),
  created_at: timestamp,
}).meta({ id: "Webhook", description: "The account's webhook. Its secret is never readable again after creation." });

export const createdWebhookSchema = webhookSchema.extend({
  secret: z.string().describe("`whsec_...`: the HMAC-SHA256 key of `X-Service-Signature`. Shown only in this response: store it now."),
}).meta({ id: "CreatedWebhook" });

export const webhookCreateBody = z.strictObject({
  url: z.string().describe("A public https URL. Checked against internal addresses now and again at every delivery."),
  description: z.string().max(500).regex(/^[^\u0000]*$/, "String should not contain NUL characters").optional().describe("A label for your own use."),
}).meta({ id: "WebhookCreate" });

export const deliverySchema = z.object({
  id: z.string().describe("UUID of the delivery."),
  event_id: z.string().describe("`evt_...`: the same at every retry; de-duplicate on it (also in `X-Service-Event-Id`)."),
  event_type: z.enum(EVENT_TYPES),
  url: z.string().describe("The webhook URL the delivery goes to."),
  status: z.enum(DELIVERY_STATUSES).describe("`pending` until a 2xx (`delivered`) or the retry schedule is spent (`failed`: the dead-letter queue)."),
  attempts: z.int().describe("Attempts made so far."),
  last_attempt_at: timestamp.nullable(),
  last_status_code: z.int().nullable().describe("HTTP status of the last attempt; null when it got no answer."),
  last_error: z.string().nullable().describe("Why the last attempt failed (timeout, refused address, redirect, status)."),
  last_response_excerpt: z.string().nullable().describe("The first KiB of the receiver's last answer."),
  last_duration_ms: z.int().nullable(),
  next_attempt_at: timestamp.nullable().describe("When the next retry is due, while `pending`."),
  created_at: timestamp,
  delivered_at: timestamp.nullable(),
  failed_at: timestamp.nullable(),
}).meta({ id: "WebhookDelivery" });

export const deliveryListQuery = z.object({
  ...pageQuery,
  status: z.string().meta({ enum: [...DELIVERY_STATUSES] }).optional()
    .describe("`delivered`, `failed` (the dead-letter queue) or `pending`; omit for all. Any other value is 400 `invalid_status_filter`."),
});

/** /v1/me/webhooks: configure, read, delete, test, and the deliveries. */
export function webhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post("/me/webhooks", {
    schema: {
      operationId: "createWebhook", tags: ["Webhooks"], summary: "Configure the webhook (10 per minute)",
      description: "One active webhook per account. The answer carries the signing `secret`, shown only here. To rotate it, DELETE the webhook and create it again.",
      body: webhookCreateBody, response: { 201: createdWebhookSchema },
    },
    config: { rateClass: "webhooks", errors: ["webhook_already_configured", "webhook_url_rejected", "service_unavailable"] },
  }, async (req, reply) => reply.code(201).send(await createWebhook(ctx, req.principal, req.body)));

  r.get("/me/webhooks", {
    schema: { operationId: "getWebhook", tags: ["Webhooks"], summary: "Read the webhook (never its secret)", response: { 200: webhookSchema } },
    config: { errors: ["webhook_not_configured"] },
  }, (req) => getWebhook(ctx, req.principal));

  r.delete("/me/webhooks", {
    schema: { operationId: "deleteWebhook", tags: ["Webhooks"], summary: "Remove the webhook", response: { 204: z.null().describe("Removed.") } },
    config: { errors: ["webhook_not_configured"] },
  }, async (req, reply) => {
    await deleteWebhook(ctx, req.principal);
    return reply.code(204).send(null);
  });

  r.post("/me/webhooks/test", {
    schema: {
      operationId: "testWebhook", tags: ["Webhooks"], summary: "Send a test event now (shares the 10 per minute)",
      description: "Sends a `webhook.test` event and answers with its delivery after that first attempt. A failed attempt is retried on the schedule like any delivery.",
      response: { 200: deliverySchema },
    },
    config: { rateClass: "webhooks", errors: ["webhook_url_not_configured", "service_unavailable"] },
  }, (req) => testWebhook(ctx, req.principal));

  r.get("/me/webhooks/deliveries", {
    schema: {
      operationId: "listWebhookDeliveries", tags: ["Webhooks"], summary: "List deliveries, newest first",
      querystring: deliveryListQuery, response: { 200: pageSchema(deliverySchema) },
    },
    config: { paginated: true, errors: ["invalid_status_filter"] },
  }, (req) => listWebhookDeliveries(ctx, req.principal, req.query));
}
