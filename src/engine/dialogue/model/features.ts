// The features the statistical intent model reads (issue 14), shared by the trainer (scripts/classifier/train.ts) and the
// inference (model.ts): words and word pairs of the canonical text, consonant skeletons (Arabic script drops
// short vowels and arabizi writers choose their own, so "siftouha", "sefetha" and "صيفطها" meet at "sfth"),
// character n-grams, the lexicon's signals with their negation and order, and the rules' own verdict.
import { decide } from "../rules.ts";
import type { Country } from "../lexicon/index.ts";
import { isMostlyArabicScript } from "../normalize.ts";
import { analyse, type Analysis } from "../signals.ts";
import type { Classification } from "../types.ts";

const PUNCT = new Set([",", ".", "?"]);

/** Vowels and half vowels removed, doubled letters collapsed: the word's consonant skeleton. */
export function skeleton(word: string): string {
  const s = word.replace(/[aeiouyw]/g, "").replace(/(.)\1+/g, "$1");
  return s.length > 0 ? s : word;
}

function lengthBucket(n: number): string {
  return n <= 1 ? "1" : n === 2 ? "2" : n <= 4 ? "3-4" : n <= 8 ? "5-8" : "9+";
}

/** Feature names of one utterance, with repeats (a count model); `analysis` saves a second pass. */
export function featuresOf(
  text: string,
  country: Country,
  analysis: Analysis = analyse(text, country),
  verdict: Classification = decide(analysis),
): string[] {
  const { tokens, hits } = analysis;
  const words = tokens.filter((t) => !PUNCT.has(t));
  const out: string[] = [
    `len:${lengthBucket(words.length)}`,
    `script:${isMostlyArabicScript(text) ? "ar" : "lat"}`,
    "bias",
  ];
  const skel = words.map(skeleton);
  const padded = ["<s>", ...words, "</s>"];
  for (let i = 0; i < words.length; i++) {
    out.push(`w:${words[i]}`, `k:${skel[i]}`);
  }
  for (let i = 0; i + 1 < padded.length; i++) out.push(`b:${padded[i]}_${padded[i + 1]}`);
  for (let i = 0; i + 1 < skel.length; i++) out.push(`kb:${skel[i]}_${skel[i + 1]}`);
  // Character n-grams over the canonical words and over the skeletons: spelling slips still share most of them.
  const line = ` ${words.join(" ")} `;
  for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= line.length; i++) out.push(`c${n}:${line.slice(i, i + n)}`);
  const kline = ` ${skel.join(" ")} `;
  for (let i = 0; i + 3 <= kline.length; i++) out.push(`kc:${kline.slice(i, i + 3)}`);
  // Punctuation: a question mark is a strong cue when typed, and absent in transcripts.
  if (tokens.includes("?")) out.push(tokens[tokens.length - 1] === "?" ? "q:end" : "q:mid");
  // The lexicon's signals: which, negated or not, the first and the last, and which came last of the
  // decisive families (a later "no" overrides an earlier "yes").
  let last: string | null = null;
  for (const h of hits) {
    const name = `${h.signal}${h.negated ? ":neg" : ""}`;
    out.push(`s:${name}`);
    last = name;
  }
  if (hits[0]) out.push(`sf:${hits[0].signal}${hits[0].negated ? ":neg" : ""}`);
  if (last) out.push(`sl:${last}`);
  for (let i = 0; i + 1 < hits.length; i++) out.push(`ss:${hits[i]!.signal}>${hits[i + 1]!.signal}`);
  out.push(
    `r:${verdict.intent}`,
    `r:${verdict.intent}:${verdict.confidence >= 0.8 ? "hi" : verdict.confidence >= 0.6 ? "mid" : "lo"}`,
  );
  out.push(`cty:${country}`, `cty:${country}:r:${verdict.intent}`);
  return out;
}

/** FNV-1a, 32 bits: a feature's bucket in the hashed weight table. */
export function hashFeature(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
