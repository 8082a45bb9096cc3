// simulate_call: a rehearsal of the agent's dialogue with the shop's knowledge (POST /v1/simulations, issue 37.3).
import { z } from "zod";
import { simulationCreateSchema, simulationSchema } from "../../schemas/simulations.ts";
import { simulateCall } from "../../services/simulations.ts";
import { defineTool, parseArguments, rootObject } from "./tool.ts";

const input = z.strictObject({
  ...simulationCreateSchema.shape,
  idempotency_key: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe("Optional: the same arguments with the same key within 24 hours return the first answer."),
});

export const simulateCallTool = defineTool({
  name: "simulate_call",
  title: "Rehearse a call",
  description:
    "Runs the voice agent's real dialogue for an order, as create_call would, but with no phone, no billing and no call record: the customer's words are `customer_turns` (up to 20 lines, any dialect or French; \"1\" or \"2\" alone is a key pressed) or a simulator `persona` (confirm, decline, reschedule, wrong_number, question_then_confirm, change, callback, hangup, unintelligible). Returns the two-sided transcript with each customer turn's intent, confidence, decision and what answered a question (the shop's knowledge, the order, or `unanswered`), then the outcome and outcome_details a real call would give. Use it to check a shop's answers (set_knowledge) before going live. 20 per minute per key.",
  input,
  output: rootObject(simulationSchema),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "simulations",
  mirrors: { method: "POST", path: "/v1/simulations" },
  run: async ({ idempotency_key, ...body }, { ctx, who }) => {
    const parsed = parseArguments(simulationCreateSchema, body);
    return JSON.parse((await simulateCall(ctx, who, parsed, idempotency_key)).body) as z.input<typeof simulationSchema>;
  },
});

export const SIMULATION_TOOLS = [simulateCallTool];
