// Issue 33, round 29: eight writers who saw no code and no earlier set wrote blind54 to the brief of hard cases on both
// sides, about the call itself: someone else spoken to in the room, a bad line, a detail of what was read taken up, a
// customer busy elsewhere, the phone passed between people (test/fixtures/blind54-brief.md). Written at round 29's start
// as its independent judge, the batch is kept whole and unread: no text of it printed, no change made from it; it is
// scored on the round's start and on its end (docs/understanding.md, round 29). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 54, whole and unread: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind54${w}.jsonl`),
    120,
  );
});
