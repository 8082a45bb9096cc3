import { ALGERIAN } from "./dz.ts";
import { FRENCH } from "./fr.ts";
import { MOROCCAN } from "./ma.ts";
import { compilePhrase } from "./pattern.ts";
import { canonicalWord } from "../normalize.ts";
import { SHARED } from "./shared.ts";
import { TUNISIAN } from "./tn.ts";
import type { Country, LexiconEntry, Signal } from "./types.ts";

export type { Country, Signal } from "./types.ts";

export interface CompiledCue {
  signal: Signal;
  weight: number;
  /** Sticky: tried only where a token starts (a match never starts mid-word). */
  re: RegExp;
  /** Per required token, the consonant masks of its alternatives: a cheap test before the regex. */
  requires: number[][];
}

/** Bit per consonant (a-z and "3"); vowels, y, w and the fuzzy 9 are left out: they may be absent. */
export function letterMask(text: string): number {
  let mask = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) mask |= 1 << (c - 97);
    else if (c === 51) mask |= 1 << 26;
  }
  return mask;
}
const LOOSE = letterMask("aeiouyw");

/** Whether the utterance has every consonant some alternative of each required token needs. */
export function mayMatch(cue: CompiledCue, utteranceMask: number): boolean {
  // Indexed loops, not every()/some() with closures: this runs for each of ~640 cues on every utterance and must
  // allocate nothing (signals.ts cueHits).
  const missing = ~utteranceMask;
  const requires = cue.requires;
  for (let r = 0; r < requires.length; r++) {
    const alts = requires[r]!;
    let any = false;
    for (let a = 0; a < alts.length; a++) {
      if ((alts[a]! & missing) === 0) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}

function requirements(phrase: string): number[][] {
  return phrase
    .trim()
    .split(/\s+/)
    .filter((spec) => spec !== "_" && !(spec.endsWith("?") && spec.length > 1))
    .map((spec) =>
      spec.split("|").map((alt) => {
        if (/^[#@*]/.test(alt)) return 0;
        return letterMask(canonicalWord(alt.replace(/[~=*]/g, ""))) & ~LOOSE;
      }),
    );
}

/**
 * Every dialect's words apply to every country: customers code-switch, and a Moroccan in France
 * speaks Darija. Only entries tagged with countries (false friends) are filtered.
 */
const ALL: LexiconEntry[] = [
  ...SHARED,
  ...MOROCCAN,
  ...ALGERIAN,
  ...TUNISIAN,
  ...FRENCH.map((e) => ({ ...e, exact: true })),
];

const cache = new Map<Country, CompiledCue[]>();
/** Each entry's cues, compiled once whatever the country: countries only choose among them. */
let compiledEntries: { entry: LexiconEntry; cues: CompiledCue[] }[] | null = null;

function stickyAtTokenStart(re: RegExp): RegExp {
  return new RegExp(re.source.replace(/^\(\?<!\[\^ \]\)/, ""), "y");
}

/**
 * The compiled lexicon for one country, built once. The cues are shared between countries (one RegExp per phrase,
 * not four): a phrase compiles the same whatever the country, and V8 compiles and tiers up each RegExp object on its
 * own, so four copies cost four times the start-up work, the memory the scavenges and full collections go through,
 * and the native code.
 */
export function lexiconFor(country: Country): CompiledCue[] {
  let compiled = cache.get(country);
  if (!compiled) {
    compiledEntries ??= ALL.map((entry) => ({
      entry,
      cues: entry.phrases.map((p) => ({
        signal: entry.signal,
        weight: entry.weight,
        re: stickyAtTokenStart(compilePhrase(p, entry.exact)),
        requires: requirements(p),
      })),
    }));
    compiled = compiledEntries
      .filter(({ entry }) => !entry.countries || entry.countries.includes(country))
      .flatMap(({ cues }) => cues);
    cache.set(country, compiled);
  }
  return compiled;
}
