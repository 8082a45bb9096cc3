// Issue 33, round 41: eight writers who saw no code and no earlier set wrote blind83 to blind73's brief of short replies
// (test/fixtures/blind83-brief.md), on other regions, at the round's start. Split 60 + 60 per writer; neither half was
// read: both judged the round's retrained model in aggregate (docs/understanding.md, round 41). The decision is
// guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 83, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind83${w}-dev.jsonl`, `intents-blind83${w}-holdout.jsonl`]),
    60,
  );
});
