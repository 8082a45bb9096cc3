// Issue 33, round 12, the opening batch: six writers (two Moroccan, two Algerian, one Tunisian, one French, from regions
// no earlier writer had) who saw no code and no earlier set wrote 120 replies each at the start of the round, before
// any change of it (test/fixtures/blind27-brief.md). Each set was scored whole on 108d044, then split 60 + 60 by
// blind20-split.mjs: intents-blind27a, 27b (MA), 27c, 27d (DZ), 27e (TN), 27f (FR). The `-dev` halves were read
// and fixed by structure; the `-holdout` halves were read by no fix (docs/understanding.md, round 12).
// The decision is guarded: no reply acted on as a confirmation the customer did not give, and no simulated call built
// from the sentences ends `confirmed` for a customer who did not confirm.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 27, development and unseen halves: the decision", () => {
  guardDecisions(
    ["27a", "27b", "27c", "27d", "27e", "27f"].flatMap((set) => [
      `intents-blind${set}-dev.jsonl`,
      `intents-blind${set}-holdout.jsonl`,
    ]),
    60,
  );
});
