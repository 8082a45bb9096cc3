// Issue 33, round 31: eight writers who saw no code and no earlier set wrote blind61 to the brief of hard cases on both
// sides, about life events: illness and births, feasts and fasts, weddings and funerals, exams and moves, religious
// formulas beside the answer (test/fixtures/blind61-brief.md). Written at round 31's start as its judge with blind59
// and kept whole and unread for that judgement, the batch was then spent and joined the training pool
// (bench/results/classifier.md and docs/understanding.md, round 31). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 61: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").map((w) => `intents-blind61${w}.jsonl`),
    120,
  );
});
