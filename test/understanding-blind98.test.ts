// Issue 33, round 44: eight writers who saw no code and no earlier set wrote blind98 (test/fixtures/blind98-brief.md),
// each to the body of an earlier brief of another shape than the short replies, with the read-back Wakha speaks, on
// other regions, after ef6ed07. No candidate was judged on it and no fix was read from it: it measured main, in
// aggregate (one later reading, from blind97, moves none of its replies); neither half was read (docs/understanding.md,
// round 44). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 98, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind98${w}-dev.jsonl`, `intents-blind98${w}-holdout.jsonl`]),
    60,
  );
});
