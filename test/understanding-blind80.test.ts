// Issue 33, round 39: eight writers who saw no code and no earlier set wrote blind80 to blind73's brief of short replies
// (test/fixtures/blind80-brief.md), on other regions, after the round's first readings. Split 60 + 60 per writer: the
// development halves may be read; the unseen halves are read by no fix (docs/understanding.md, round 39). The decision
// is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 80, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind80${w}-dev.jsonl`, `intents-blind80${w}-holdout.jsonl`]),
    60,
  );
});
