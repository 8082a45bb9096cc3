// POST /connectors/{platform}/{shop_id}: the store platforms' order webhooks (issue 17), outside /v1. `shop_id` is the
// connector's opaque webhook token (GET .../connector shows the whole address), not the shop's external id: a store's
// address cannot be guessed, and the platform's signature is checked with that connector's secret.
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { receiveStoreWebhook } from "../services/connector-intake.ts";
import { detailSchema, INBOUND_BODY_LIMIT, passThrough, rawBodyScope } from "./raw-body-scope.ts";

/** Registers /connectors/... in its own scope: raw body parser with the 256 KiB inbound limit, legacy errors. */
export async function connectorRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  rawBodyScope(app, ctx.config.docsUrl);

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/connectors/:platform/:shop_id",
    {
      bodyLimit: INBOUND_BODY_LIMIT,
      validatorCompiler: passThrough,
      schema: {
        operationId: "receiveStoreWebhook",
        tags: ["Inbound"],
        summary: "Receive a store's order webhook (signed by the platform)",
        description:
          "The order-created webhooks of Shopify (`X-Shopify-Hmac-Sha256`, topic `orders/create`), YouCan (`x-youcan-signature`, " +
          "event `order.create`) and WooCommerce (`X-WC-Webhook-Signature`, topic `order.created`; its unsigned activation ping " +
          "`webhook_id=N` answers 200 `ignored`), at the address GET /v1/shops/{shop_external_id}/connector shows. Checked in this order: body size " +
          "(over 256 KiB is 413), connector (404), signature over the raw body with the connector's webhook secret (401, logged as " +
          "`webhook_refused`), the body (400 when it is not an order, logged). A cash-on-delivery order becomes a call; a paid or non-COD order " +
          "is skipped, an order whose phone cannot be read or whose currency is not the country's is rejected: each with its reason in " +
          'GET .../connector/events. A repeated delivery of the same order is acknowledged and changes nothing. Errors are `{"detail": "..."}`.',
        security: [],
        params: z.object({
          platform: z.enum(["shopify", "youcan", "woocommerce"]),
          shop_id: z.string().describe("The connector's opaque webhook token, from its `webhook_url`."),
        }),
        response: {
          200: z
            .object({
              status: z.literal("ok"),
              result: z.enum(["call_created", "skipped", "rejected", "duplicate", "ignored", "delivery_recorded"]),
            })
            .describe(
              "Recorded: `call_created`, `skipped` or `rejected` (see the connector's events), `duplicate` (already taken in, or a parcel event already recorded), `ignored` (another topic), `delivery_recorded` (a parcel event on a taken-in order, issue 35).",
            ),
          400: detailSchema.describe("A signed body that is not an order of this platform."),
          401: detailSchema.describe("Missing or wrong signature."),
          404: detailSchema.describe("No connector at this address."),
          413: detailSchema.describe("The body is over 256 KiB."),
          503: detailSchema.describe("No encryption key is configured: connectors are unavailable."),
        },
      },
    },
    async (req) => {
      const { platform, shop_id: token } = req.params as { platform: string; shop_id: string };
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value[0] : value;
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const { result, topic } = await receiveStoreWebhook(ctx, platform, token, { headers, rawBody });
      // Acknowledged (exactly 200: WooCommerce keeps a webhook only if its activation ping gets 200) and logged here
      // only: nothing is recorded for it.
      if (result === "ignored")
        req.log.info({ platform, topic }, "store webhook of another topic acknowledged and ignored");
      return { status: "ok" as const, result };
    },
  );
}
