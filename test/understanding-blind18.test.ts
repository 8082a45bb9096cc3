// Issue 33, rounds 6 and 7: two pairs of blind sets nobody fixed against. intents-blind17a/b-holdout.jsonl (240 replies
// each: MA and TN; DZ and FR) were written blind after round 5's fixes were read and scored once by the lead before
// and after rounds 5 and 7. intents-blind18a/b-holdout.jsonl (240 each, the same split) were written blind during
// round 7 by two more writers who saw no code and no earlier set, and scored by the lead on main before round 7 and
// once after it (docs/understanding.md). Their accuracy is below the goal and is not guarded; what is guarded
// is the decision: no reply of theirs is acted on as a confirmation the customer did not give, and no simulated call
// built from their sentences ends `confirmed` for a customer who did not confirm.
// Round 8 split each set in two (120 + 120, alternating within country, intent and kind): the `-dev` halves are the
// round's development material; the `-holdout` halves stay unread by any fix and are scored by the lead at the end.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind sets 17 and 18, development and unseen halves: the decision", () => {
  guardDecisions(
    ["17a", "17b", "18a", "18b"].flatMap((set) => [
      `intents-blind${set}-dev.jsonl`,
      `intents-blind${set}-holdout.jsonl`,
    ]),
  );
});
