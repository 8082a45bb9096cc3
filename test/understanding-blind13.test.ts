// Issue 33: the decision the dialogue takes, on replies written blind. intents-blind13-holdout.jsonl (320 replies, MA,
// DZ, TN, FR, a quarter each; 56-62% hard kinds: a yes-word with a request, polite refusals, conditions,
// acknowledgements, long transcript-style replies) was never read by the fixes: it was scored once, at the end of the
// work (before 0.875 with 15 decided false confirmations; after 0.972 with none). intents-blind12-holdout.jsonl was
// held out of the first round and was the second round's development set. A regression guard: no reply of either is
// ever acted on as a confirmation the customer did not give, and at most 1% are read `confirm` at the label level.
import { describe, expect, it } from "vitest";
import { loadReplies, scoreReplies } from "../scripts/classifier/score.ts";

const file = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

describe("blind sets 12 and 13: no decided false confirmation", () => {
  for (const name of ["intents-blind12-holdout.jsonl", "intents-blind13-holdout.jsonl"]) {
    it(name, async () => {
      const rows = loadReplies(file(name));
      expect(rows.length).toBe(320);
      const s = await scoreReplies(rows);
      expect(s.overall.decidedFalseConfirms).toBe(0);
      expect(s.overall.falseConfirms / s.overall.n).toBeLessThanOrEqual(0.01);
      expect(s.overall.accuracy).toBeGreaterThanOrEqual(0.95);
    }, 60_000);
  }
});
