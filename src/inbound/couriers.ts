// GET|POST /couriers/{courier}/{token}: a courier's parcel webhooks (issue 35), outside /v1. `token` is the opaque part
// of the shop's courier webhook address (GET /v1/shops/{shop_external_id}/couriers/{courier} shows it); the courier's
// signature is checked with that shop's secret by the courier's adapter (src/connectors/couriers/).
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { COURIERS } from "../domain/delivery.ts";
import { answerCourierChallenge, receiveCourierWebhook } from "../services/couriers.ts";
import { detailSchema, INBOUND_BODY_LIMIT, passThrough, rawBodyScope } from "./raw-body-scope.ts";

const params = z.object({
  courier: z.enum(COURIERS),
  token: z.string().describe("The opaque token of the shop's courier webhook address."),
});

/** Registers /couriers/... in its own scope: raw body parser with the 256 KiB inbound limit, legacy errors. */
export async function courierWebhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  rawBodyScope(app, ctx.config.docsUrl);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/couriers/:courier/:token",
    {
      schema: {
        operationId: "answerCourierChallenge",
        tags: ["Inbound"],
        summary: "Answer a courier's ownership check",
        description:
          "The courier checks the address it posts to (Yalidine: `?subscribe=1&crc_token=...`, answered with the token as text).",
        security: [],
        params,
        querystring: z.looseObject({
          subscribe: z.string().optional().describe("Set by the courier's check."),
          crc_token: z.string().optional().describe("The token to answer with."),
        }),
        response: { 200: z.string(), 400: detailSchema, 404: detailSchema },
      },
    },
    async (req, reply) => {
      const { courier, token } = req.params as { courier: string; token: string };
      const answer = await answerCourierChallenge(ctx, courier, token, req.query as Record<string, string | undefined>);
      if (answer === null)
        return reply
          .code(400)
          .type("application/json")
          .send({ detail: "Not a challenge: the courier posts its events to this address." });
      return reply.code(200).type("text/plain; charset=utf-8").send(answer);
    },
  );
  r.post(
    "/couriers/:courier/:token",
    {
      bodyLimit: INBOUND_BODY_LIMIT,
      validatorCompiler: passThrough,
      schema: {
        operationId: "receiveCourierWebhook",
        tags: ["Inbound"],
        summary: "Receive a courier's parcel events (signed by the courier)",
        description:
          "Checked in this order: body size (413), address (404), signature over the raw body with the shop's secret (401), body (400). " +
          "Each event is applied once (by its id); a status change becomes a delivery event on the parcel's order, whatever order they arrive in.",
        security: [],
        params,
        response: {
          200: z.object({
            status: z.literal("ok"),
            recorded: z.int(),
            duplicates: z.int(),
            linked: z.int(),
            ignored: z.int(),
          }),
          400: detailSchema,
          401: detailSchema,
          404: detailSchema,
          413: detailSchema,
          503: detailSchema,
        },
      },
    },
    async (req) => {
      const { courier, token } = req.params as { courier: string; token: string };
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value[0] : value;
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      return { status: "ok" as const, ...(await receiveCourierWebhook(ctx, courier, token, headers, rawBody)) };
    },
  );
}
