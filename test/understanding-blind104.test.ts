// Issue 33, round 47: blind104 (test/fixtures/blind104-brief.md), written to blind103's body after the round's readings
// (13f4fd5) by eight writers who saw no code; a measurement: no fix read from it, neither half read. The decision is
// guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 104, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind104${w}-dev.jsonl`, `intents-blind104${w}-holdout.jsonl`]),
    60,
  );
});
