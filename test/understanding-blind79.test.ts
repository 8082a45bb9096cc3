// Issue 33, round 39: eight writers who saw no code and no earlier set wrote blind79 to blind73's brief of short replies
// (test/fixtures/blind79-brief.md), on other regions, before the round's first change. Split 60 + 60 per writer: the
// development halves may be read; the unseen halves are read by no fix (docs/understanding.md, round 39). The decision
// is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 79, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind79${w}-dev.jsonl`, `intents-blind79${w}-holdout.jsonl`]),
    60,
  );
});
