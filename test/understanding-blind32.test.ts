// Issue 33, round 14, the frozen batch: four writers (one per country: Beni Mellal-Khenifra, the Middle Atlas and
// the Gharb; Algiers' old districts, the Mitidja and Kabylie's coast; Tunisia's North and North-West; France's West,
// Normandy, Brittany and the Centre-South) who saw no code and no earlier set wrote intents-blind32-holdout.jsonl in
// the round's first ten minutes, before any reading or model change (test/fixtures/blind32-brief.md). No fix read it.
// It was scored once, at the end of the round, on each of its steps (docs/understanding.md, round 14). The decision
// is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 32 (unseen): the decision", () => {
  guardDecisions(["intents-blind32-holdout.jsonl"], 480);
});
