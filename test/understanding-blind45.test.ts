// Issue 33, round 21: eight writers who saw no code and no earlier set (three Moroccan: Casablanca and the Atlantic
// plain; Marrakech, Safi and the Souss; Tangier, Tétouan and Rabat-Salé; two Tunisian: the Sahel; Grand Tunis and the
// North-West; two Algerian: Oran and the West; Algiers and Kabylie; one French: Lyon and the North) wrote blind45 to
// blind44's brief of hard cases, Moroccan Arabic script weighted (test/fixtures/blind45-brief.md). Each set was scored
// whole before it was read, then split 60 + 60: the `-dev` halves were read and fixed by structure; the `-holdout`
// halves were read by no fix (docs/understanding.md, round 21). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 45, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind45${w}-dev.jsonl`, `intents-blind45${w}-holdout.jsonl`]),
    60,
    // None: round 21 held one call each of blind45a's and blind45e's 1,000, a customer the simulation plays as
    // "unclear" answering the agent's yes/no check with an acknowledgement of the unseen half ("أه أه أه واخا", "إيه...
    // آه... إيه"; docs/understanding.md, round 21); round 22's retrained model reads neither as the check's answer.
    // Round 31's model reads blind45e's again as a plain yes (its confirm at 0.62, checked): one such call; and
    // blind45a's unseen four-word plain yes (its confirm at 0.53, checked): three such calls. Round 33's simulator no
    // longer has a customer who did not mean yes answer the check with a bare yes (the check's answer;
    // bench/results/classifier.md, round 33): none.
  );
});
