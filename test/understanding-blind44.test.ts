// Issue 33, round 20: eight writers who saw no code and no earlier set (three Tunisian: Sfax, Kerkennah, Gabès and
// Djerba; Nabeul, Cap Bon, Bizerte and Zaghouan; Kairouan, Sidi Bouzid and Kasserine; two Moroccan: Oujda, the Oriental
// and the Rif; Fès, Meknès, Taza and the Middle Atlas; two Algerian: Constantine, Sétif and Batna; Blida, Médéa and the
// South; one French: Île-de-France's suburbs and Provence) wrote blind44 to blind43's brief of hard cases, Arabic script
// weighted (test/fixtures/blind44-brief.md). Each set was scored whole before it was read, then split 60 + 60: the
// `-dev` halves were read and fixed by structure; the `-holdout` halves were read by no fix (docs/understanding.md,
// round 20). The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 44, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind44${w}-dev.jsonl`, `intents-blind44${w}-holdout.jsonl`]),
    60,
    // Calls of blind44e's 1,000 where a customer the simulation plays as "unclear" (its writer's acknowledgement "اي اي
    // نعم نعم", yes yes, yes yes) answers the agent's yes/no check ("نأكدو الكوموند، إيه ولا لا؟") with those same
    // words, and the call ends confirmed. To a yes/no question, yes-words alone are the answer; the agent keeps taking
    // them as one (round 20, docs/understanding.md). One call at round 20; two since round 21's readings moved other
    // replies of the set and with them the simulation's draws (both calls that sentence, said to the check).
    { "intents-blind44e": 2 },
  );
});
