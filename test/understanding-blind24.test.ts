// Issue 33, round 11: seven writers who saw no code and no earlier set wrote 120 replies each at the start of the round
// (test/fixtures/blind24-brief.md; three Algerian writers, West, East and Centre-South, two Moroccan, North-East and
// Centre-South, one Tunisian and one French; the hard kinds over-represented). Each writer's set was scored
// whole on main (b076d7b) before any fix, then split 60 + 60 by blind20-split.mjs: intents-blind24a (DZ West),
// 24b (DZ East), 24c (DZ Centre-South), 24d (MA North-East), 24e (MA Centre-South), 24f (TN) and 24g (FR). The `-dev`
// halves were read and fixed by structure, not trained on; the `-holdout` halves were read by no fix
// (docs/understanding.md, round 11). The decision is guarded: no reply acted on as a confirmation the customer did not
// give, and no simulated call built from the sentences ends `confirmed` for a customer who did not confirm.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 24, development and unseen halves: the decision", () => {
  guardDecisions(
    ["24a", "24b", "24c", "24d", "24e", "24f", "24g"].flatMap((set) => [
      `intents-blind${set}-dev.jsonl`,
      `intents-blind${set}-holdout.jsonl`,
    ]),
    60,
  );
});
