import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { handoffInputSchema, handoffParams, handoffSchema } from "../../schemas/handoff.ts";
import { deleteHandoff, getHandoff, setHandoff } from "../../services/handoff.ts";

const ONE = "/shops/:shop_external_id/handoff";
const ABOUT =
  "A shop's warm transfer to a person (issue 34): when one of the `triggers` happens during a call, the agent tells the customer " +
  "it is putting them through and dials `phone_number` with the call's caller id; the person hears a short brief (customer, order, total, why) " +
  "before being bridged, and may refuse by hanging up during it. Unanswered within `ring_timeout_seconds`, busy, or outside `hours`: the agent " +
  "comes back, says a person will call back, and the call ends `callback_requested` with `transfer.status` saying why.";

/** /v1/shops/{shop_external_id}/handoff: set, read, remove. */
export function handoffRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.put(
    ONE,
    {
      schema: {
        operationId: "setHandoff",
        tags: ["Calling policy"],
        summary: "Set the shop's handoff to a person (replaces it)",
        description: `${ABOUT} The number follows a call's dialling rules (mobile or fixed line, of the shop's country): another is 422 phone_number_not_allowed.`,
        params: handoffParams,
        body: handoffInputSchema,
        response: { 200: handoffSchema },
      },
      config: { errors: ["shop_not_found", "phone_number_not_allowed"] },
    },
    (req) => setHandoff(ctx, req.principal, req.params.shop_external_id, req.body),
  );

  r.get(
    ONE,
    {
      schema: {
        operationId: "getHandoff",
        tags: ["Calling policy"],
        summary: "Read the shop's handoff to a person",
        description: ABOUT,
        params: handoffParams,
        response: { 200: handoffSchema },
      },
      config: { errors: ["shop_not_found", "handoff_not_configured"] },
    },
    (req) => getHandoff(ctx, req.principal, req.params.shop_external_id),
  );

  r.delete(
    ONE,
    {
      schema: {
        operationId: "deleteHandoff",
        tags: ["Calling policy"],
        summary: "Remove the shop's handoff",
        description:
          "The shop's calls are no longer transferred: a customer asking for a person is promised a callback, as before.",
        params: handoffParams,
        response: { 204: z.null().describe("Removed.") },
      },
      config: { errors: ["shop_not_found", "handoff_not_configured"] },
    },
    async (req, reply) => {
      await deleteHandoff(ctx, req.principal, req.params.shop_external_id);
      return reply.code(204).send(null);
    },
  );
}
