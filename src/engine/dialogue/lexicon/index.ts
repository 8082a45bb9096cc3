import { ALGERIAN } from "./dz.ts";
import { FRENCH } from "./fr.ts";
import { MOROCCAN } from "./ma.ts";
import { compilePhrase } from "./pattern.ts";
import { SHARED } from "./shared.ts";
import { TUNISIAN } from "./tn.ts";
import type { Country, LexiconEntry, Signal } from "./types.ts";

export type { Country, Signal } from "./types.ts";

export interface CompiledCue {
  signal: Signal;
  weight: number;
  re: RegExp;
}

/**
 * Every dialect's words apply to every country: customers code-switch, and a Moroccan in France
 * speaks Darija. Only entries tagged with countries (false friends) are filtered.
 */
const ALL: LexiconEntry[] = [...SHARED, ...MOROCCAN, ...ALGERIAN, ...TUNISIAN, ...FRENCH.map((e) => ({ ...e, exact: true }))];

const cache = new Map<Country, CompiledCue[]>();

/** The compiled lexicon for one country, built once. */
export function lexiconFor(country: Country): CompiledCue[] {
  let compiled = cache.get(country);
  if (!compiled) {
    compiled = ALL.filter((e) => !e.countries || e.countries.includes(country)).flatMap((e) =>
      e.phrases.map((p) => ({ signal: e.signal, weight: e.weight, re: compilePhrase(p, e.exact) })),
    );
    cache.set(country, compiled);
  }
  return compiled;
}
