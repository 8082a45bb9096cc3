// Issue 33, round 19: eight writers who saw no code and no earlier set, two per country (Tangier, Tétouan and the
// Jebala; the Souss, Béni Mellal and the Drâa-Tafilalet; Oran and the West's interior; Algiers, Kabylie's towns and the
// East's coast; Grand Tunis and the Sahel; the North-West, the mining basin and the South-West; Lyon, Grenoble and
// Burgundy; the North and the West of France), wrote blind43 to blind42's brief of hard cases
// (test/fixtures/blind43-brief.md). Each set was scored whole before it was read, then split 60 + 60: the `-dev`
// halves were read and fixed by structure; the `-holdout` halves were read by no fix (docs/understanding.md, round 19).
// The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 43, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind43${w}-dev.jsonl`, `intents-blind43${w}-holdout.jsonl`]),
    60,
  );
});
