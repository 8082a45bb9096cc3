// Issue 33, round 10, the last batch: four writers (one per country) who saw no code and no earlier set wrote
// intents-blind23-holdout.jsonl at the end of the round (test/fixtures/blind23-brief.md). No fix read it. It was used
// once, to choose between round 10's main and the same without its second lexicon retrain; the rule (the higher
// accuracy, then the fewer label-level false confirmations) was set before it was scored, and main stayed
// (docs/understanding.md, round 10). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 23 (unseen): the decision", () => {
  guardDecisions(["intents-blind23-holdout.jsonl"], 480);
});
