// set_knowledge, get_knowledge, delete_knowledge: the shop's answers (/v1/shops/{shop_external_id}/knowledge, issue 37).
import { z } from "zod";
import { knowledgeInputSchema, knowledgeSchema } from "../../schemas/knowledge.ts";
import { deleteKnowledge, getKnowledge, setKnowledge } from "../../services/knowledge.ts";
import { defineTool, rootObject } from "./tool.ts";

const shopKey = { shop_external_id: z.string().describe("The shop's `external_id`, as given at create_shop.") };

export const getKnowledgeTool = defineTool({
  name: "get_knowledge",
  title: "Read a shop's answers",
  description:
    "Reads what the voice agent answers when the shop's customers ask during a call: delivery delays (default and per city or region), whether the parcel may be opened before paying, the return and exchange policy, payment methods, opening hours, a contact channel and up to 50 questions and answers per language. Error knowledge_not_configured when none is set; shop_not_found for a missing or archived shop.",
  input: z.strictObject(shopKey),
  output: rootObject(knowledgeSchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/shops/{shop_external_id}/knowledge" },
  run: ({ shop_external_id }, { ctx, who }) => getKnowledge(ctx, who, shop_external_id),
});

export const setKnowledgeTool = defineTool({
  name: "set_knowledge",
  title: "Set a shop's answers",
  description:
    "Replaces, as a whole, what the voice agent answers when customers ask: `delivery` ({default: {min_days, max_days}, areas: [{names, min_days, max_days}]}), `open_before_paying`, `returns` ({accepted, days, exchange, fee, note}), `payment_methods` (cash, card_on_delivery, transfer), `opening_hours` and `qa[].answer` as text per language (`fr`, `ar`, or `ar_ma`/`ar_dz`/`ar_tn` for one dialect), spoken exactly as written, `contact` ({channel, value}) and `qa` (up to 50, each with `keywords` that identify the question in the customer's words). Anything left out is not answered: the question is recorded in the call's `outcome_details.unanswered_questions`. Try it with simulate_call before real calls.",
  input: z.strictObject({ ...shopKey, ...knowledgeInputSchema.shape }),
  output: rootObject(knowledgeSchema),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "PUT", path: "/v1/shops/{shop_external_id}/knowledge" },
  run: ({ shop_external_id, ...knowledge }, { ctx, who }) => setKnowledge(ctx, who, shop_external_id, knowledge),
});

export const deleteKnowledgeTool = defineTool({
  name: "delete_knowledge",
  title: "Remove a shop's answers",
  description:
    "Removes the shop's knowledge: calls placed afterwards answer questions only from the order and record the others as unanswered. Error knowledge_not_configured when none is set.",
  input: z.strictObject(shopKey),
  output: z.object({ deleted: z.literal(true).describe("The knowledge is gone.") }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "DELETE", path: "/v1/shops/{shop_external_id}/knowledge" },
  run: async ({ shop_external_id }, { ctx, who }) => {
    await deleteKnowledge(ctx, who, shop_external_id);
    return { deleted: true as const };
  },
});

export const KNOWLEDGE_TOOLS = [getKnowledgeTool, setKnowledgeTool, deleteKnowledgeTool];
