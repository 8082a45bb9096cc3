// Issue 33, round 36: eight writers who saw no code and no earlier set wrote blind72 to the brief of hard cases on both
// sides, about days, dates and times (the delivery day agreed or checked, another day, a day or an hour that is about
// something else; test/fixtures/blind72-brief.md), at the round's start, before any change. Split 60 + 60 per writer:
// the development halves may be read; the unseen halves are read by no fix and judge round 36
// (bench/results/classifier.md and docs/understanding.md, round 36). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 72, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind72${w}-dev.jsonl`, `intents-blind72${w}-holdout.jsonl`]),
    60,
  );
});
