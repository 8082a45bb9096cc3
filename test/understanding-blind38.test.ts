// Issue 33, round 16: four writers who saw no code and no earlier set (Constantine, Mila and Jijel; Algiers, the
// Mitidja, Médéa and Tipaza; the Aurès, the Zibans and the Hodna; Tunisia's north-west and Tunis's western suburbs)
// wrote blind38 before any change of the round landed, 35 of every writer's 120 replies in Arabic script
// (test/fixtures/blind38-brief.md). Each set was scored whole on the round's starting code, then split 60 + 60: the
// `-dev` halves were read and fixed by structure; the `-holdout` halves were read by no fix (docs/understanding.md,
// round 16). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 38, development and unseen halves: the decision", () => {
  guardDecisions(
    ["38a", "38b", "38c", "38d"].flatMap((set) => [
      `intents-blind${set}-dev.jsonl`,
      `intents-blind${set}-holdout.jsonl`,
    ]),
    60,
  );
});
