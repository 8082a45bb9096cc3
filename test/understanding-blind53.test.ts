// Issue 33, round 28: eight writers who saw no code and no earlier set wrote blind53 to the brief of hard cases on both
// sides, about what the customer talks about: the product, sizes and colours, the delivery, the money
// (test/fixtures/blind53-brief.md). Written during round 28 as its independent check, the batch is kept whole and
// unread: no text of it printed, no change made from it; it was scored on the round's start and on its end
// (docs/understanding.md, round 28). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 53, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind53${w}.jsonl`),
    120,
  );
});
