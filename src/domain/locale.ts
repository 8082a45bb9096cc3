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
export const COUNTRY_CURRENCY = { MA: "MAD", DZ: "DZD", TN: "TND", FR: "EUR" } as const satisfies Record<Country, Currency>;

/** The language used when a call names none. */
export const DEFAULT_LANGUAGE: Readonly<Record<Country, Language>> = { MA: "ar", DZ: "ar", TN: "ar", FR: "fr" };

/** The languages a country's calls can be held in (FR with `ar` is refused). */
export const SERVED_LANGUAGES: Readonly<Record<Country, readonly Language[]>> = { MA: ["ar", "fr"], DZ: ["ar", "fr"], TN: ["ar", "fr"], FR: ["fr"] };

/** The conversational profile, chosen from the country. */
export const COUNTRY_DIALECT = { MA: "ma", DZ: "dz", TN: "tn", FR: "fr" } as const satisfies Record<Country, Dialect>;
