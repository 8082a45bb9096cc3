// Issue 33, round 26: eight writers who saw no code and no earlier set wrote blind50 to the brief of hard cases on both
// sides (a third of the replies are confirmations shaped as a machine finds hard, the rest carry a yes-word and are
// none), in the shapes a reply reaches the machine in: very short replies, a detail of the order picked up to agree
// with it, correct it or ask about it, a customer who corrects themself mid-reply, and speech-to-text damage; with
// customers who first ask who is calling, compare with a price seen online, speak for a household or are somewhere
// noisy (test/fixtures/blind50-brief.md). Each set was scored whole before it was read, then split 60 + 60: the `-dev`
// halves are read and fixed by structure; the `-holdout` halves are read by no fix (docs/understanding.md, round 26).
// The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 50, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind50${w}-dev.jsonl`, `intents-blind50${w}-holdout.jsonl`]),
    60,
  );
});
