import { canonicalWord } from "../normalize.ts";

/**
 * Lexicon phrase syntax, matched against canonical text (see normalize.ts):
 *   word        one whole token; short words match exactly, longer ones with flexible vowels
 *               ("mouchkil" also reads "mochkil", "mchkl", "مشكل")
 *   a|b|c       alternatives for one token
 *   word*       token prefix ("sifto*" reads "siftouha", "siftoh")
 *   ~word       the token may carry a glued article or preposition ("~khmis": "lkhmis", "fel khmis")
 *   =word       exact spelling, no vowel flexibility (the default for French entries)
 *   word?       optional token
 *   _           a gap of up to two tokens (not across punctuation)
 *   #           a number of one or two digits (with an optional "er")
 *   *           any one word
 *   @h          a clock time: "18h", "6h30", "18:30"
 *   a b, c d    whole-phrase alternatives are separated by commas (see cue() in types.ts)
 * A glued particle ("ma", "la", "f", "b", "l") may be written apart from the next word or not.
 */

const VOWELS = "aeiou";
/** Input-side vowel class: Arabic و/ي and Latin y/w often stand where another writer puts a vowel. */
const V = "[aeiouyw]";
const ARTICLE = "(?:(?:w|u)?(?:b|f|d|l|k)?(?:e|a|i)?l?)";
const GAP = "(?:[^ ,.?]+ ){0,2}";
const GLUE = new Set(["ma", "la", "f", "b", "l", "d", "w", "u", "fi", "bl", "fl", "el", "al", "k", "t", "n"]);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function consonantRegex(c: string): string {
  if (c === "y") return "[yi]";
  if (c === "w") return "[wu]";
  if (c === "9") return "(?:9|k(?!h)|g(?!h))";
  return escape(c);
}

/** Regex source for one canonical word, with vowel flexibility unless it is short. */
export function wordRegex(word: string, exact = false): string {
  // y and w are half vowels: "iyeh" or "iwah" made flexible would read "euh".
  const consonants = [...word].filter((c) => !VOWELS.includes(c) && c !== "y" && c !== "w").length;
  if (exact || word.length <= 3 || consonants < 2 || /\d/.test(word.replace(/[39]/g, ""))) return escape(word);
  let out = "";
  let i = 0;
  const chars = [...word];
  while (i < chars.length) {
    const c = chars[i] ?? "";
    if (VOWELS.includes(c)) {
      let j = i;
      while (j < chars.length && VOWELS.includes(chars[j] ?? "")) j++;
      const leading = i === 0;
      const trailing = j === chars.length;
      out += leading || trailing ? `${V}+` : `${V}*`;
      i = j;
    } else {
      out += consonantRegex(c);
      i++;
    }
  }
  return out;
}

function tokenRegex(
  spec: string,
  exactByDefault: boolean,
): { src: string; optional: boolean; gap: boolean; glue: boolean; opening?: string } {
  if (spec === "_") return { src: GAP, optional: false, gap: true, glue: false };
  let optional = false;
  if (spec.endsWith("?") && spec.length > 1) {
    optional = true;
    spec = spec.slice(0, -1);
  }
  if (spec === "#") return { src: "\\d{1,2}(?:er)?", optional, gap: false, glue: false };
  if (spec === "\\?") return { src: "\\?", optional, gap: false, glue: false };
  const alts = spec.split("|").map((alt) => {
    if (alt === "*") return "[^ ,.?]+";
    if (alt === "#") return "\\d{1,2}(?:er)?";
    if (alt === "@h") return "\\d{1,2}(?:h\\d{0,2}|:\\d{2})";
    let a = alt;
    let prefix = "";
    let suffix = "";
    let exact = exactByDefault;
    if (a.startsWith("~")) {
      prefix = ARTICLE;
      a = a.slice(1);
    }
    if (a.startsWith("=")) {
      exact = true;
      a = a.slice(1);
    }
    if (a.endsWith("*")) {
      suffix = "[^ ,.?]*";
      a = a.slice(0, -1);
    }
    if (a.includes("*")) throw new Error(`lexicon: "*" only ends a word, in "${spec}"`);
    const canon = canonicalWord(a);
    if (!canon) throw new Error(`lexicon: empty word in "${spec}"`);
    return prefix + wordRegex(canon, exact) + suffix;
  });
  const glue = spec.split("|").every((a) => !/^[#@*]/.test(a) && GLUE.has(canonicalWord(a.replace(/[~=*]/g, ""))));
  // A phrase's first word may carry a glued "and" or "so" ("wmachi", "ونأكد" wnakd, "فبدلها" fbdlha): each of its
  // alternatives of four letters or more may, a short one ("la", "akd*") never. Round 20: one short alternative used to
  // take the conjunction from them all, so "ونأكد" never read as "I confirm".
  const long: string[] = [];
  const plain: string[] = [];
  spec.split("|").forEach((a, k) => {
    const bare = canonicalWord(a.replace(/[~=*]/g, ""));
    (/^[#@*]/.test(a) || GLUE.has(bare) || bare.length < 4 ? plain : long).push(alts[k] ?? "");
  });
  // (The long alternatives share one optional conjunction: a regex with one per alternative ran 6% slower.)
  const opening = [...(long.length ? [`(?:w|u|f)?(?:${long.join("|")})`] : []), ...plain].join("|");
  return {
    src: alts.length === 1 ? (alts[0] ?? "") : `(?:${alts.join("|")})`,
    optional,
    gap: false,
    glue,
    opening: `(?:${opening})`,
  };
}

/** Compiles comma-separated alternative phrases into one global regex. */
export function compilePhrases(phrases: string, exact = false): RegExp {
  const parts = phrases
    .split(/\s*,\s*/)
    .filter((p) => p.length > 0)
    .map((p) => `(?:${compilePhrase(p, exact).source})`);
  return new RegExp(parts.join("|"), "g");
}

/** Compiles a lexicon phrase into a global regex over canonical text. */
export function compilePhrase(phrase: string, exact = false): RegExp {
  let src = "";
  let prevGlue = false;
  let gapPending = false;
  let first = true;
  for (const spec of phrase.trim().split(/\s+/)) {
    const t = tokenRegex(spec, exact);
    if (t.gap) {
      gapPending = true;
      continue;
    }
    if (first) {
      // a conjunction "w"/"u" or "f" glued to the first word ("وماشي" → "wmachi", "فبدلها" → "fbdlha")
      src = t.opening ?? t.src;
      first = false;
    } else {
      const sep = gapPending ? ` ${GAP}` : prevGlue ? " ?" : " ";
      src += t.optional ? `(?:${sep}${t.src})?` : `${sep}${t.src}`;
    }
    prevGlue = t.glue;
    gapPending = false;
  }
  return new RegExp(`(?<![^ ])${src}(?![^ ])`, "g");
}
