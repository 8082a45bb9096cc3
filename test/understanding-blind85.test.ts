// Issue 33, round 42: eight writers who saw no code and no earlier set wrote blind85 to blind73's brief of short replies
// (test/fixtures/blind85-brief.md), on other regions, as the round's first candidates started training. Split 60 + 60
// per writer; the unseen halves were never read, the development halves only after they had judged every candidate
// (docs/understanding.md, round 42). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 85, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind85${w}-dev.jsonl`, `intents-blind85${w}-holdout.jsonl`]),
    60,
  );
});
