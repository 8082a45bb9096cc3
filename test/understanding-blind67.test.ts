// Issue 33, round 32: eight writers who saw no code and no earlier set wrote blind67 to the brief of hard cases on both
// sides, about earlier orders and the shop's history with the customer (test/fixtures/blind67-brief.md), after every
// change of the round, so that its end is scored on replies no decision touched. The batch is kept whole and unread: no
// text of it printed, no change made from it (bench/results/classifier.md and docs/understanding.md, round 32). The
// decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 67, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind67${w}.jsonl`),
    120,
    // blind67g: 7 of its 1,000 calls end `confirmed` for a customer labelled `unclear`. No reply of the set is acted on
    // as a confirmation on its own (decided 0). In each of the 7, the call is confirmed on a one-word reply of the set
    // answering the agent's explicit yes/no check ("je confirme votre commande, oui ou non ?"), as round 31's `unclear`
    // customers of blind45a/45e/46f/48g do; counted from the agent's lines and the replies' lengths, no reply read.
    { "intents-blind67g": 7 },
  );
});
