import { cue, type LexiconEntry } from "./types.ts";

/**
 * Tunisian Derja words not shared with the other dialects (see shared.ts). False friend: "jem3a"
 * is a week in Tunisia ("ba3d jem3a" = in a week), Friday elsewhere; both are days to the classifier
 * and slots.ts turns them into different dates.
 */
export const TUNISIAN: LexiconEntry[] = [
  cue("yes", 0.8, ["ey|eyh|ay|ayh|eyy|ayy", "behi behi", "ya5i|yakhi", "mela|maleh", "barcha mezyan|barcha behi"]),
  cue("accept", 0.9, [
    "mafama* _ mochkl*|mouchkil*",
    "famech* _ mochkl*",
    "ma famech* _ mochkl*",
    "kol chay mrigel|behi|s7i7",
  ]),
  cue("refuse", 0.8, [
    "mouch lazem|mech lazem|mouch lezem",
    "ma n7ebch|nhebch belga3|jemla, ma n7ebch|nhebch bel ga3",
    "ma3adech|ma 3adech",
  ]),
  cue("take", 0.7, [
    "bech n5alles|nkhales|nakhoudha|nakhdha",
    "n5alles|nkhales ki tousel",
    // "نعدّيها" (I'll take it, let it through): round 11.
    "=n3diha|=n3addiha|=n3adiha|=n3ddiha|=n3dih|=n3addih",
  ]),
  cue("day", 0.85, ["ba3d|fi jem3a|~jem3a", "~jem3a jeya|jaya|ejeya|ljeya"], ["TN"]),
  cue("busy", 0.8, ["ma najam*|nejam* nahki*|nahkiw|nkalem*", "taw mechghoul|mechghoula|nekhdem"]),
  // "اطلبني" (call me): "otlob" is "dial" in Tunisia; only the imperative with its object, not "tlabt" (I ordered).
  cue("callVerb", 0.85, ["atlbni|otlobni|atlobni|otlbni|atlbna|otlobna|atlobna|atlbuh|otlobouh|atlbuha|otlobha"]),
  cue("later", 0.55, ["ba3d chwaya|chwaya", "taw ba3d|ba3d taw"]),
  cue("notNow", 0.7, ["mouch taw|mech taw|taw la|taw le"]),
  cue("qword", 0.75, [
    "9adech|b9adech|9adeh|9adah",
    "chnowa|chniya|chnuwa|chkun|chkoun",
    // "fi ana se3a", "في انا وقت" (at which hour; round 17).
    "fi|f|b ana|ena|anahi|anehi se3a|sa3a|wa9t|wakt|nhar",
    "wa9tech|waktech|wa9teh",
    // "زعمة" (I wonder, is it that...?) opens a Tunisian question (round 11).
    "=z3ma|=za3ma|=zaama|=zeama|=z3ama",
  ]),
  cue("what", 0.7, ["chnowa|chniya|chnuwa|chnia"]),
];
