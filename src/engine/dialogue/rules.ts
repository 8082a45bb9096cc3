// The rules of CONTRACT §5b over the lexicon's signals: the lexicon classifier, and the verdict the statistical
// model (model/) takes as a feature. classifier.ts chooses the default between them.
import type { Country, Signal } from "./lexicon/index.ts";
import { analyse, type Analysis, type SignalHit } from "./signals.ts";
import type { Classification, Intent, IntentClassifier } from "./types.ts";

export type { Country } from "./lexicon/index.ts";
// One definition of the labels and of the interface, shared with the dialogue engine (types.ts).
export type { Classification, Intent, IntentClassifier } from "./types.ts";
/** `{ intent, confidence }`; confidence is 0..1, below about 0.5 the reply is weak evidence. */
export type IntentResult = Classification;

/** The classifier's labels, exactly as CONTRACT §5b names them. */
export const INTENTS = [
  "confirm",
  "cancel",
  "reschedule",
  "callback",
  "change_request",
  "wrong_number",
  "question",
  "unclear",
] as const satisfies readonly Intent[];

/** Rules and per-dialect lexicons: no network, no model, a few microseconds per utterance. */
export class LexiconIntentClassifier implements IntentClassifier {
  classify(text: string, country: Country): IntentResult {
    return decide(analyse(text, country));
  }
}

interface Evidence {
  intent: Intent;
  weight: number;
  pos: number;
}

const STRONG: Intent[] = ["change_request", "reschedule", "callback"];
const BARE_SIGNALS = new Set<Signal>(["yes", "what", "filler", "hedge", "repeat", "doubt"]);
const IGNORABLE = new Set([
  "a",
  "ya",
  "khuya",
  "khoya",
  "akhi",
  "khti",
  "sidi",
  "madame",
  "monsieur",
  "3afak",
  "afak",
  "3aychek",
  "svp",
  "stp",
  "merci",
  "chukran",
  "chokran",
  "chkran",
  "chkra",
  "allah",
  "wa",
  "w",
  "u",
  "hbibi",
  "sahbi",
  "m3alem",
  "chef",
  "ah",
]);
const VOCATIVE_HEADS = new Set(["a", "ya"]);

function round(x: number): number {
  return Math.round(Math.min(0.99, Math.max(0.05, x)) * 100) / 100;
}

/** The rules of CONTRACT §5b over the signals of one utterance. */
export function decide(analysis: Analysis): IntentResult {
  const { tokens, hits } = analysis;
  const vocative = (t: string, i: number) => t === "lala" && VOCATIVE_HEADS.has(tokens[i - 1] ?? "");
  const content = tokens
    .map((t, i) => ({ t, i }))
    .filter(({ t, i }) => !PUNCT_RE.test(t) && !IGNORABLE.has(t) && !vocative(t, i));
  if (content.length === 0) return { intent: "unclear", confidence: 0.3 };

  // "pardon?", "iyeh?", "alo?", "euh", "inshallah": nothing but repeat requests, fillers and hedges.
  const covered = (i: number, set: Set<Signal>) => hits.some((h) => set.has(h.signal) && h.start <= i && i < h.end);
  if (content.every(({ i }) => covered(i, BARE_SIGNALS))) {
    const endsWithQuestion = tokens[tokens.length - 1] === "?";
    const has = (s: Signal) => hits.some((h) => h.signal === s);
    if (has("repeat")) return { intent: "unclear", confidence: 0.85 };
    if (has("doubt")) return { intent: "unclear", confidence: 0.75 };
    if (has("yes") && !endsWithQuestion && !has("what"))
      return { intent: "confirm", confidence: content.length > 1 ? 0.85 : 0.75 };
    if (has("yes") && !endsWithQuestion) return { intent: "confirm", confidence: 0.6 };
    return { intent: "unclear", confidence: has("what") || has("hedge") || endsWithQuestion ? 0.75 : 0.6 };
  }

  const evidence = collectEvidence(analysis);
  const notMe = evidence.filter((e) => e.intent === "wrong_number");
  if (notMe.length > 0) return { intent: "wrong_number", confidence: round(Math.max(...notMe.map((e) => e.weight))) };

  const strong = evidence.filter((e) => STRONG.includes(e.intent));
  const cancel = evidence.filter((e) => e.intent === "cancel");
  const confirm = evidence.filter((e) => e.intent === "confirm");
  const question = evidence.filter((e) => e.intent === "question");
  const unclear = evidence.filter((e) => e.intent === "unclear");

  if (strong.length > 0) {
    // The last action asked for wins; a later cancel overrides ("ghedda? la la ma bghitch").
    const actions = [...strong, ...cancel.filter((c) => c.weight >= 0.7)];
    const winner = lastOf(actions);
    const rivals =
      actions.filter((e) => e.intent !== winner.intent).length + (winner.intent === "cancel" ? strong.length : 0);
    return {
      intent: winner.intent,
      confidence: round(
        best(actions, winner.intent) * (rivals > 0 ? 0.85 : 1) + (agree(actions, winner.intent) ? 0.05 : 0),
      ),
    };
  }
  if (cancel.length > 0 || confirm.length > 0) {
    const lastCancel = cancel.length > 0 ? lastOf(cancel) : undefined;
    const lastConfirm = confirm.length > 0 ? lastOf(confirm) : undefined;
    const lastQuestion = question.length > 0 ? lastOf(question) : undefined;
    const lastDoubt = unclear.filter((e) => e.weight >= 0.6);
    const doubt = lastDoubt.length > 0 ? lastOf(lastDoubt) : undefined;
    if (lastCancel && (!lastConfirm || lastCancel.pos >= lastConfirm.pos)) {
      return {
        intent: "cancel",
        confidence: round(best(cancel, "cancel") * (lastConfirm ? 0.85 : 1) + (cancel.length > 1 ? 0.05 : 0)),
      };
    }
    if (lastConfirm) {
      if (lastQuestion && lastQuestion.pos > lastConfirm.pos)
        return { intent: "question", confidence: round(lastQuestion.weight * 0.9) };
      if (doubt && doubt.pos > lastConfirm.pos) return { intent: "unclear", confidence: round(doubt.weight * 0.9) };
      const conf = best(confirm, "confirm") * (lastCancel || lastQuestion ? 0.9 : 1) + (confirm.length > 1 ? 0.05 : 0);
      return { intent: "confirm", confidence: round(conf) };
    }
  }
  if (question.length > 0) return { intent: "question", confidence: round(best(question, "question")) };
  if (unclear.length > 0) return { intent: "unclear", confidence: round(best(unclear, "unclear")) };
  if (tokens.includes("?")) return { intent: "question", confidence: 0.5 };
  return { intent: "unclear", confidence: 0.3 };
}

const PUNCT_RE = /^[,.?]$/;

function lastOf(list: Evidence[]): Evidence {
  return list.reduce((a, b) => (b.pos > a.pos || (b.pos === a.pos && b.weight > a.weight) ? b : a));
}

function best(list: Evidence[], intent: Intent): number {
  return Math.max(...list.filter((e) => e.intent === intent).map((e) => e.weight));
}

function agree(list: Evidence[], intent: Intent): boolean {
  return list.filter((e) => e.intent === intent).length > 1;
}

/** Turns signals into evidence for intents, applying the combination rules. */
function collectEvidence({ tokens, hits }: Analysis): Evidence[] {
  const has = (s: Signal) => hits.some((h) => h.signal === s && !h.negated);
  const day = has("day");
  const callVerb = hits.some((h) => h.signal === "callVerb" && !h.negated);
  const delivery = has("delivery") || has("send") || has("postpone");
  const beforeArrival = has("beforeArrival") || has("instruction");
  const changeContext =
    has("changeVerb") ||
    has("want") ||
    has("instead") ||
    has("add") ||
    tokens.some((t) => ["machi", "much", "mech", "pas", "jdida", "nouvelle", "autre", "okhra", "khra"].includes(t)) ||
    tokens.some((t) => /^\d+$/.test(t));
  const confirmWords = has("yes") || has("send") || has("accept");
  const interrogative = interrogativeClauses(tokens, hits, false);
  const wh = interrogativeClauses(tokens, hits, true);
  const out: Evidence[] = [];
  const add = (intent: Intent, weight: number, h: SignalHit) => out.push({ intent, weight, pos: h.start });

  for (const h of hits) {
    const clause = clauseOf(tokens, h.start);
    const inQuestion = interrogative.has(clause);
    switch (h.signal) {
      case "yes":
      case "take":
      case "identity":
        if (h.negated && (h.signal === "take" || h.signal === "yes")) add("cancel", 0.85, h);
        else if (!inQuestion) add("confirm", h.weight, h);
        break;
      case "accept":
        if (h.negated) add("cancel", 0.85, h);
        else if (!wh.has(clause)) add("confirm", h.weight, h);
        break;
      case "send":
        // "imta tjibouha?" asks about the delivery; "wach tjibouha?" and "envoyez" ask for it
        if (h.negated) add("cancel", 0.85, h);
        else if (!wh.has(clause)) add("confirm", h.weight, h);
        break;
      case "instruction":
        add("confirm", h.weight, h);
        break;
      case "no":
      case "refuse":
      case "changedMind":
      case "reason":
      case "didntOrder":
        add("cancel", h.weight, h);
        break;
      case "cancelVerb":
        add(h.negated ? "confirm" : "cancel", h.negated ? 0.8 : h.weight, h);
        break;
      case "notMe":
        add("wrong_number", h.weight, h);
        break;
      case "changeVerb":
        add(h.negated ? "confirm" : "change_request", h.negated ? 0.75 : h.weight, h);
        break;
      case "add":
        if (h.negated) add("confirm", 0.6, h);
        else add("change_request", h.weight, h);
        break;
      case "attr":
        add("change_request", h.weight, h);
        break;
      case "attrNoun":
      case "qty":
      case "address":
        if (changeContext) add("change_request", Math.max(h.weight, 0.6), h);
        break;
      case "instead":
        add(day && !has("attr") ? "reschedule" : "change_request", h.weight, h);
        break;
      case "want":
        if (!has("attr") && !has("qty") && !has("attrNoun") && !day && !inQuestion) add("confirm", 0.55, h);
        break;
      case "day":
        if (!(callVerb && !delivery)) add("reschedule", h.weight, h);
        break;
      case "slot":
        if (!callVerb && !has("busy")) add("reschedule", delivery || has("want") ? 0.75 : 0.55, h);
        break;
      case "today":
        // "sifto liya lyoum" is a yes in a hurry; "jibouha lyoum f l3chiya" (a slot today) moves it
        if (!confirmWords || has("slot") || has("absent")) add("reschedule", h.weight, h);
        break;
      case "absent":
      case "postpone":
        add("reschedule", h.weight, h);
        break;
      case "callVerb":
        if (h.negated) break;
        if (beforeArrival) break; // "call before the courier comes": a delivery instruction
        if (day && delivery) add("reschedule", 0.85, h);
        else add("callback", h.weight, h);
        break;
      case "busy":
      case "notNow":
        add("callback", h.weight, h);
        break;
      case "later":
        // "jibouha men ba3d" (bring it later) moves the delivery; "3ayet men ba3d" is a callback
        if (!day) add(delivery && !callVerb && !has("busy") ? "reschedule" : "callback", h.weight, h);
        break;
      case "qword":
        add("question", h.weight, h);
        break;
      case "repeat":
      case "doubt":
        add("unclear", h.weight, h);
        break;
      case "hedge":
      case "filler":
        add("unclear", h.weight * 0.6, h);
        break;
      case "what":
      case "delivery":
      case "beforeArrival":
        break;
    }
  }
  return out;
}

function clauseOf(tokens: string[], index: number): number {
  let clause = 0;
  for (let i = 0; i < index; i++) if (PUNCT_RE.test(tokens[i] ?? "")) clause++;
  return clause;
}

/** Yes/no question particles: "wach tjibouha?" can be a request, "imta tjibouha?" cannot. */
const YES_NO_PARTICLES = new Set(["wach", "wech", "wesh", "est", "es"]);

/**
 * Clauses that end with "?" or open with a question word: a yes inside them is not an answer. With
 * `whOnly`, only clauses opening with a wh-word (how much, when, where, who, how).
 */
function interrogativeClauses(tokens: string[], hits: SignalHit[], whOnly: boolean): Set<number> {
  const out = new Set<number>();
  let clause = 0;
  let clauseStart = 0;
  tokens.forEach((t, i) => {
    const opensWithQword = i === clauseStart && hits.some((h) => h.signal === "qword" && h.start === i);
    if (opensWithQword && !(whOnly && YES_NO_PARTICLES.has(t))) out.add(clause);
    if (PUNCT_RE.test(t)) {
      if (t === "?" && !whOnly) out.add(clause);
      clause++;
      clauseStart = i + 1;
    }
  });
  return out;
}
