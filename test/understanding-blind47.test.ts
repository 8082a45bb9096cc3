// Issue 33, round 23: eight writers who saw no code and no earlier set wrote blind47 to round 22's brief of hard cases
// on both sides (a third of the replies are confirmations shaped as a machine finds hard, the rest carry a yes-word and
// are none), with the speaker varied instead of the region, since every region had been written: elders, the young,
// people who switch language mid-sentence, people who learned French late, people who answer for someone else, and
// more Latin and transcript lines in the Arabic-speaking countries (test/fixtures/blind47-brief.md). Each set was scored
// whole before it was read, then split 60 + 60: the `-dev` halves were read and fixed by structure; the `-holdout`
// halves were read by no fix (docs/understanding.md, round 23). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 47, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind47${w}-dev.jsonl`, `intents-blind47${w}-holdout.jsonl`]),
    60,
  );
});
