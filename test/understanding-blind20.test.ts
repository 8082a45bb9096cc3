// Issue 33, round 9: fresh blind sets written at the start of the round by writers who saw no code and no earlier set
// (one writer per country, 120 replies each, the hard kinds over-represented, regional variety asked for).
// intents-blind20a-*.jsonl holds the Moroccan and Tunisian replies, intents-blind20b-*.jsonl the Algerian and French
// ones; intents-blind20c-holdout.jsonl is a second Tunisian writer's 120 replies, kept whole and unseen. Each set was
// scored whole on round 8's main before any fix, then split 60 + 60 per country (stratified by country, intent and
// kind, ordered by the SHA-256 of the text, dealt alternately): the `-dev` halves are the round's
// development material (read, fixed by structure, not trained on); the `-holdout` halves were read by no fix and
// are scored by the lead at the end (docs/understanding.md). Accuracy below the goal is not guarded here;
// what is guarded is the decision: no reply is acted on as a confirmation the customer did not give, and no simulated
// call built from the sentences ends `confirmed` for a customer who did not confirm.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 20, development and unseen halves: the decision", () => {
  guardDecisions([
    ...["20a", "20b"].flatMap((set) => [`intents-blind${set}-dev.jsonl`, `intents-blind${set}-holdout.jsonl`]),
    "intents-blind20c-holdout.jsonl",
  ]);
});
