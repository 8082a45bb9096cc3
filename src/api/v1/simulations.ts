import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { idempotencyKeyHeader } from "../../http/idempotency-header.ts";
import { simulationCreateSchema, simulationSchema } from "../../schemas/simulations.ts";
import { simulateCall } from "../../services/simulations.ts";

const ABOUT =
  "Rehearses a call before real ones go out (issue 37): the agent's real dialogue, with the shop's knowledge, the " +
  "intent classifier and the profile of the country and language, against `customer_turns` (the customer's lines, up to 20) or a " +
  "simulator `persona`. No phone, no billing, no call record. The answer holds both sides of the transcript with the classifier's " +
  "intents and confidences and what the agent decided, then the outcome and outcome details a call with these words would give. " +
  "20 per minute per key. With an `Idempotency-Key`, the same request within 24 hours replays the first answer (`X-Idempotent-Replay: true`).";

const headers = z.looseObject({
  "idempotency-key": z
    .string()
    .meta({ minLength: 1, maxLength: 255 })
    .optional()
    .describe(
      "Optional, 1 to 255 characters: the same request with the same key within 24 hours replays the first answer.",
    ),
});

/** POST /v1/simulations (issue 37.3). */
export function simulationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/simulations",
    {
      schema: {
        operationId: "simulateCall",
        tags: ["Knowledge"],
        summary: "Rehearse a call (no phone, no billing; 20 per minute)",
        description: ABOUT,
        headers,
        body: simulationCreateSchema,
        response: { 200: simulationSchema },
      },
      config: {
        rateClass: "simulations",
        errors: [
          "shop_not_found",
          "language_not_supported_for_country",
          "order_item_unknown_product",
          "order_item_variant_required",
          "idempotency_key_empty",
          "idempotency_key_too_long",
          "idempotency_key_conflict",
        ],
      },
      onRequest: async (req) => {
        if (req.headers["idempotency-key"] !== undefined) idempotencyKeyHeader(req.headers["idempotency-key"]);
      },
    },
    async (req, reply) => {
      const raw = req.headers["idempotency-key"];
      const key = raw === undefined ? undefined : idempotencyKeyHeader(raw);
      const answer = await simulateCall(ctx, req.principal, req.body, key);
      if (answer.replayed) reply.header("X-Idempotent-Replay", "true");
      return reply.type("application/json; charset=utf-8").send(answer.body as never);
    },
  );
}
