// The simulator's customer (CONTRACT §5). The last two digits of the number choose a behaviour, like a
// payment processor's test cards; any other number draws a persona from a seed derived from the number.
// The customer only hears the agent's words (keyword cues) and answers from its dialect's phrase bank:
// the outcome is whatever the dialogue's classifier makes of those words, never wired to the number.
import type { Dialect, Pickup, SimulatedCustomer } from "../../dialogue/types.ts";
import { ANNOUNCEMENTS, type Announcements } from "./phrases/announcements.ts";
import type { PhraseBank } from "./phrases/bank.ts";
import { dzPhrases } from "./phrases/dz.ts";
import { frPhrases } from "./phrases/fr.ts";
import { maPhrases } from "./phrases/ma.ts";
import { tnPhrases } from "./phrases/tn.ts";
import { ADDRESS_PHRASES } from "./phrases/address.ts";
import { HANDOFF_NUMBER_BEHAVIOURS, HANDOFF_PHRASES, type HandoffBehaviour } from "./transfer.ts";

export type Behaviour =
  | "confirm"
  | "decline"
  | "no_answer"
  | "busy"
  | "voicemail"
  | "reschedule"
  | "wrong_number"
  | "question_then_confirm"
  | "change"
  | "callback"
  | "hangup"
  | "unintelligible"
  // No person answers: a carrier announcement or a voicemail greeting (issue 14; numbers ending 21 to 25).
  | "not_in_service"
  | "switched_off"
  | "voicemail_undetected"
  | "unavailable"
  | "forwarded"
  // Confirm, then answer the address question (issue 35; numbers ending 16 and 17).
  | "confirm_correcting_city"
  | "confirm_adding_landmark"
  // Ask for a person, or a question the agent cannot answer (issue 34; numbers ending 13, 14 and 15).
  | HandoffBehaviour;

/** The test numbers of CONTRACT §5, by their last two digits. */
export const TEST_NUMBER_BEHAVIOURS: Readonly<Record<string, Behaviour>> = {
  "01": "confirm",
  "02": "decline",
  "03": "no_answer",
  "04": "busy",
  "05": "voicemail",
  "06": "reschedule",
  "07": "wrong_number",
  "08": "question_then_confirm",
  "09": "change",
  "10": "callback",
  "11": "hangup",
  "12": "unintelligible",
};

/**
 * Recorded messages instead of a person, beyond CONTRACT §5's 01-12 (README's simulator table): the answering-
 * machine detection says `human` for all but 22, so only the words tell the engine what answered.
 */
export const ANNOUNCEMENT_NUMBER_BEHAVIOURS: Readonly<Record<string, Behaviour>> = {
  "21": "not_in_service",
  "22": "switched_off",
  "23": "voicemail_undetected",
  "24": "unavailable",
  "25": "forwarded",
};

/** Customers who confirm and then correct the city (16) or add a landmark (17) when the address is read back (issue 35). */
export const ADDRESS_NUMBER_BEHAVIOURS: Readonly<Record<string, Behaviour>> = {
  "16": "confirm_correcting_city",
  "17": "confirm_adding_landmark",
};

const ANNOUNCED: Partial<
  Record<Behaviour, { kind: keyof Announcements; answeredBy: "human" | "machine"; closesLine: boolean }>
> = {
  not_in_service: { kind: "notInService", answeredBy: "human", closesLine: true },
  switched_off: { kind: "switchedOff", answeredBy: "machine", closesLine: true },
  voicemail_undetected: { kind: "greeting", answeredBy: "human", closesLine: false },
  unavailable: { kind: "unavailable", answeredBy: "human", closesLine: true },
  forwarded: { kind: "forwarded", answeredBy: "human", closesLine: false },
};

/** How often each behaviour meets a COD confirmation line (any number that is not a test number). */
const PERSONA_WEIGHTS: readonly [Behaviour, number][] = [
  ["confirm", 44],
  ["decline", 12],
  ["no_answer", 11],
  ["busy", 4],
  ["voicemail", 5],
  ["reschedule", 6],
  ["wrong_number", 2],
  ["question_then_confirm", 7],
  ["change", 3],
  ["callback", 4],
  ["hangup", 1],
  ["unintelligible", 1],
];

const BANKS: Record<Dialect, PhraseBank> = { ma: maPhrases, dz: dzPhrases, tn: tnPhrases, fr: frPhrases };

/** The phrase bank of a dialect's customers. */
export function phraseBank(dialect: Dialect): PhraseBank {
  return BANKS[dialect];
}

/** FNV-1a over the number's characters: a stable 32-bit seed. */
function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32: a small seeded PRNG returning [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The behaviour behind a phone number: a test number's, or a persona drawn from the number's seed. */
export function behaviourFor(phoneNumber: string): Behaviour {
  const digits = phoneNumber.replace(/\D/g, "");
  const fixed =
    TEST_NUMBER_BEHAVIOURS[digits.slice(-2)] ??
    ANNOUNCEMENT_NUMBER_BEHAVIOURS[digits.slice(-2)] ??
    ADDRESS_NUMBER_BEHAVIOURS[digits.slice(-2)] ??
    HANDOFF_NUMBER_BEHAVIOURS[digits.slice(-2)];
  if (fixed) return fixed;
  const draw = seededRandom(seedOf(digits))();
  const total = PERSONA_WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
  let threshold = draw * total;
  for (const [behaviour, weight] of PERSONA_WEIGHTS) {
    threshold -= weight;
    if (threshold < 0) return behaviour;
  }
  return "confirm";
}

/** What the agent just did, read from its words in any profile (Arabic script or French). */
export type Cue = "keypad" | "address" | "check" | "why" | "when" | "change" | "confirm" | "identity" | "other";

const CUES: readonly [Cue, RegExp][] = [
  ["keypad", /ضغط|appuyez/i],
  ["address", /العنوان|l'adresse/i],
  ["check", /(باش نتأكد|pour être sûre?)[^؟?]*(نأكد|confirme)/i],
  ["why", /علاش|علاه|pourquoi/i],
  ["when", /إمتى|امتى|وقتاش|quel jour|quand/i],
  ["change", /تبدل|modifier/i],
  ["confirm", /نأكد|confirme/i],
  ["identity", /معايا|نهدر مع|نحكي مع|parle bien avec/i],
];

/** The agent's move, by keyword: the only thing the customer understands of what it hears. */
export function cueOf(agentText: string): Cue {
  for (const [cue, pattern] of CUES) if (pattern.test(agentText)) return cue;
  return "other";
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function pickupOf(behaviour: Behaviour): Pickup {
  if (behaviour === "no_answer" || behaviour === "busy" || behaviour === "voicemail") return behaviour;
  return ANNOUNCED[behaviour] ? "voicemail" : "answer";
}

function ringSecondsFor(pickup: Pickup, random: () => number): number {
  switch (pickup) {
    case "no_answer":
      return round1(30 + random() * 15); // the network gives up after 30 to 45 s
    case "busy":
      return round1(1 + random() * 2); // the busy tone comes almost at once
    case "voicemail":
      return round1(18 + random() * 10);
    case "answer":
      return round1(3 + random() * 17);
  }
}

/**
 * A simulated customer for `phoneNumber`, speaking `dialect`; `random` chooses words and timings. `bank`
 * replaces the dialect's phrase bank (bench/conversations.ts speaks other authors' sentences with it).
 */
export function createSimulatedCustomer(
  phoneNumber: string,
  dialect: Dialect,
  random: () => number,
  bank: PhraseBank = BANKS[dialect],
): SimulatedCustomer {
  const behaviour = behaviourFor(phoneNumber);
  const pickup = pickupOf(behaviour);
  const say = (choices: readonly string[]) =>
    choices[Math.min(choices.length - 1, Math.floor(random() * choices.length))] ?? null;
  const announced = ANNOUNCED[behaviour];
  const announcement = announced
    ? {
        text: say(ANNOUNCEMENTS[dialect][announced.kind]) ?? "",
        answeredBy: announced.answeredBy,
        closesLine: announced.closesLine,
      }
    : undefined;
  let askedQuestion = false;
  let hedged = false;
  let toldWhat = false;
  // Some customers first ask who is calling; the agent introduces itself and asks again.
  let askedWho = behaviour === "wrong_number" || behaviour === "unintelligible";

  /** The answer to the confirmation question (or any turn that asks for a decision). */
  function decision(): string | null {
    switch (behaviour) {
      case "confirm_correcting_city":
      case "confirm_adding_landmark":
        return say(bank.confirm);
      case "confirm":
        // Some customers hedge first ("inshallah"), then say yes when asked again.
        if (!hedged && random() < 0.2) {
          hedged = true;
          return say(bank.hedge);
        }
        return say(bank.confirm);
      case "decline":
        return say(bank.decline);
      case "reschedule":
        return say(bank.reschedule);
      case "question_then_confirm":
        if (!askedQuestion) {
          askedQuestion = true;
          return say(bank.question);
        }
        return say(bank.confirm);
      case "change":
        if (toldWhat) return say(bank.changeDetails);
        toldWhat = true;
        return say(bank.change);
      case "callback":
        return say(bank.callback);
      case "asks_for_person":
      case "asks_for_person_unanswered":
        return say(HANDOFF_PHRASES[dialect].person);
      case "unanswerable_question":
        return say(HANDOFF_PHRASES[dialect].question);
      case "wrong_number":
        return say(bank.wrongPerson);
      default:
        return say(bank.mumble);
    }
  }

  /** What a customer who knows what they want answers to a yes/no check about the order. */
  function yesNo(): string | null {
    if (confirms()) return say(bank.shortYes);
    if (behaviour === "decline") return say(bank.shortNo);
    return decision();
  }

  /** Whether this customer confirms the order (the address personas 16 and 17 too: they confirm, then correct). */
  function confirms(): boolean {
    return (
      behaviour === "confirm" ||
      behaviour === "question_then_confirm" ||
      behaviour === "confirm_correcting_city" ||
      behaviour === "confirm_adding_landmark"
    );
  }

  /** The key a customer presses when offered the keypad: 1 confirms, 2 cancels; the others say something. */
  function keypad(): string | null {
    if (confirms()) return "1";
    if (behaviour === "decline") return "2";
    return null;
  }

  function answer(cue: Cue): string | null {
    if (behaviour === "wrong_number") return say(bank.wrongPerson);
    if (cue === "address") {
      if (behaviour === "confirm_correcting_city") return say(ADDRESS_PHRASES[dialect].correctCity);
      if (behaviour === "confirm_adding_landmark") return say(ADDRESS_PHRASES[dialect].landmark);
      return say(bank.shortYes);
    }
    if (cue === "check") return yesNo();
    if (cue === "identity") {
      if (!askedWho) {
        askedWho = true;
        if (random() < 0.12) return say(bank.whoIsCalling);
      }
      return say(bank.identityYes);
    }
    if (cue === "why") return behaviour === "decline" ? say(bank.declineReason) : decision();
    if (cue === "when") {
      if (behaviour === "reschedule") return say(bank.rescheduleDay);
      if (behaviour === "callback") return say(bank.callbackTime);
      return decision();
    }
    if (cue === "change" && behaviour === "change") {
      toldWhat = true;
      return say(bank.changeDetails);
    }
    return decision();
  }

  return {
    pickup,
    ringSeconds: announced?.closesLine ? round1(1 + random() * 3) : ringSecondsFor(pickup, random), // announcements come at once
    ...(announcement ? { announcement } : {}),
    reply(agentText, _turn) {
      const thinkSeconds = round1(0.5 + random() * 2.5);
      if (pickup !== "answer") return { text: null, hangup: true, thinkSeconds: 0 };
      const cue = cueOf(agentText);
      if (cue === "keypad") {
        const digits = keypad();
        if (digits) return { text: null, digits, hangup: false, thinkSeconds };
      }
      // 11 listens to the read-back, then hangs up without a word.
      if (behaviour === "hangup" && cue !== "identity") return { text: null, hangup: true, thinkSeconds };
      if (behaviour === "unintelligible") {
        return { text: random() < 0.25 ? null : say(bank.mumble), hangup: false, thinkSeconds };
      }
      return { text: answer(cue), hangup: false, thinkSeconds };
    },
  };
}
