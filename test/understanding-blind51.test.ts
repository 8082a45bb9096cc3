// Issue 33, round 27: eight writers who saw no code and no earlier set wrote blind51 to the brief of hard cases on both
// sides (a third of the replies are confirmations shaped as a machine finds hard, the rest carry a yes-word and are
// none), about how sure the customer is and whose words they report: hedges ("normally yes", "God willing"), someone
// else's words or wishes, the past (an earlier call or order, a courier who did not come, an order placed twice),
// money and payment, and a yes far from the request; in the regions the issue names that blind50 left out
// (test/fixtures/blind51-brief.md). Each set was scored whole before it was read, then split 60 + 60: the `-dev`
// halves are read and fixed by structure; the `-holdout` halves are read by no fix (docs/understanding.md, round 27).
// The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 51, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind51${w}-dev.jsonl`, `intents-blind51${w}-holdout.jsonl`]),
    60,
  );
});
