// Issue 33, round 31: eight writers who saw no code and no earlier set wrote blind59 to the brief of hard cases on both
// sides, about second thoughts: self-corrections, two answers weighed aloud, someone nearby who interrupts, a reply that
// starts as one intent and ends as another, what the customer said before (test/fixtures/blind59-brief.md). Written at
// round 31's start as its judge with blind61 and kept whole and unread for that judgement, the batch was then spent
// and joined the training pool (bench/results/classifier.md and docs/understanding.md, round 31). The decision is
// guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 59: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind59${w}.jsonl`),
    120,
  );
});
