// Issue 33, round 41: eight writers who saw no code and no earlier set wrote blind84 to blind73's brief of short replies
// (test/fixtures/blind84-brief.md), on other regions, after the round's retrained model shipped. Split 60 + 60 per
// writer; neither half was read: both judged the round's second candidate in aggregate (docs/understanding.md, round
// 41). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 84, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind84${w}-dev.jsonl`, `intents-blind84${w}-holdout.jsonl`]),
    60,
  );
});
