// Issue 33, round 15: six writers who saw no code and no earlier set (Casablanca-Rabat; the Oriental, the Rif and Fès;
// Algeria's South; Sétif and the Centre; Kairouan and Grand Tunis's popular districts; France's South) wrote blind33
// at the round's opening, 35 of every Maghreb writer's 120 replies in Arabic script (test/fixtures/blind33-brief.md).
// Each set was scored whole before any change, then split 60 + 60: the `-dev` halves were read and fixed by
// structure; the `-holdout` halves were read by no fix (docs/understanding.md, round 15). The decision is guarded: no
// reply acted on as a confirmation the customer did not give, and no simulated call built from the sentences ends
// `confirmed` for a customer who did not confirm.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 33, development and unseen halves: the decision", () => {
  guardDecisions(
    ["33a", "33b", "33c", "33d", "33e", "33f"].flatMap((set) => [
      `intents-blind${set}-dev.jsonl`,
      `intents-blind${set}-holdout.jsonl`,
    ]),
    60,
  );
});
