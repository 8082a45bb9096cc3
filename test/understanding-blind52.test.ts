// Issue 33, round 28: eight writers who saw no code and no earlier set wrote blind52 to the brief of hard cases on both
// sides (a third of the replies are confirmations shaped as a machine finds hard, the rest carry a yes-word and are
// none), about the shape of the sentence and the customer's mood: questions that are no plain question (a rhetorical
// "why would I cancel?", a request or a refusal put as a question), irony and jokes, anger and suspicion, numbers as
// people say them, a mind changed inside the reply; in eight regions, Tanger to Belgium (test/fixtures/blind52-brief.md).
// Each set was scored whole before it was read, then split 60 + 60: the `-dev` halves are read and fixed by structure;
// the `-holdout` halves are read by no fix (docs/understanding.md, round 28). The decision is guarded, as for every
// blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 52, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind52${w}-dev.jsonl`, `intents-blind52${w}-holdout.jsonl`]),
    60,
  );
});
