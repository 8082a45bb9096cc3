// Issue 33, round 29: eight writers who saw no code and no earlier set wrote blind54 to the brief of hard cases on both
// sides, about the call itself: someone else spoken to in the room, a bad line, a detail of what was read taken up, a
// customer busy elsewhere, the phone passed between people (test/fixtures/blind54-brief.md). Written at round 29's start
// as its independent judge, the batch is kept whole and unread: no text of it printed, no change made from it; it is
// scored on the round's start and on its end (docs/understanding.md, round 29). The decision is guarded, as for every blind set.
// Round 30: spent on round 29's model decision but read by no fix, the batch was split 60 + 60 (alternate replies
// of each intent): the `-dev` halves are read and fixed by structure, the `-holdout` halves are read by no fix.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 54, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind54${w}-dev.jsonl`, `intents-blind54${w}-holdout.jsonl`]),
    60,
  );
});
