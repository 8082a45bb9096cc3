// Issue 33, round 10: fresh blind sets written at the start of the round by six writers who saw no code and no earlier
// set (120 replies each, the hard kinds over-represented, regional variety asked for: the Rif and the east,
// Souss and the plains, Oran to Annaba, the Sahel to Djerba, France's regions and suburbs). intents-blind21a-*.jsonl
// holds the first Moroccan and the Tunisian writers' replies, intents-blind21b-*.jsonl the Algerian and the first
// French ones; intents-blind21c-holdout.jsonl (a second Moroccan writer) and intents-blind21d-holdout.jsonl (a second
// French writer) are kept whole and unseen. Every set was scored whole on round 9's main before any fix; a and b were
// then split 60 + 60 per country by blind20-split.mjs (stratified by country, intent and kind, ordered by the SHA-256
// of the text, dealt alternately): the `-dev` halves were read and fixed by structure, not trained on; the
// `-holdout` halves, c and d were read by no fix (docs/understanding.md, round 10). Accuracy below the goal is
// not guarded here; the decision is: no reply acted on as a confirmation the customer did not give, and no simulated
// call built from the sentences ends `confirmed` for a customer who did not confirm.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 21, development and unseen parts: the decision", () => {
  guardDecisions([
    ...["21a", "21b"].flatMap((set) => [`intents-blind${set}-dev.jsonl`, `intents-blind${set}-holdout.jsonl`]),
    "intents-blind21c-holdout.jsonl",
    "intents-blind21d-holdout.jsonl",
  ]);
});
