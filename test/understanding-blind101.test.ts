// Issue 33, round 46: eight writers who saw no code and no earlier set wrote blind101 (test/fixtures/blind101-brief.md),
// each to the body of an older brief none of blind97-100 used, with the read-back Wakha speaks, on other regions, with
// transcript-style replies weighted up, before any change of the round. Its development halves may be read; its unseen
// halves are read by no fix, in aggregate only (docs/understanding.md, round 46). The decision is guarded, as for every
// blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 101, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind101${w}-dev.jsonl`, `intents-blind101${w}-holdout.jsonl`]),
    60,
  );
});
