// Issue 33, round 33: eight writers who saw no code and no earlier set wrote blind69 to the brief of hard cases on both
// sides, about how the customer feels and speaks (test/fixtures/blind69-brief.md), after every change of the round, so
// that its end is scored on replies no decision touched. The batch is kept whole and unread: no text of it printed, no
// change made from it (bench/results/classifier.md and docs/understanding.md, round 33). The decision is guarded, as for
// every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 69, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind69${w}.jsonl`),
    120,
  );
});
