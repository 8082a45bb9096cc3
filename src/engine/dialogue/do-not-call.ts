// "Don't call me again" (issue 15), recognised apart from the intent classifier: its eight labels (CONTRACT §5b)
// have no such intent, and a request the law and the customer care about must not depend on a model's mood.
// A small lexicon per dialect over the canonical text (normalize.ts: Arabic script, arabizi and French alike);
// French patterns apply to every profile because customers switch to French mid-sentence.
import type { Dialect, Language } from "../../domain/locale.ts";
import { canonicalize } from "./normalize.ts";

// Negation, then "again / any more" and a verb of calling, or a verb of calling then "again".
const AGAIN = String.raw`(?:t3awd\w*|3awd\w*|tb9aw\w*|tb9a\w*|tzid\w*|3ad\w*|tawd\w*)`;
const CALL = String.raw`(?:t3ay\w*|t3it\w*|3ay\w*|tson\w*|tsoun\w*|tkal?m\w*|tklm\w*|ttasl\w*|tetsal\w*|tapel\w*|tarapel\w*)`;
const NEG = String.raw`(?:ma|la|mat)`;
// Not "mba3d" (later): "don't call me now, later" is a callback.
const LATER = String.raw`(?:ma?ra (?:a|o)?khra|tani|3awed|jamais|abadan|nhae?i?yan|nhayan)`;
// With or without the glued article ("lr9m", "lnimru").
const NUMBER = String.raw`(?:l|el)?(?:r9m|ra9m|ra9em|num|nimr|numr)\w*`;
const REMOVE = String.raw`(?:ms[h7]\w*|mse?h\w*|hayd\w*|na?hh?i\w*|n[a]?h[iy]\w*|fass?kh\w*|fasakh\w*|suprim\w*|retir\w*|efac\w*|enlev\w*)`;

const ARABIC_PATTERNS: readonly RegExp[] = [
  // "ma t3awdouch t3aytou 3liya", "matb9awch t3aytou", "ma 3adch tkalmouni", "la t3awdouch tsonouli"
  new RegExp(String.raw`\b${NEG} ${AGAIN}(?: \w+){0,2} ${CALL}`),
  // "ma t3aytoulich mra akhra", "ma tkalmounich ba3d"
  new RegExp(String.raw`\b${NEG} ${CALL}(?: \w+){0,2} ${LATER}\b`),
  // "ms7ou ra9mi", "haydou noumrouwi", "fasskhou noumrouwi"
  new RegExp(String.raw`\b${REMOVE}(?: \w+){0,1} ${NUMBER}`),
  // "ma bghitch t3aytou 3liya tani", "ma n7ebch tkalmouni ba3d"
  new RegExp(String.raw`\bma (?:bghit\w*|nhab\w*|nhib\w*|hab\w*|nheb\w*|hb\w*) ${CALL}(?: \w+){0,2} ${LATER}\b`),
];

const FRENCH_PATTERNS: readonly RegExp[] = [
  // "ne m'appelez plus", "ne me rappelez plus jamais", "ne plus m'appeler"
  /\bne (?:m|me) (?:r?apel|telephon)\w* (?:plus|jamais)\b/,
  /\bne (?:plus|jamais) (?:m|me) (?:r?apel|telephon)\w*/,
  // "arrêtez de m'appeler", "cessez de me téléphoner"
  /\b(?:aret|ces)\w* de (?:m|me) (?:r?apel|telephon|harcel)\w*/,
  // "je ne veux plus être appelé", "je ne veux plus qu'on m'appelle", "plus d'appels"
  /\bne veu[xt] plus (?:etre (?:r?apel|contact)|qu on (?:m|me) (?:r?apel|telephon)|de vos apel|d apel|recevoir)/,
  // "supprimez / retirez mon numéro", "mettez-moi sur liste rouge", "bloctel"
  /\b(?:suprim|retir|efac|enlev)\w* (?:mon|le|ce) (?:numero|num)\b/,
  /\bliste rouge\b|\bbloctel\b|\bliste d opposition\b/,
];

const PATTERNS: Record<Dialect, readonly RegExp[]> = {
  ma: [...ARABIC_PATTERNS, ...FRENCH_PATTERNS],
  dz: [...ARABIC_PATTERNS, ...FRENCH_PATTERNS],
  tn: [...ARABIC_PATTERNS, ...FRENCH_PATTERNS],
  fr: FRENCH_PATTERNS,
};

/** Whether the customer's words ask not to be called again, in the call's dialect (and French). */
export function asksNotToBeCalled(text: string, dialect: Dialect): boolean {
  const canonical = canonicalize(text);
  return PATTERNS[dialect].some((pattern) => pattern.test(canonical));
}

const FRENCH_CLOSING =
  "Très bien, nous retirons votre numéro et nous ne vous appellerons plus. Excusez-nous pour le dérangement, au revoir.";

const CLOSINGS: Record<Dialect, string> = {
  ma: "مفهوم، غادي نحيدو النمرة ديالك وما غاديش نعاودو نعيطو ليك. سمح لينا على الإزعاج، بسلامة.",
  dz: "فهمتك، راح نحيو النيمرو تاعك وما نعاودوش نعيطولك. سمحلنا على الإزعاج، بسلامة.",
  tn: "فهمتك، باش نفسخو النومرو متاعك وما عادش نكلموك. سامحنا على الإزعاج، بالسلامة.",
  fr: FRENCH_CLOSING,
};

/** The polite goodbye after such a request, in the call's dialect, or in French for a French-language call. */
export function doNotCallClosing(dialect: Dialect, language: Language): string {
  return language === "fr" ? FRENCH_CLOSING : CLOSINGS[dialect];
}
