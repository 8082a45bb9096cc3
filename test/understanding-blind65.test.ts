// Issue 33, round 32: eight more writers who saw no code and no set wrote blind65 to blind64's brief (the people around
// the customer during the call) for other regions (test/fixtures/blind65-brief.md). Split 60 + 60 per writer: the
// development halves may be read and are trained on; the unseen halves are read by no fix and judge round 32 with
// blind64 (bench/results/classifier.md and docs/understanding.md, round 32). The decision is guarded, as for every
// blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 65, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind65${w}-dev.jsonl`, `intents-blind65${w}-holdout.jsonl`]),
    60,
  );
});
