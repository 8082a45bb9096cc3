// Issue 33, round 16: six writers who saw no code and no earlier set (Tangier, Tétouan and the Rif's coast; Oran and
// the West; Sfax and the South; Grand Tunis and Sousse; Seine-Saint-Denis, Essonne and the Alps-Auvergne; the
// Mediterranean, Bordeaux and Alsace) wrote blind36 at the round's opening (test/fixtures/blind36-brief.md). Each set
// was scored whole before any change, then split 60 + 60: the `-dev` halves were read and fixed by structure; the
// `-holdout` halves were read by no fix (docs/understanding.md, round 16). The decision is guarded: no reply acted on
// as a confirmation the customer did not give, and no simulated call built from the sentences ends `confirmed` for a
// customer who did not confirm.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 36, development and unseen halves: the decision", () => {
  guardDecisions(
    ["36a", "36b", "36c", "36d", "36e", "36f"].flatMap((set) => [
      `intents-blind${set}-dev.jsonl`,
      `intents-blind${set}-holdout.jsonl`,
    ]),
    60,
  );
});
