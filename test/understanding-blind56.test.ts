// Issue 33, round 30: eight writers who saw no code and no earlier set wrote blind56 to the brief of hard cases on both
// sides, about money: the price, the total and the delivery fee, how and when the customer pays, the customer's budget,
// haggling (test/fixtures/blind56-brief.md). Written at round 30's start as its independent judge, the batch is kept
// whole and unread: no text of it printed, no change made from it; it is scored on the round's start and on its end
// (docs/understanding.md, round 30). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 56, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind56${w}.jsonl`),
    120,
  );
});
