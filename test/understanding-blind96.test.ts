// Issue 33, round 43: eight writers who saw no code and no earlier set wrote blind96 to blind73's brief of short replies
// (test/fixtures/blind96-brief.md), on other regions, after round 43's third rule (candidate J) was set. Split 60 + 60
// per writer; neither half was read: both judged candidate J against H in aggregate (docs/understanding.md, round 43).
// The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 96, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind96${w}-dev.jsonl`, `intents-blind96${w}-holdout.jsonl`]),
    60,
  );
});
