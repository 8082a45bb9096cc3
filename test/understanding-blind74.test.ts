// Issue 33, round 37: eight writers who saw no code and no earlier set wrote blind74 to the brief of hard cases on both
// sides, about long replies as speech-to-text gives them (the decision after a story or before one, two answers of
// which the last holds, the line's faults, someone else's words; test/fixtures/blind74-brief.md), after the round's
// first readings, before any change made from it. Split 60 + 60 per writer: the development halves may be read; the
// unseen halves are read by no fix and judge round 37 (bench/results/classifier.md and docs/understanding.md, round
// 37). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 74, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind74${w}-dev.jsonl`, `intents-blind74${w}-holdout.jsonl`]),
    60,
  );
});
