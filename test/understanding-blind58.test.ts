// Issue 33, round 30: eight writers who saw no code and no earlier set wrote blind58 to the brief of hard cases on both
// sides, about trust and doubt: who is calling, a bad experience before, a guarantee or proof wanted, what others say
// (test/fixtures/blind58-brief.md). Written after every change of round 30 was made, as an independent check of its end,
// the batch is kept whole and unread: no text of it printed, no change made and no decision taken from it; it is scored
// on the round's start and end (docs/understanding.md, round 30). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 58, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind58${w}.jsonl`),
    120,
  );
});
