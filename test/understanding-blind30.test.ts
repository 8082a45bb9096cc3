// Issue 33, round 13, the early batch: four writers (one per country) who saw no code and no earlier set wrote
// intents-blind30-holdout.jsonl in the first hour of the round, before any reading or model change of it
// (test/fixtures/blind30-brief.md). No fix read it. It was scored once, at the end of the round, on each of its steps
// (docs/understanding.md, round 13). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 30 (unseen): the decision", () => {
  guardDecisions(["intents-blind30-holdout.jsonl"], 480);
});
