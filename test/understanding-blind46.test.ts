// Issue 33, round 22: eight writers who saw no code and no earlier set (two Moroccan: Béni Mellal-Khénifra; the
// Oriental, the Rif and the South-East; two Algerian: the East; the South and the Hauts-Plateaux; two Tunisian: Sfax
// and the South; the Centre-West and the South-West; two French: the South; Paris, the East and the West) wrote
// blind46 to a brief of hard cases on both sides: a third of the replies are confirmations shaped as a machine finds
// hard, the rest carry a yes-word and are none (test/fixtures/blind46-brief.md). Each set was scored whole before it
// was read, then split 60 + 60: the `-dev` halves were read and fixed by structure; the `-holdout` halves were read by
// no fix (docs/understanding.md, round 22). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 46, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind46${w}-dev.jsonl`, `intents-blind46${w}-holdout.jsonl`]),
    60,
    // Two calls of blind46f: an `unclear` customer answering the yes/no check with "ايه ايه ايه" (yes yes yes), which
    // is a yes to that question (docs/understanding.md, round 22). The count moves with the run's draws, which every
    // reading that changes another call of the run changes: none in round 23, two again with round 24's readings, both
    // that sentence; one with round 29's model, an `unclear` customer answering the check with a plain yes (by the
    // reading's flags: yes, assents, plainYes) after an acknowledgement; none with round 30's model; one with round
    // 31's, an `unclear` customer whose unseen three-word plain yes (the model's confirm at 0.6, checked) answers the
    // check. Round 33's simulator no longer has a customer who did not mean yes answer the check with a bare yes (the
    // check's answer; bench/results/classifier.md, round 33): none.
  );
});
