// Rehearsals (issue 37.3): the real dialogue of a call (createDialogue, the same classifier, the shop's knowledge)
// played against typed customer lines or a simulator persona, with no phone, no clock to wait on and no billing.
// Time advances as the simulator counts it (words spoken, a moment to think), so dates and durations match a call.
import { speechSeconds } from "./speech/talk-time.ts";
import { createDialogue } from "./dialogue/flow.ts";
import type {
  DialogueOrder,
  DialogueResult,
  IntentClassifier,
  SimulatedCustomer,
  TranscriptEntry,
} from "./dialogue/types.ts";

/** At most this many customer turns in one rehearsal. */
export const MAX_REHEARSAL_TURNS = 20;
/** Seconds a customer takes to answer in a rehearsal with typed lines. */
const THINK_SECONDS = 1;

export interface RehearsalOptions {
  classifier: IntentClassifier;
  now: Date;
  /** Chooses among the agent's equivalent phrasings (seeded, so a replay says the same). */
  random: () => number;
}

/** Who speaks for the customer: typed lines ("1" or "2" alone is a key pressed), or a simulator persona. */
export type RehearsalCustomer = { lines: readonly string[] } | { persona: SimulatedCustomer };

export interface Rehearsal {
  transcript: TranscriptEntry[];
  result: DialogueResult;
  /** Customer turns played. */
  turns: number;
}

/**
 * Plays one conversation to its end: the agent's opening, then each customer turn until the agent closes the call,
 * the persona hangs up, or the lines run out (the customer then hangs up: `customer_hangup`, as on a call).
 */
export async function rehearse(
  order: DialogueOrder,
  customer: RehearsalCustomer,
  options: RehearsalOptions,
): Promise<Rehearsal> {
  // A GSM line carries keys, as the simulator's does: the keypad offer happens here as it would on a call.
  const dialogue = createDialogue(order, {
    classifier: options.classifier,
    now: options.now,
    random: options.random,
    digits: true,
  });
  let turn = dialogue.opening();
  let at = 0;
  let turns = 0;
  const persona = "persona" in customer ? customer.persona : null;
  const lines = "lines" in customer ? customer.lines : [];
  while (!turn.end && turns < MAX_REHEARSAL_TURNS) {
    at += speechSeconds(turn.text);
    let text: string | null;
    let digits: string | undefined;
    if (persona) {
      const reply = persona.reply(turn.text, turns);
      at += reply.thinkSeconds;
      if (reply.hangup) break; // words said while hanging up decide nothing on a call either
      text = reply.text;
      digits = reply.digits;
    } else {
      if (turns >= lines.length) break;
      const line = lines[turns]!.trim();
      at += THINK_SECONDS;
      digits = /^[0-9*#]$/.test(line) ? line : undefined;
      text = digits ? null : line || null;
    }
    turns += 1;
    turn = digits && dialogue.press ? await dialogue.press(digits, at) : await dialogue.hear(text, at);
  }
  const result = dialogue.result() ?? dialogue.interrupt("customer_hangup", at);
  return { transcript: dialogue.transcript(), result, turns };
}
