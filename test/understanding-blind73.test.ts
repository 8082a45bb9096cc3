// Issue 33, round 37: eight writers who saw no code and no earlier set wrote blind73 to the brief of hard cases on both
// sides, about short replies (one to three words, a few words that turn on one word, half answers, a piece of the order
// echoed, one filler word that decides; test/fixtures/blind73-brief.md), at the round's start, before any change. Split
// 60 + 60 per writer: the development halves may be read; the unseen halves are read by no fix and judge round 37
// (bench/results/classifier.md and docs/understanding.md, round 37). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 73, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind73${w}-dev.jsonl`, `intents-blind73${w}-holdout.jsonl`]),
    60,
  );
});
