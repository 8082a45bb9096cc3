// Issue 33, round 10 (second batch): four more writers who saw no code and no earlier set, written in the middle of the
// round for the two weakest countries (two Moroccan, two French; 120 replies each, the hard kinds
// over-represented). intents-blind22a-*.jsonl holds the third Moroccan and third French writers' replies,
// intents-blind22b-*.jsonl the fourth's. Every set was scored whole on the round's first commit (8b3d034) before any
// fix from it, then split 60 + 60 per country by blind20-split.mjs: the `-dev` halves were read and fixed by
// structure, not trained on; the `-holdout` halves were read by no fix (docs/understanding.md, round 10). The decision
// is guarded: no reply acted on as a confirmation the customer did not give, and no simulated call built from the
// sentences ends `confirmed` for a customer who did not confirm.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 22, development and unseen halves: the decision", () => {
  guardDecisions(
    ["22a", "22b"].flatMap((set) => [`intents-blind${set}-dev.jsonl`, `intents-blind${set}-holdout.jsonl`]),
  );
});
