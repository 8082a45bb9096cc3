/**
 * Text normalisation for the intent classifier and the slot extractors.
 *
 * Everything is brought to one canonical Latin form so that a single lexicon reads Arabic script,
 * Latin-script Arabic ("arabizi") and French alike:
 * - lowercase, accents and tashkeel stripped, tatweel removed, Arabic-Indic digits made ASCII;
 * - Arabic letters transliterated (ع→3, ح→h, ق→9, خ→kh, ش→ch, ة→a, alef/ya variants unified);
 * - arabizi digits inside words read as letters (7→h, 5→kh, 2→hamza dropped, 8→gh); 3 and 9 stay
 *   (they are letters of the canonical alphabet: ain and qaf);
 * - sh→ch, dj→j, q→9, th→t, dh→d, hard c→k, ç→s; repeated letters collapsed ("wakhaaaa" → "wakha");
 * - punctuation kept as its own token (",", ".", "?", "!") because clause boundaries matter;
 * - a glued negation "ma…ch" is split ("mabghitch" → "ma bghitch") so negation is one token.
 */

const ARABIC_LETTERS: Record<string, string> = {
  ا: "a",
  أ: "a",
  إ: "a",
  آ: "a",
  ٱ: "a",
  ى: "a",
  ء: "",
  ئ: "y",
  ؤ: "w",
  ب: "b",
  ت: "t",
  ث: "t",
  ج: "j",
  ح: "h",
  خ: "kh",
  د: "d",
  ذ: "d",
  ر: "r",
  ز: "z",
  س: "s",
  ش: "ch",
  ص: "s",
  ض: "d",
  ط: "t",
  ظ: "d",
  ع: "3",
  غ: "gh",
  ف: "f",
  ڤ: "v",
  // The Maghrebi letters: "ڨ" (g, "مريڨل"), "ڥ" (v), "ڢ" (f), "ڧ" (q) (round 27).
  ڨ: "g",
  ڥ: "v",
  ڢ: "f",
  ڧ: "9",
  ق: "9",
  ك: "k",
  ک: "k",
  گ: "g",
  ڭ: "g",
  ل: "l",
  م: "m",
  ن: "n",
  ه: "h",
  ة: "a",
  و: "w",
  ي: "y",
  ی: "y",
  پ: "p",
  چ: "ch",
};

const ARABIC_PUNCT: Record<string, string> = { "،": ",", "؟": "?", "؛": ";" };

/** Tashkeel, superscript alef, Quranic marks and tatweel: dropped. */
const ARABIC_MARKS = /[\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g;

/** A token made of a number and perhaps a unit ("18h", "6h30", "42", "2eme") keeps its digits. */
const NUMBER_TOKEN = /^\d+(?:[h:]\d{0,2}|min|mn|dh|da|dt|eur|e|er|eme|em|x|kg)?$/;

/**
 * "j" (and an object pronoun) glued to a French verb that decides, as a recogniser writes "j'annule", "j'l'attends"
 * (round 47). Only these verbs: "j" before a vowel starts Darija words too ("jib", "jani").
 */
const GLUED_ELISION =
  /(?<![a-z0-9])j(l|le|la|les|te|vous)?(?=(?:annul|attend|atend|accept|envoi|valid|confirm|prend|refus|veu|garde|rappel)[a-z]*)/g;
/** "quil", "quon", always "qu'il", "qu'on"; "quelle" only before what follows a subject (round 47). */
const GLUED_QU =
  /(?<![a-z0-9])qu(?:(ils?|on)(?![a-z0-9])|(elles?)(?= (?:a|as|ont|avait|est|etait|ma|m|me|ne|n|na|va|vont|voulait|veut|voudrait|vient|dit|disait|sait|peut|pourrait|aura|aurait|lui|le|la|les|y|en|nous|vous|prend|prefere|aime|fait|se|s|soit|arrive|paye|paie|aille)(?![a-z0-9])))/g;

/** Negated forms that are not a glued "ma…ch" verb. */
const NOT_GLUED_NEGATION = new Set([
  "machi",
  "mach",
  "match",
  "mouch",
  "mich",
  "march",
  "ma3lich",
  "ma3lech",
  "ma3lish",
  "malich",
]);

/** Canonical Latin form of an utterance, as space-separated tokens. */
export function canonicalize(text: string): string {
  return canonicalTokens(text).join(" ");
}

/**
 * The last utterances' tokens: one turn reads its utterance several times (the classifier's analysis, the
 * do-not-call check, the slot readers), and the normalisation is the same each time. Small and bounded (the
 * utterances of the turns in progress); callers get a copy, never the cached array.
 */
const recent = new Map<string, readonly string[]>();
const RECENT_MAX = 64;

/** Canonical tokens of an utterance (punctuation tokens included). */
export function canonicalTokens(text: string): string[] {
  let tokens = recent.get(text);
  if (!tokens) {
    tokens = tokenize(text);
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
    recent.set(text, tokens);
  }
  return tokens.slice();
}

function tokenize(text: string): string[] {
  let s = text.normalize("NFKC").toLowerCase();
  s = s.replace(ARABIC_MARKS, "");
  s = s.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660));
  s = s.replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0));
  s = s.replace(/[،؟؛]/g, (c) => ARABIC_PUNCT[c] ?? c);
  // Latin accents: decompose and drop the combining marks (é → e); ç is an s ("ça" → "sa").
  s = s.replace(/ç/g, "s");
  s = s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(ARABIC_MARKS, "");
  s = s.replace(/[’`´‘]/g, "'").replace(/…/g, ".");
  // Apostrophes and hyphens split words: "l'couleur" → "l couleur", "rappelez-moi" → "rappelez moi".
  s = s.replace(/-(la|le|les|lui|leur|en|y)(?=$|[\s,.!?;:])/g, " "); // "livrez-la": a pronoun, not "no"
  // French elision: "l'adresse", "j'ai", "qu'il", "j't'écoute", and "jusqu'au", "lorsqu'il", "puisqu'on" (round 8).
  // A recogniser may drop the apostrophe (round 47): "jannule", "jlattends", "jvalide" are "j'annule", "j'l'attends",
  // "j'valide" before the verbs that decide; "quil", "quon" are always "qu'il", "qu'on"; "quelle" is "qu'elle" only
  // before a verb or a pronoun ("quelle voulait le sac", not "quelle taille").
  s = s.replace(GLUED_ELISION, (_m, pronoun: string | undefined) => (pronoun ? `j ${pronoun} ` : "j "));
  s = s.replace(
    GLUED_QU,
    (_m, always: string | undefined, beforeVerb: string | undefined) => `qu ${always ?? beforeVerb}`,
  );
  s = s.replace(/(?<=^|[^a-z])(l|d|j|c|n|s|m|t|qu|jusqu|lorsqu|puisqu|quoiqu)'/g, "$1 ");
  s = s.replace(/([a-z0-9])'(?=[a-z0-9])/g, "$1"); // an apostrophe inside arabizi is a hamza: "ra'yi"
  s = s.replace(/['\-_]/g, " ");
  // Dates and times keep their separators: "25/12", "18:30".
  s = s.replace(/(\d)\s*([/:])\s*(\d)/g, "$1$2$3");
  s = s.replace(/\.{2,}/g, " . ");
  s = s.replace(/([,;:!?.()"«»])/g, (m, _c, offset: number, whole: string) => {
    // a dot or colon between digits is a decimal point or a clock time, not punctuation
    if ((m === "." || m === ":") && /\d/.test(whole[offset - 1] ?? "") && /\d/.test(whole[offset + 1] ?? "")) return m;
    return ` ${m} `;
  });
  const out: string[] = [];
  for (const raw of s.split(/\s+/)) {
    if (!raw) continue;
    if (/^[,;:!?.()"«»]$/.test(raw)) {
      const p = raw === ";" || raw === ":" ? "," : raw === "!" ? "." : raw;
      if (p === "(" || p === ")" || p === '"' || p === "«" || p === "»") continue;
      if (out[out.length - 1] !== p) out.push(p);
      continue;
    }
    const word = canonicalWord(raw);
    if (!word) continue;
    out.push(...splitGluedNegation(word));
  }
  return out;
}

/** Canonical form of one word (no spaces, no punctuation). */
export function canonicalWord(raw: string): string {
  const arabic = /[\u0600-\u06FF]/.test(raw);
  if (/^h*m{2,}h*$/.test(raw)) return "hmm"; // "mmm", "hmmm": not the French "m'"
  let w = arabic ? transliterateArabic(raw) : raw;
  // Arabic "ال" article after transliteration is "al": keep it as "l", like "l'", "el", "lé".
  if (arabic && /^(w|f|b|k)?al(?=[a-z3-9]{2})/.test(w)) w = w.replace(/^(w|f|b|k)?al/, "$1l");
  if (!arabic) {
    w = w.replace(/ç/g, "s");
    // Latin spelling variants first, so that "s7i7" (s, ha) does not become "shih" then "chih".
    w = w
      .replace(/sch/g, "ch")
      .replace(/sh/g, "ch")
      .replace(/dj/g, "j")
      .replace(/q/g, "9")
      .replace(/th/g, "t")
      .replace(/dh/g, "d");
    w = w.replace(/(?<!eu|i)x(?=[aeiou])/g, "kh").replace(/ou/g, "u"); // not French "deuxième", "sixième"
    // a hard c is k, as in Arabic script: "commandit" and "كومونديت" meet
    w = w.replace(/ck/g, "k").replace(/c(?=[aoukrl])/g, "k");
  }
  if (/\d/.test(w) && /[a-z]/.test(w) && !NUMBER_TOKEN.test(w)) {
    w = w.replace(/7/g, "h").replace(/5/g, "kh").replace(/8/g, "gh").replace(/2/g, "").replace(/6/g, "t");
  }
  w = w.replace(/[^a-z0-9:/.]/g, "");
  // Collapse repeated letters ("wakhaaaa", "bzzaf"); digits stay as written ("2026", "11").
  w = /[a-z]/.test(w) ? w.replace(/([a-z39])\1+/g, "$1") : w;
  return w;
}

const ALEF = new Set(["ا", "أ", "إ", "آ", "ى"]);

/**
 * Arabic script to canonical Latin. و and ي are consonants (w, y) at the start of a word and next to
 * an alef, and vowels (u, i) elsewhere, which is how Latin-script writers spell them: بغيت → bghit,
 * كاين → kayn, زوج → zuj.
 */
function transliterateArabic(raw: string): string {
  const chars = [...raw];
  let out = "";
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] ?? "";
    if (ch === "و" || ch === "ي" || ch === "ی") {
      const prev = chars[i - 1];
      const next = chars[i + 1];
      const consonant =
        i === 0 || (prev !== undefined && ALEF.has(prev)) || (next !== undefined && (ALEF.has(next) || next === "ة"));
      out += ch === "و" ? (consonant ? "w" : "u") : consonant ? "y" : "i";
      continue;
    }
    out += ARABIC_LETTERS[ch] ?? ch;
  }
  return out;
}

function splitGluedNegation(word: string): string[] {
  // "mabghitch" → "ma bghitch", "ma3ndich" → "ma 3ndich", "matsiftouhch" → "ma tsiftouhch".
  if (word.length >= 6 && word.startsWith("ma") && /chi?$/.test(word) && !NOT_GLUED_NEGATION.has(word)) {
    return ["ma", word.slice(2)];
  }
  return [word];
}

/** Whether the text is mostly written in Arabic script. */
export function isMostlyArabicScript(text: string): boolean {
  const arabic = (text.match(/[\u0600-\u06FF]/g) ?? []).length;
  const latin = (text.match(/[A-Za-zÀ-ÿ]/g) ?? []).length;
  return arabic > latin;
}
