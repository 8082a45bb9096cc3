// Where a call goes and how it speaks: the countries served, their currency, their languages and the
// conversational profile (dialect) each country is given. Everything else derives its lists from here.

export const COUNTRIES = ["MA", "DZ", "TN", "FR"] as const;
export const LANGUAGES = ["ar", "fr"] as const;
export const DIALECTS = ["ma", "dz", "tn", "fr"] as const;
export const CURRENCIES = ["MAD", "DZD", "TND", "EUR"] as const;

export type Country = (typeof COUNTRIES)[number];
export type Language = (typeof LANGUAGES)[number];
export type Dialect = (typeof DIALECTS)[number];
export type Currency = (typeof CURRENCIES)[number];

/** The currency an order is collected in, by country. */
export const COUNTRY_CURRENCY = { MA: "MAD", DZ: "DZD", TN: "TND", FR: "EUR" } as const satisfies Record<
  Country,
  Currency
>;

/** The language used when a call names none. */
export const DEFAULT_LANGUAGE: Readonly<Record<Country, Language>> = { MA: "ar", DZ: "ar", TN: "ar", FR: "fr" };

/** The languages a country's calls can be held in (FR with `ar` is refused). */
export const SERVED_LANGUAGES: Readonly<Record<Country, readonly Language[]>> = {
  MA: ["ar", "fr"],
  DZ: ["ar", "fr"],
  TN: ["ar", "fr"],
  FR: ["fr"],
};

/** The conversational profile, chosen from the country. */
export const COUNTRY_DIALECT = { MA: "ma", DZ: "dz", TN: "tn", FR: "fr" } as const satisfies Record<Country, Dialect>;

const BIDI_OPENERS: Record<string, "embedding" | "isolate"> = {
  "\u202A": "embedding",
  "\u202B": "embedding",
  "\u202D": "embedding",
  "\u202E": "embedding",
  "\u2066": "isolate",
  "\u2067": "isolate",
  "\u2068": "isolate",
};
const BIDI_CLOSERS: Record<string, "embedding" | "isolate"> = { "\u202C": "embedding", "\u2069": "isolate" };

/**
 * Removes the bidirectional controls (U+202A-202E, U+2066-2069) of `text` that are not paired (issue 31.8): an opener
 * (LRE, RLE, LRO, RLO, LRI, RLI, FSI) without its closer (PDF, PDI) would reverse or reorder what follows it wherever
 * the text is shown (bidi spoofing); a closer without its opener is dropped too. Paired controls are kept.
 */
export function stripUnpairedBidi(text: string): string {
  if (!/[\u202A-\u202E\u2066-\u2069]/.test(text)) return text;
  const chars = [...text];
  const drop = new Set<number>();
  const open: { at: number; kind: "embedding" | "isolate" }[] = [];
  chars.forEach((c, i) => {
    const opener = BIDI_OPENERS[c];
    if (opener) return void open.push({ at: i, kind: opener });
    const closer = BIDI_CLOSERS[c];
    if (!closer) return;
    if (open.at(-1)?.kind === closer) open.pop();
    else drop.add(i);
  });
  for (const o of open) drop.add(o.at);
  return chars.filter((_c, i) => !drop.has(i)).join("");
}
