// Issue 33, round 48: blind105 (test/fixtures/blind105-brief.md), the round's acceptance measurement: the five
// confusions the issue names, each named to the writer, the four styles balanced, written by eight writers who saw no
// code and scored on the round's start before any change; no fix read from it. The decision is guarded, as for every
// blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 105, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind105${w}-dev.jsonl`, `intents-blind105${w}-holdout.jsonl`]),
    60,
  );
});
