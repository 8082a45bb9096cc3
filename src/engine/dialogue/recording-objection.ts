// "Don't record me" (issue 36.2), recognised apart from the intent classifier like the do-not-call request: the
// customer's right to object must not depend on a model. A small lexicon over the canonical text (normalize.ts:
// Arabic script, arabizi and French alike); French patterns apply to every profile (customers switch mid-sentence).
import type { Dialect } from "../../domain/locale.ts";
import { canonicalize } from "./normalize.ts";

// "tsajjalni", "tsjlnich", "tsajluni": the second person of s-j-l (to record), as canonicalize spells it.
const RECORD_YOU = String.raw`ts[aeiu]?j[aeiu]?l\w*`;
// "ttasjil", "ltsjil", "tasjil": the recording.
const RECORDING = String.raw`(?:l|el|et|e|t)?t?a?sjil\b`;
const STOP = String.raw`(?:hbs|hbes|hebs|7bs|7bes|w9f|wa9f|wa9ef|w9ef|wqf|waqf|waqef|wa9fu|w9fu|stop|btl|batl|sker|seker|skr|9ta3|qta3|9t3|ms7|msh|fasakh|fsakh|hayd|na7i|nhi)\w*`;
const WANT = String.raw`(?:bghit|bgha|nhb|nheb|nhib|n7eb|n7b|hab|nhab|hb)\w*`;

const ARABIC_PATTERNS: readonly RegExp[] = [
  // "ma tsajjalnich", "ma tsjluch lmkalma", "la tsajalni"
  new RegExp(String.raw`\b(?:ma|la|mat) ${RECORD_YOU}`),
  // "hbs ltsjil", "w9fu ttasjil", "stop tasjil"
  new RegExp(String.raw`\b${STOP} ${RECORDING}`),
  // "ma bghitch tsjlu", "ma nhbch tsajluni", "ma nhbch ltsjil"
  new RegExp(String.raw`\bma ${WANT} (?:${RECORD_YOU}|${RECORDING})`),
  // "bla tsjil", "bdun tasjil"
  new RegExp(String.raw`\b(?:bla|bila|bdun|bdoun|min ghir|mn ghir) ${RECORDING}`),
];

const FRENCH_PATTERNS: readonly RegExp[] = [
  // "ne m'enregistrez pas", "ne nous enregistrez pas", "n'enregistrez pas l'appel"
  /\bne (?:m|me|nous) enregistr\w* pas\b/,
  /\bn enregistr\w* pas\b/,
  // "arrêtez l'enregistrement", "coupez l'enregistrement", "stop l'enregistrement", "cessez d'enregistrer"
  /\b(?:aret|ces|coup|stop)\w* (?:l |d |de l |de )?enregistr\w*/,
  // "je ne veux pas être enregistré", "je ne veux pas qu'on m'enregistre"
  /\bne veu[xt] pas (?:etre enregistr|d enregistr|qu on (?:m |me )?enregistr|que vous (?:m |me )?enregistr|de l enregistr)/,
  // "je refuse l'enregistrement", "je refuse d'être enregistrée"
  /\bje refuse (?:l |d etre |qu on (?:m |me )?)?enregistr\w*/,
  // "sans enregistrement", "pas d'enregistrement", "supprimez l'enregistrement"
  /\bsans enregistr\w*|\bpas d enregistr\w*|\b(?:suprim|efac|detrui)\w* (?:l |mon |cet |cet )?enregistrement/,
];

const PATTERNS: Record<Dialect, readonly RegExp[]> = {
  ma: [...ARABIC_PATTERNS, ...FRENCH_PATTERNS],
  dz: [...ARABIC_PATTERNS, ...FRENCH_PATTERNS],
  tn: [...ARABIC_PATTERNS, ...FRENCH_PATTERNS],
  fr: FRENCH_PATTERNS,
};

/** Whether the customer's words object to the call being recorded, in the call's dialect (and French). */
export function objectsToRecording(text: string, dialect: Dialect): boolean {
  const canonical = canonicalize(text);
  return PATTERNS[dialect].some((pattern) => pattern.test(canonical));
}
