// The warm transfer's triggers in the dialogue (issue 34), in each profile with the local classifier: the customer
// asks for a person, a question the agent has no answer for, unclear after the last unclear turn, anger. With the
// trigger in the shop's handoff the agent says it puts the customer through (profile language) and the turn asks for
// the transfer; without it, today's behaviour. Then each transfer ending.
import { describe, expect, it } from "vitest";
import { HANDOFF_TRIGGERS, type HandoffTrigger } from "../src/domain/handoff.ts";
import { classifyIntent } from "../src/engine/dialogue/classifier.ts";
import { createDialogue } from "../src/engine/dialogue/flow.ts";
import { asksForPerson, soundsAngry, unansweredQuestion, whisperText } from "../src/engine/dialogue/handoff.ts";
import { knownQuestionTopic } from "../src/engine/dialogue/cues.ts";
import { LexiconIntentClassifier } from "../src/engine/dialogue/classifier.ts";
import { HANDOFF_PHRASES } from "../src/engine/telephony/simulator/transfer.ts";
import type { Dialect } from "../src/domain/locale.ts";
import type { AgentTurn, IntentClassifier } from "../src/engine/dialogue/types.ts";
import { seededRandom } from "../src/engine/telephony/simulator/customer.ts";
import { NOW, ORDERS } from "./dialogue-fixtures.ts";

const LOCAL: IntentClassifier = { classify: (text, country) => classifyIntent(text, country) };

/** Per profile: a yes to the identity check, a request for a person, an off-order question, an insult, a mumble. */
const WORDS: Record<
  Dialect,
  { yes: string; person: string; question: string; angry: string; mumble: string; transferring: RegExp }
> = {
  ma: {
    yes: "ah ana hiya",
    person: "bghit nhder m3a chi wahed men lmagasin",
    question: "wach kayn chi garantie 3la l9aftan?",
    angry: "nta hmar, nsab!",
    mumble: "mmm",
    transferring: /نحولك/,
  },
  dz: {
    yes: "ih ana",
    person: "نحب نهدر مع المسؤول",
    question: "wach nqder nbedel ida ma 3jbatnich?",
    angry: "ya sra9in, ya hmir",
    mumble: "mmm",
    transferring: /نحولك/,
  },
  tn: {
    yes: "ey ena",
    person: "nheb nahki m3a insen",
    question: "najem nraj3o ken ma 3jebnich?",
    angry: "إنتوما سراقين، كلاب",
    mumble: "mmm",
    transferring: /نحولك/,
  },
  fr: {
    yes: "oui c'est moi",
    person: "je voudrais parler à un conseiller s'il vous plaît",
    question: "est-ce que je peux payer par carte bancaire ?",
    angry: "vous êtes des ESCROCS, des VOLEURS",
    mumble: "euh",
    transferring: /je vous mets en relation/,
  },
};

async function talk(dialect: Dialect, lines: string[], handoff?: readonly HandoffTrigger[], unanswered?: string[]) {
  const d = createDialogue(ORDERS[dialect], {
    classifier: LOCAL,
    now: NOW,
    random: seededRandom(3),
    ...(handoff ? { handoff } : {}),
    ...(unanswered ? { onUnansweredQuestion: (q: string) => void unanswered.push(q) } : {}),
  });
  const turns: AgentTurn[] = [d.opening()];
  let at = 2;
  for (const line of lines) {
    turns.push(await d.hear(line, at));
    at += 4;
    if (turns.at(-1)!.end || turns.at(-1)!.transfer) break;
  }
  return { d, last: turns.at(-1)! };
}

describe("the words that hand a call over (issue 34)", () => {
  it("hears a request for a person in every profile, and not ordinary replies", () => {
    for (const w of Object.values(WORDS)) expect(asksForPerson(w.person), w.person).toBe(true);
    for (const s of [
      "oui c'est moi",
      "wakha sifto liya",
      "quand est-ce que le livreur va passer ?",
      "شحال الثمن؟",
      "je parle bien avec Julie ?",
      "ey ena",
    ]) {
      expect(asksForPerson(s), s).toBe(false);
    }
    expect(asksForPerson("un humain s'il vous plaît")).toBe(true);
  });

  it("hears every simulator customer of 13-15 (both classifiers read their questions as questions the agent cannot answer)", () => {
    const rules = new LexiconIntentClassifier();
    const country = { ma: "MA", dz: "DZ", tn: "TN", fr: "FR" } as const;
    for (const [dialect, p] of Object.entries(HANDOFF_PHRASES) as [Dialect, (typeof HANDOFF_PHRASES)[Dialect]][]) {
      for (const q of p.person) expect(asksForPerson(q), q).toBe(true);
      for (const q of p.question) {
        expect(unansweredQuestion(q, knownQuestionTopic), q).toBe(true);
        expect(classifyIntent(q, country[dialect]).intent, q).toBe("question");
        expect(rules.classify(q, country[dialect]).intent, q).toBe("question");
      }
    }
  });

  it("hears insults and shouting in every profile, and not ordinary replies", () => {
    for (const w of Object.values(WORDS)) expect(soundsAngry(w.angry), w.angry).toBe(true);
    expect(soundsAngry("NON MAIS ARRÊTEZ DE M'APPELER")).toBe(true);
    for (const s of ["non merci", "la ma bghitch", "je ne suis pas content du délai", "OK", "wakha"])
      expect(soundsAngry(s), s).toBe(false);
  });

  it("briefs the person in the shop's language: customer, order, total, why; never the customer's line", () => {
    const fr = whisperText("fr", {
      customerName: "Julie Martin",
      orderExternalId: "A-1",
      total: "49.90 EUR",
      reason: "unanswered_question",
      question: "je peux payer par carte ?",
    });
    expect(fr).toMatch(/Julie Martin.*A-1, 49\.90 EUR.*question.*carte.*Raccrochez pour refuser/);
    expect(
      whisperText("ar", {
        customerName: "Fatima",
        orderExternalId: "B-2",
        total: "690.00 MAD",
        reason: "customer_asks",
      }),
    ).toMatch(/Fatima.*B-2.*690\.00 MAD.*طلب يهضر/);
  });
});

describe.each(Object.keys(WORDS) as Dialect[])("triggers in profile %s (issue 34)", (dialect) => {
  const w = WORDS[dialect];

  it("customer_asks: puts the customer through when the shop says so; otherwise today's dialogue goes on", async () => {
    const on = await talk(dialect, [w.yes, w.person], ["customer_asks"]);
    expect(on.last).toMatchObject({ end: false, transfer: { reason: "customer_asks", question: null } });
    expect(on.last.text).toMatch(w.transferring);
    const off = await talk(dialect, [w.yes, w.person], ["angry"]);
    expect(off.last.transfer).toBeUndefined();
    expect(off.last.text).not.toMatch(w.transferring);
  });

  it("unanswered_question: reported to the trigger point, transferred when the shop says so, else answered from the order", async () => {
    const seen: string[] = [];
    const on = await talk(dialect, [w.yes, w.question], ["unanswered_question"], seen);
    expect(on.last).toMatchObject({ transfer: { reason: "unanswered_question", question: w.question } });
    expect(seen).toEqual([w.question]);
    const offSeen: string[] = [];
    const off = await talk(dialect, [w.yes, w.question], undefined, offSeen);
    expect(off.last.transfer).toBeUndefined();
    expect(offSeen).toEqual([w.question]);
  });

  it("angry: put through when the shop says so", async () => {
    const on = await talk(dialect, [w.yes, w.angry], ["angry"]);
    expect(on.last).toMatchObject({ transfer: { reason: "angry" } });
    expect((await talk(dialect, [w.yes, w.angry], ["customer_asks"])).last.transfer).toBeUndefined();
  });

  it("unclear: after the last unclear turn, transferred instead of giving up", async () => {
    const on = await talk(dialect, [w.yes, w.mumble, w.mumble, w.mumble], ["unclear"]);
    expect(on.last).toMatchObject({ end: false, transfer: { reason: "unclear" } });
    const off = await talk(dialect, [w.yes, w.mumble, w.mumble, w.mumble], []);
    expect(off.last.end).toBe(true);
    expect(off.d.result()).toMatchObject({ outcome: "no_decision", end_reason: "completed" });
  });

  it("ends: bridged is no_decision `transferred`; any other ending promises a callback and ends callback_requested", async () => {
    const bridged = await talk(dialect, [w.yes, w.person], HANDOFF_TRIGGERS);
    expect(await bridged.d.hear("allo ?", 20)).toEqual({ text: "", end: false }); // the person's line is ringing
    expect(bridged.d.transferred!("bridged", 30)).toEqual({ text: "", end: true });
    expect(bridged.d.result()).toMatchObject({
      outcome: "no_decision",
      end_reason: "transferred",
      outcome_details: { transcript_excerpt: w.person },
    });
    for (const status of ["no_answer", "busy", "failed", "outside_hours"] as const) {
      const missed = await talk(dialect, [w.yes, w.person], HANDOFF_TRIGGERS);
      const back = missed.d.transferred!(status, 40);
      expect(back.end).toBe(true);
      expect(back.text.length).toBeGreaterThan(20);
      expect(missed.d.result()).toMatchObject({
        outcome: "callback_requested",
        end_reason: "completed",
        outcome_details: { callback_at: null },
      });
      expect(missed.d.transcript().at(-1)).toMatchObject({ speaker: "agent", text: back.text });
    }
  });
});
