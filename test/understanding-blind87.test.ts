// Issue 33, round 42: eight writers who saw no code and no earlier set wrote blind87 to blind73's brief of short replies
// (test/fixtures/blind87-brief.md), on other regions, after candidate F's rule was set. Split 60 + 60 per writer;
// neither half was read: both judged F in aggregate (docs/understanding.md, round 42). The decision is guarded, as for
// every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 87, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind87${w}-dev.jsonl`, `intents-blind87${w}-holdout.jsonl`]),
    60,
  );
});
