// Issue 33, round 11, the last batch: three writers (Algerian, Tunisian, French; the Moroccan writer had not finished
// when the round closed) who saw no code and no earlier set wrote
// intents-blind26-holdout.jsonl at the end of the round, after every fix of the round (test/fixtures/blind26-brief.md).
// No fix read it. It was scored once, on the round's start (b076d7b) and on its last commit (029cffd), to measure the
// round on replies nobody tuned on (docs/understanding.md, round 11). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 26 (unseen): the decision", () => {
  guardDecisions(["intents-blind26-holdout.jsonl"], 360);
});
