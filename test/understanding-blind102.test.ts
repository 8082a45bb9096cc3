// Issue 33, round 46: eight writers who saw no code and no earlier set wrote blind102 (test/fixtures/blind102-brief.md),
// each to the body of an earlier brief, with the read-back Wakha speaks, on other regions, with transcript-style replies
// weighted up, after the round's readings (f58de10). No candidate was judged on it and no fix was read from it: it
// measured main, in aggregate; neither half was read (docs/understanding.md, round 46). The decision is guarded, as for
// every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 102, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind102${w}-dev.jsonl`, `intents-blind102${w}-holdout.jsonl`]),
    60,
  );
});
