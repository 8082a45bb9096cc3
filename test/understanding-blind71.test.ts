// Issue 33, round 35: eight writers who saw no code and no earlier set wrote blind71 to the brief of hard cases on both
// sides, about replies that turn (the customer changes direction, corrects themselves, takes a word back; test/fixtures/
// blind71-brief.md), at the round's start, before any change. Split 60 + 60 per writer: the development halves may be
// read; the unseen halves are read by no fix and judge round 35 (bench/results/classifier.md and docs/understanding.md,
// round 35). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 71, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind71${w}-dev.jsonl`, `intents-blind71${w}-holdout.jsonl`]),
    60,
  );
});
