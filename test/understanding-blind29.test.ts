// Issue 33, round 13, the opening batch: six writers (two Moroccan, two Algerian, one Tunisian, one French, from regions
// no earlier writer had, with more mixed and transcript-style replies) who saw no code and no earlier set wrote 120
// replies each at the start of the round, before any change of it (test/fixtures/blind29-brief.md). Each set was scored
// whole on c651db3, then split 60 + 60 by blind20-split.mjs: intents-blind29a, 29b (MA), 29c, 29d (DZ), 29e (TN), 29f
// (FR). The `-dev` halves were read and fixed by structure; the `-holdout` halves were read by no fix
// (docs/understanding.md, round 13). The decision is guarded: no reply acted on as a confirmation the customer did not
// give, and no simulated call built from the sentences ends `confirmed` for a customer who did not confirm.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 29, development and unseen halves: the decision", () => {
  guardDecisions(
    ["29a", "29b", "29c", "29d", "29e", "29f"].flatMap((set) => [
      `intents-blind${set}-dev.jsonl`,
      `intents-blind${set}-holdout.jsonl`,
    ]),
    60,
  );
});
