// The simulator's warm transfer (issue 34): the shop's simulated person. Test numbers of the customer: 13 asks for a
// person and the person confirms the order; 14 asks for a person who does not answer; 15 asks a question the agent
// cannot answer, then the person settles it. The handoff number's own last digits 03 (no answer), 04 (busy) and 05
// (the person hangs up during the brief: refused, reported as no_answer) follow the test numbers' convention.
import type { Dialect, Language } from "../../../domain/locale.ts";
import type { TransferOutcome, TransferRequest } from "../provider.ts";

export type HandoffBehaviour = "asks_for_person" | "asks_for_person_unanswered" | "unanswerable_question";

export const HANDOFF_NUMBER_BEHAVIOURS: Readonly<Record<string, HandoffBehaviour>> = {
  "13": "asks_for_person",
  "14": "asks_for_person_unanswered",
  "15": "unanswerable_question",
};

/** What the customers of 13, 14 and 15 say to the confirmation question, per dialect. */
export const HANDOFF_PHRASES: Record<Dialect, { person: readonly string[]; question: readonly string[] }> = {
  ma: {
    person: ["bghit nhder m3a chi wahed men lmagasin", "بغيت نهضر مع شي واحد من الفريق"],
    question: ["wach kayn chi garantie 3la had lcommande?", "واش كاين شي ضمان على السلعة؟"],
  },
  dz: {
    person: ["نحب نهدر مع المسؤول", "nheb nahdar m3a wahed men l'équipe"],
    question: ["wach kayen garantie 3la sel3a?", "واش كاين الضمان؟"],
  },
  tn: {
    person: ["nheb nahki m3a insen", "نحب نحكي مع حد من الفريق"],
    question: ["fama garantie 3al sel3a?", "فما ضمان على السلعة؟"],
  },
  fr: {
    person: [
      "je voudrais parler à un conseiller s'il vous plaît",
      "est-ce que je peux parler à quelqu'un de la boutique ?",
    ],
    question: ["est-ce que je peux payer par carte bancaire ?", "est-ce qu'il y a une garantie ?"],
  },
};

const PERSON_LINES: Record<"fr" | "ar", { person: string[]; customer: string[] }> = {
  fr: {
    person: [
      "Bonjour, ici la boutique, je vous écoute.",
      "Oui bien sûr, c'est possible. Je confirme donc votre commande ?",
      "Parfait, elle part aujourd'hui. Bonne journée.",
    ],
    customer: ["Bonjour, j'avais une question sur ma commande.", "Oui, merci, je confirme."],
  },
  ar: {
    person: ["السلام عليكم، معاك المتجر، تفضل.", "إيه، ماشي مشكل. نأكدو الطلبية؟", "مزيان، غادي تخرج اليوم. بسلامة."],
    customer: ["وعليكم السلام، كان عندي سؤال على الطلبية.", "إيه، أكد ليا."],
  },
};

export interface SimulatedLine {
  /** Advances the simulated clock. */
  sleep(seconds: number): Promise<void>;
  connectedSeconds(): number;
  talkSeconds(text: string): number;
  closed(): boolean;
}

/** Seconds the person's phone rings before they pick up. */
const PERSON_RING_SECONDS = 4;

/**
 * The transfer on the simulated line: rings the person (or not), plays them the whisper, then the bridged
 * conversation in which the person settles the order. The customer's recording never holds the whisper.
 */
export async function simulateTransfer(
  line: SimulatedLine,
  behaviour: HandoffBehaviour | null,
  language: Language,
  request: TransferRequest,
): Promise<TransferOutcome> {
  const suffix = request.to.replace(/\D/g, "").slice(-2);
  const none = { answeredAtSeconds: null, bridgedSeconds: 0 };
  if (line.closed()) return { status: "failed", ...none };
  if (suffix === "04") {
    await line.sleep(2);
    return { status: "busy", ...none };
  }
  if (behaviour === "asks_for_person_unanswered" || suffix === "03") {
    await line.sleep(request.ringTimeoutSeconds);
    return { status: "no_answer", ...none };
  }
  await line.sleep(Math.min(PERSON_RING_SECONDS, request.ringTimeoutSeconds));
  if (line.closed()) return { status: "failed", ...none };
  const answeredAtSeconds = line.connectedSeconds();
  if (suffix === "05") {
    await line.sleep(line.talkSeconds(request.whisper) / 2); // the person hangs up during the brief: refused
    return { status: "no_answer", answeredAtSeconds, bridgedSeconds: 0 };
  }
  await line.sleep(line.talkSeconds(request.whisper)); // the person alone hears the brief
  const bridgedAt = line.connectedSeconds();
  const words = PERSON_LINES[language === "fr" ? "fr" : "ar"];
  const turns: NonNullable<TransferOutcome["bridgedTurns"]> = [];
  const order = [words.person[0]!, words.customer[0]!, words.person[1]!, words.customer[1]!, words.person[2]!];
  for (const [i, text] of order.entries()) {
    if (line.closed()) break;
    turns.push({ speaker: i % 2 === 0 ? "agent" : "customer", text, at: line.connectedSeconds() });
    await line.sleep(line.talkSeconds(text) + 0.8);
  }
  return {
    status: "bridged",
    answeredAtSeconds,
    bridgedSeconds: Math.round(line.connectedSeconds() - bridgedAt),
    bridgedTurns: turns,
    decision: {
      value: "confirmed",
      note:
        behaviour === "unanswerable_question"
          ? "Question answered by the shop's person; confirmed."
          : "Confirmed with the shop's person.",
    },
  };
}
