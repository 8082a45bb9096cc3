// The dialogue's mechanics with a scripted classifier (what each line means is given), so these tests
// cover the flow itself: branches, re-asks, interruptions, typed details, amounts and the profiles' text.
import { describe, expect, it } from "vitest";
import { createDialogue } from "../src/engine/dialogue/flow.ts";
import { dirhams } from "../src/engine/dialogue/profiles/ma.ts";
import { dinarsDz } from "../src/engine/dialogue/profiles/dz.ts";
import { dinarsTn } from "../src/engine/dialogue/profiles/tn.ts";
import { fr } from "../src/engine/dialogue/profiles/fr.ts";
import { isBareNo, questionTopic } from "../src/engine/dialogue/cues.ts";
import { localToUtc } from "../src/domain/local-time.ts";
import type { Intent, IntentClassifier } from "../src/engine/dialogue/types.ts";
import {
  behaviourFor,
  createSimulatedCustomer,
  cueOf,
  seededRandom,
} from "../src/engine/telephony/simulator/customer.ts";
import { profileFor } from "../src/engine/dialogue/flow.ts";
import { NOW, ORDERS, phoneFor } from "./dialogue-fixtures.ts";

/** Knows what each scripted line means; anything else is unclear. */
function scripted(lines: Record<string, Intent>): IntentClassifier {
  return { classify: (text) => ({ intent: lines[text] ?? "unclear", confidence: lines[text] ? 0.9 : 0.3 }) };
}

const SCRIPT = scripted({
  yes: "confirm",
  no: "cancel",
  "not me": "wrong_number",
  "how much?": "question",
  "ça arrive quand ?": "question",
  later: "reschedule",
  "call me": "callback",
  "other color": "change_request",
  "who is this?": "question",
  "oui, samedi": "confirm",
  "non, annulez": "cancel",
});

async function play(lines: (string | null)[], dialect: keyof typeof ORDERS = "ma") {
  const d = createDialogue(ORDERS[dialect], { classifier: SCRIPT, now: NOW, random: seededRandom(7) });
  const turns = [d.opening()];
  let at = 2;
  for (const line of lines) {
    turns.push(await d.hear(line, at));
    at += 4;
  }
  return { d, turns, last: turns[turns.length - 1] ?? { text: "", end: false } };
}

describe("amounts spoken the local way", () => {
  it("reads dirhams, dinars with millimes, and euros", () => {
    expect(dirhams("690.00")).toBe("ستمية و تسعين درهم");
    expect(dirhams("249.90")).toBe("ميتين و تسعة و ربعين درهم و تسعين سنتيم");
    expect(dirhams("5")).toBe("خمسة دراهم");
    expect(dirhams("1999")).toBe("ألف و تسعمية و تسعة و تسعين درهم");
    expect(dinarsDz("4500.00")).toBe("ربع آلاف و خمس مية دينار");
    expect(dinarsDz("12000")).toBe("ثناش ألف دينار");
    expect(dinarsTn("89.500")).toBe("تسعة و ثمانين دينار و خمسمية مليم");
    expect(dinarsTn("0.750")).toBe("سبعمية و خمسين مليم");
    expect(fr.spokenAmount("49.90")).toBe("49 euros 90");
    expect(fr.spokenAmount("1250.00")).toBe("1 250 euros");
  });
});

describe("flow", () => {
  it("greets with the shop and checks identity, then reads the order back and asks for confirmation", async () => {
    const { turns } = await play(["yes"]);
    expect(turns[0]?.text).toContain("Dar Lbahja");
    expect(turns[0]?.text).toContain("Fatima Zahra");
    expect(turns[1]?.text).toContain("واحد Caftan، Vert, M");
    expect(turns[1]?.text).toContain("جوج ديال Babouche، 38");
    expect(turns[1]?.text).toContain("ستمية و تسعين درهم");
    expect(turns[1]?.text).toContain("نأكدو");
    expect(turns[1]?.end).toBe(false);
  });

  it("confirms, thanks, gives the delivery line and closes", async () => {
    const { d, last } = await play(["yes", "yes"]);
    expect(last.end).toBe(true);
    expect(last.text).toContain("الليفرور");
    expect(d.result()).toEqual({
      outcome: "confirmed",
      outcome_details: { transcript_excerpt: "yes" },
      end_reason: "completed",
    });
  });

  it("asks the reason of a cancel once, then closes declined with it", async () => {
    const { d, turns } = await play(["yes", "no", "too expensive"]);
    expect(turns[2]?.text).toContain("علاش");
    expect(d.result()?.outcome).toBe("declined");
    expect(d.result()?.outcome_details).toMatchObject({
      reason: "too expensive",
      transcript_excerpt: "no / too expensive",
    });
  });

  it("a bare no to the identity check is a wrong number", async () => {
    const { d, last } = await play(["no"]);
    expect(last.end).toBe(true);
    expect(d.result()?.outcome).toBe("wrong_number");
  });

  it("answers a question from the order and asks again", async () => {
    const { d, turns } = await play(["yes", "how much?", "yes"], "fr");
    expect(turns[2]?.text).toContain("49 euros 90");
    expect(turns[2]?.text).toContain("Est-ce que je confirme");
    expect(d.result()?.outcome).toBe("confirmed");
  });

  it("answers a delivery question with the delivery line", async () => {
    const { turns } = await play(["yes", "ça arrive quand ?"], "fr");
    expect(turns[2]?.text).toContain("livreur");
  });

  it("re-asks at most twice, then ends with no_decision", async () => {
    const { d, turns } = await play(["yes", "euh", null, "hmm"]);
    expect(turns.slice(2, 4).every((t) => !t.end && t.text.includes("نأكدو"))).toBe(true);
    expect(turns[4]?.end).toBe(true);
    expect(d.result()).toMatchObject({ outcome: "no_decision", end_reason: "completed" });
  });

  it("asks when for a reschedule and keeps preferred_date null when no day is named", async () => {
    const { d, turns } = await play(["yes", "later", "I don't know"]);
    expect(turns[2]?.text).toContain("إمتى");
    expect(d.result()?.outcome_details).toMatchObject({ preferred_date: null });
  });

  it("asks when for a callback and leaves callback_at null without a time", async () => {
    const { d } = await play(["yes", "call me", null]);
    expect(d.result()).toMatchObject({ outcome: "callback_requested", outcome_details: { callback_at: null } });
  });

  it("asks what to change and keeps the customer's words", async () => {
    const { d, turns } = await play(["yes", "other color", "blue one"]);
    expect(turns[2]?.text).toContain("تبدل");
    expect(d.result()).toMatchObject({ outcome: "change_requested", outcome_details: { changes: "blue one" } });
  });

  it("a clear yes to 'which day?' or 'when shall we call?' that names none confirms: the request was misread", async () => {
    expect((await play(["yes", "later", "yes"])).d.result()).toMatchObject({ outcome: "confirmed" });
    expect((await play(["yes", "call me", "yes"])).d.result()).toMatchObject({ outcome: "confirmed" });
    // a yes that names the day is the day
    const day = await play(["yes", "later", "oui, samedi"], "fr");
    expect(day.d.result()).toMatchObject({ outcome: "rescheduled", outcome_details: { preferred_date: "2026-11-28" } });
  });

  it("a clear refusal to 'what to change?', 'which day?' or 'when?' declines; a bare or unsure no keeps the request", async () => {
    for (const request of ["other color", "later", "call me"])
      expect((await play(["yes", request, "non, annulez"], "fr")).d.result()).toMatchObject({ outcome: "declined" });
    // "what to change?" "no": nothing, or no change at all? Not a decline.
    const bare = await play(["yes", "other color", "no"]);
    expect(bare.d.result()).toMatchObject({ outcome: "change_requested", outcome_details: { changes: "no" } });
    const unsure = await play(["yes", "other color", "nope"]);
    expect(unsure.d.result()).toMatchObject({ outcome: "change_requested", outcome_details: { changes: "nope" } });
  });

  it("'I'm listening, go on' to 'when shall we call?' confirms nothing, however sure the reading", async () => {
    const d = createDialogue(ORDERS.dz, {
      classifier: { classify: (text) => ({ intent: text === "wait" ? "callback" : "confirm", confidence: 0.95 }) },
      now: NOW,
      random: seededRandom(7),
    });
    d.opening();
    for (const [i, line] of ["wah ana", "wait", "ih nasm3ek, tfadhal tfadhal"].entries()) await d.hear(line, 2 + 4 * i);
    expect(d.result()?.outcome).toBe("callback_requested");
  });

  it("apologises to a wrong number", async () => {
    const { d, last } = await play(["not me"], "fr");
    expect(last.text).toContain("excusez-moi");
    expect(d.result()?.outcome).toBe("wrong_number");
  });

  it("introduces itself again when asked who is calling", async () => {
    const { turns } = await play(["who is this?"]);
    expect(turns[1]?.text).toContain("Dar Lbahja");
    expect(turns[1]?.text).toContain("واش معايا");
  });

  it("speaks local French when the order's language is fr in the Maghreb", async () => {
    const d = createDialogue({ ...ORDERS.tn, language: "fr" }, { classifier: SCRIPT, now: NOW });
    d.opening();
    const turn = await d.hear("yes", 2);
    expect(turn.text).toContain("89 dinars et 500 millimes");
  });
});

describe("a request read without certainty (issue 33, round 14)", () => {
  /** Each line's intent and confidence as given. */
  const unsure = (lines: Record<string, [Intent, number]>): IntentClassifier => ({
    classify: (text) => {
      const [intent, confidence] = lines[text] ?? ["unclear", 0.3];
      return { intent, confidence };
    },
  });
  const LINES = unsure({
    "oui c'est moi": ["confirm", 0.95],
    oui: ["confirm", 0.95],
    non: ["cancel", 0.95],
    "livrez samedi": ["reschedule", 0.6],
    "livrez samedi, sûr": ["reschedule", 0.95],
    "rappelez demain à 18h": ["callback", 0.6],
    "en rouge": ["change_request", 0.6],
    "annulez, je n'en veux pas": ["cancel", 0.6],
    "ce n'est pas son numéro": ["wrong_number", 0.95],
    "plutôt changer la couleur": ["change_request", 0.95],
    "et rappelez-moi plutôt": ["callback", 0.95],
    "rappelez-moi": ["callback", 0.6],
    "rappelez-moi svp": ["callback", 0.95],
    "ouais ouais, continuez": ["confirm", 0.9],
  });
  async function call(lines: string[]) {
    const d = createDialogue(ORDERS.fr, { classifier: LINES, now: NOW, random: seededRandom(7) });
    const turns = [d.opening()];
    for (const [i, line] of lines.entries()) turns.push(await d.hear(line, 2 + 4 * i));
    return { d, turns };
  }
  const profile = profileFor(ORDERS.fr);

  it("asks the day, time or change it named instead of settling on it; a sure one settles at once", async () => {
    const sure = await call(["oui c'est moi", "livrez samedi, sûr"]);
    expect(sure.d.result()).toMatchObject({
      outcome: "rescheduled",
      outcome_details: { preferred_date: "2026-11-28" },
    });
    const day = await call(["oui c'est moi", "livrez samedi"]);
    expect(day.d.result()).toBeNull();
    expect(day.turns[2]?.text).toBe(profile.askDate());
    const time = await call(["oui c'est moi", "rappelez demain à 18h"]);
    expect(time.d.result()).toBeNull();
    expect(time.turns[2]?.text).toBe(profile.askCallbackTime());
    const change = await call(["oui c'est moi", "en rouge"]);
    expect(change.d.result()).toBeNull();
    expect(change.turns[2]?.text).toBe(profile.askChange());
  });

  it("a bare yes, or an answer naming nothing, keeps the day, time or change first heard", async () => {
    const saturday = { outcome: "rescheduled", outcome_details: { preferred_date: "2026-11-28" } };
    for (const [request, answer, result] of [
      ["livrez samedi", "oui", saturday],
      ["livrez samedi", "euh", saturday],
      [
        "rappelez demain à 18h",
        "oui",
        { outcome: "callback_requested", outcome_details: { callback_at: "2026-11-23T17:00:00Z" } },
      ],
      ["en rouge", "oui", { outcome: "change_requested", outcome_details: { changes: "en rouge" } }],
    ] as const)
      expect([request, answer, (await call(["oui c'est moi", request, answer])).d.result()]).toMatchObject([
        request,
        answer,
        result,
      ]);
    // and a hang-up at the question keeps the request as heard
    const hung = await call(["oui c'est moi", "livrez samedi"]);
    expect(hung.d.interrupt("customer_hangup", 30)).toMatchObject({ outcome: "rescheduled" });
  });

  it("an answer that reads as something else is the answer to the confirmation question, checked when unsure", async () => {
    // "what to change?" "cancel it, I don't want it" (unsure): the yes/no check, then the no declines
    const cancel = await call(["oui c'est moi", "en rouge", "annulez, je n'en veux pas"]);
    expect(cancel.d.result()).toBeNull();
    expect(cancel.turns[3]?.text).toBe(profile.checkConfirm());
    expect((await cancel.d.hear("non", 30)).text).toBe(profile.askReason());
    await cancel.d.hear("trop cher", 34);
    expect(cancel.d.result()).toMatchObject({ outcome: "declined", outcome_details: { reason: "too expensive" } });
    // "which day?" "this isn't her number": the name is asked, a no ends it as a wrong number
    const wrong = await call(["oui c'est moi", "livrez samedi", "ce n'est pas son numéro"]);
    expect(wrong.d.result()).toMatchObject({ outcome: "wrong_number" });
    // "which day?" "rather change the colour" (sure): its own detail is asked
    const other = await call(["oui c'est moi", "rappelez demain à 18h", "plutôt changer la couleur"]);
    expect(other.turns[3]?.text).toBe(profile.askChange());
    await other.d.hear("en rouge", 30);
    expect(other.d.result()).toMatchObject({ outcome: "change_requested", outcome_details: { changes: "en rouge" } });
  });

  it("a request heard unsure, naming nothing, whose question gets neither detail nor decision was no request", async () => {
    // "when shall we call?" "euh": the confirmation question again; "yeah yeah, go on": the yes/no check; then the
    // customer decides
    for (const [answer, asked] of [
      ["euh", profile.confirmationAgain(1)],
      ["ouais ouais, continuez", profile.checkConfirm()],
    ] as const) {
      const again = await call(["oui c'est moi", "rappelez-moi", answer]);
      expect(again.d.result()).toBeNull();
      expect(again.turns[3]?.text).toBe(asked);
      expect((await again.d.hear("non", 30)).text).toBe(profile.askReason());
    }
    // a callback heard for sure keeps its request, time or none
    expect((await call(["oui c'est moi", "rappelez-moi svp", "euh"])).d.result()).toMatchObject({
      outcome: "callback_requested",
      outcome_details: { callback_at: null },
    });
  });

  it("a change named unsure, whose question gets only attention or not hearing, was no change (round 24)", async () => {
    // "in red" (unsure), "what to change?" "allô, I can't hear you well": the confirmation question again, then a yes
    const again = await call(["oui c'est moi", "en rouge", "allô, je vous entends mal"]);
    expect(again.d.result()).toBeNull();
    expect(again.turns[3]?.text).toBe(profile.confirmationAgain(1));
    await again.d.hear("oui", 30);
    expect(again.d.result()).toMatchObject({ outcome: "confirmed" });
    // a bare yes still keeps the change heard, and a day named is kept through a filler ("which day?" "euh", above)
    expect((await call(["oui c'est moi", "en rouge", "oui"])).d.result()).toMatchObject({
      outcome: "change_requested",
    });
  });

  it("hears a detail question's answer as a new answer once a call, and never a bare no", async () => {
    // "what to change?" "no": nothing, or no change at all? Still the change.
    const bare = await call(["oui c'est moi", "en rouge", "non"]);
    expect(bare.d.result()).toMatchObject({ outcome: "change_requested" });
    // the second detail question's answer is its detail, whatever it reads as
    const twice = await call([
      "oui c'est moi",
      "rappelez demain à 18h",
      "plutôt changer la couleur",
      "et rappelez-moi plutôt",
    ]);
    expect(twice.d.result()).toMatchObject({
      outcome: "change_requested",
      outcome_details: { changes: "et rappelez-moi plutôt" },
    });
  });
});

describe("interruptions", () => {
  it("a hang-up before any decision is no_decision / customer_hangup", async () => {
    const { d } = await play(["yes"]);
    expect(d.interrupt("customer_hangup", 20)).toMatchObject({ outcome: "no_decision", end_reason: "customer_hangup" });
    expect(d.result()?.end_reason).toBe("customer_hangup");
  });

  it("a hang-up after a decision keeps it", async () => {
    const { d } = await play(["yes", "no"]);
    expect(d.interrupt("customer_hangup", 20)).toMatchObject({
      outcome: "declined",
      outcome_details: { reason: null },
      end_reason: "customer_hangup",
    });
  });

  it("balance and cancel interruptions", async () => {
    expect((await play(["yes"])).d.interrupt("balance_exhausted", 9)).toMatchObject({
      outcome: "no_decision",
      end_reason: "balance_exhausted",
    });
    expect((await play([])).d.interrupt("canceled", 1)).toMatchObject({
      outcome: "no_decision",
      end_reason: "canceled",
    });
  });

  it("an interrupt after the end keeps the completed result", async () => {
    const { d } = await play(["yes", "yes"]);
    expect(d.interrupt("customer_hangup", 30).end_reason).toBe("completed");
  });
});

describe("cues and local time", () => {
  it("tells what a question is about", () => {
    expect(questionTopic("bch7al kolchi?")).toBe("price");
    expect(questionTopic("قداش السوم؟")).toBe("price");
    expect(questionTopic("imta ghadi twsal?")).toBe("delivery");
    expect(questionTopic("c'est quoi déjà ma commande ?")).toBe("items");
  });

  it("reads a bare no", () => {
    expect(["la", "Non.", "لا", "laaa", "la la"].map(isBareNo)).toEqual([true, true, true, true, true]);
    expect(["la, ma bghitch", "oui", "machi ana"].map(isBareNo)).toEqual([false, false, false]);
  });

  it("turns a local wall-clock time into UTC across French summer time", () => {
    expect(localToUtc("2026-07-01", 18, 0, "FR").toISOString()).toBe("2026-07-01T16:00:00.000Z");
    expect(localToUtc("2026-12-01", 18, 0, "FR").toISOString()).toBe("2026-12-01T17:00:00.000Z");
    expect(localToUtc("2026-12-01", 18, 0, "TN").toISOString()).toBe("2026-12-01T17:00:00.000Z");
  });
});

describe("what the simulated customer recognises in every profile's words", () => {
  const cases = [
    ["ma", "ar"],
    ["dz", "ar"],
    ["tn", "ar"],
    ["ma", "fr"],
    ["dz", "fr"],
    ["tn", "fr"],
    ["fr", "fr"],
  ] as const;
  it.each(cases)("%s in %s", (dialect, language) => {
    const order = { ...ORDERS[dialect], language };
    const p = profileFor(order);
    const first = <T>(xs: readonly T[]) => xs[0] as T;
    expect(cueOf(p.opening(order, first))).toBe("identity");
    expect(cueOf(p.identityAgain(order))).toBe("identity");
    expect(cueOf(p.introduceAgain(order))).toBe("identity");
    expect(cueOf(p.readBack(order, first))).toBe("confirm");
    expect([1, 2].map((n) => cueOf(p.confirmationAgain(n)))).toEqual(["confirm", "confirm"]);
    for (const topic of ["price", "items", "delivery"] as const)
      expect(cueOf(`${p.answer(topic, order)} ${p.confirmationQuestion()}`)).toBe("confirm");
    expect(cueOf(p.askReason())).toBe("why");
    expect(cueOf(p.askDate())).toBe("when");
    expect(cueOf(p.askCallbackTime())).toBe("when");
    expect(cueOf(p.askChange())).toBe("change");
  });
});

describe("simulated customer", () => {
  it("maps the test numbers and draws stable personas for the others", () => {
    expect(behaviourFor("+212612345601")).toBe("confirm");
    expect(behaviourFor("+212612345612")).toBe("unintelligible");
    expect(behaviourFor("+33612345678")).toBe(behaviourFor("+33612345678"));
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const b = behaviourFor(
        `+2126${String(10_000_000 + i * 7919).padStart(8, "0")}`.replace(/(0[1-9]|1[0-2])$/, "77"),
      );
      counts.set(b, (counts.get(b) ?? 0) + 1);
    }
    expect(counts.get("confirm") ?? 0).toBeGreaterThan(700);
    expect(counts.size).toBeGreaterThanOrEqual(10);
  });

  it("rings realistically and picks up per its number", () => {
    const r = seededRandom(3);
    expect(createSimulatedCustomer(phoneFor("ma", "03"), "ma", r)).toMatchObject({ pickup: "no_answer" });
    expect(createSimulatedCustomer(phoneFor("ma", "03"), "ma", r).ringSeconds).toBeGreaterThanOrEqual(30);
    expect(createSimulatedCustomer(phoneFor("dz", "04"), "dz", r).pickup).toBe("busy");
    expect(createSimulatedCustomer(phoneFor("tn", "05"), "tn", r).pickup).toBe("voicemail");
    const answering = createSimulatedCustomer(phoneFor("fr", "01"), "fr", r);
    expect(answering.ringSeconds).toBeGreaterThanOrEqual(3);
    expect(answering.ringSeconds).toBeLessThanOrEqual(20);
    const reply = answering.reply("Bonjour, est-ce que je parle bien avec Julie ?", 0);
    expect(reply.thinkSeconds).toBeGreaterThanOrEqual(0.5);
    expect(reply.thinkSeconds).toBeLessThanOrEqual(3);
  });

  it("answers what the agent asks: why, when, what to change", () => {
    const r = seededRandom(5);
    const decliner = createSimulatedCustomer(phoneFor("ma", "02"), "ma", r);
    expect(decliner.reply("واش معايا فاطمة؟", 0).text).toBeTruthy();
    const why = decliner.reply("واش ممكن تقول ليا علاش بغيتي تلغي الطلبية؟", 2).text ?? "";
    expect(why.length).toBeGreaterThan(2);
    const hanger = createSimulatedCustomer(phoneFor("tn", "11"), "tn", r);
    expect(hanger.reply("نحكي مع أميرة؟", 0).hangup).toBe(false);
    expect(hanger.reply("الكوموند متاعك فيها ... نأكدولك الكوموند؟", 1)).toMatchObject({ hangup: true, text: null });
  });
});

describe("never a false confirmation: the yes/no check and the keypad (issue 14)", () => {
  /** Knows each line's meaning and confidence; `mixed` lines hold a yes and a no. */
  const UNSURE = {
    classify: (text: string) => {
      const table: Record<string, { intent: Intent; confidence: number; mixed?: boolean }> = {
        yes: { intent: "confirm", confidence: 0.9 },
        no: { intent: "cancel", confidence: 0.9 },
        "yes-ish": { intent: "confirm", confidence: 0.55 },
        "no-ish": { intent: "cancel", confidence: 0.5 },
        "yes but no": { intent: "confirm", confidence: 0.9, mixed: true },
        "not me?": { intent: "wrong_number", confidence: 0.5 },
        la: { intent: "cancel", confidence: 0.6 },
        later: { intent: "reschedule", confidence: 0.9 },
        "oui oui": { intent: "confirm", confidence: 0.65 },
      };
      return table[text] ?? { intent: "unclear" as const, confidence: 0.3 };
    },
  };

  async function run(lines: (string | null | { keys: string })[], digits = false, dialect: keyof typeof ORDERS = "ma") {
    const d = createDialogue(ORDERS[dialect], { classifier: UNSURE, now: NOW, random: seededRandom(3), digits });
    const turns = [d.opening()];
    let at = 2;
    for (const line of lines) {
      turns.push(
        line === null || typeof line === "string"
          ? await d.hear(line, (at += 4))
          : await d.press!(line.keys, (at += 4)),
      );
    }
    return { d, turns };
  }

  it("asks a short yes/no check instead of confirming an unsure yes, then confirms a clear one", async () => {
    const { d, turns } = await run(["yes", "yes-ish"]);
    expect(turns[2]).toEqual({ text: "غير باش نتأكد: نأكدو ليك الطلبية، آه ولا لا؟", end: false });
    expect(d.result()).toBeNull();
    const after = await d.hear("yes", 20);
    expect(after.end).toBe(true);
    expect(d.result()?.outcome).toBe("confirmed");
  });

  it("a bare yes to the check confirms, although alone it is too weak to decide", async () => {
    const { d, turns } = await run(["yes", "yes-ish", "oui oui"], false, "fr");
    expect(turns[2]?.text).toBe("Juste pour être sûre : je confirme votre commande, oui ou non ?");
    expect(turns[3]?.end).toBe(true);
    expect(d.result()?.outcome).toBe("confirmed");
  });

  it("a bare yes counts only as the answer to the check: to the confirmation question it is checked first", async () => {
    const { d, turns } = await run(["yes", "oui oui"], false, "fr");
    expect(turns[2]?.text).toBe("Juste pour être sûre : je confirme votre commande, oui ou non ?");
    expect(d.result()).toBeNull();
  });

  it("checks a reply holding both a yes and a no, however confident", async () => {
    const { d, turns } = await run(["yes", "yes but no", "no"], false, "fr");
    expect(turns[2]?.text).toBe("Juste pour être sûre : je confirme votre commande, oui ou non ?");
    expect(turns[3]?.text).toContain("pourquoi"); // declined: the reason is asked
    expect(d.result()).toBeNull();
  });

  it("checks an unsure cancel too, and a bare no to the check declines", async () => {
    const { d, turns } = await run(["yes", "no-ish", "la"], false, "dz");
    expect(turns[2]?.text).toContain("غير باش نتأكد");
    expect(turns[3]?.text).toContain("علاه"); // the reason is asked: declined
    expect(d.result()).toBeNull();
  });

  it("asks the identity as a yes/no question before deciding an unsure wrong number", async () => {
    const { d, turns } = await run(["not me?"], false, "tn");
    expect(turns[1]?.text).toBe("سامحني، باش نتأكد برك: نحكي مع Amira، إيه ولا لا؟");
    expect(d.result()).toBeNull();
    const next = await d.hear("la", 10);
    expect(next.end).toBe(true);
    expect(d.result()?.outcome).toBe("wrong_number");
  });

  it("never confirms after unsure replies only: no decision in the end", async () => {
    const { d, turns } = await run(["yes", "yes-ish", "yes-ish", "yes but no"]);
    expect(turns.at(-1)?.end).toBe(true);
    expect(d.result()?.outcome).toBe("no_decision");
  });

  it("offers the keypad after two unclear turns on a line that carries digits: 1 confirms", async () => {
    const { d, turns } = await run(["yes", "euh", "yes-ish", { keys: "1" }], true);
    expect(turns[3]?.text).toBe("إلا بغيتي، ضغط على واحد باش تأكد الطلبية، ولا على جوج باش تلغيها.");
    expect(turns[4]?.end).toBe(true);
    expect(d.result()).toMatchObject({ outcome: "confirmed", outcome_details: { transcript_excerpt: "DTMF 1" } });
    expect(d.transcript().at(-2)).toMatchObject({ speaker: "customer", text: "DTMF 1", intent: "confirm" });
  });

  it("2 on the keypad declines; a key before the offer or another key is not a decision", async () => {
    expect((await run(["yes", "euh", null, { keys: "2" }], true, "fr")).d.result()).toMatchObject({
      outcome: "declined",
      outcome_details: { reason: null },
    });
    const early = await run(["yes", { keys: "1" }], true);
    expect(early.d.result()).toBeNull();
    const other = await run(["yes", "euh", "hmm", { keys: "7" }], true);
    expect(other.d.result()?.outcome).toBe("no_decision");
  });

  it("keeps the spoken re-ask without digits", async () => {
    const { turns } = await run(["yes", "euh", "hmm"], false, "fr");
    expect(turns[3]?.text).toContain("oui ou non");
    expect(turns[3]?.text).not.toContain("appuyez");
  });

  it("the simulated customer answers the check plainly and presses keys when offered", () => {
    const r = seededRandom(11);
    const confirmer = createSimulatedCustomer(phoneFor("fr", "01"), "fr", r);
    expect(cueOf(fr.checkConfirm())).toBe("check");
    expect(cueOf(fr.offerKeypad())).toBe("keypad");
    expect(["oui", "oui oui", "oui, c'est ça", "exactement, oui", "oui, je confirme"]).toContain(
      confirmer.reply(fr.checkConfirm(), 3).text,
    );
    expect(confirmer.reply(fr.offerKeypad(), 4)).toMatchObject({ digits: "1", text: null });
    expect(
      createSimulatedCustomer(phoneFor("ma", "02"), "ma", r).reply(profileFor(ORDERS.ma).offerKeypad(), 4),
    ).toMatchObject({ digits: "2" });
    for (const d of ["ma", "dz", "tn"] as const) {
      const p = profileFor(ORDERS[d]);
      expect([cueOf(p.checkConfirm()), cueOf(p.offerKeypad()), cueOf(p.checkIdentity(ORDERS[d]))]).toEqual([
        "check",
        "keypad",
        "identity",
      ]);
    }
  });
});
