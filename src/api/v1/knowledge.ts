import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { knowledgeInputSchema, knowledgeSchema, shopKnowledgeParams } from "../../schemas/knowledge.ts";
import { deleteKnowledge, getKnowledge, setKnowledge } from "../../services/knowledge.ts";

const ABOUT =
  "The shop's answers (issue 37): when a customer asks during a call (the delivery delay to their town, whether they may " +
  "open the parcel, returns, another size, how to pay, the opening hours or a contact, or one of the shop's own questions), the agent " +
  "answers from this knowledge in the call's dialect, then asks for the confirmation again. Free text is spoken as written; nothing " +
  "is invented: a question the knowledge does not answer is recorded in `outcome_details.unanswered_questions`. Calls placed after a " +
  "PUT answer from the new knowledge; POST /v1/simulations rehearses it.";

/** /v1/shops/{shop_external_id}/knowledge (issue 37). */
export function knowledgeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/shops/:shop_external_id/knowledge",
    {
      schema: {
        operationId: "getKnowledge",
        tags: ["Knowledge"],
        summary: "Read a shop's answers",
        description: ABOUT,
        params: shopKnowledgeParams,
        response: { 200: knowledgeSchema },
      },
      config: { errors: ["shop_not_found", "knowledge_not_configured"] },
    },
    (req) => getKnowledge(ctx, req.principal, req.params.shop_external_id),
  );

  r.put(
    "/shops/:shop_external_id/knowledge",
    {
      schema: {
        operationId: "setKnowledge",
        tags: ["Knowledge"],
        summary: "Set a shop's answers (replaces them)",
        description: ABOUT,
        params: shopKnowledgeParams,
        body: knowledgeInputSchema,
        response: { 200: knowledgeSchema },
      },
      config: { errors: ["shop_not_found"] },
    },
    (req) => setKnowledge(ctx, req.principal, req.params.shop_external_id, req.body),
  );

  r.delete(
    "/shops/:shop_external_id/knowledge",
    {
      schema: {
        operationId: "deleteKnowledge",
        tags: ["Knowledge"],
        summary: "Remove a shop's answers",
        params: shopKnowledgeParams,
        response: { 204: z.null().describe("Removed.") },
      },
      config: { errors: ["shop_not_found", "knowledge_not_configured"] },
    },
    async (req, reply) => {
      await deleteKnowledge(ctx, req.principal, req.params.shop_external_id);
      return reply.code(204).send(null);
    },
  );
}
