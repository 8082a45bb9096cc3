// set_handoff, get_handoff, delete_handoff: a shop's warm transfer to a person (issue 34), /v1/shops/{shop_external_id}/handoff.
import { z } from "zod";
import { handoffInputSchema, handoffParams, handoffSchema } from "../../schemas/handoff.ts";
import { deleteHandoff, getHandoff, setHandoff } from "../../services/handoff.ts";
import { defineTool, rootObject } from "./tool.ts";

const PATH = "/v1/shops/{shop_external_id}/handoff";
const params = { shop_external_id: handoffParams.shape.shop_external_id };

export const setHandoffTool = defineTool({
  name: "set_handoff",
  title: "Transfer a shop's calls to a person",
  description:
    "Sets (replaces) where the shop's calls are handed over to a person: `phone_number` (E.164, mobile or fixed line of the shop's country), `triggers` (customer_asks, unanswered_question, unclear, angry), `ring_timeout_seconds` (5 to 60) and optional weekly `hours` in the shop's time zone. When a trigger happens the agent tells the customer it is putting them through, the person hears a short brief (customer, order, total, why) and is bridged; unanswered, busy or outside hours, the call ends callback_requested with transfer.status saying why.",
  input: z.strictObject({ ...params, ...handoffInputSchema.shape }),
  output: rootObject(handoffSchema, "The shop's handoff."),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "PUT", path: PATH },
  run: ({ shop_external_id, ...input }, { ctx, who }) => setHandoff(ctx, who, shop_external_id, input),
});

export const getHandoffTool = defineTool({
  name: "get_handoff",
  title: "Read a shop's handoff to a person",
  description:
    "Reads where and when the shop's calls are handed over to a person: the number, the triggers, the ring timeout and the hours (with their time zone). A shop without one is handoff_not_configured; another account's shop is shop_not_found.",
  input: z.strictObject(params),
  output: rootObject(handoffSchema, "The shop's handoff."),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: PATH },
  run: ({ shop_external_id }, { ctx, who }) => getHandoff(ctx, who, shop_external_id),
});

export const deleteHandoffTool = defineTool({
  name: "delete_handoff",
  title: "Stop transferring a shop's calls",
  description:
    "Removes the shop's handoff: from then on a customer asking for a person (or a question the agent cannot answer) is promised a callback, as before. A shop without one is handoff_not_configured; another account's shop is shop_not_found.",
  input: z.strictObject(params),
  output: z.object({ deleted: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "DELETE", path: PATH },
  run: async ({ shop_external_id }, { ctx, who }) => {
    await deleteHandoff(ctx, who, shop_external_id);
    return { deleted: true as const };
  },
});

export const HANDOFF_TOOLS = [setHandoffTool, getHandoffTool, deleteHandoffTool];
