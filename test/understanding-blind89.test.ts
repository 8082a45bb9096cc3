// Issue 33, round 42: eight writers who saw no code and no earlier set wrote blind89 to blind73's brief of short replies
// (test/fixtures/blind89-brief.md), on other regions, after the rule for candidate G's first judgement was set. Split
// 60 + 60 per writer; neither half was read: both judged G in aggregate (docs/understanding.md, round 42). The decision
// is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 89, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind89${w}-dev.jsonl`, `intents-blind89${w}-holdout.jsonl`]),
    60,
  );
});
