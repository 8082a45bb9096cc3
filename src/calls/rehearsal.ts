// A rehearsal (issue 37.3) as a use case of the call's: the dialogue a call would run (engine/rehearsal.ts), with the
// node's classifier and the shop's knowledge, against typed lines or a simulator persona; no call row, no billing.
import type { AppContext } from "../context.ts";
import type { ShopKnowledge as ApiKnowledge } from "../schemas/knowledge.ts";
import type { Dialect, DialogueOrder } from "../engine/dialogue/types.ts";
import { type Rehearsal, rehearse, type RehearsalCustomer } from "../engine/rehearsal.ts";
import {
  createSimulatedCustomer,
  seededRandom,
  TEST_NUMBER_BEHAVIOURS,
} from "../engine/telephony/simulator/customer.ts";

export type { Rehearsal, DialogueOrder as RehearsalOrder };

/** A simulator persona a rehearsal may name (its behaviour, as the test numbers' last two digits give it). */
export type RehearsalPersona = (typeof TEST_NUMBER_BEHAVIOURS)[keyof typeof TEST_NUMBER_BEHAVIOURS];

/** A number that gives the simulator's `persona` (its test digits), in the customer's own number's country. */
function personaNumber(phone: string, persona: RehearsalPersona): string {
  const digits = Object.entries(TEST_NUMBER_BEHAVIOURS).find(([, b]) => b === persona)?.[0] ?? "01";
  return `${phone.slice(0, -2)}${digits}`;
}

export interface RehearsalInput {
  order: DialogueOrder;
  dialect: Dialect;
  /** Typed lines, or the simulator's customer for this number (and persona, when named). */
  customer: { lines: readonly string[] } | { phoneNumber: string; persona?: RehearsalPersona | undefined };
  /** Seeds the agent's and the simulated customer's choices, so the same request says the same words. */
  seed: number;
  now: Date;
}

/** Plays a rehearsal with the node's classifier (the one its calls use). */
export function playRehearsal(ctx: AppContext, input: RehearsalInput): Promise<Rehearsal> {
  const customer: RehearsalCustomer =
    "lines" in input.customer
      ? { lines: input.customer.lines }
      : {
          persona: createSimulatedCustomer(
            input.customer.persona
              ? personaNumber(input.customer.phoneNumber, input.customer.persona)
              : input.customer.phoneNumber,
            input.dialect,
            seededRandom(input.seed ^ 0x5bd1e995),
          ),
        };
  return rehearse(input.order, customer, {
    classifier: ctx.classifier(),
    now: input.now,
    random: seededRandom(input.seed),
  });
}

// The API's knowledge, as validated, is what the dialogue reads: the compiler checks the two shapes agree.
type Agrees<A extends B, B> = A;
export type KnowledgeHandedToTheDialogue = Agrees<ApiKnowledge, DialogueOrder["knowledge"] & object>;
