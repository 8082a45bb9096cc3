// The intent classifier (CONTRACT §5b): accuracy on the development and held-out sets, one case per
// labelling rule, normalisation, confidence and the interface the dialogue engine uses.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  classifyIntent,
  INTENTS,
  LexiconIntentClassifier,
  type Country,
  type Intent,
  type IntentClassifier,
} from "../src/engine/dialogue/classifier.ts";
import { decidable, decision } from "../src/engine/dialogue/flow.ts";
import { ModelIntentClassifier } from "../src/engine/dialogue/model/model.ts";
import { keepingReadings } from "../src/engine/dialogue/reading.ts";
import { analyse } from "../src/engine/dialogue/signals.ts";
import { canonicalize } from "../src/engine/dialogue/normalize.ts";

interface Labelled {
  country: Country;
  text: string;
  intent: Intent;
}

const COUNTRIES: Country[] = ["MA", "DZ", "TN", "FR"];
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const load = (name: string): Labelled[] =>
  readFileSync(path.join(fixtures, name), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Labelled);
const dev = load("intents-dev.jsonl");
const holdout = load("intents-holdout.jsonl");

function accuracy(rows: Labelled[], country: Country): { accuracy: number; misses: string[] } {
  const mine = rows.filter((r) => r.country === country);
  const misses = mine.flatMap((r) => {
    const got = classifyIntent(r.text, r.country).intent;
    return got === r.intent ? [] : [`${r.text} → ${got} (want ${r.intent})`];
  });
  return { accuracy: (mine.length - misses.length) / mine.length, misses };
}

// Reached when these thresholds were set: development 100% in every country; held-out 96.3% (MA),
// 98.1% (DZ), 100% (TN, FR) at its one blind measurement, 98.1% / 100% / 100% / 100% since.
const DEV_MIN = 0.97;
const HOLDOUT_MIN = 0.94;

describe("labelled sets", () => {
  it("are well formed, large enough and disjoint", () => {
    for (const row of [...dev, ...holdout]) {
      expect(COUNTRIES).toContain(row.country);
      expect(INTENTS).toContain(row.intent);
      expect(row.text.trim()).not.toBe("");
    }
    for (const c of COUNTRIES) {
      expect(dev.filter((r) => r.country === c).length).toBeGreaterThanOrEqual(100);
      expect(holdout.filter((r) => r.country === c).length).toBeGreaterThanOrEqual(50);
    }
    const seen = new Set(dev.map((r) => `${r.country}|${r.text}`));
    expect(holdout.filter((r) => seen.has(`${r.country}|${r.text}`))).toEqual([]);
  });

  it.each(COUNTRIES)("development set, %s: accuracy at least 97%%", (country) => {
    const { accuracy: a, misses } = accuracy(dev, country);
    console.log(`classifier development set ${country}: ${(a * 100).toFixed(1)}%`);
    expect(misses.length === 0 || a >= DEV_MIN, misses.join("\n")).toBe(true);
  });

  it.each(COUNTRIES)("held-out set, %s: accuracy at least 94%%", (country) => {
    const { accuracy: a, misses } = accuracy(holdout, country);
    console.log(`classifier held-out set ${country}: ${(a * 100).toFixed(1)}%`);
    expect(a, misses.join("\n")).toBeGreaterThanOrEqual(HOLDOUT_MIN);
  });
});

// Issue 14: sets written by other authors. The blind development sets are trained on (their 97% floor guards the
// training itself); own-holdout was never fixed against. The blind holdout and final sets are never read
// here: only bench/classifier-score.ts scores them, in aggregates.
const blindDev = load("intents-blind-dev.jsonl");
const blind2Dev = load("intents-blind2-dev.jsonl");
const blind3Dev = load("intents-blind3-dev.jsonl");
const ownHoldout = load("intents-own-holdout.jsonl");

describe("issue 14 sets", () => {
  it.each(COUNTRIES)("blind development set, %s: accuracy at least 97%%", (country) => {
    const { accuracy: a, misses } = accuracy(blindDev, country);
    expect(a, misses.join("\n")).toBeGreaterThanOrEqual(0.97);
  });

  it.each(COUNTRIES)("second blind development set, %s: accuracy at least 97%%", (country) => {
    const { accuracy: a, misses } = accuracy(blind2Dev, country);
    expect(a, misses.join("\n")).toBeGreaterThanOrEqual(0.97);
  });

  it.each(COUNTRIES)("third blind development set, %s: accuracy at least 97%%", (country) => {
    const { accuracy: a, misses } = accuracy(blind3Dev, country);
    expect(a, misses.join("\n")).toBeGreaterThanOrEqual(0.97);
  });

  it.each(COUNTRIES)("own held-out set, %s: accuracy at least 90%%", (country) => {
    const { accuracy: a, misses } = accuracy(ownHoldout, country);
    console.log(`classifier own held-out set ${country}: ${(a * 100).toFixed(1)}%`);
    expect(a, misses.join("\n")).toBeGreaterThanOrEqual(0.9);
  });

  it("never gives a sure, clean confirm to a reply that is not one (the dialogue would act on it)", () => {
    const decided = [...dev, ...holdout, ...blindDev, ...blind2Dev, ...blind3Dev, ...ownHoldout].filter((r) => {
      const c = classifyIntent(r.text, r.country);
      return r.intent !== "confirm" && c.intent === "confirm" && decidable(c);
    });
    expect(decided.map((r) => `${r.country} ${r.text} (${r.intent})`)).toEqual([]);
  });

  it("marks a reply holding a yes and a no as mixed, not a plain one", () => {
    expect(classifyIntent("wakha... la la ma bghitch", "MA").mixed).toBe(true);
    expect(classifyIntent("Oui oui... enfin non, annulez en fait", "FR").mixed).toBe(true);
    expect(classifyIntent("la la ma kayn mouchkil, sifto", "MA").mixed).toBeUndefined();
    expect(classifyIntent("wakha a khoya sifto", "MA").mixed).toBeUndefined();
  });

  it("marks a yes that also asks a question or hedges as mixed, so the dialogue checks it (CONFIRM_SAFEGUARDS)", () => {
    for (const [text, country] of [
      ["wakha sifto, chhal taman?", "MA"],
      ["ey inchallah ab3athha", "TN"],
    ] as const) {
      const c = classifyIntent(text, country);
      expect(c.intent).toBe("confirm");
      expect(decidable(c)).toBe(false);
    }
    // "send it, when does it arrive?": the round 7 model reads the trailing question (CONTRACT §5b: the last action);
    // whichever it reads, it is never a confirm decided without a check.
    const sendThenAsk = classifyIntent("ok envoyez, elle arrive quand ?", "FR");
    expect(sendThenAsk.intent === "confirm" && decidable(sendThenAsk)).toBe(false);
    expect(decidable(classifyIntent("واه ابعثوها", "DZ"))).toBe(true);
    expect(decidable(classifyIntent("oui envoyez-la", "FR"))).toBe(true);
    // Without the safeguards the same readings are acted on at once: the gate is what makes them checked.
    const bare = new ModelIntentClassifier(undefined, { safeguards: new Set() });
    expect(decidable(bare.classify("ey inchallah ab3athha", "TN"))).toBe(true);
    // A yes that trails into a hesitation ("oui oui euh", "اه اه هممم") is a backchannel: checked (round 7).
    for (const [text, country] of [
      ["wakha sifto euh", "MA"],
      ["oui envoyez euh", "FR"],
    ] as const) {
      expect(classifyIntent(text, country).intent).toBe("confirm");
      expect(decidable(classifyIntent(text, country))).toBe(false);
      expect(decidable(bare.classify(text, country))).toBe(true);
    }
    // A yes cut off on an article, a "of" or a preposition is not yet a decision: checked (round 8). "là" and "sûr"
    // fold into "la" and "sur" and are not cut-offs.
    for (const [text, country] of [
      ["واخا صيفطو ديال ال", "MA"],
      ["واه ابعثوها تاع ال", "DZ"],
      ["ey ab3ath mta3", "TN"],
      ["oui envoyez le colis avec", "FR"],
    ] as const) {
      expect(classifyIntent(text, country).intent).toBe("confirm");
      expect(decidable(classifyIntent(text, country))).toBe(false);
      expect(decidable(bare.classify(text, country))).toBe(true);
    }
    for (const text of ["oui je serai là", "oui envoyez-la"]) expect(decidable(classifyIntent(text, "FR"))).toBe(true);
    // A bare "bien sûr" is no cut-off either: a confirm, not mixed (round 31's model reads it at 0.83, under
    // SURE_TO_CONFIRM, so it is checked for its confidence alone).
    const sure = classifyIntent("bien sûr", "FR");
    expect(sure.intent).toBe("confirm");
    expect(sure.mixed).toBeUndefined();
  });
});

/** [country, text, intent, rule] */
const RULES: [Country, string, Intent, string][] = [
  // negation traps
  ["MA", "la la ma kayn mouchkil", "confirm", "a no before 'no problem' reassures"],
  ["MA", "ma3andi mouchkil", "confirm", "'I have no problem' is a yes"],
  ["FR", "pas de problème", "confirm", "'no problem' is a yes"],
  ["FR", "non non c'est bon", "confirm", "'no no, it's fine' is a yes"],
  ["DZ", "lala makach mouchkil", "confirm", "Algerian 'no no, no problem'"],
  ["TN", "le le ma famech mochkla", "confirm", "Tunisian 'no no, no problem'"],
  ["TN", "la2 la2 c bon", "confirm", "arabizi hamza digit and 'c bon'"],
  ["MA", "ma bghitch nbddel walou", "confirm", "a negated change is a yes"],
  ["FR", "je ne vais pas annuler", "confirm", "a negated cancel is a yes"],
  ["FR", "ne l'envoyez pas", "cancel", "a negated 'send it' is a no"],
  ["MA", "la ma ghadich nkhalles", "cancel", "a negated 'I'll pay' is a no"],
  // dialect false friends
  ["TN", "ba3d jem3a", "reschedule", "Tunisian jem3a is a week"],
  ["TN", "ey behi ama jibha ba3d jem3a", "reschedule", "yes but in a week"],
  ["MA", "nhar jem3a jibouha", "reschedule", "Moroccan jem3a is Friday"],
  // hedges
  ["MA", "inshallah", "unclear", "inshallah alone is not a yes"],
  ["DZ", "inchallah", "unclear", "inshallah alone is not a yes"],
  ["TN", "إن شاء الله", "unclear", "inshallah alone is not a yes (Arabic script)"],
  ["FR", "Inchallah", "unclear", "inshallah alone is not a yes (French speaker)"],
  ["MA", "inshallah ghadi nkhalles", "confirm", "inshallah with a commitment"],
  ["DZ", "inchallah nkhalles ki tjini", "confirm", "inshallah with a commitment"],
  // last or dominant action
  ["FR", "oui mais en rouge", "change_request", "yes, but in red"],
  ["MA", "iyeh walakin bghitha b l7mer", "change_request", "yes, but in red"],
  ["FR", "ok mais apportez-le jeudi", "reschedule", "fine, but bring it Thursday"],
  ["MA", "wakha walakin jibouha nhar lkhmis", "reschedule", "fine, but bring it Thursday"],
  ["MA", "ch7al? ... ok sifto", "confirm", "a question, then ok send it"],
  ["FR", "c'est combien ? bon ok envoyez", "confirm", "a question, then ok send it"],
  // a yes with a delivery instruction
  ["FR", "oui, mais appelez-moi avant que le livreur passe", "confirm", "call before the courier comes"],
  ["FR", "oui, frappez fort", "confirm", "knock hard"],
  ["MA", "iyeh, ghir d9 lbab mzyan", "confirm", "knock hard"],
  ["MA", "wakha, 3ayet 3liya mli ywsel l'livreur", "confirm", "call me when the courier arrives"],
  // delivery day versus callback
  ["FR", "appelez-moi lundi pour la livraison", "reschedule", "call me Monday about the delivery"],
  ["MA", "3ayet lia nhar letnin 3la l'livraison", "reschedule", "call me Monday about the delivery"],
  ["FR", "je peux pas parler, rappelez-moi plus tard", "callback", "can't talk now, call later"],
  ["DZ", "rani khdam 3awed 3ayetli mba3d", "callback", "at work, call again later"],
  ["MA", "3ayet lia ghedda", "callback", "a day for the call, not the delivery"],
  // a request phrased as a question
  ["FR", "vous pouvez livrer après six heures ?", "reschedule", "can you deliver after six?"],
  ["FR", "vous pouvez en mettre deux ?", "change_request", "can you make it two?"],
  ["MA", "wach t9dar tbddel lia l'couleur?", "change_request", "can you change the colour?"],
  ["MA", "imta ghadi twsel?", "question", "a wh-question about the delivery stays a question"],
  // didn't order versus wrong number
  ["FR", "non j'ai rien commandé", "cancel", "I didn't order anything"],
  ["MA", "ma tlebt walou", "cancel", "I didn't order anything"],
  ["FR", "j'ai rien commandé, c'est pas mon nom", "wrong_number", "not my name"],
  ["FR", "j'ai rien commandé, c'est pas mon numéro", "wrong_number", "not my number"],
  ["MA", "ma tlebt walou w ana machi houwa", "wrong_number", "I am not that person"],
  ["FR", "Je ne suis pas Madame Benali", "wrong_number", "not that person, named"],
  // repeat requests and fillers
  ["FR", "pardon ?", "unclear", "a request to repeat"],
  ["FR", "oui ?", "unclear", "a bare rising yes"],
  ["MA", "iyeh?", "unclear", "a bare rising yes"],
  ["TN", "ey?", "unclear", "a bare rising yes"],
  ["FR", "euh...", "unclear", "a filler"],
  ["MA", "alo? alo?", "unclear", "a filler"],
  // customers' own words, from the brief
  ["MA", "wakha a khoya sifto", "confirm", "yes"],
  ["TN", "iyeh mrigel", "confirm", "yes"],
  ["MA", "la ma bghitch", "cancel", "no"],
  ["MA", "3afak bddel lia l'couleur", "change_request", "change the colour"],
  ["DZ", "chkoun nta?", "question", "who are you?"],
  ["MA", "ana machi houwa", "wrong_number", "I'm not him"],
  ["FR", "ouais c'est bon envoyez", "confirm", "yes"],
  ["MA", "نعم أنا", "confirm", "formal yes, it's me"],
  ["TN", "ayy, ena bidi", "confirm", "yes, me myself ('bidi' is not the colour white)"],
];

describe("labelling rules (CONTRACT §5b)", () => {
  it.each(RULES)("%s %j is %s (%s)", (country, text, intent) => {
    expect(classifyIntent(text, country).intent).toBe(intent);
  });
});

describe("normalisation", () => {
  it.each([
    ["wakhaaaa", "wakha"],
    ["وَاخَا", "wakha"],
    ["واخـــا", "wakha"],
    ["بغيت جوج", "bghit juj"],
    ["ما بغيتش", "ma bghitch"],
    ["mabghitch", "ma bghitch"],
    ["s7i7", "shih"],
    ["n5alles", "nkhales"],
    ["la2", "la"],
    ["Ça marche, merci", "sa marche , merci"],
    ["l'adresse", "l adrese"],
    ["ra'yi", "rayi"],
    ["à 18h30 le 25/12", "a 18h30 le 25/12"],
  ])("%j reads as %j", (text, canonical) => {
    expect(canonicalize(text)).toBe(canonical);
  });

  it("reads Arabic script, arabizi and French alike", () => {
    for (const [country, text] of [
      ["MA", "ما كاين مشكل"],
      ["MA", "ma kayn mochkil"],
      ["FR", "pas de problème"],
    ] as const) {
      expect(classifyIntent(text, country).intent).toBe("confirm");
    }
  });
});

describe("confidence", () => {
  it("is between 0 and 1 for every development utterance", () => {
    for (const r of dev) {
      const { confidence } = classifyIntent(r.text, r.country);
      expect(confidence).toBeGreaterThanOrEqual(0);
      expect(confidence).toBeLessThanOrEqual(1);
    }
  });

  it("is lower for weak or ambiguous replies than for clear ones", () => {
    const clear = classifyIntent("wakha a khoya sifto", "MA").confidence;
    expect(classifyIntent("ah", "MA").confidence).toBeLessThan(clear);
    expect(classifyIntent("wakha... la la ma bghitch", "MA").confidence).toBeLessThan(
      classifyIntent("la ma bghitch, lghiha", "MA").confidence,
    );
    // (Round 43's model leans to confirm on this string by a hair, 0.50 against unclear's 0.36: the label is the
    // n-grams' majority, the confidence stays under one half and the dialogue never acts on it.)
    const nonsense = classifyIntent("xqzv plorp", "FR");
    expect(["unclear", "confirm"]).toContain(nonsense.intent);
    expect(nonsense.confidence).toBeLessThan(0.5);
    expect(decision(nonsense, "xqzv plorp", "FR")).not.toBe("act");
    expect(classifyIntent("", "FR")).toEqual({ intent: "unclear", confidence: 0.3 });
  });
});

describe("IntentClassifier", () => {
  it("the model classifier is the interface's local implementation, the lexicon rules another", async () => {
    const classifier: IntentClassifier = new ModelIntentClassifier();
    expect(await classifier.classify("ey behi ab3ethha", "TN")).toEqual(classifyIntent("ey behi ab3ethha", "TN"));
    expect((await new LexiconIntentClassifier().classify("ey behi ab3ethha", "TN")).intent).toBe("confirm");
  });

  it("an asynchronous implementation (a model behind a provider) fits the same interface", async () => {
    const remote: IntentClassifier = { classify: async () => ({ intent: "question", confidence: 0.6 }) };
    expect(await remote.classify("ch7al?", "MA")).toEqual({ intent: "question", confidence: 0.6 });
  });
});

describe("the lexicon's analyses, kept", () => {
  it("the same text is analysed once and shared frozen; only the last 64 are kept, more inside keepingReadings", async () => {
    const first = analyse("wakha, sifto nhar sebt", "MA");
    expect(analyse("wakha, sifto nhar sebt", "MA")).toBe(first);
    expect(analyse("wakha, sifto nhar sebt", "DZ")).not.toBe(first);
    expect(Object.isFrozen(first.tokens) && Object.isFrozen(first.hits) && first.hits.every(Object.isFrozen)).toBe(
      true,
    );
    expect(() => (first.hits as unknown[]).push({})).toThrow(TypeError);
    for (let i = 0; i < 64; i++) analyse(`oui ${i}`, "FR");
    expect(analyse("wakha, sifto nhar sebt", "MA")).not.toBe(first);
    const kept = await keepingReadings(200, async () => {
      const a = analyse("iyeh, sifto", "MA");
      for (let i = 0; i < 150; i++) analyse(`non ${i}`, "FR");
      return analyse("iyeh, sifto", "MA") === a;
    });
    expect(kept).toBe(true);
  });
});
