// Issue 33, round 32: eight writers who saw no code and no earlier set wrote blind64 to the brief of hard cases on both
// sides, about the people around the customer during the call: side talk the transcript catches, another person who
// decides or must agree, the phone passed, an order for someone else, noise and the place that interrupt
// (test/fixtures/blind64-brief.md). Written as the fresh judge of round 32, the batch is kept whole and unread: no text
// of it printed, no change made from it (bench/results/classifier.md and docs/understanding.md, round 32). The decision
// is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 64, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind64${w}.jsonl`),
    120,
  );
});
