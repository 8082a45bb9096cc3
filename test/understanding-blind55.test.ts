// Issue 33, round 29: eight writers who saw no code and no earlier set wrote blind55 to the brief of hard cases on both
// sides, about time, days and the customer's plans (test/fixtures/blind55-brief.md). Written during round 29 as the
// second fresh judge of its candidate model, the batch is kept whole and unread: no text of it printed, no change made
// from it (bench/results/classifier.md and docs/understanding.md, round 29). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 55, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind55${w}.jsonl`),
    120,
  );
});
