// Issue 33, round 25: eight writers who saw no code and no earlier set wrote blind49 to the brief of hard cases on both
// sides (a third of the replies are confirmations shaped as a machine finds hard, the rest carry a yes-word and are
// none), with the moment and the setting of the call varied: a bad moment, someone in the room consulted, an earlier
// call about the same order, haggling over the fee, opening the parcel first, a landmark for the address, an elderly
// customer who hears badly (test/fixtures/blind49-brief.md). Each set was scored whole before it was read, then split
// 60 + 60: the `-dev` halves are read and fixed by structure; the `-holdout` halves are read by no fix
// (docs/understanding.md, round 25). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 49, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind49${w}-dev.jsonl`, `intents-blind49${w}-holdout.jsonl`]),
    60,
  );
});
