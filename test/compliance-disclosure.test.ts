// Issue 36.1: every profile's opening says it is an automated assistant calling for the shop and that the call is
// recorded; no setting removes it, and it costs at most two seconds of speech, measured with the audio simulator's
// voice (espeak-ng at its default rate, as the simulated line speaks the agent's lines).
import { afterAll, describe, expect, it } from "vitest";
import { createDialogue, profileFor } from "../src/engine/dialogue/flow.ts";
import { LexiconIntentClassifier } from "../src/engine/dialogue/classifier.ts";
import { EspeakSpeech, espeakAvailable } from "../src/engine/speech/espeak.ts";
import { SimulatedAudioTelephony } from "../src/engine/telephony/simulator/audio.ts";
import { createSimulatedCustomer, cueOf } from "../src/engine/telephony/simulator/customer.ts";
import type { DialogueOrder } from "../src/engine/dialogue/types.ts";
import { voicemailMessage } from "../src/engine/agent-lines.ts";
import { NOW, ORDERS } from "./dialogue-fixtures.ts";

const CASES = [
  ["ma", "ar"],
  ["dz", "ar"],
  ["tn", "ar"],
  ["ma", "fr"],
  ["dz", "fr"],
  ["tn", "fr"],
  ["fr", "fr"],
] as const;

/** The words that carry the disclosure, per language: automated, and recorded. */
const AUTOMATED = { ar: /مساعدة آلية|المساعدة الآلية/, fr: /assistante automatique/ };
const RECORDED = { ar: /المكالمة مسجلة/, fr: /appel (est )?enregistré/ };

/** The openings the disclosure replaced (before issue 36), with the first greeting: the baseline of its cost. */
function openingBefore(o: DialogueOrder): string {
  if (o.language === "fr") {
    const hello =
      o.dialect === "ma" || o.dialect === "dz" ? "Salam, bonjour" : o.dialect === "tn" ? "Aslema, bonjour" : "Bonjour";
    return `${hello}, je vous appelle de la part de ${o.shopName}. Est-ce que je parle bien avec ${o.customerName} ?`;
  }
  if (o.dialect === "ma") return `السلام عليكم، كنعيط ليك من ${o.shopName}. واش معايا ${o.customerName}؟`;
  if (o.dialect === "dz") return `السلام عليكم، راني نعيطلك من ${o.shopName}. راني نهدر مع ${o.customerName}؟`;
  return `عسلامة، نكلمك من ${o.shopName}. نحكي مع ${o.customerName}؟`;
}

const first = <T>(xs: readonly T[]) => xs[0] as T;
const last = <T>(xs: readonly T[]) => xs[xs.length - 1] as T;

describe("the disclosure in the opening line", () => {
  it.each(CASES)(
    "%s in %s: automated assistant of the shop, recorded call, then the identity check",
    (dialect, language) => {
      const order = { ...ORDERS[dialect], language };
      const p = profileFor(order);
      for (const pick of [first, last]) {
        const opening = p.opening(order, pick);
        expect(opening).toMatch(AUTOMATED[language]);
        expect(opening).toMatch(RECORDED[language]);
        expect(opening).toContain(order.shopName);
        expect(opening).toContain(order.customerName);
        // The disclosure comes before the question, and the simulated customer still hears an identity check.
        expect(opening.search(RECORDED[language])).toBeLessThan(opening.indexOf(order.customerName));
        expect(cueOf(opening)).toBe("identity");
      }
      // "Who is this?" gets the disclosure again, with the order named.
      const again = p.introduceAgain(order);
      expect(again).toMatch(AUTOMATED[language]);
      expect(again).toMatch(RECORDED[language]);
      expect(cueOf(again)).toBe("identity");
    },
  );

  it("is the first thing every dialogue says, whatever the options (no setting turns it off)", () => {
    for (const [dialect, language] of CASES) {
      const order = { ...ORDERS[dialect], language };
      for (const digits of [true, false]) {
        const d = createDialogue(order, {
          classifier: new LexiconIntentClassifier(),
          now: NOW,
          random: () => 0.99,
          digits,
        });
        expect(d.opening().text).toMatch(RECORDED[language]);
        expect(d.transcript()[0]!.text).toMatch(AUTOMATED[language]);
      }
    }
  });
});

const hasEspeak = await espeakAvailable();

describe.skipIf(!hasEspeak)("what the disclosure costs in speech (the audio simulator's voice)", () => {
  const voice = new EspeakSpeech({ concurrency: 2 });
  const carrier = new SimulatedAudioTelephony({ customers: createSimulatedCustomer, speed: 1, voice });
  afterAll(async () => {
    await carrier.close();
    await voice.close();
  });
  const seconds = async (text: string, locale: string) => {
    const s = await carrier.speech.synthesize(text, { locale, sampleRate: 8000 });
    return s.samples.length / s.sampleRate;
  };

  it("adds at most 2 s to the opening in every profile", async () => {
    const added: string[] = [];
    for (const [dialect, language] of CASES) {
      const order = { ...ORDERS[dialect], language };
      const locale = language === "fr" ? "fr-FR" : `ar-${order.country}`;
      const before = await seconds(openingBefore(order), locale);
      const after = await seconds(profileFor(order).opening(order, first), locale);
      added.push(`${dialect}/${language} ${before.toFixed(2)} s -> ${after.toFixed(2)} s`);
      expect(after - before, `${dialect}/${language}: ${before} -> ${after}`).toBeLessThanOrEqual(2);
      expect(after - before, `${dialect}/${language}`).toBeGreaterThan(0); // it does say more than before
    }
    console.log(`disclosure cost (espeak-ng, 160 wpm): ${added.join("; ")}`);
  }, 60_000);
});

describe("the voicemail message", () => {
  it("says it is automated too, in every profile", () => {
    for (const [dialect, language] of CASES) {
      expect(voicemailMessage(language, dialect, "Maison Lila")).toMatch(AUTOMATED[language]);
    }
  });
});
