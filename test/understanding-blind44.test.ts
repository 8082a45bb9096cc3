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
    // No known calls: round 20 argued one of blind44e's 1,000 (its writer's acknowledgement "اي اي نعم نعم", yes yes, yes
    // yes, said again to the agent's yes/no check, "نأكدو الكوموند، إيه ولا لا؟", and taken as the answer); round 21's
    // model reads it `unclear` there, so none is left (docs/understanding.md, rounds 20 and 21).
  );
});
