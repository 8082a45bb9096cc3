// Issue 33, round 38: eight writers who saw no code and no earlier set wrote blind76 to the brief of hard cases on both
// sides, about money and trust (the total, the fee, the cash, opening before paying, an earlier parcel, payday, the
// money someone else holds, an older and a younger person's words; test/fixtures/blind76-brief.md), at the round's
// start, before any change. Split 60 + 60 per writer: the development halves may be read; the unseen halves are read by
// no fix and judge round 38 (bench/results/classifier.md and docs/understanding.md, round 38). The decision is guarded,
// as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 76, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind76${w}-dev.jsonl`, `intents-blind76${w}-holdout.jsonl`]),
    60,
  );
});
