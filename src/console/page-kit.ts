// What the console's pages share: reading a form, checking it with /v1's schema, tables, filters, badges, and the
// only paths a sign-in or a language switch may go back to.
import type { z } from "zod";
import { ApiError } from "../errors.ts";
import { html, type Html } from "./html.ts";
import type { Formats } from "./i18n.ts";
import { csrfField, type View } from "./layout.ts";

export type Form = Record<string, string | string[] | undefined>;

export function one(form: Form | undefined, name: string): string | undefined {
  const v = form?.[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined ? undefined : s.trim();
}

/** Only a console path may follow a sign-in or a language switch (no open redirect). */
// Issue 31.6: a local console path only (no other origin, no `//` or `\\`, no control character), re-encoded by the URL
// parser so the Location header is ASCII: a character above U+00FF in `next=` no longer makes the redirect throw.
export function safeNext(next: string | undefined, fallback = "/console/overview"): string {
  if (
    !next ||
    next.length > 2048 ||
    !next.startsWith("/") ||
    next.startsWith("//") ||
    /[\\\u0000-\u001f\u007f]/.test(next)
  )
    return fallback;
  let url: URL;
  try {
    url = new URL(next, "http://console.invalid");
  } catch {
    return fallback;
  }
  if (url.origin !== "http://console.invalid" || !/^\/console(\/|$)/.test(url.pathname)) return fallback;
  const path = url.pathname + url.search;
  return /^\/[\x21-\x7e]*$/.test(path) && !path.startsWith("//") ? path : fallback;
}

/** The same Zod schema as /v1 checks a form; its issues come back as a validation_error with each field named. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    msg: i.message,
    type: "value_error",
  }));
  throw new ApiError("validation_error", issues.map((i) => `${i.path.join(".") || "form"}: ${i.msg}`).join("; "), {
    issues,
  });
}

/** A list page's filters as given: the query's non-empty string fields. */
export function filledFields(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""),
  );
}

/** The labelled select and input fields of a list page's filter form, showing the values given in `raw`. */
export function filterFields(raw: Record<string, string>, any: string, dayHint = "YYYY-MM-DD") {
  return {
    select: (name: string, label: string, values: readonly string[], names: (s: string) => string) => html`
<div class="field"><label for="f-${name}">${label}</label>
<select id="f-${name}" name="${name}"><option value="">${any}</option>${values.map((s) => html`<option value="${s}"${raw[name] === s ? html` selected` : ""}>${names(s)}</option>`)}</select></div>`,
    // A day is typed as YYYY-MM-DD with the format named in the page's language: a date input would show the
    // browser's own language and order (mm/dd/yyyy) whatever the page says.
    input: (name: string, label: string, type: "text" | "day" = "text") =>
      type === "day"
        ? html`
<div class="field"><label for="f-${name}">${label} <span class="muted">(${dayHint})</span></label><input id="f-${name}" name="${name}" type="text" inputmode="numeric" dir="ltr" maxlength="32" placeholder="${dayHint}" value="${raw[name] ?? ""}"></div>`
        : html`
<div class="field"><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="text" value="${raw[name] ?? ""}"></div>`,
  };
}

export function statusBadge(f: Formats, status: string): Html {
  return html`<span class="badge s-${status}" data-status="${status}">${f.status(status)}</span>`;
}

/** A table; `cards` (cells with data-label) turns each row into a card on a phone, status and outcome in sight. */
export function table(headers: (string | Html)[], rows: Html[], empty: string, caption?: string, cards = false): Html {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>`;
  return html`<div class="scroll"><table${cards ? html` class="cards"` : ""}>${caption ? html`<caption>${caption}</caption>` : ""}<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** A numeric column's header, aligned with its right-aligned (end-aligned) values. */
export function numHeader(text: string): Html {
  return html`<span class="n">${text}</span>`;
}

/** The console's page of an order: its shop's and its own external ids, each percent-encoded. */
export function orderHref(shopExternalId: string, orderExternalId: string): string {
  return `/console/orders/${encodeURIComponent(shopExternalId)}/${encodeURIComponent(orderExternalId)}`;
}

/** An order's resolution with its channel and time ("Confirmed · voice · 23 Nov 2026, 10:00:00"). */
export function resolutionCell(f: Formats, o: import("../schemas/orders.ts").OrderOut): Html {
  const r = o.resolution;
  return html`<span class="badge r-${r.value}" data-resolution="${r.value}">${f.resolution(r.value)}</span>${r.channel ? html` · ${f.t.channelNames[r.channel] ?? r.channel}` : ""}${r.resolved_at ? html` · <span class="muted">${f.time(r.resolved_at)}</span>` : ""}`;
}

export function deliveriesTable(v: View, deliveries: import("../schemas/deliveries.ts").DeliveryOut[]): Html {
  const {
    f,
    f: { t },
  } = v;
  const rows = deliveries.map(
    (
      d,
    ) => html`<tr data-delivery-id="${d.id}"><td data-label="${t.event}"><a href="/console/webhook/deliveries/${d.id}" data-event="${d.event_type}">${f.label("webhookEvents", d.event_type)}</a></td>
<td data-label="${t.status}"><span class="badge d-${d.status}">${(t.deliveryStatusNames as Record<string, string>)[d.status]}</span></td>
<td data-label="${t.attempts}" class="num">${f.number(d.attempts)}</td><td data-label="${t.lastAttempt}">${f.time(d.last_attempt_at)}</td><td data-label="${t.code}">${d.last_status_code ?? "—"}${d.last_error ? html` <span class="muted">${d.last_error}</span>` : ""}</td>
<td>${d.status === "failed" ? html`<form method="post" action="/console/webhook/deliveries/${d.id}/redeliver">${csrfField(v)}<button type="submit">${t.redeliver}</button></form>` : ""}</td></tr>`,
  );
  return table(
    [t.event, t.status, numHeader(t.attempts), t.lastAttempt, t.code, ""],
    rows,
    t.noDeliveries,
    t.deliveries,
    true,
  );
}

/** A credit's description in the page's language when it is one the server writes itself; an operator's own words as typed. */
export function transactionText(f: Formats, description: string): string {
  if (description === "Opening balance") return f.t.openingBalance;
  if (description === "Credit") return f.t.credit;
  return description;
}

/** The shop's own order name (#1001) with the platform's id beside it, or the external id alone. */
export function orderLabel(name: string | undefined, externalId: string): Html {
  return name
    ? html`<bdi>${name}</bdi> <span class="muted" dir="ltr">${externalId}</span>`
    : html`<bdi>${externalId}</bdi>`;
}
