// Issue 33, round 43: eight writers who saw no code and no earlier set wrote blind94 to blind73's brief of short replies
// (test/fixtures/blind94-brief.md), on other regions, after round 43's second rule (candidate I) was set. Split 60 + 60
// per writer; both halves judged candidate I against H in aggregate, the development halves were read only after that,
// and candidate J trains on both (docs/understanding.md, round 43). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 94, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind94${w}-dev.jsonl`, `intents-blind94${w}-holdout.jsonl`]),
    60,
  );
});
