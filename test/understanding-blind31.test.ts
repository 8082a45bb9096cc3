// Issue 33, round 14, the opening batch: six writers (two Moroccan, two Algerian, one Tunisian, one French, from regions
// no earlier writer had: the Souss and the Sahara, the North-West and Marrakech, Oran and the West, Constantine and
// the Hauts-Plateaux, Sfax, the Sahel and the South, Ile-de-France and the big cities) who saw no code and no earlier
// set wrote 120 replies each at the start of the round, before any change of it (test/fixtures/blind31-brief.md).
// Each set was scored whole on a14c88a, then split 60 + 60 by blind20-split.mjs. The `-dev` halves were read and fixed
// by structure; the `-holdout` halves were read by no fix (docs/understanding.md, round 14). The decision is guarded:
// no reply acted on as a confirmation the customer did not give, and no simulated call built from the sentences ends
// `confirmed` for a customer who did not confirm.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 31, development and unseen halves: the decision", () => {
  guardDecisions(
    ["31a", "31b", "31c", "31d", "31e", "31f"].flatMap((set) => [
      `intents-blind${set}-dev.jsonl`,
      `intents-blind${set}-holdout.jsonl`,
    ]),
    60,
  );
});
