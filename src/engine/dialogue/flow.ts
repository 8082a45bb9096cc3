// The confirmation call, turn by turn: greeting and identity check, the order read back, the confirmation
// question, then one branch per intent (CONTRACT §4, §5b). What the customer means comes only from the
// injected classifier and the slot extractors; the words the agent says come from the dialect profile.
import type { CallOutcome } from "../../domain/calls.ts";
import { DO_NOT_CALL_END_REASON } from "../../domain/do-not-call.ts";
import type { HandoffTrigger, TransferStatus } from "../../domain/handoff.ts";
import { isBareNo, isBareYes, isDrawnOut, knownQuestionTopic, relativeDelayMinutes } from "./cues.ts";
import { asksForPerson, nobodyLine, soundsAngry, transferringLine, unansweredQuestion } from "./handoff.ts";
import { addressNoted, addressQuestion, readAddressReply } from "./address.ts";
import { asksNotToBeCalled, doNotCallClosing } from "./do-not-call.ts";
import { answerFromKnowledge, knowledgeTopic, noAnswerLine } from "./knowledge.ts";
import { objectsToRecording } from "./recording-objection.ts";
import { localDate, localToUtc, nextDay, utcIso } from "../../domain/local-time.ts";
import { dz, dzFrench } from "./profiles/dz.ts";
import { fr } from "./profiles/fr.ts";
import { ma, maFrench } from "./profiles/ma.ts";
import type { Choose, DialogueProfile } from "./profiles/profile.ts";
import { tn, tnFrench } from "./profiles/tn.ts";
import { namesOnlyTheOrder } from "./order-values.ts";
import { readReply } from "./reading.ts";
import type { Country } from "./lexicon/index.ts";
import { combineChanges, extractChanges, extractClock, extractDate, extractReason } from "./slots.ts";
import type {
  AgentTurn,
  Classification,
  Dialogue,
  DialogueOrder,
  DialogueResult,
  IntentClassifier,
  Interruption,
  TranscriptEntry,
} from "./types.ts";

export interface DialogueOptions {
  classifier: IntentClassifier;
  /** The moment the call takes place: relative days ("next Saturday") are counted from it. */
  now: Date;
  /** Chooses among equivalent phrasings; Math.random when omitted. */
  random?: () => number;
  /** The line carries keypad digits (DTMF): after two unclear turns the agent offers "press 1 or 2". */
  digits?: boolean;
  /** Issue 34: the shop's handoff triggers; a trigger listed here transfers the call to a person instead of today's ending. */
  handoff?: readonly HandoffTrigger[];
  /**
   * Issue 34 / 37: the trigger point of an unanswered question (a question the agent has no answer for), called with
   * the customer's words whether or not the shop transfers it.
   */
  onUnansweredQuestion?: (question: string) => void;
}

/** Unclear replies tolerated before giving up: the question is asked at most three times. */
const MAX_REASKS = 2;
/** Questions answered before the next one counts as unclear (a customer looping on questions). */
const MAX_QUESTIONS = 3;
/** Hour used for a callback day named without a time. */
const DEFAULT_CALLBACK_HOUR = 10;
const EXCERPT_MAX = 280;
/** Unanswered questions kept on a call (each cut at EXCERPT_MAX characters). */
const MAX_UNANSWERED = 10;
/** Confidence a plain yes needs to overturn a decline or a change request the customer gave a moment before. */
const CHANGE_OF_MIND = 0.8;
/**
 * Below this confidence a confirm, cancel or wrong number is not decided: the agent asks a short yes/no check
 * ("so I confirm the order, yes?"). These decisions cost a shipped parcel, a lost sale or a lost customer.
 */
export const SURE = 0.7;
/** A confirmation ships a parcel: it needs more than a cancel or a wrong number to be decided at once. */
export const SURE_TO_CONFIRM = 0.85;
/**
 * Below this confidence a reschedule, callback or change request is not settled on the reply that made it, even when
 * the reply names its day, time or change: the agent asks that detail, and the answer says again what the customer
 * means (issue 33, round 14: on replies no training had seen, such readings acted on were wrong about half the time).
 */
export const SURE_OF_REQUEST = 0.8;
const COSTLY = new Set<Classification["intent"]>(["confirm", "cancel", "wrong_number"]);
/** The reading each pending outcome came from (a detail question's answer that reads the same gives its detail). */
const OUTCOME_INTENT: Partial<Record<CallOutcome, Classification["intent"]>> = {
  declined: "cancel",
  rescheduled: "reschedule",
  callback_requested: "callback",
  change_requested: "change_request",
};
/** The readings whose detail the agent asks (a day, a time, the change) before the call ends on them. */
const REQUESTS = new Set<Classification["intent"]>(["reschedule", "callback", "change_request"]);

/** Whether a reading is clean enough to act on without a yes/no check (CONTRACT §5b's costly labels). */
export function decidable(c: Classification): boolean {
  if (!COSTLY.has(c.intent)) return true;
  return c.mixed !== true && c.confidence >= (c.intent === "confirm" ? SURE_TO_CONFIRM : SURE);
}

/**
 * What the dialogue does with a reply to the confirmation question (`wakha classify --decision`, issue 33): "act" on
 * the reading (settle it, or ask its detail: reason, day, time, change; a question is answered), "check" (the reading
 * is not acted on: a short yes/no check, the question again, or the agent gives up after the third unclear turn), or
 * "keypad" (on a line that carries digits, the second unclear turn offers "press 1 or 2").
 */
export type Decision = "act" | "check" | "keypad";

/** Where the call stands when a reply to the confirmation question is heard. */
export interface TurnState {
  /** The agent's last words were the yes/no check ("so I confirm the order, yes?"). */
  answersCheck: boolean;
  /** Unclear turns so far in the call. */
  unclear: number;
  /** Questions answered so far. */
  questions: number;
  /** The line carries keypad digits (DialogueOptions.digits). */
  digits: boolean;
  /** The keypad was offered already. */
  keypadOffered: boolean;
}

/** The first reply heard after the confirmation question, on a line without digits. */
export const FIRST_REPLY: Readonly<TurnState> = {
  answersCheck: false,
  unclear: 0,
  questions: 0,
  digits: false,
  keypadOffered: false,
};

/** A costly decision the classifier is not sure of, or a reply with both a yes and a no in it. */
export function unsure(c: Classification, text: string, answersCheck: boolean): boolean {
  if (!COSTLY.has(c.intent)) return false;
  if (c.mixed === true) return true;
  if (c.intent === "cancel" && isBareNo(text)) return false; // "no." to "shall I confirm?" is clear
  if (c.intent === "confirm" && answersCheck && answersYes(text)) return false; // "yes." to "so I confirm, yes or no?" too
  return !decidable(c);
}

/**
 * A reply to the yes/no check ("so I confirm, yes or no?"): a bare yes ("نعم", "iyeh") is its answer, a confirm, even
 * where the model alone reads it `unclear` (round 17 lets a bare "نعم" read so on the first reply, where it is also
 * "yes?", "pardon?"; asked yes or no, it is the yes; round 22).
 */
export function asCheckAnswer(c: Classification, text: string): Classification {
  return c.intent === "unclear" && answersYes(text) ? { ...c, intent: "confirm" } : c;
}

/**
 * A yes and nothing else, not drawn out ("ihhh" to "yes or no?" is still a murmur: round 28): the answer yes to the
 * yes/no check (the simulated conversations use it too: scripts/classifier/conversations.ts).
 */
export function answersYes(text: string): boolean {
  return isBareYes(text) && !isDrawnOut(text);
}

/** Whether the next unclear turn offers the keypad instead of asking again (the second one about the order). */
export function offersKeypad(state: TurnState, stage: "identity" | "confirmation" | "other"): boolean {
  const next = state.unclear + 1;
  return state.digits && stage === "confirmation" && next >= 2 && next <= MAX_REASKS && !state.keypadOffered;
}

/**
 * The decision on a reply heard after the confirmation question: the one path the calls take (createDialogue's
 * decide() calls it) and `wakha classify --decision` prints.
 */
export function decision(c: Classification, text: string, country: Country, state: TurnState = FIRST_REPLY): Decision {
  // A request read below SURE_OF_REQUEST: its detail is asked, never settled from this reply ("check", not the keypad).
  if (REQUESTS.has(c.intent) && (c.confidence < SURE_OF_REQUEST || c.mixed === true)) return "check";
  // And a request that only the reader saw, in a reply the reading finds no request in and that ends on a yes to the
  // order ("c'est mon fils qui a commandé … le maillot du PSG taille 12 ans, envoyez-le"): its detail is asked
  // (with "did I hear you right?"), never settled from this reply (round 27).
  if (REQUESTS.has(c.intent)) {
    const read = readReply(text, country);
    if (read.request === null && read.yesToOrder && (read.endsOnYes === true || read.endsOnTake === true))
      return "check";
  }
  // Whatever read it (the local model, a language model), a confirm whose reading holds a request is not acted on.
  // And a confirm is acted on only when the reply is a yes to the order ("send it", "I confirm") with no "if" in it,
  // or a yes and nothing else: a yes-word next to any clause the reading does not resolve ("wakha, ana f dar ghedda", "oui oui,
  // allez-y") gets the yes/no check, which costs one turn, never a wrong outcome.
  const reading = c.intent === "confirm" ? readReply(text, country) : null;
  const request =
    reading !== null && (reading.request !== null || !((reading.firmYes && !reading.conditional) || reading.plainYes));
  const asksAgain =
    c.intent === "unclear" ||
    request ||
    unsure(c, text, state.answersCheck) ||
    (c.intent === "question" && state.questions + 1 > MAX_QUESTIONS);
  if (!asksAgain) return "act";
  if (c.intent === "wrong_number") return "check"; // "am I speaking with <name>, yes or no?"
  return offersKeypad(state, "confirmation") ? "keypad" : "check";
}

/**
 * A yes to "am I speaking with <name>?": a confirm, or attention alone ("wah ana m3ak", "oui oui, je vous écoute"),
 * which after the order is read agrees to nothing (reading.ts) but here answers the question asked.
 */
export function answersIdentity(c: Classification, text: string, country: Country): boolean {
  return c.intent === "confirm" || (c.intent === "unclear" && readReply(text, country).request === "acknowledgement");
}

type Stage =
  | "identity"
  | "confirmation"
  | "reason"
  | "reschedule_date"
  | "callback_time"
  | "change_details"
  | "address"
  | "transferring"
  | "ended";

/** An outcome the customer has decided while the agent still asks for its detail (reason, day, time, change). */
interface Pending {
  outcome: CallOutcome;
  details: Record<string, unknown>;
  /** The request's own reply named its detail, but the reading was not sure enough to settle on (SURE_OF_REQUEST). */
  named?: boolean;
  /** The request was read below SURE_OF_REQUEST: its detail question also asks whether it was heard right. */
  unsure?: boolean;
}

/** The profile for the order's dialect and language: MA/DZ/TN speak their dialect, or local French when asked. */
export function profileFor(order: Pick<DialogueOrder, "dialect" | "language">): DialogueProfile {
  switch (order.dialect) {
    case "ma":
      return order.language === "fr" ? maFrench : ma;
    case "dz":
      return order.language === "fr" ? dzFrench : dz;
    case "tn":
      return order.language === "fr" ? tnFrench : tn;
    case "fr":
      return fr;
  }
}

/** A new conversation about `order` (CONTRACT §4: outcome, typed outcome_details, end_reason). */
export function createDialogue(order: DialogueOrder, options: DialogueOptions): Dialogue {
  const profile = profileFor(order);
  const random = options.random ?? Math.random;
  const pick: Choose = <T>(choices: readonly T[]): T =>
    choices[Math.min(choices.length - 1, Math.floor(random() * choices.length))] as T;
  const log: TranscriptEntry[] = [];
  /** Customer lines that decided the outcome or gave its detail: the transcript excerpt. */
  const decisive: string[] = [];
  let stage: Stage = "identity";
  let unclear = 0;
  let questions = 0;
  let keypadOffered = false;
  /** The agent's last words were the yes/no check about the order ("so I confirm the order, yes?"). */
  let checking = false;
  let answersCheck = false;
  let pending: Pending | null = null;
  /** A detail question's answer was heard as the answer to the confirmation question (detail(): once a call). */
  let heardAgain = false;
  let settled: DialogueResult | null = null;
  let lastAt = 0;
  /** The customer objected to the recording (issue 36): the dialer keeps none of it. */
  let recordingDeclined = false;
  /** Questions the shop's knowledge did not answer (issue 37): `outcome_details.unanswered_questions`, however the call ends. */
  const unanswered: string[] = [];
  /** Questions that found no answer, all of them (`unanswered` keeps the first MAX_UNANSWERED). */
  let unansweredAsked = 0;

  function say(text: string, end: boolean): AgentTurn {
    log.push({ speaker: "agent", text, at: lastAt });
    return { text, end };
  }

  function excerpt(): string {
    const lines =
      decisive.length > 0
        ? decisive
        : log
            .filter((e) => e.speaker === "customer" && e.text)
            .slice(-2)
            .map((e) => e.text);
    const text = lines.join(" / ");
    return text.length > EXCERPT_MAX ? `${text.slice(0, EXCERPT_MAX - 1)}…` : text;
  }

  function settle(outcome: CallOutcome, details: Record<string, unknown>, endReason: string): DialogueResult {
    const asked = unanswered.length > 0 ? { unanswered_questions: [...unanswered] } : {};
    settled = {
      outcome,
      outcome_details: { ...details, ...asked, transcript_excerpt: excerpt() },
      end_reason: endReason,
    };
    stage = "ended";
    return settled;
  }

  function finish(outcome: CallOutcome, details: Record<string, unknown>, closing: string): AgentTurn {
    settle(outcome, details, "completed");
    return say(closing, true);
  }

  /** The order is confirmed: with an address on the call, read it back first (issue 35, address.ts). */
  function confirmed(): AgentTurn {
    if (!order.address) return finish("confirmed", {}, profile.confirmed(pick));
    pending = { outcome: "confirmed", details: { delivery: { address_confirmed: false } } };
    stage = "address";
    return say(addressQuestion(order), false);
  }

  /** The reply to the address question (or none): still confirmed, with what it said about the address. */
  function addressReply(c: Classification, text: string | null): AgentTurn {
    pending = null;
    const delivery = readAddressReply(text, c, order);
    return finish("confirmed", { delivery }, `${addressNoted(order, delivery)} ${profile.confirmed(pick)}`.trim());
  }

  function callbackAt(text: string): string | null {
    const delay = relativeDelayMinutes(text);
    if (delay !== null) return utcIso(new Date(Math.ceil(options.now.getTime() / 60_000 + delay) * 60_000));
    const day = extractDate(text, order.country, options.now);
    const time = extractClock(text);
    if (!day && !time) return null;
    const today = localDate(options.now, order.country);
    const hour = time?.hour ?? DEFAULT_CALLBACK_HOUR;
    const minute = time?.minute ?? 0;
    let instant = localToUtc(day ?? today, hour, minute, order.country);
    // "at six" said in the evening means tomorrow at six.
    if (!day && instant.getTime() <= options.now.getTime())
      instant = localToUtc(nextDay(today), hour, minute, order.country);
    return utcIso(instant);
  }

  /** Whether the shop's handoff lists `trigger` (issue 34). */
  function hands(trigger: HandoffTrigger): boolean {
    return options.handoff?.includes(trigger) === true;
  }

  /** Puts the customer through to the shop's person (issue 34): the dialer transfers after this turn. */
  function transfer(reason: HandoffTrigger, text: string | null): AgentTurn {
    if (text) decisive.push(text);
    pending = null;
    stage = "transferring";
    return {
      ...say(transferringLine(order.dialect, order.language), false),
      transfer: { reason, question: reason === "unanswered_question" ? text : null },
    };
  }

  /**
   * A question (issues 34, 37): answered from the shop's knowledge or the order; one that finds no answer is recorded
   * (noAnswer) and, when the shop hands such questions over, put through to a person instead of the "I don't know".
   */
  function question(text: string, then: (answer: string) => AgentTurn): AgentTurn {
    const before = unansweredAsked;
    const answer = answerQuestion(text);
    if (unansweredAsked > before && hands("unanswered_question")) return transfer("unanswered_question", text);
    return then(answer);
  }

  function turnState(): TurnState {
    return { answersCheck, unclear, questions, digits: options.digits === true, keypadOffered };
  }

  function unclearReply(again: () => string): AgentTurn {
    // The second unclear turn about the order: on a line that carries digits, the keypad decides instead.
    const keypad = offersKeypad(turnState(), stage === "identity" || stage === "confirmation" ? stage : "other");
    unclear += 1;
    if (unclear > MAX_REASKS)
      return hands("unclear") ? transfer("unclear", null) : finish("no_decision", {}, profile.giveUp());
    if (keypad) {
      keypadOffered = true;
      return say(profile.offerKeypad(), false);
    }
    return say(again(), false);
  }

  /** Asks the short yes/no check instead of deciding; it counts as an unclear turn. */
  function check(c: Classification): AgentTurn {
    if (c.intent === "wrong_number") {
      stage = "identity"; // "am I speaking with <name>, yes or no?"; a yes reads the order back
      return unclearReply(() => profile.checkIdentity(order));
    }
    if (stage === "identity") {
      // An unsure yes or no before the order was read: read it back, which ends with the confirmation question.
      stage = "confirmation";
      return say(profile.readBack(order, pick), false);
    }
    const first = unclear === 0;
    checking = true;
    return unclearReply(() => (first ? profile.checkConfirm() : profile.confirmationAgain(unclear)));
  }

  /** Notes on the customer's last turn (the rehearsal's transcript shows them; issue 37.3). */
  function note(fields: Pick<TranscriptEntry, "decision" | "answered_from">): void {
    const last = log[log.length - 1];
    if (last?.speaker === "customer") Object.assign(last, fields);
  }

  /**
   * The one point where a question finds no answer (issue 37): recorded for `outcome_details.unanswered_questions`;
   * the agent says it does not know, and the confirmation question follows. Issue 34's `unanswered_question` handoff
   * trigger connects here.
   */
  function noAnswer(text: string): string {
    unansweredAsked += 1;
    options.onUnansweredQuestion?.(text);
    if (unanswered.length < MAX_UNANSWERED)
      unanswered.push(text.length > EXCERPT_MAX ? `${text.slice(0, EXCERPT_MAX - 1)}…` : text);
    note({ answered_from: "unanswered" });
    return noAnswerLine(order);
  }

  /**
   * The answer to a question: the shop's knowledge (issue 37), else the order itself (price, items, the usual delivery);
   * a question about none of these is unanswered.
   */
  function answerQuestion(text: string): string {
    const topic = knowledgeTopic(text, order.knowledge);
    if (topic) {
      const answer = answerFromKnowledge(topic, text, order, profile.spokenAmount);
      if (answer) {
        note({ answered_from: topic });
        return answer;
      }
      // Delivery without the shop's delays keeps the order's generic delivery line; anything else is not invented.
      if (topic !== "delivery") return noAnswer(text);
    }
    const about = knownQuestionTopic(text);
    // Returns, warranty, paying by card, a shop to visit: not the order's to answer; without the knowledge, unanswered.
    if (about === null || unansweredQuestion(text, () => about)) return noAnswer(text);
    note({ answered_from: about });
    return profile.answer(about, order);
  }

  /** The answer to the confirmation question (or an intent given early, at the identity check). */
  function decide(heard: Classification, text: string): AgentTurn {
    const read = answersCheck ? asCheckAnswer(heard, text) : heard;
    // ("oui la bleue s'il vous plaît" for a blue phone case: a change that names only what the order holds agrees with
    // it; a confirm, checked with the yes/no question, never a change noted; order-values.ts, round 28.)
    const c: Classification =
      read.intent === "change_request" && namesOnlyTheOrder(text, order)
        ? { intent: "confirm", confidence: read.confidence, mixed: true }
        : read;
    // A costly reading not to be acted on gets the yes/no check; a question or an unclear reply past its limit is
    // asked again below (decision() says "check" or "keypad" for them too).
    const decided = decision(c, text, order.country, turnState());
    note({ decision: decided });
    if (decided !== "act" && COSTLY.has(c.intent)) return check(c);
    // A request not sure enough to settle on (decision() "check"): its detail is asked even when this reply named it.
    const sure = decided === "act";
    switch (c.intent) {
      case "confirm":
        decisive.push(text);
        return confirmed();
      case "cancel": {
        decisive.push(text);
        const reason = extractReason(text);
        if (reason) return finish("declined", { reason }, profile.declined());
        pending = { outcome: "declined", details: { reason: null } };
        stage = "reason";
        return say(profile.askReason(), false);
      }
      case "reschedule": {
        decisive.push(text);
        const date = extractDate(text, order.country, options.now);
        if (date && sure) return finish("rescheduled", { preferred_date: date }, profile.rescheduled(date));
        pending = { outcome: "rescheduled", details: { preferred_date: date }, named: date !== null, unsure: !sure };
        stage = "reschedule_date";
        return say(profile.askDate(), false);
      }
      case "callback": {
        decisive.push(text);
        const at = callbackAt(text);
        if (at && sure) return finish("callback_requested", { callback_at: at }, profile.callbackSet(true));
        pending = { outcome: "callback_requested", details: { callback_at: at }, named: at !== null, unsure: !sure };
        stage = "callback_time";
        return say(profile.askCallbackTime(), false);
      }
      case "change_request": {
        decisive.push(text);
        const changes = extractChanges(text);
        if (changes && sure) return finish("change_requested", { changes }, profile.changeNoted());
        pending = { outcome: "change_requested", details: { changes: text }, named: changes !== null, unsure: !sure };
        stage = "change_details";
        return say(profile.askChange(), false);
      }
      case "wrong_number":
        decisive.push(text);
        return finish("wrong_number", {}, profile.wrongNumber());
      case "question":
        questions += 1;
        if (questions > MAX_QUESTIONS) return unclearReply(() => profile.confirmationAgain(unclear));
        return question(text, (answer) => {
          stage = "confirmation";
          return say(`${answer} ${profile.confirmationQuestion()}`, false);
        });
      case "unclear":
        return unclearReply(() =>
          stage === "identity" ? profile.identityAgain(order) : profile.confirmationAgain(unclear),
        );
    }
  }

  /** The reply to "am I speaking with <name>?". */
  function identify(c: Classification, text: string): AgentTurn {
    if (answersIdentity(c, text, order.country)) {
      stage = "confirmation";
      return say(profile.readBack(order, pick), false);
    }
    if (c.intent === "cancel" && isBareNo(text))
      return decide({ intent: "wrong_number", confidence: Math.max(c.confidence, SURE) }, text);
    if (c.intent === "question") {
      questions += 1;
      if (questions > MAX_QUESTIONS) return unclearReply(() => profile.identityAgain(order));
      return say(profile.introduceAgain(order), false);
    }
    return decide(c, text);
  }

  /** A confirm that says yes to the order itself ("send it", "I confirm", "who said I don't want it?"). */
  function saysYesToOrder(text: string): boolean {
    const reading = readReply(text, order.country);
    return reading.yesToOrder || reading.firmYes || reading.deniedRefusal;
  }

  /** The detail asked after a decision: the reason, the day, the time or the change. */
  function detail(c: Classification, text: string | null): AgentTurn {
    const decided = pending ?? { outcome: "no_decision" as const, details: {} };
    pending = null;
    if (text) decisive.push(text);
    // "Why?" or "what to change?" answered with a clear change of mind ("no, nothing, send it") confirms after all;
    // so does "which day?" or "when shall we call?" answered with one that names no day or time ("no, the day you
    // said is fine, send it"): the request was the agent's misreading, or the customer thought better of it. A clear
    // refusal in answer to "what to change?", "which day?" or "when?" declines the same way ("no, cancel it"), but not
    // a bare "no" ("what to change?" "no": nothing, or no change at all?). Either must be one the confirmation question
    // would act on (decision(): sure, a yes to the order, no request and no "I'm listening" in it).
    // The day or time the reply names, read once for the change of mind and for the detail itself.
    const date = stage === "reschedule_date" && text ? extractDate(text, order.country, options.now) : null;
    const at = stage === "callback_time" && text ? callbackAt(text) : null;
    // The day, time or change the request's own reply named, when that reading was not sure enough to settle on:
    // asked again, a bare "yes" keeps it ("which day suits you?" "yes", after "bring it on Friday"), and so does an
    // answer that names no other.
    const heardDate = typeof decided.details["preferred_date"] === "string" ? decided.details["preferred_date"] : null;
    const heardAt = typeof decided.details["callback_at"] === "string" ? decided.details["callback_at"] : null;
    const keepsHeard = text !== null && decided.named === true && isBareYes(text);
    const mindChanged =
      text !== null &&
      !keepsHeard &&
      c.confidence >= CHANGE_OF_MIND &&
      (stage === "change_details" ||
        (stage === "reason" && c.intent === "confirm") ||
        (stage === "reschedule_date" && date === null) ||
        (stage === "callback_time" && at === null)) &&
      decision(c, text, order.country, turnState()) === "act";
    if (mindChanged && c.intent === "confirm") return confirmed();
    if (mindChanged && c.intent === "cancel" && !isBareNo(text))
      return finish("declined", { reason: extractReason(text) }, profile.declined());
    // An answer that gives no detail but reads as something else than the request ("what to change?" "nothing,
    // I said I don't want it"; "which day?" "this isn't her number any more") is heard as the answer to the
    // confirmation question, once a call: acted on when sure, else checked (a yes/no, the name) or its own detail
    // asked. The request was the agent's misreading, and its detail question the customer's chance to say so. A reason
    // for declining is taken as said, unless it confirms or is a wrong number.
    const givesDetail =
      stage === "reschedule_date"
        ? date !== null
        : stage === "callback_time"
          ? at !== null
          : stage === "change_details"
            ? // ("Le 42 c'est bien sa pointure, donc ramenez-le": a yes to the order read as a confirm names what stays,
              // no change to note; round 28.)
              text !== null && extractChanges(text) !== null && !(c.intent === "confirm" && saysYesToOrder(text))
            : c.intent !== "confirm" && c.intent !== "wrong_number";
    if (
      text !== null &&
      !keepsHeard &&
      !givesDetail &&
      !heardAgain &&
      c.intent !== OUTCOME_INTENT[decided.outcome] &&
      c.intent !== "unclear" &&
      c.intent !== "question" &&
      !(c.intent === "cancel" && isBareNo(text)) && // "what to change?" "no": nothing, or no change at all?
      // ("yes, I'm listening, go on" answers nothing after a request heard for sure.)
      (c.intent !== "confirm" || saysYesToOrder(text) || decided.unsure === true)
    ) {
      heardAgain = true;
      stage = "confirmation";
      decisive.pop(); // decide() records it when it decides on it
      return decide(c, text);
    }
    // A request heard without certainty and naming nothing, whose detail question gets no detail and no decision
    // either ("when shall we call?" "mhm, go on"): it was not a request; the confirmation question again. So is a
    // change that named something, when "what to change?" gets no yes to it, only attention, a filler or not hearing
    // ("allô, I can't hear you well", "mhm mhm yes"): nothing confirms the change heard, and a change the customer never
    // asked for would have the shop call to validate it (round 24). (A day or time named is kept: "which day?" "euh".)
    if (
      text !== null &&
      decided.unsure === true &&
      (decided.named !== true || (stage === "change_details" && c.intent === "unclear" && !keepsHeard)) &&
      !givesDetail &&
      (c.intent === "unclear" || c.intent === "confirm")
    ) {
      stage = "confirmation";
      decisive.pop();
      return unclearReply(() => profile.confirmationAgain(unclear));
    }
    switch (stage) {
      case "reason":
        return finish("declined", { reason: text ? (extractReason(text) ?? text) : null }, profile.declined());
      case "reschedule_date": {
        const day = date ?? heardDate;
        return finish("rescheduled", { preferred_date: day }, profile.rescheduled(day));
      }
      case "callback_time": {
        const when = at ?? heardAt;
        return finish("callback_requested", { callback_at: when }, profile.callbackSet(when !== null));
      }
      default: {
        // The request and its detail together when they name different things (issue 20: multi-part changes).
        const asked = decided.details["changes"];
        const changes =
          text && !keepsHeard
            ? typeof asked === "string"
              ? combineChanges(asked, text)
              : (extractChanges(text) ?? text)
            : typeof asked === "string"
              ? (extractChanges(asked) ?? asked)
              : asked;
        return finish("change_requested", { changes }, profile.changeNoted());
      }
    }
  }

  /** The question the customer's objection interrupted, asked again after the agent says the recording stopped. */
  function currentQuestion(): string {
    switch (stage) {
      case "identity":
        return profile.identityAgain(order);
      case "reason":
        return profile.askReason();
      case "reschedule_date":
        return profile.askDate();
      case "callback_time":
        return profile.askCallbackTime();
      case "change_details":
        return profile.askChange();
      case "address":
        return addressQuestion(order);
      default:
        return profile.confirmationQuestion();
    }
  }

  return {
    opening() {
      return say(profile.opening(order, pick), false);
    },

    async hear(utterance, at) {
      if (settled) return { text: "", end: true };
      lastAt = Math.max(lastAt, at);
      const text = utterance?.trim() ? utterance.trim() : null;
      const c: Classification = text
        ? await options.classifier.classify(text, order.country)
        : { intent: "unclear", confidence: 1 };
      if (settled) return { text: "", end: true }; // interrupted while the classifier was thinking
      answersCheck = checking;
      checking = false;
      log.push({ speaker: "customer", text: text ?? "", at: lastAt, intent: c.intent, confidence: c.confidence });
      // "Don't call me again", whatever the classifier read and at any step: listed by the call's end (issue 15).
      if (text && asksNotToBeCalled(text, order.dialect)) {
        decisive.push(text);
        settle("declined", { reason: "do_not_call", opted_out: true }, DO_NOT_CALL_END_REASON);
        return say(doNotCallClosing(order.dialect, order.language), true);
      }
      if (stage === "transferring") return { text: "", end: false }; // the person's line is ringing
      // Issue 34: a customer asking for a person, or angry, is put through when the shop's handoff says so.
      if (text && hands("customer_asks") && asksForPerson(text)) return transfer("customer_asks", text);
      if (text && hands("angry") && soundsAngry(text)) return transfer("angry", text);
      // "Don't record me", at any step: stopped, said so, and the call goes on with the question it interrupted.
      if (text && objectsToRecording(text, order.dialect)) {
        recordingDeclined = true;
        return say(`${profile.recordingStopped()} ${currentQuestion()}`, false);
      }
      switch (stage) {
        case "identity":
          return text ? identify(c, text) : unclearReply(() => profile.identityAgain(order));
        case "confirmation":
          return text ? decide(c, text) : unclearReply(() => profile.confirmationAgain(unclear));
        case "ended":
          return { text: "", end: true };
        case "address":
          return addressReply(c, text);
        default:
          return detail(c, text);
      }
    },

    async press(digits, at) {
      if (settled) return { text: "", end: true };
      lastAt = Math.max(lastAt, at);
      checking = false;
      const key = digits.trim().charAt(0);
      const meaning =
        !keypadOffered || stage !== "confirmation" ? null : key === "1" ? "confirm" : key === "2" ? "cancel" : null;
      log.push({
        speaker: "customer",
        text: `DTMF ${digits}`,
        at: lastAt,
        intent: meaning ?? "unclear",
        confidence: 1,
      });
      if (meaning === "confirm") {
        decisive.push(`DTMF ${key}`);
        return confirmed();
      }
      if (meaning === "cancel") {
        decisive.push(`DTMF ${key}`);
        return finish("declined", { reason: null }, profile.declined());
      }
      if (stage === "identity" || stage === "confirmation") {
        return unclearReply(() =>
          stage === "identity" ? profile.identityAgain(order) : profile.confirmationAgain(unclear),
        );
      }
      if (stage === "address") return addressReply({ intent: "unclear", confidence: 1 }, null);
      return detail({ intent: "unclear", confidence: 1 }, null);
    },

    interrupt(reason: Interruption, at: number) {
      if (settled) return settled;
      lastAt = Math.max(lastAt, at);
      // An outcome the customer already gave stands; the missing detail stays null.
      if (pending) return settle(pending.outcome, pending.details, reason);
      return settle("no_decision", {}, reason);
    },

    result() {
      return settled;
    },

    recordingDeclined() {
      return recordingDeclined;
    },

    transferred(status: TransferStatus, at: number) {
      if (settled || stage !== "transferring") return { text: "", end: true };
      lastAt = Math.max(lastAt, at);
      if (status === "bridged") {
        settle("no_decision", {}, "transferred");
        return { text: "", end: true };
      }
      return finish("callback_requested", { callback_at: null }, nobodyLine(order.dialect, order.language));
    },

    transcript() {
      return log.map((e) => ({ ...e }));
    },
  };
}
