// Issue 33, round 38: eight writers who saw no code and no earlier set wrote blind77 to blind73's brief of short replies
// (test/fixtures/blind77-brief.md), on other regions, after the round's first readings and before any change made from
// this set. Split 60 + 60 per writer: the development halves may be read; the unseen halves are read by no fix and
// judge round 38 (bench/results/classifier.md and docs/understanding.md, round 38). The decision is guarded, as for
// every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 77, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind77${w}-dev.jsonl`, `intents-blind77${w}-holdout.jsonl`]),
    60,
  );
});
