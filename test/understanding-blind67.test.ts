// Issue 33, round 32: eight writers who saw no code and no earlier set wrote blind67 to the brief of hard cases on both
// sides, about earlier orders and the shop's history with the customer (test/fixtures/blind67-brief.md), after every
// change of the round, so that its end is scored on replies no decision touched. The batch is kept whole and unread: no
// text of it printed, no change made from it (bench/results/classifier.md and docs/understanding.md, round 32). It is
// round 33's judge with blind68. The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 67, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind67${w}.jsonl`),
    120,
    // None. Round 32 held 7 of blind67g's 1,000 calls: `unclear` customers answering the agent's explicit yes/no check
    // with a one-word reply of the set, counted from the agent's lines and the replies' lengths, no reply read. Round
    // 33's simulator no longer has a customer who did not mean yes answer the check with a bare yes, which is the
    // check's answer (bench/results/classifier.md, round 33).
  );
});
