// Issue 33, round 31: eight writers who saw no code and no earlier set wrote blind62 to blind59's brief (second
// thoughts) for other regions (test/fixtures/blind62-brief.md), so that the theme's failures could be studied while
// blind59 stayed unread. Each writer's replies were split 60 + 60 (alternate replies of each intent): the `-dev` halves
// are read, fixed from and trained on; the `-holdout` halves are read by no fix and were part of the round's second
// judge (bench/results/classifier.md and docs/understanding.md, round 31). The decision is guarded, as for every blind
// set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 62, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind62${w}-dev.jsonl`, `intents-blind62${w}-holdout.jsonl`]),
    60,
  );
});
