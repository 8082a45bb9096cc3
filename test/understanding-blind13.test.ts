// Issue 33: the decision the dialogue takes, on replies written blind. intents-blind13-holdout.jsonl (320 replies, MA,
// DZ, TN, FR, a quarter each; 56-62% hard kinds: a yes-word with a request, polite refusals, conditions,
// acknowledgements, long transcript-style replies) was never read by the fixes: it was scored once, at the end of the
// work (before 0.875 with 15 decided false confirmations; after 0.972 with none). intents-blind12-holdout.jsonl was
// held out of the first round and was the second round's development set. A regression guard: no reply of either is
// ever acted on as a confirmation the customer did not give, and at most 1% are read `confirm` at the label level.
import { describe, expect, it } from "vitest";
import { loadReplies, scoreReplies } from "../scripts/classifier/score.ts";

const file = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

// Blind set 14 (round 3): intents-blind14a-holdout.jsonl (200 replies, MA and DZ, written by a writer who saw no code
// and no earlier set; never read by a fix) and the lead's set (240 replies, four countries; its development half went to
// the round's fixer, its held-out half did not). Scored before round 3's fixes (docs/understanding.md): no decided
// false confirmation on any of them, which this guards; their accuracy is below the goal and not guarded.
describe("blind set 14: no decided false confirmation", () => {
  for (const [name, n] of [
    ["intents-blind14a-holdout.jsonl", 200],
    ["intents-blind14-lead-dev.jsonl", 120],
    ["intents-blind14-lead-holdout.jsonl", 120],
  ] as const) {
    it(name, async () => {
      const rows = loadReplies(file(name));
      expect(rows.length).toBe(n);
      const s = await scoreReplies(rows);
      expect(s.overall.decidedFalseConfirms).toBe(0);
    }, 60_000);
  }
});

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
