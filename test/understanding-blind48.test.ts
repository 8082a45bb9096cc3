// Issue 33, round 24: eight writers who saw no code and no earlier set wrote blind48 to the brief of hard cases on both
// sides (a third of the replies are confirmations shaped as a machine finds hard, the rest carry a yes-word and are
// none), with the customer's situation varied: a gift or an order for a relative, two orders mixed up, noise around,
// earlier deliveries, money awaited or someone else's, someone else receiving (test/fixtures/blind48-brief.md). Each set
// was scored whole before it was read, then split 60 + 60: the `-dev` halves were read and fixed by structure; the
// `-holdout` halves were read by no fix (docs/understanding.md, round 24). The decision is guarded, as for every blind
// set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 48, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind48${w}-dev.jsonl`, `intents-blind48${w}-holdout.jsonl`]),
    60,
    // Round 24 held one of blind48g's 1,000 calls here: an `unclear` customer whose unseen sentence, a bare "ouais"
    // heard after the order is read, was said again as the answer to the yes/no check, where it is a yes. Round 25's
    // readings changed the run's draws and that call no longer arises: none is known (docs/understanding.md, round 25).
    // Round 29's model reads those bare yes-words of `unclear` customers as a confirm below the threshold (0.55,
    // checked), so five calls where such a customer answers "so I confirm, yes?" with one end confirmed: a yes to that
    // question (by the reading's flags: yes, assents, plainYes; their unseen texts unread; docs/understanding.md, round
    // 29). Round 30's model reads two fewer of them as a confirm: two such calls. Round 31's reading (a callback the
    // model read is no confirm where the reply asks to be called) changes the run's draws: four such calls, all
    // `unclear` customers answering the check (no_decision -> confirmed), none of another meaning; round 31's model,
    // five (its confirm at 0.54 on the unseen one-word yes, checked). Round 33's simulator no longer has a customer who
    // did not mean yes answer the check with a bare yes (the check's answer; bench/results/classifier.md, round 33):
    // none.
  );
});
