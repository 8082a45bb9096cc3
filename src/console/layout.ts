// The page shell: language and direction, the skip link, the menu, the language switch and sign-out (both POST
// forms with the CSRF token), and the error box that shows an API error with its title, detail and remedy.
import { ERROR_TITLES } from "./error-titles.ts";
import { ERRORS, type ErrorSlug } from "../errors.ts";
import { html, type Html } from "./html.ts";
import { type Formats, LOCALE_NAMES, LOCALES } from "./i18n.ts";

export interface View {
  f: Formats;
  /** The CSRF token for this page's forms. */
  csrf: string;
  /** The current path and query, for the language switch to come back to. */
  path: string;
  signedIn: boolean;
  accountName?: string | undefined;
}

export const csrfField = (v: View) => html`<input type="hidden" name="_csrf" value="${v.csrf}">`;

const NAV: [string, keyof Formats["t"]][] = [
  ["/console/overview", "navOverview"],
  ["/console/rates", "navRates"],
  ["/console/calls", "navCalls"],
  ["/console/orders", "navOrders"],
  ["/console/balance", "navBalance"],
  ["/console/shops", "navShops"],
  ["/console/keys", "navKeys"],
  ["/console/webhook", "navWebhook"],
  ["/console/whatsapp", "navWhatsapp"],
  ["/console/policy", "navPolicy"],
  ["/console/rehearsal", "navRehearsal"],
  ["/console/settings", "navSettings"],
];

export function layout(v: View, title: string, body: Html): Html {
  const { f } = v;
  const nav = v.signedIn
    ? html`<nav aria-label="${f.t.nav}"><ul>${NAV.map(([href, key]) => {
        const current = v.path === href || v.path.startsWith(`${href}/`) || v.path.startsWith(`${href}?`);
        return html`<li><a href="${href}"${current ? html` aria-current="page"` : ""}>${f.t[key] as string}</a></li>`;
      })}</ul></nav>`
    : "";
  return html`<!doctype html>
<html lang="${f.locale}" dir="${f.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${f.t.appName}</title>
<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">${f.t.skip}</a>
<header>
<div class="bar">
<span class="brand">${f.t.appName}${v.accountName ? html` · <span class="account">${v.accountName}</span>` : ""}</span>
<form method="post" action="/console/lang" class="lang">
${csrfField(v)}<input type="hidden" name="next" value="${v.path}">
<label for="lang-select">${f.t.language}</label>
<select id="lang-select" name="lang">${LOCALES.map((l) => html`<option value="${l}" lang="${l}"${l === f.locale ? html` selected` : ""}>${LOCALE_NAMES[l]}</option>`)}</select>
<button type="submit">${f.t.change}</button>
</form>
${v.signedIn ? html`<form method="post" action="/console/sign-out" class="signout">${csrfField(v)}<button type="submit">${f.t.signOut}</button></form>` : ""}
</div>
${nav}
</header>
<main id="main" tabindex="-1">
<h1 dir="auto">${title}</h1>
${body}
</main>
</body>
</html>`;
}

export interface ShownError {
  slug: string;
  status: number;
  detail: string;
}

/** An API error as the user sees it: the catalogue's title and remedy, with the detail of this occurrence. */
export function errorBox(f: Formats, e: ShownError): Html {
  const entry = Object.hasOwn(ERRORS, e.slug) ? ERRORS[e.slug as ErrorSlug] : null;
  const local = f.locale === "en" ? null : ERROR_TITLES[f.locale];
  const title = entry ? (local ? local[e.slug as ErrorSlug] : entry.title) : f.t.error;
  const remedy = entry && "remedy" in entry ? entry.remedy : null;
  // The detail and the remedy are the API's English: marked so on French and Arabic pages (screen readers, the walk).
  const en = local ? html` lang="en" dir="ltr"` : "";
  return html`<div class="error" role="alert" data-error="${e.slug}">
<h2>${f.t.error} ${e.status}: ${title}</h2>
<p${en}>${e.detail}</p>
${remedy ? html`<p><strong>${f.t.remedy}:</strong> <span${en}>${remedy}</span></p>` : ""}
</div>`;
}

export function notice(text: string): Html {
  return html`<p class="notice" role="status">${text}</p>`;
}
