// Issue 33, round 32: eight writers who saw no code and no earlier set wrote blind66 to the brief of hard cases on both
// sides, about the order as it was read back: the customer agreeing with some details and correcting, questioning or
// mishearing others, duplicates and mistakes, very short clipped replies (test/fixtures/blind66-brief.md). Written as
// the fresh judge of round 32's second judgement, the batch was kept whole and unread until that judgement: no text of it
// printed, no change made from it. Spent by it, its misreads were read for the round's notes; no change was made from
// them (bench/results/classifier.md and docs/understanding.md, round 32). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 66, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind66${w}.jsonl`),
    120,
  );
});
