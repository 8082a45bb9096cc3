// Issue 33, round 18: eight writers who saw no code and no earlier set, two per country (Casablanca and the Chaouia;
// Marrakech, Safi and the Gharb; Sétif, Batna and the Aurès; Blida, Médéa and the South; Sfax, Gabès and Djerba;
// Kairouan, Kasserine, Bizerte and Nabeul; the South of France; the East, Île-de-France's suburbs and the Centre), wrote
// blind42 to blind41's brief of hard cases, with Arabic script and French transcripts weighted up
// (test/fixtures/blind42-brief.md). Each set was scored whole before it was read, then split 60 + 60: the `-dev`
// halves were read and fixed by structure; the `-holdout` halves were read by no fix (docs/understanding.md, round 18).
// The decision is guarded, as for every blind set.
import { describe } from "vitest";
import { guardDecisions } from "./blind-guard.ts";

describe("blind set 42, development and unseen halves: the decision", () => {
  guardDecisions(
    "abcdefgh".split("").flatMap((w) => [`intents-blind42${w}-dev.jsonl`, `intents-blind42${w}-holdout.jsonl`]),
    60,
  );
});
