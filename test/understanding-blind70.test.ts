// Issue 33, round 34: eight writers who saw no code and no earlier set wrote blind70 to the brief of hard cases on both
// sides, about the line and the moment of the call (test/fixtures/blind70-brief.md), at the round's start, before any
// change, so that the round is measured on replies no decision touched. The batch is kept whole and unread: no text of
// it printed, no change made from it (bench/results/classifier.md and docs/understanding.md, round 34). The decision is
// guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 70, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind70${w}.jsonl`),
    120,
  );
});
