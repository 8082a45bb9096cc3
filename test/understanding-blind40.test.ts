// Issue 33, round 17: eight writers who saw no code and no earlier set, two per country (Oujda and the Rif, the Souss
// and the South; Constantine and the East, Algiers, Kabylie's towns and the South; the Sahel and the Centre, the
// North-West and Cap Bon; Paris and Lyon, the North, the West and Toulouse), wrote blind40 to blind36's brief
// (test/fixtures/blind40-brief.md). Each set was scored whole before it was read, then split 60 + 60: the `-dev`
// halves were read and fixed by structure; the `-holdout` halves were read by no fix (docs/understanding.md, round 17).
// The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 40, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind40${w}-dev.jsonl`, `intents-blind40${w}-holdout.jsonl`]),
    60,
  );
});
