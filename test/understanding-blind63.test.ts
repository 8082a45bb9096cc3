// Issue 33, round 31: eight writers who saw no code and no earlier set wrote blind63 to the brief of hard cases on both
// sides, about where and to whom the parcel goes: courier instructions about the place, a new address or receiver,
// someone else receiving or paying, places hard to find, how and where the courier delivers
// (test/fixtures/blind63-brief.md). Written as the fresh judge of round 31's second judgement, the batch is kept whole
// and unread: no text of it printed, no change made from it (bench/results/classifier.md and docs/understanding.md,
// round 31). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 63, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind63${w}.jsonl`),
    120,
  );
});
