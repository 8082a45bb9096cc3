// The dialogue end to end with the real intent classifier and the simulator's customers: each of the twelve
// test numbers of CONTRACT §5 in each of the four dialects (48 conversations), then hand-written calls.
// The outcome comes only from the customer's words going through the classifier.
import { describe, expect, it } from "vitest";
import { classifyIntent } from "../src/engine/dialogue/classifier.ts";
import { answersIdentity, createDialogue } from "../src/engine/dialogue/flow.ts";
import type { Dialect, Intent, IntentClassifier, TranscriptEntry } from "../src/engine/dialogue/types.ts";
import { phraseBank, seededRandom } from "../src/engine/telephony/simulator/customer.ts";
import type { PhraseBank } from "../src/engine/telephony/simulator/phrases/bank.ts";
import { type Conversation, NOW, ORDERS, converse, phoneFor } from "./dialogue-fixtures.ts";

const classifier: IntentClassifier = { classify: (text, country) => classifyIntent(text, country) };
const DIALECTS: Dialect[] = ["ma", "dz", "tn", "fr"];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The amount as each profile must read it back. */
const SPOKEN_AMOUNT: Record<Dialect, string> = {
  ma: "ستمية و تسعين درهم",
  dz: "ربع آلاف و خمس مية دينار",
  tn: "تسعة و ثمانين دينار و خمسمية مليم",
  fr: "49 euros 90",
};

const customerLines = (t: TranscriptEntry[]) => t.filter((e) => e.speaker === "customer");
const excerptOf = (c: Conversation) => String(c.result?.outcome_details.transcript_excerpt ?? "");

/** What each test number must end in, checked on the conversation. */
const EXPECT: Record<string, (c: Conversation) => void> = {
  "01": (c) => expect(c.result).toMatchObject({ outcome: "confirmed", end_reason: "completed" }),
  "02": (c) => {
    expect(c.result).toMatchObject({ outcome: "declined", end_reason: "completed" });
    expect(typeof c.result?.outcome_details["reason"]).toBe("string");
    expect(String(c.result?.outcome_details["reason"]).length).toBeGreaterThan(2);
  },
  "03": (c) => expect([c.customer.pickup, c.dialogue, c.customer.ringSeconds >= 30]).toEqual(["no_answer", null, true]),
  "04": (c) => expect([c.customer.pickup, c.dialogue]).toEqual(["busy", null]),
  "05": (c) => expect([c.customer.pickup, c.dialogue]).toEqual(["voicemail", null]),
  "06": (c) => {
    expect(c.result).toMatchObject({ outcome: "rescheduled", end_reason: "completed" });
    expect(c.result?.outcome_details["preferred_date"]).toMatch(DATE);
    expect(String(c.result?.outcome_details["preferred_date"]) > "2026-11-22").toBe(true);
  },
  "07": (c) => expect(c.result).toMatchObject({ outcome: "wrong_number", end_reason: "completed" }),
  "08": (c) => {
    expect(c.result).toMatchObject({ outcome: "confirmed", end_reason: "completed" });
    expect(customerLines(c.transcript).map((e) => e.intent)).toContain("question");
  },
  "09": (c) => {
    expect(c.result).toMatchObject({ outcome: "change_requested", end_reason: "completed" });
    expect(String(c.result?.outcome_details["changes"] ?? "").length).toBeGreaterThan(2);
  },
  "10": (c) => {
    expect(c.result).toMatchObject({ outcome: "callback_requested", end_reason: "completed" });
    expect(c.result?.outcome_details["callback_at"]).toMatch(INSTANT);
  },
  "11": (c) => expect(c.result).toMatchObject({ outcome: "no_decision", end_reason: "customer_hangup" }),
  "12": (c) => {
    expect(c.result).toMatchObject({ outcome: "no_decision", end_reason: "completed" });
    expect(c.agentTurns).toBeLessThanOrEqual(3);
  },
};

describe.each(DIALECTS)("simulated customers speaking %s", (dialect) => {
  it.each(Object.keys(EXPECT))(`number ending %s`, async (suffix) => {
    const c = await converse(ORDERS[dialect], phoneFor(dialect, suffix), classifier);
    EXPECT[suffix]?.(c);
    if (!c.dialogue) return;
    const t = c.transcript;
    expect(t[0]).toMatchObject({ speaker: "agent", at: 0 });
    expect(t[0]?.text).toContain(ORDERS[dialect].shopName);
    expect(customerLines(t).length).toBeGreaterThan(0);
    expect(customerLines(t).every((e) => e.intent !== undefined)).toBe(true);
    expect(typeof c.result?.outcome_details.transcript_excerpt).toBe("string");
    expect(excerptOf(c).length).toBeLessThanOrEqual(280);
    if (suffix !== "07" && suffix !== "12")
      expect(t.some((e) => e.speaker === "agent" && e.text.includes(SPOKEN_AMOUNT[dialect]))).toBe(true);
    if (c.result?.end_reason === "completed") expect(t[t.length - 1]?.speaker).toBe("agent");
  });
});

/** MA, DZ and TN orders with language "fr": the local French script, the same customers. */
const LOCAL_FRENCH: Record<Exclude<Dialect, "fr">, string> = {
  ma: "690 dirhams",
  dz: "4 500 dinars",
  tn: "89 dinars et 500 millimes",
};

describe.each(["ma", "dz", "tn"] as const)("the %s profile in French", (dialect) => {
  it.each(["01", "02", "06", "08", "10", "12"])("number ending %s", async (suffix) => {
    const c = await converse({ ...ORDERS[dialect], language: "fr" }, phoneFor(dialect, suffix), classifier);
    EXPECT[suffix]?.(c);
    expect(c.transcript[0]?.text).toMatch(/^(Salam|Aslema|Bonjour)/);
    if (suffix !== "12")
      expect(c.transcript.some((e) => e.speaker === "agent" && e.text.includes(LOCAL_FRENCH[dialect]))).toBe(true);
  });
});

async function talk(dialect: Dialect, lines: (string | null)[]) {
  const d = createDialogue(ORDERS[dialect], { classifier, now: NOW, random: seededRandom(11) });
  const turns = [d.opening()];
  let at = 3;
  for (const line of lines) {
    turns.push(await d.hear(line, at));
    at += 5;
  }
  return { d, turns, result: d.result() };
}

describe("hand-written conversations", () => {
  it("a negation trap confirms (ma)", async () => {
    const { result } = await talk("ma", ["iyeh ana", "la la ma kayn mouchkil, sifto liya"]);
    expect(result).toMatchObject({
      outcome: "confirmed",
      outcome_details: { transcript_excerpt: "la la ma kayn mouchkil, sifto liya" },
    });
  });

  it("a question, its answer from the order, then a yes (tn)", async () => {
    const { turns, result } = await talk("tn", ["ey ena", "9adech el kol?", "behi, ab3athha"]);
    expect(turns[2]?.text).toContain(SPOKEN_AMOUNT.tn);
    expect(turns[2]?.text).toContain("نأكدولك");
    expect(result?.outcome).toBe("confirmed");
  });

  it("inshallah alone is not a yes: the agent asks again (dz)", async () => {
    const { turns, result } = await talk("dz", ["wah ana", "inchallah", "wah, saha, b3athouli"]);
    expect(turns[2]?.end).toBe(false);
    expect(result?.outcome).toBe("confirmed");
  });

  it("a reschedule naming its day closes without asking when (fr)", async () => {
    const { turns, result } = await talk("fr", [
      "oui c'est moi",
      "je ne suis pas là cette semaine, livrez-moi samedi prochain",
    ]);
    expect(turns[2]?.end).toBe(true);
    expect(result?.outcome).toBe("rescheduled");
    expect(result?.outcome_details["preferred_date"]).toBe("2026-11-28");
  });

  it("a callback at six in the evening is stored in UTC (fr, UTC+1 in November)", async () => {
    const { result } = await talk("fr", [
      "oui c'est moi",
      "je suis au travail, rappelez-moi plus tard",
      "demain vers 18h",
    ]);
    expect(result?.outcome).toBe("callback_requested");
    expect(result?.outcome_details["callback_at"]).toBe("2026-11-23T17:00:00Z");
  });

  it("a callback named in Darija is six in the evening, Casablanca time (ma)", async () => {
    const { result } = await talk("ma", [
      "ah ana",
      "ana f lkhedma daba, 3ayet liya men b3d",
      "ghedda m3a 6 dyal l3chiya",
    ]);
    expect(result?.outcome).toBe("callback_requested");
    const at = new Date(String(result?.outcome_details["callback_at"]));
    const local = new Intl.DateTimeFormat("en-CA", {
      timeZone: "Africa/Casablanca",
      dateStyle: "short",
      timeStyle: "short",
      hourCycle: "h23",
    }).format(at);
    expect(local).toBe("2026-11-23, 18:00");
  });

  it("a callback in an hour is an hour from now (fr, dz)", async () => {
    const fr = await talk("fr", ["oui", "je suis en voiture, rappelez-moi", "dans une heure"]);
    expect(fr.result?.outcome_details["callback_at"]).toBe("2026-11-22T11:00:00Z");
    const dz = await talk("dz", ["wah ana", "rani f lkhedma, 3awed 3ayetli men ba3d", "ba3d nos sa3a"]);
    expect(dz.result?.outcome_details["callback_at"]).toBe("2026-11-22T10:30:00Z");
  });

  it("not that person is a wrong number, with an apology (tn)", async () => {
    const { turns, result } = await talk("tn", ["موش أنا، غالط في النومرو"]);
    expect(turns[1]?.end).toBe(true);
    expect(result?.outcome).toBe("wrong_number");
  });

  it("a decline with its reason (fr)", async () => {
    const { result } = await talk("fr", ["oui", "non merci, annulez", "je l'ai trouvé moins cher ailleurs"]);
    expect(result).toMatchObject({ outcome: "declined" });
    expect(String(result?.outcome_details["reason"])).not.toBe("null");
  });

  it("silence three times ends with no_decision", async () => {
    const { turns, result } = await talk("dz", ["wah ana", null, null, null]);
    expect(turns.filter((t) => t.text.includes("نأكد")).length).toBe(3);
    expect(result).toMatchObject({ outcome: "no_decision", end_reason: "completed" });
  });
});

/** What the classifier must make of each part of the simulator's phrase banks. */
const BANK_INTENTS: [keyof PhraseBank, Intent][] = [
  ["identityYes", "confirm"],
  ["whoIsCalling", "question"],
  ["wrongPerson", "wrong_number"],
  ["confirm", "confirm"],
  ["hedge", "unclear"],
  ["decline", "cancel"],
  ["reschedule", "reschedule"],
  ["question", "question"],
  ["change", "change_request"],
  ["callback", "callback"],
  ["mumble", "unclear"],
];

describe("the simulator's phrase banks through the real classifier", () => {
  it("are read as the behaviour they stand for", async () => {
    const misses: string[] = [];
    let total = 0;
    for (const dialect of DIALECTS) {
      const bank = phraseBank(dialect);
      for (const [part, intent] of BANK_INTENTS) {
        for (const text of bank[part]) {
          total += 1;
          const got = await classifier.classify(text, ORDERS[dialect].country);
          // Attention alone ("wah ana m3ak") is unclear after the order is read (issue 33.3) and a yes to "is this <name>?".
          if (part === "identityYes" && answersIdentity(got, text, ORDERS[dialect].country)) continue;
          if (got.intent !== intent) misses.push(`${dialect} ${part}: "${text}" -> ${got.intent} (want ${intent})`);
        }
      }
    }
    console.log(
      `phrase banks: ${total - misses.length}/${total} read as meant${misses.length ? `\n  ${misses.join("\n  ")}` : ""}`,
    );
    expect(misses).toEqual([]);
  });
});
