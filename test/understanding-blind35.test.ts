// Issue 33, round 15, the independent set: four writers (one per country: Meknès, the Saïss and the Gharb; Tlemcen,
// Aïn Témouchent, Sidi Bel Abbès and Algiers' eastern suburbs; Monastir, Mahdia and the Sahel; Paris, its inner
// suburbs and Toulouse) who saw no code and no earlier set wrote intents-blind35-holdout.jsonl after the round's
// changes had landed (test/fixtures/blind35-brief.md). No fix read it; it was scored once before and after the round,
// aggregates only (docs/understanding.md, round 15). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 35 (unseen): the decision", () => {
  guardDecisions(["intents-blind35-holdout.jsonl"], 480);
});
