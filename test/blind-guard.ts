// The decision guard every blind set of issue 33 gets (rounds 8 and 9): no reply of the set is acted on as a
// confirmation the customer did not give, and no simulated call built from its sentences ends `confirmed` for a
// customer who did not confirm. Call inside a `describe`.
import { expect, it } from "vitest";
import { runConversations, type Row } from "../scripts/classifier/conversations.ts";
import { loadReplies, scoreReplies } from "../scripts/classifier/score.ts";
import { ModelIntentClassifier } from "../src/engine/dialogue/model/model.ts";
import type { Classification, IntentClassifier } from "../src/engine/dialogue/types.ts";

/**
 * The model, each reply read once: a conversation says the same sentences again (each opens about eight calls, and
 * the bare yes and no come back in every one), and the model's reading is a pure function of the text and country.
 * The guards read exactly what the calls would, about four times faster (round 14: the guards were a fifth of the
 * suite's file time).
 */
function readOnce(): IntentClassifier {
  const model = new ModelIntentClassifier();
  const read = new Map<string, Promise<Classification>>();
  return {
    classify(text, country) {
      const key = `${country}\u0000${text}`;
      let reading = read.get(key);
      if (!reading) {
        reading = Promise.resolve(model.classify(text, country));
        read.set(key, reading);
      }
      return reading;
    },
  };
}

const file = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

/**
 * `known`: calls confirmed without a yes that a writer's set is known to bring, by writer ("intents-blind44e", for a
 * whole set as for one split in halves), each argued where it is given; the guard then holds that count exactly, so
 * that it can neither grow nor vanish unseen.
 */
export function guardDecisions(names: string[], replies = 120, known: Record<string, number> = {}): void {
  const classifier = readOnce();
  for (const name of names) {
    it(`${name}: no decided false confirmation`, async () => {
      const rows = loadReplies(file(name));
      expect(rows.length).toBe(replies);
      // (Read through the guard's classifier: the calls below then find each sentence already read.)
      const s = await scoreReplies(rows, classifier);
      expect(s.overall.decidedFalseConfirms).toBe(0);
    }, 60_000);
  }
  // One writer's two halves (-dev and -holdout) make one set of 1,000 conversations: each sentence opens about eight
  // calls either way, at half the run time of 1,000 per half (round 13: the guards were a quarter of the suite's time).
  const writers = new Map<string, string[]>();
  for (const name of names) {
    const writer = name.replace(/(?:-(?:dev|holdout))?\.jsonl$/, "");
    writers.set(writer, [...(writers.get(writer) ?? []), name]);
  }
  for (const [writer, parts] of writers) {
    it(`${parts.length > 1 ? `${writer} (${parts.length} halves)` : parts[0]}: 1,000 conversations, none confirmed for a customer who did not confirm`, async () => {
      const rows = parts.flatMap((name) => loadReplies(file(name))) as Row[];
      const s = await runConversations(rows, 1000, 33, classifier);
      expect(s.calls).toBe(1000);
      expect(s.falselyConfirmed).toBe(known[writer] ?? 0);
    }, 120_000);
  }
}
