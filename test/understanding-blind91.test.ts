// Issue 33, round 43: eight writers who saw no code and no earlier set wrote blind91 to blind73's brief of short replies
// (test/fixtures/blind91-brief.md), on other regions, after round 43's first rule (candidates G and H) was set. Split
// 60 + 60 per writer; both halves judged G and H in aggregate, the development halves were read only after that, and
// candidate I trains on both (docs/understanding.md, round 43). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 91, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind91${w}-dev.jsonl`, `intents-blind91${w}-holdout.jsonl`]),
    60,
  );
});
