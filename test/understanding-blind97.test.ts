// Issue 33, round 44: eight writers who saw no code and no earlier set wrote blind97 (test/fixtures/blind97-brief.md),
// each to the body of an earlier brief of another shape than the short replies (long replies, money and trust, where
// the parcel goes, days and times, the people around, the line, replies that turn, second thoughts), on other
// regions, after round 44's rule (candidate K) was set. Split 60 + 60 per writer; both halves judged K against H in
// aggregate, and only then were the development halves read; the unseen halves never were (docs/understanding.md,
// round 44). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 97, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind97${w}-dev.jsonl`, `intents-blind97${w}-holdout.jsonl`]),
    60,
  );
});
