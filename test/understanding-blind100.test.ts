// Issue 33, round 45: eight writers who saw no code and no earlier set wrote blind100 (test/fixtures/blind100-brief.md),
// each to the body of an earlier brief, with the read-back Wakha speaks, on other regions, after candidate L was
// judged and after the round's readings up to f9b5614. No candidate was judged on it and no fix was read from it: it
// measured main, in aggregate (four later readings, from blind99, move none of its replies); neither half was read
// (docs/understanding.md, round 45). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 100, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind100${w}-dev.jsonl`, `intents-blind100${w}-holdout.jsonl`]),
    60,
  );
});
