// Issue 33, round 38: eight writers who saw no code and no earlier set wrote blind75 to the brief of hard cases on both
// sides, about middle-length replies said with life going on around the phone (the language switched mid-sentence,
// someone near the phone, a word of the read-back picked up, the region's words, a blessing around the answer;
// test/fixtures/blind75-brief.md), at the round's start, before any change. Split 60 + 60 per writer: the development
// halves may be read; the unseen halves are read by no fix and judge round 38 (bench/results/classifier.md and
// docs/understanding.md, round 38). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 75, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind75${w}-dev.jsonl`, `intents-blind75${w}-holdout.jsonl`]),
    60,
  );
});
