// Issue 33, round 47: eight writers who saw no code and no earlier set wrote blind103 (test/fixtures/blind103-brief.md)
// to one new body, the reply as a speech recogniser hands it over, with the read-back Wakha speaks and transcript-style
// replies weighted up. It judged candidate M against H with blind78-82's unseen halves (bench/results/classifier.md,
// round 47); its unseen halves are read by no fix. The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 103, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind103${w}-dev.jsonl`, `intents-blind103${w}-holdout.jsonl`]),
    60,
  );
});
