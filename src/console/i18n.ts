// The console's words in French (the default), English and Arabic (right to left), and the locale-aware formats
// of times (in the account's time zone), numbers and amounts (Intl, with the currency of each call).
import { type Labels, LABELS } from "./labels.ts";
import { ar } from "./messages-ar.ts";
import { en, type Messages } from "./messages-en.ts";
import { fr } from "./messages-fr.ts";

export const LOCALES = ["fr", "en", "ar"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "fr";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

export type { Messages };

export const MESSAGES: Record<Locale, Messages> = { fr, en, ar };

/** The names of the languages, each in itself (for the switcher). */
export const LOCALE_NAMES: Record<Locale, string> = { fr: "Français", en: "English", ar: "العربية" };

/** Intl locale per console language: Arabic with Latin digits as written in the Maghreb. */
const INTL_LOCALE: Record<Locale, string> = { fr: "fr-FR", en: "en-GB", ar: "ar-MA" };

/** Formats for one request: its language and the account's time zone. */
export class Formats {
  readonly locale: Locale;
  readonly timeZone: string;
  readonly t: Messages;
  /** Every enum value in words (labels.ts). */
  readonly l: Labels;
  readonly #dateTime: Intl.DateTimeFormat;
  readonly #number: Intl.NumberFormat;

  constructor(locale: Locale, timeZone: string) {
    this.locale = locale;
    this.timeZone = timeZone;
    this.t = MESSAGES[locale];
    this.l = LABELS[locale];
    this.#dateTime = new Intl.DateTimeFormat(INTL_LOCALE[locale], {
      dateStyle: "medium",
      timeStyle: "medium",
      timeZone,
    });
    this.#number = new Intl.NumberFormat(INTL_LOCALE[locale]);
  }

  /** The Intl locale of the page's language (Arabic with Latin digits). */
  get intlLocale(): string {
    return INTL_LOCALE[this.locale];
  }

  /** A country's name in the page's language. */
  country(code: string): string {
    return new Intl.DisplayNames(INTL_LOCALE[this.locale], { type: "region" }).of(code) ?? code;
  }

  get dir(): "rtl" | "ltr" {
    return this.locale === "ar" ? "rtl" : "ltr";
  }

  /** A timestamp in the account's time zone; "—" when absent. */
  time(iso: string | null | undefined): string {
    return iso ? this.#dateTime.format(new Date(iso)) : "—";
  }

  number(n: number): string {
    return this.#number.format(n);
  }

  /** A decimal string amount with its currency, per locale (the decimal string is exact; Intl takes it as a string). */
  money(amount: string, currency: string): string {
    return new Intl.NumberFormat(INTL_LOCALE[this.locale], { style: "currency", currency }).format(
      amount as unknown as number,
    );
  }

  /** Whole seconds as minutes and seconds in the locale's units (1 min 05 s). */
  seconds(n: number | null): string {
    if (n === null) return "—";
    return new Intl.NumberFormat(INTL_LOCALE[this.locale], {
      style: "unit",
      unit: "second",
      unitDisplay: "short",
    }).format(n);
  }

  /** An enum value in words; the value itself only for one the tables do not know. */
  label(table: keyof Labels, value: string | null | undefined): string {
    if (value === null || value === undefined) return "—";
    return (this.l[table] as Record<string, string>)[value] ?? value;
  }

  /** Seconds as hours and minutes in the locale's units (9 h 40 min, 12 min, 36 s under a minute). */
  span(n: number | null): string {
    if (n === null) return "—";
    const unit = (u: string, v: number) =>
      new Intl.NumberFormat(INTL_LOCALE[this.locale], { style: "unit", unit: u, unitDisplay: "short" }).format(v);
    const abs = Math.abs(n);
    const sign = n < 0 ? "-" : "";
    if (abs < 60) return sign + unit("second", abs);
    const hours = Math.floor(abs / 3600);
    const minutes = Math.floor((abs % 3600) / 60);
    if (hours === 0) return sign + unit("minute", minutes);
    return sign + (minutes ? `${unit("hour", hours)} ${unit("minute", minutes)}` : unit("hour", hours));
  }

  status(s: string): string {
    return (this.t.statusNames as Record<string, string>)[s] ?? s;
  }

  /** An order's resolution: a call outcome's name, or "unresolved". */
  resolution(s: string): string {
    return s === "unresolved" ? this.t.unresolved : this.outcome(s);
  }

  outcome(s: string | null): string {
    return s ? ((this.t.outcomeNames as Record<string, string>)[s] ?? s) : "—";
  }
}
