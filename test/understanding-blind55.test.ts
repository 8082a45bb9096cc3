// Issue 33, round 29: eight writers who saw no code and no earlier set wrote blind55 to the brief of hard cases on both
// sides, about time, days and the customer's plans (test/fixtures/blind55-brief.md). Written during round 29 as the
// second fresh judge of its candidate model, the batch is kept whole and unread: no text of it printed, no change made
// from it (bench/results/classifier.md and docs/understanding.md, round 29). The decision is guarded, as for every blind set.
// Round 30: spent on round 29's model decision but read by no fix, the batch was split 60 + 60 (alternate replies
// of each intent): the `-dev` halves are read and fixed by structure, the `-holdout` halves are read by no fix.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 55, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind55${w}-dev.jsonl`, `intents-blind55${w}-holdout.jsonl`]),
    60,
  );
});
