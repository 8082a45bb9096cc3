// The schemas of POST /v1/simulations and the simulate_call tool (issue 37.3): a rehearsal of the agent's dialogue
// with a shop's knowledge, against typed customer lines or a simulator persona; no phone, no billing.
import { z } from "zod";
import { CALL_OUTCOMES } from "../domain/calls.ts";
import { COUNTRIES, DIALECTS, LANGUAGES } from "../domain/locale.ts";
import { callCreateSchema, customerInputSchema, orderInputSchema, outcomeDetailsSchema } from "./calls.ts";
import { textSchema } from "./common.ts";
import { TRANSCRIPT_INTENTS } from "./transcripts.ts";

/** The simulator's customers who pick up (CONTRACT §5's test numbers 01, 02, 06 to 12). */
export const PERSONAS = [
  "confirm",
  "decline",
  "reschedule",
  "wrong_number",
  "question_then_confirm",
  "change",
  "callback",
  "hangup",
  "unintelligible",
] as const;
export type Persona = (typeof PERSONAS)[number];

export const MAX_SIMULATION_TURNS = 20;

export const simulationCreateSchema = z
  .strictObject({
    shop_external_id: callCreateSchema.shape.shop_external_id,
    customer: customerInputSchema,
    amount: callCreateSchema.shape.amount,
    country: callCreateSchema.shape.country,
    language: callCreateSchema.shape.language,
    order: orderInputSchema,
    customer_turns: z
      .array(textSchema(500))
      .min(1)
      .max(MAX_SIMULATION_TURNS)
      .optional()
      .describe(
        "The customer's lines, in order, in any profile's words (Arabic script, Latin-script Arabic, French); `1` or `2` alone is a key pressed. When they run out before the agent ends the call, the customer hangs up.",
      ),
    persona: z
      .enum(PERSONAS)
      .optional()
      .describe(
        "A simulator customer instead of lines (the behaviours of test numbers 01, 02, 06 to 12). With neither, the persona is the one the simulator gives `customer.phone_number`.",
      ),
  })
  .refine((s) => !(s.customer_turns && s.persona), {
    message: "Value error, give customer_turns or persona, not both",
    params: { type: "value_error" },
  })
  .meta({ id: "SimulationCreate" });

export const simulationTurnSchema = z
  .object({
    speaker: z.enum(["agent", "customer"]),
    text: z.string().describe("The agent's line, or the customer's words (`DTMF 1` for a key)."),
    at_seconds: z.number().describe("Simulated seconds since the customer picked up."),
    intent: z.enum(TRANSCRIPT_INTENTS).nullable().describe("Customer turns: what the classifier understood."),
    confidence: z.number().nullable().describe("Customer turns: the classifier's confidence, 0 to 1."),
    decision: z
      .enum(["act", "check", "keypad"])
      .nullable()
      .describe(
        "Customer turns heard at the confirmation question: `act` (acted on the reading), `check` (a yes/no check or the question again) or `keypad` (the keypad offered).",
      ),
    answered_from: z
      .string()
      .nullable()
      .describe(
        "Customer questions: what answered (`qa`, `delivery`, `returns`, `exchange`, `payment`, `hours`, `contact`, `open_before_paying` from the knowledge; `price`, `items` from the order) or `unanswered`.",
      ),
  })
  .meta({ id: "SimulationTurn" });

export const simulationSchema = z
  .object({
    shop_external_id: z.string(),
    country: z.enum(COUNTRIES),
    language: z.enum(LANGUAGES),
    dialect: z.enum(DIALECTS),
    outcome: z.enum(CALL_OUTCOMES).describe("What a real call with these words would decide."),
    end_reason: z
      .string()
      .describe("`completed`, or `customer_hangup` when the lines ran out (or the persona hung up) first."),
    outcome_details: outcomeDetailsSchema,
    turns: z.int().describe("Customer turns played (at most 20)."),
    transcript: z.array(simulationTurnSchema).describe("Both sides, in order."),
    billed_seconds: z.literal(0).describe("A rehearsal is never billed."),
    created_at: z.string().describe("When it ran (RFC 3339 UTC)."),
  })
  .meta({
    id: "Simulation",
    description: "A rehearsal: the outcome and outcome details a call with these words would give.",
  });

export type SimulationCreate = z.output<typeof simulationCreateSchema>;
export type SimulationOut = z.output<typeof simulationSchema>;
