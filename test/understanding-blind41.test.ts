// Issue 33, round 17: four writers who saw no code and no earlier set, one per country (Fès, Meknès, the Middle Atlas
// and the Tafilalet; Oran, Tlemcen and the West's interior; Grand Tunis, the Sahel, the mining basin and the South-East;
// all of France), wrote blind41 to blind39's brief of hard cases: all but 20 of each writer's 120 replies carry a
// yes-word or a polite assent and confirm nothing (test/fixtures/blind41-brief.md). The batch is frozen: never split,
// never read by a fix, scored on aggregates only (docs/understanding.md, round 17). Its decision is guarded all the same.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 41 (hard cases, frozen): the decision", () => {
  guardDecisions(["intents-blind41-holdout.jsonl"], 480);
});
