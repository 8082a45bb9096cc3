// The calling policy page (issue 38.2): the retry policy as plain choices, the calling hours as a weekly grid per
// country (Friday prayer, public holidays, Ramadan shown with its dates), the do-not-call list with its reasons in
// words. Every form is checked by /v1's own schema before the services write it.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { COUNTRIES, type Country } from "../domain/locale.ts";
import { RETRY_TRIGGERS } from "../domain/retries.ts";
import { ApiError } from "../errors.ts";
import {
  type CallingHoursOverride,
  callingHoursOverrideSchema,
  type CallingWindow,
  type CountryCallingHours,
  DAY_KEYS,
} from "../schemas/calling-hours.ts";
import { doNotCallCreateBody } from "../schemas/do-not-call.ts";
import { retryPolicyInputSchema } from "../schemas/retry-policy.ts";
import { getAccountCallingHours, setAccountCallingHours } from "../services/calling-hours.ts";
import { addDoNotCall, listDoNotCall, removeDoNotCall } from "../services/do-not-call.ts";
import { getAccountRetryPolicy, setAccountRetryPolicy } from "../services/retry-policy.ts";
import type { ConsoleHelpers } from "./helpers.ts";
import { href, html, type Html } from "./html.ts";
import type { Formats } from "./i18n.ts";
import { csrfField, layout, notice } from "./layout.ts";
import { type Form, one, parseWith, table } from "./page-kit.ts";

/** The waits a retry can take, in minutes: a short list a shop's staff can choose from. */
export const RETRY_DELAY_CHOICES = [15, 30, 60, 120, 180, 360, 720, 1440, 2880] as const;
/** Windows per day the grid offers (the schema allows six; two cover a lunch break). */
const WINDOWS_PER_DAY = 2;
const MAX_RETRY_DELAYS = 4;

/** The next Ramadan (or the current one) from `today`, by the Umm al-Qura calendar the engine also uses. */
export function nextRamadan(today: Date): { start: Date; end: Date } | null {
  const month = new Intl.DateTimeFormat("en-u-ca-islamic-umalqura", { month: "numeric", timeZone: "UTC" });
  const isRamadan = (d: Date) => month.format(d) === "9";
  const day = 86_400_000;
  const base = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  for (let i = 0; i < 400; i++) {
    const d = new Date(base + i * day);
    if (!isRamadan(d)) continue;
    let start = d;
    while (isRamadan(new Date(start.getTime() - day))) start = new Date(start.getTime() - day);
    let end = d;
    while (isRamadan(new Date(end.getTime() + day))) end = new Date(end.getTime() + day);
    return { start, end };
  }
  return null;
}

function delayText(f: Formats, minutes: number): string {
  return f.span(minutes * 60);
}

function retrySection(
  f: Formats,
  csrf: Html,
  e: { enabled: boolean; on: string[]; max_attempts: number; delays_minutes: number[] },
): Html {
  const { t } = f;
  const delays = Array.from({ length: MAX_RETRY_DELAYS }, (_, i) => e.delays_minutes[i]);
  const choices = (current: number | undefined, allowNone: boolean) =>
    html`${allowNone ? html`<option value="">—</option>` : ""}${[
      ...new Set([...RETRY_DELAY_CHOICES, ...(current ? [current] : [])]),
    ]
      .sort((a, b) => a - b)
      .map((m) => html`<option value="${m}"${m === current ? html` selected` : ""}>${delayText(f, m)}</option>`)}`;
  return html`<section aria-labelledby="h-retry"><h2 id="h-retry">${t.retryPolicy}</h2>
<form method="post" action="/console/policy/retry" class="stack">${csrf}
<label><input type="checkbox" name="enabled" value="true"${e.enabled ? html` checked` : ""}> ${t.retryEnabled}</label>
<label for="r-max">${t.maxAttempts}</label>
<select id="r-max" name="max_attempts">${Array.from({ length: 10 }, (_, i) => i + 1).map((n) => html`<option value="${n}"${n === e.max_attempts ? html` selected` : ""}>${f.number(n)}</option>`)}</select>
<fieldset><legend>${t.retryDelays}</legend>${delays.map(
    (d, i) => html`<div class="field"><label for="r-delay-${i}">${t.retryDelay} ${f.number(i + 2)}</label>
<select id="r-delay-${i}" name="delay">${choices(d, i > 0)}</select></div>`,
  )}</fieldset>
<fieldset><legend>${t.retryOn}</legend>${RETRY_TRIGGERS.map((o) => html`<label><input type="checkbox" name="on" value="${o}"${e.on.includes(o) ? html` checked` : ""}> ${f.label("retryTriggers", o)}</label>`)}</fieldset>
<button type="submit">${t.save}</button></form></section>`;
}

function hoursSection(f: Formats, csrf: Html, country: Country, e: CountryCallingHours, now: Date): Html {
  const { t } = f;
  // HH:MM typed in a text field: a time input shows the browser's own language and clock (08:00 PM), not the page's.
  const time = (name: string, label: string, value: string | undefined) =>
    html`<label class="sr" for="${name}">${label}</label><input id="${name}" name="${name}" class="clock" type="text" inputmode="numeric" maxlength="5" placeholder="HH:MM" dir="ltr" value="${value ?? ""}">`;
  const rows = DAY_KEYS.map((d) => {
    const windows = e.days?.[d] ?? [];
    const day = f.label("days", d);
    return html`<tr><th scope="row">${day}</th>
<td><label><input type="checkbox" name="closed_${d}" value="1"${windows.length === 0 ? html` checked` : ""}> ${t.closed}</label></td>
${Array.from({ length: WINDOWS_PER_DAY }, (_, i) => html`<td class="window">${time(`${d}_${i}_from`, `${day} ${i + 1}: ${t.from}`, windows[i]?.from)} – ${time(`${d}_${i}_to`, `${day} ${i + 1}: ${t.to}`, windows[i]?.to)}</td>`)}</tr>`;
  });
  const ramadan = e.ramadan;
  const dates = nextRamadan(now);
  const dateFmt = new Intl.DateTimeFormat(f.intlLocale, { dateStyle: "long", timeZone: "UTC" });
  const dayFmt = new Intl.DateTimeFormat(f.intlLocale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return html`<section aria-labelledby="h-hours"><h2 id="h-hours">${t.callingHours}</h2>
<nav class="tabs" aria-label="${t.country}">${COUNTRIES.map((c) => html`<a href="${href("/console/policy", { country: c })}"${c === country ? html` aria-current="page"` : ""}>${f.country(c)}</a>`)}</nav>
<form method="post" action="/console/policy/hours/${country}" class="hours">${csrf}
<label><input type="checkbox" name="enabled" value="true"${e.enabled !== false ? html` checked` : ""}> ${t.hoursEnabled}</label>
<div class="scroll"><table><caption>${t.callingHours} · ${f.country(country)}</caption>
<thead><tr><th scope="col">${t.day}</th><th scope="col">${t.closed}</th><th scope="col">${t.window} 1</th><th scope="col">${t.window} 2</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<fieldset><legend>${t.fridayPrayer}</legend>${time("prayer_from", `${t.fridayPrayer}: ${t.from}`, e.friday_prayer?.from)} – ${time("prayer_to", `${t.fridayPrayer}: ${t.to}`, e.friday_prayer?.to)}
<p class="muted">${t.fridayPrayerHint}</p></fieldset>
<label><input type="checkbox" name="public_holidays" value="true"${e.public_holidays ? html` checked` : ""}> ${t.publicHolidaysOff}</label>
<button type="submit">${t.save}</button></form>
<h3 id="h-exceptions">${t.exceptions}</h3>
${
  (e.exceptions ?? []).length === 0
    ? html`<p class="empty">${t.noExceptions}</p>`
    : html`<ul class="exceptions">${[...(e.exceptions ?? [])]
        .sort((x, y) => x.date.localeCompare(y.date))
        .map(
          (
            x,
          ) => html`<li data-exception="${x.date}">${dayFmt.format(new Date(`${x.date}T00:00:00Z`))}: ${x.windows.length === 0 ? t.closedAllDay : html`<span dir="ltr">${x.windows.map((w) => `${w.from}–${w.to}`).join(", ")}</span>`}
<form method="post" action="/console/policy/hours/${country}/exceptions/remove" class="inline-form">${csrf}<input type="hidden" name="date" value="${x.date}"><button type="submit" class="danger" aria-label="${t.remove} ${x.date}">${t.remove}</button></form></li>`,
        )}</ul>`
}
<form method="post" action="/console/policy/hours/${country}/exceptions" class="inline" aria-labelledby="h-exceptions">${csrf}
<label for="x-date">${t.exceptionDate} <span class="muted">(${t.dayFormat})</span></label><input id="x-date" name="date" required inputmode="numeric" dir="ltr" maxlength="10" placeholder="${t.dayFormat}">
<label><input type="checkbox" name="closed" value="1"> ${t.closedAllDay}</label>
${time("x_from", `${t.exceptions}: ${t.from}`, undefined)} – ${time("x_to", `${t.exceptions}: ${t.to}`, undefined)}
<button type="submit">${t.add}</button></form>
<h3>${t.ramadan}</h3>
<p data-ramadan="${ramadan ? "on" : "off"}">${
    ramadan
      ? html`${t.ramadanDay} <span dir="ltr">${ramadan.day.map((w) => `${w.from}–${w.to}`).join(", ")}</span>; ${t.ramadanEvening(f.span(ramadan.evening_after_iftar_minutes * 60))} <span dir="ltr">${ramadan.evening_until}</span>.`
      : t.ramadanNone
  }
${dates ? html` ${t.ramadanDates} ${dateFmt.format(dates.start)} – ${dateFmt.format(dates.end)}.` : ""}</p>
</section>`;
}

type DatedException = NonNullable<CountryCallingHours["exceptions"]>[number];

/** A country's grid as the override's fields: closed days empty, empty time pairs left out. */
function hoursFromForm(body: Form | undefined): CountryCallingHours {
  const windows = (d: string): CallingWindow[] => {
    if (one(body, `closed_${d}`) === "1") return [];
    const out: CallingWindow[] = [];
    for (let i = 0; i < WINDOWS_PER_DAY; i++) {
      const from = one(body, `${d}_${i}_from`) ?? "";
      const to = one(body, `${d}_${i}_to`) ?? "";
      if (!from && !to) continue;
      out.push({ from, to: to === "00:00" ? "24:00" : to });
    }
    return out;
  };
  const prayerFrom = one(body, "prayer_from") ?? "";
  const prayerTo = one(body, "prayer_to") ?? "";
  return {
    enabled: one(body, "enabled") === "true",
    days: Object.fromEntries(DAY_KEYS.map((d) => [d, windows(d)])) as CountryCallingHours["days"],
    friday_prayer: prayerFrom || prayerTo ? { from: prayerFrom, to: prayerTo } : null,
    public_holidays: one(body, "public_holidays") === "true",
  };
}

export function policyPages(app: FastifyInstance, h: ConsoleHelpers): void {
  const { ctx } = h;

  app.get<{ Querystring: { cursor?: string; country?: string; saved?: string } }>("/policy", async (req, reply) => {
    const who = h.session(req).principal;
    const [hours, retry, dnc] = await Promise.all([
      getAccountCallingHours(ctx, who),
      getAccountRetryPolicy(ctx, who),
      listDoNotCall(ctx, who, { limit: 50, cursor: req.query.cursor || undefined }),
    ]);
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const country = (COUNTRIES as readonly string[]).includes(req.query.country ?? "")
      ? (req.query.country as Country)
      : "MA";
    const dncRows = dnc.data.map(
      (
        d,
      ) => html`<tr><td dir="ltr">${d.phone_number}</td><td>${f.label("doNotCallSources", d.source)}</td><td dir="auto">${d.reason ?? "—"}</td><td>${f.time(d.created_at)}</td>
<td><form method="post" action="/console/policy/do-not-call/remove">${csrfField(v)}<input type="hidden" name="phone_number" value="${d.phone_number}"><button type="submit" class="danger" aria-label="${t.remove} ${d.phone_number}">${t.remove}</button></form></td></tr>`,
    );
    return h.send(
      reply,
      layout(
        v,
        t.policyTitle,
        html`${req.query.saved ? notice(t.saved) : ""}
${retrySection(f, csrfField(v), retry.effective)}
${hoursSection(f, csrfField(v), country, hours.effective[country], new Date(ctx.now()))}
<section aria-labelledby="h-dnc"><h2 id="h-dnc">${t.doNotCall}</h2>
<form method="post" action="/console/policy/do-not-call" class="inline">${csrfField(v)}
<label for="d-phone">${t.phone}</label><input id="d-phone" name="phone_number" type="tel" required dir="ltr" placeholder="+212612345678">
<label for="d-reason">${t.reason}</label><input id="d-reason" name="reason" maxlength="500">
<button type="submit">${t.add}</button></form>
${table([t.phone, t.source, t.reason, t.created, ""], dncRows, t.noEntries, t.doNotCall)}
${dnc.next_cursor ? html`<nav class="pager"><a rel="next" href="${href("/console/policy", { cursor: dnc.next_cursor })}">${t.nextPage}</a></nav>` : ""}
</section>`,
      ),
    );
  });

  app.post<{ Body: Form }>("/policy/retry", { preHandler: app.csrfProtection }, async (req, reply) => {
    const list = (name: string) => {
      const v = req.body?.[name];
      return v === undefined ? [] : Array.isArray(v) ? v : [v];
    };
    const input = parseWith(retryPolicyInputSchema, {
      enabled: one(req.body, "enabled") === "true",
      on: list("on"),
      max_attempts: Number(one(req.body, "max_attempts")),
      // The older form's comma-separated field is still read (a bookmarked page); the selects otherwise.
      delays_minutes:
        one(req.body, "delays_minutes") !== undefined
          ? (one(req.body, "delays_minutes") ?? "")
              .split(/[\s,]+/)
              .filter(Boolean)
              .map(Number)
          : list("delay")
              .map((d) => d.trim())
              .filter(Boolean)
              .map(Number),
    });
    await setAccountRetryPolicy(ctx, h.session(req).principal, input);
    return reply.redirect("/console/policy?saved=1", 303);
  });

  app.post<{ Params: { country: string }; Body: Form }>(
    "/policy/hours/:country",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      const country = req.params.country;
      if (!(COUNTRIES as readonly string[]).includes(country))
        throw new ApiError("not_found", `No calling hours for country ${country}.`);
      const who = h.session(req).principal;
      const current = await getAccountCallingHours(ctx, who);
      // The other countries' override and this country's Ramadan hours stay as they were.
      const previous = current.override?.[country as Country];
      const next = {
        ...(current.override ?? {}),
        [country]: {
          ...hoursFromForm(req.body),
          ...(previous?.ramadan !== undefined ? { ramadan: previous.ramadan } : {}),
        },
      };
      const input: CallingHoursOverride = parseWith(callingHoursOverrideSchema, next);
      await setAccountCallingHours(ctx, who, input);
      return reply.redirect(`/console/policy?country=${country}&saved=1`, 303);
    },
  );

  // Dated exceptions: the list is read, changed by one date and written back whole through /v1's schema.
  const changeExceptions = async (
    req: FastifyRequest<{ Params: { country: string }; Body: Form }>,
    change: (list: DatedException[]) => DatedException[],
  ) => {
    const country = req.params.country;
    if (!(COUNTRIES as readonly string[]).includes(country))
      throw new ApiError("not_found", `No calling hours for country ${country}.`);
    const who = h.session(req).principal;
    const current = await getAccountCallingHours(ctx, who);
    const list = change([...(current.effective[country as Country].exceptions ?? [])]);
    const previous = current.override?.[country as Country] ?? {};
    await setAccountCallingHours(
      ctx,
      who,
      parseWith(callingHoursOverrideSchema, {
        ...(current.override ?? {}),
        [country]: { ...previous, exceptions: list },
      }),
    );
    return country;
  };

  app.post<{ Params: { country: string }; Body: Form }>(
    "/policy/hours/:country/exceptions",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      const date = one(req.body, "date") ?? "";
      const from = one(req.body, "x_from") ?? "";
      const to = one(req.body, "x_to") ?? "";
      const windows =
        one(req.body, "closed") === "1" || (!from && !to) ? [] : [{ from, to: to === "00:00" ? "24:00" : to }];
      const country = await changeExceptions(req, (list) => [
        ...list.filter((x) => x.date !== date),
        { date, windows },
      ]);
      return reply.redirect(`/console/policy?country=${country}&saved=1#h-exceptions`, 303);
    },
  );

  app.post<{ Params: { country: string }; Body: Form }>(
    "/policy/hours/:country/exceptions/remove",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      const date = one(req.body, "date") ?? "";
      const country = await changeExceptions(req, (list) => list.filter((x) => x.date !== date));
      return reply.redirect(`/console/policy?country=${country}&saved=1#h-exceptions`, 303);
    },
  );

  app.post<{ Body: Form }>("/policy/do-not-call", { preHandler: app.csrfProtection }, async (req, reply) => {
    const input = parseWith(doNotCallCreateBody, {
      phone_number: one(req.body, "phone_number"),
      reason: one(req.body, "reason") || undefined,
    });
    await addDoNotCall(ctx, h.session(req).principal, input);
    return reply.redirect("/console/policy", 303);
  });

  app.post<{ Body: Form }>("/policy/do-not-call/remove", { preHandler: app.csrfProtection }, async (req, reply) => {
    await removeDoNotCall(ctx, h.session(req).principal, one(req.body, "phone_number") ?? "");
    return reply.redirect("/console/policy", 303);
  });
}
