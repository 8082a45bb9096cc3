// Issue 33, round 33: eight writers who saw no code and no earlier set wrote blind68 to the brief of hard cases on both
// sides, about the ad, the offer and the product itself (test/fixtures/blind68-brief.md), at the round's start. The
// batch is kept whole and unread: no text of it printed, no change made from it; with blind67 it is round 33's judge
// (bench/results/classifier.md and docs/understanding.md, round 33). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 68, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind68${w}.jsonl`),
    120,
  );
});
