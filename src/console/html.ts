// Escaping by default: every value interpolated into an `html` template is HTML-escaped (escape-html: & < > " '),
// unless it is itself the result of `html` (already safe markup). There is no other way to produce a Safe value,
// so a string from the database or the request can never become markup.
import escapeHtml from "escape-html";

export class Safe {
  readonly #markup: string;
  constructor(markup: string, key: symbol) {
    if (key !== KEY) throw new Error("Safe markup is made by html`` only");
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

const KEY = Symbol("safe");

export type Html = Safe;
type Value = Safe | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Safe) return value.toString();
  if (Array.isArray(value)) return (value as readonly Value[]).map(render).join("");
  return escapeHtml(String(value));
}

/** A template literal tag: static parts are markup, interpolated values are text (escaped) unless they are Safe. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Safe {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Safe(out, KEY);
}

/** A path with its query string, each value percent-encoded; empty values are left out. */
export function href(path: string, query: Record<string, string | undefined | null> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") params.set(k, v);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
