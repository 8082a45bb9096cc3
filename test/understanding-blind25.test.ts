// Issue 33, round 11, the mid-round batch: four writers (one per country) who saw no code and no earlier set wrote 120
// replies each after the round's first three batches of fixes (test/fixtures/blind25-brief.md, corrected to CONTRACT
// §5b: "I never ordered anything" is a cancel). Each set was scored whole on 3a151d5 before any fix from it, then split
// 60 + 60 by blind20-split.mjs: intents-blind25a (DZ), 25b (MA), 25c (TN), 25d (FR). The `-dev` halves were read and
// fixed by structure, not trained on; the `-holdout` halves were read by no fix (docs/understanding.md, round 11).
// The decision is guarded: no reply acted on as a confirmation the customer did not give, and no simulated call built
// from the sentences ends `confirmed` for a customer who did not confirm.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 25, development and unseen halves: the decision", () => {
  guardDecisions(
    ["25a", "25b", "25c", "25d"].flatMap((set) => [
      `intents-blind${set}-dev.jsonl`,
      `intents-blind${set}-holdout.jsonl`,
    ]),
    60,
  );
});
