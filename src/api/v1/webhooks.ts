import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageSchema } from "../../schemas/common.ts";
import { deliveryIdParams, deliveryListQuery, deliverySchema } from "../../schemas/deliveries.ts";
import { createdWebhookSchema, webhookCreateBody, webhookSchema } from "../../schemas/webhooks.ts";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
  testWebhook,
} from "../../services/webhooks.ts";

/** /v1/me/webhooks: configure, read, delete, test, and the deliveries. */
export function webhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/me/webhooks",
    {
      schema: {
        operationId: "createWebhook",
        tags: ["Webhooks"],
        summary: "Configure the webhook (10 per minute)",
        description:
          "One active webhook per account. The answer carries the signing `secret`, shown only here. To rotate it, DELETE the webhook and create it again.",
        body: webhookCreateBody,
        response: { 201: createdWebhookSchema },
      },
      config: {
        rateClass: "webhooks",
        errors: ["webhook_already_configured", "webhook_url_rejected", "service_unavailable"],
      },
    },
    async (req, reply) => reply.code(201).send(await createWebhook(ctx, req.principal, req.body)),
  );

  r.get(
    "/me/webhooks",
    {
      schema: {
        operationId: "getWebhook",
        tags: ["Webhooks"],
        summary: "Read the webhook (never its secret)",
        response: { 200: webhookSchema },
      },
      config: { errors: ["webhook_not_configured"] },
    },
    (req) => getWebhook(ctx, req.principal),
  );

  r.delete(
    "/me/webhooks",
    {
      schema: {
        operationId: "deleteWebhook",
        tags: ["Webhooks"],
        summary: "Remove the webhook",
        response: { 204: z.null().describe("Removed.") },
      },
      config: { errors: ["webhook_not_configured"] },
    },
    async (req, reply) => {
      await deleteWebhook(ctx, req.principal);
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/me/webhooks/test",
    {
      schema: {
        operationId: "testWebhook",
        tags: ["Webhooks"],
        summary: "Send a test event now (shares the 10 per minute)",
        description:
          "Sends a `webhook.test` event and answers with its delivery after that first attempt. A failed attempt is retried on the schedule like any delivery.",
        response: { 200: deliverySchema },
      },
      config: { rateClass: "webhooks", errors: ["webhook_url_not_configured", "service_unavailable"] },
    },
    (req) => testWebhook(ctx, req.principal),
  );

  r.get(
    "/me/webhooks/deliveries",
    {
      schema: {
        operationId: "listWebhookDeliveries",
        tags: ["Webhooks"],
        summary: "List deliveries, newest first",
        querystring: deliveryListQuery,
        response: { 200: pageSchema(deliverySchema) },
      },
      config: { paginated: true, errors: ["invalid_status_filter"] },
    },
    (req) => listWebhookDeliveries(ctx, req.principal, req.query),
  );

  r.post(
    "/me/webhooks/deliveries/:id/redeliver",
    {
      schema: {
        operationId: "redeliverWebhookDelivery",
        tags: ["Webhooks"],
        summary: "Send a delivered or failed event again (shares the 10 per minute)",
        description:
          "Sends the delivery's event again now as a new delivery with the same event id (`X-Service-Event-Id`), to the current webhook, " +
          "and answers 201 with that delivery after its first attempt; a failed attempt is retried on the schedule. A delivery still `pending` is 409 `conflict`.",
        params: deliveryIdParams,
        response: { 201: deliverySchema },
      },
      config: {
        rateClass: "webhooks",
        errors: ["not_found", "conflict", "webhook_url_not_configured", "service_unavailable"],
      },
    },
    async (req, reply) => reply.code(201).send(await redeliverWebhookDelivery(ctx, req.principal, req.params.id)),
  );
}
