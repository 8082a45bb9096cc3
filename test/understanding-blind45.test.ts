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
    // Four calls of blind45a's 1,000 and one of blind45e's: a customer the simulation plays as "unclear" answers the
    // agent's yes/no check ("واش نأكدو ليك الطلبية، آه ولا لا؟", "نأكدولك الكوموند، إيه ولا لا؟") with one sentence of the
    // unseen half that its writer labelled `unclear`, and the call ends confirmed: the sentence reads `check` when it
    // first comes, and is taken as the answer when said to the check. Both were left unread until round 21's end, as
    // the unseen halves are (docs/understanding.md, round 21, gives them and the argument). blind45a's count was one
    // until round 22 changed the dialogue and so the simulation's draws: its four calls are all that one sentence.
    { "intents-blind45a": 4, "intents-blind45e": 1 },
  );
});
