// Issue 33, round 40: eight writers who saw no code and no earlier set wrote blind82 to blind73's brief of short replies
// (test/fixtures/blind82-brief.md), on other regions, after the round's readings. Split 60 + 60 per writer: the
// development halves may be read; the unseen halves are read by no fix (docs/understanding.md, round 40). The decision
// is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 82, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind82${w}-dev.jsonl`, `intents-blind82${w}-holdout.jsonl`]),
    60,
  );
});
