// Issue 33, round 45: eight writers who saw no code and no earlier set wrote blind99 (test/fixtures/blind99-brief.md),
// each to the body of an earlier brief of a shape neither blind97 nor blind98 used, with the read-back Wakha speaks, on
// other regions, after round 45's rule (b6181b0). It judged candidate L against H; its development halves were read
// after that judgement, its unseen halves only in aggregate (docs/understanding.md, round 45). The decision is guarded,
// as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 99, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind99${w}-dev.jsonl`, `intents-blind99${w}-holdout.jsonl`]),
    60,
  );
});
