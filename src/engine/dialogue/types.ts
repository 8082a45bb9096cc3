// The contract between the call engine's parts: the dialogue (what the agent says and understands), the
// simulated customer (the simulator's other end of the line) and the dialer that runs a call through a
// telephony provider. Changing it means changing all three.
import type { CallOutcome } from "../../domain/calls.ts";
import type { HandoffTrigger, TransferStatus } from "../../domain/handoff.ts";
import type { Country, Currency, Dialect, Language } from "../../domain/locale.ts";
import type { ShopKnowledge } from "./knowledge-types.ts";

export type { Dialect };
export type Intent =
  | "confirm"
  | "cancel"
  | "reschedule"
  | "callback"
  | "change_request"
  | "wrong_number"
  | "question"
  | "unclear";

export interface Classification {
  intent: Intent;
  confidence: number;
  /** The reply holds both an assent and a denial ("wakha... la"): the dialogue checks before deciding. */
  mixed?: boolean;
}

/** Understands a customer's reply (CONTRACT §5b); the local classifier is the default implementation. */
export interface IntentClassifier {
  classify(text: string, country: Country): Classification | Promise<Classification>;
}

/** What the agent knows about the order it confirms. */
export interface DialogueOrder {
  shopName: string;
  customerName: string;
  country: Country;
  language: Language;
  dialect: Dialect;
  /** Decimal string. */
  amount: string;
  currency: Currency;
  items: { name: string; variant: string | null; quantity: number; unit_price: string | null }[];
  /** The delivery address given with the call (issue 35): read back after a confirmation when present. */
  address?: { city: string; line1?: string | undefined } | null;
  /** The shop's answers (issue 37), read with the shop when the call is placed: what the agent may answer beyond the order. */
  knowledge?: ShopKnowledge | null;
}

/** One thing the agent says; `end` means it hangs up right after saying it. */
export interface AgentTurn {
  text: string;
  end: boolean;
  /**
   * Issue 34: after saying `text` ("I am putting you through"), the dialer transfers the call to the shop's person,
   * then tells the dialogue how it went (Dialogue.transferred). `question`: the customer's words for an unanswered question.
   */
  transfer?: { reason: HandoffTrigger; question: string | null };
}

export interface TranscriptEntry {
  speaker: "agent" | "customer";
  text: string;
  /** Seconds since the call was answered (simulated seconds). */
  at: number;
  intent?: Intent;
  confidence?: number;
  /** Customer turns at the confirmation question: what the dialogue did with the reading (flow.ts decision()). */
  decision?: "act" | "check" | "keypad";
  /** Customer questions: the knowledge that answered (`price`, `items` and `delivery` from the order), or `unanswered`. */
  answered_from?: string;
}

/** Typed per outcome (CONTRACT §4): reason, preferred_date, callback_at, changes; transcript_excerpt always. */
export interface DialogueResult {
  outcome: CallOutcome;
  outcome_details: Record<string, unknown> & { transcript_excerpt: string };
  end_reason: string;
}

export type Interruption = "customer_hangup" | "balance_exhausted" | "canceled" | "line_dropped";

/** One conversation, driven turn by turn by the dialer. */
export interface Dialogue {
  /** The greeting naming the shop and the identity check. */
  opening(): AgentTurn;
  /** The customer's recognised words at `at` seconds; null is silence or nothing recognisable. */
  hear(utterance: string | null, at: number): Promise<AgentTurn>;
  /** Keys the customer pressed (DTMF), on carriers that carry digits; answers the keypad offer. */
  press?(digits: string, at: number): Promise<AgentTurn>;
  /** Settles the conversation when it is cut short (the agent says nothing more). */
  interrupt(reason: Interruption, at: number): DialogueResult;
  /** Set once a turn with `end: true` has been produced, or after interrupt(). */
  result(): DialogueResult | null;
  transcript(): TranscriptEntry[];
  /** The customer objected to the recording during the call (issue 36): none of it may be kept. */
  recordingDeclined?(): boolean;
  /**
   * Issue 34: how the transfer a turn asked for ended. `bridged`: the person took the call; the dialogue ends
   * (`no_decision`, end reason `transferred`: the person settles the order). Otherwise the agent says a person will
   * call back and the call ends `callback_requested`.
   */
  transferred?(status: TransferStatus, at: number): AgentTurn;
}

/** How the simulated line behaves before anyone speaks (CONTRACT §5: numbers ending 03, 04, 05). */
export type Pickup = "answer" | "no_answer" | "busy" | "voicemail";

/** The simulator's customer: speaks its dialect from its own phrase bank, never from a wired outcome. */
export interface SimulatedCustomer {
  pickup: Pickup;
  /** Seconds of ringing before pickup (or before giving up). */
  ringSeconds: number;
  /**
   * With pickup `voicemail`: what the line says instead of the default voicemail greeting (a carrier
   * announcement or a personal greeting), what answering-machine detection reports, and whether the carrier
   * closes the line after it (announcements) or waits for a message (voicemail boxes).
   */
  announcement?: { text: string; answeredBy: "human" | "machine"; closesLine: boolean };
  /**
   * The customer's answer to what the agent just said; `hangup` ends the call after `text` (if any);
   * `digits` are keys pressed instead of speaking (the keypad offer).
   */
  reply(
    agentText: string,
    turn: number,
  ): { text: string | null; hangup: boolean; thinkSeconds: number; digits?: string };
}
