// Issue 33, round 15, the frozen batch: four writers (one per country: Marrakech-Safi, the Drâa and Tafilalet;
// Annaba and Algeria's far East; Cap Bon, Bizerte and Zaghouan; France's North, East and greater Lyon) who saw no code
// and no earlier set wrote intents-blind34-holdout.jsonl in the round's first ten minutes, before any reading or model
// change (test/fixtures/blind34-brief.md). No fix read it. It was scored (aggregates only) for the model's gate, as
// the rule set before the runs asked, and on each of the round's steps at the end (docs/understanding.md, round 15).
// The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 34 (unseen): the decision", () => {
  guardDecisions(["intents-blind34-holdout.jsonl"], 480);
});
