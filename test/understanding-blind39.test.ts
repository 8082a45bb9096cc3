// Issue 33, round 16: four writers who saw no code and no earlier set (Constantine and the East; all of Morocco; all
// of Tunisia; all of France) wrote blind39, hard cases: all but 20 of each writer's 120 replies carry a yes-word or a
// polite assent and confirm nothing (test/fixtures/blind39-brief.md). Each set was scored whole before it was read,
// then split 60 + 60: the `-dev` halves were read and fixed by structure; the `-holdout` halves were read by no fix
// (docs/understanding.md, round 16). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 39 (hard cases), development and unseen halves: the decision", () => {
  guardDecisions(
    ["39a", "39b", "39c", "39d"].flatMap((set) => [
      `intents-blind${set}-dev.jsonl`,
      `intents-blind${set}-holdout.jsonl`,
    ]),
    60,
  );
});
