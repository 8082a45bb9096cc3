// Issue 33, round 40: eight writers who saw no code and no earlier set wrote blind81 to blind73's brief of short replies
// (test/fixtures/blind81-brief.md), on other regions, before any change of the round. Split 60 + 60 per writer: the
// development halves may be read; the unseen halves are read by no fix (docs/understanding.md, round 40). The decision
// is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 81, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind81${w}-dev.jsonl`, `intents-blind81${w}-holdout.jsonl`]),
    60,
  );
});
