// Issue 33, round 12, the mid-round batch: four writers (one per country) who saw no code and no earlier set wrote
// intents-blind28-holdout.jsonl in the middle of the round (test/fixtures/blind28-brief.md). No fix read it. It was
// scored once, at the end of the round, on each of its steps (docs/understanding.md, round 12). The decision is
// guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 28 (unseen): the decision", () => {
  guardDecisions(["intents-blind28-holdout.jsonl"], 480);
});
