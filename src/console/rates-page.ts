// The console's rates page (issue 35): confirmation and delivered rates of the account's orders over time, by shop and
// by hour of the first dial, for the last 30, 90 or 365 days, from the same service as GET /v1/analytics/orders.
import type { FastifyInstance } from "fastify";
import type { AnalyticsRow } from "../schemas/analytics.ts";
import { getRatesPage, RATE_PERIODS, type RatePeriod } from "../services/analytics.ts";
import { rateChart } from "./chart.ts";
import type { ConsoleHelpers } from "./helpers.ts";
import { html } from "./html.ts";
import type { Formats } from "./i18n.ts";
import { layout } from "./layout.ts";
import { numHeader, table } from "./page-kit.ts";

export function percent(f: Formats, rate: number | null): string {
  return rate === null
    ? "—"
    : new Intl.NumberFormat(f.intlLocale, { style: "percent", maximumFractionDigits: 1 }).format(rate);
}

function minutes(f: Formats, m: number | null): string {
  return m === null ? "—" : f.span(Math.round(m * 60));
}

/** One row of figures under a group's name (a day, a week, a shop, an hour). */
function figuresRow(f: Formats, name: string, r: AnalyticsRow, data: string) {
  const { t } = f;
  return html`<tr ${data}="${r.key ?? ""}"><td data-label="${t.rateGroup}"><bdi>${name}</bdi></td>
<td class="num" data-label="${t.ordersCount}">${f.number(r.orders)}</td>
<td class="num" data-label="${t.confirmedCount}">${f.number(r.confirmed)}</td>
<td class="num" data-label="${t.confirmationRate}" data-rate="confirmation">${percent(f, r.confirmation_rate)}</td>
<td class="num" data-label="${t.deliveredCount}">${f.number(r.delivered)}</td>
<td class="num" data-label="${t.refusedCount}">${f.number(r.refused_or_returned)}</td>
<td class="num" data-label="${t.deliveredRate}" data-rate="delivered">${percent(f, r.delivered_rate)}</td>
<td class="num" data-label="${t.medianToDial}">${minutes(f, r.median_minutes_to_first_dial)}</td>
<td class="num" data-label="${t.billedPerConfirmed}">${r.billed_seconds_per_confirmed === null ? "—" : f.span(Math.round(r.billed_seconds_per_confirmed))}</td></tr>`;
}

export function ratesPages(app: FastifyInstance, h: ConsoleHelpers): void {
  const { ctx } = h;

  app.get<{ Querystring: Record<string, string | undefined> }>("/rates", async (req, reply) => {
    const who = h.session(req).principal;
    // Anything but a period offered reads as the default (90 days); an unknown shop shows no orders.
    const asked = Number(req.query["days"]);
    const days: RatePeriod = (RATE_PERIODS as readonly number[]).includes(asked) ? (asked as RatePeriod) : 90;
    const shop = req.query["shop"]?.trim().slice(0, 255) || undefined;
    const rates = await getRatesPage(ctx, who, days, shop);
    const v = await h.view(req, reply);
    const { f } = v;
    const { t } = f;
    const heads = [
      t.rateGroup,
      numHeader(t.ordersCount),
      numHeader(t.confirmedCount),
      numHeader(t.confirmationRate),
      numHeader(t.deliveredCount),
      numHeader(t.refusedCount),
      numHeader(t.deliveredRate),
      numHeader(t.medianToDial),
      numHeader(t.billedPerConfirmed),
    ];
    const hourName = (key: string | null) => (key === null ? t.neverDialed : `${f.number(Number(key))}:00 UTC`);
    const tiles: [string, string, string, string][] = [
      ["orders", t.ordersCount, f.number(rates.totals.orders), ""],
      [
        "confirmation_rate",
        t.confirmationRate,
        percent(f, rates.totals.confirmationRate),
        `${f.number(rates.totals.confirmed)} / ${f.number(rates.totals.orders)}`,
      ],
      [
        "delivered_rate",
        t.deliveredRate,
        percent(f, rates.totals.deliveredRate),
        `${f.number(rates.totals.confirmedDelivered)} / ${f.number(rates.totals.confirmed)}`,
      ],
    ];
    const hours = rates.byHour.filter((r) => r.key !== null);
    return h.send(
      reply,
      layout(
        v,
        t.ratesTitle,
        html`<p>${t.ratesIntro}</p>
<form method="get" action="/console/rates" class="filters" aria-label="${t.filters}">
<div class="field"><label for="f-days">${t.ratesPeriod}</label>
<select id="f-days" name="days">${RATE_PERIODS.map((d) => html`<option value="${d}"${d === days ? html` selected` : ""}>${t.lastDays(f.number(d))}</option>`)}</select></div>
<div class="field"><label for="f-shop">${t.shop} <span class="muted">(${t.allShops})</span></label><input id="f-shop" name="shop" type="text" maxlength="255" dir="auto" value="${shop ?? ""}"></div>
<div class="actions"><button type="submit">${t.apply}</button> <a href="/console/rates">${t.reset}</a></div>
</form>
<section aria-labelledby="h-rate-tiles"><h2 id="h-rate-tiles" class="sr">${t.ratesTitle}</h2>
<div class="tiles">${tiles.map(
          ([key, name, big, small]) => html`<div class="tile" data-tile="${key}"><p class="tile-name">${name}</p>
<p class="tile-big">${big}</p><p class="muted">${small}</p></div>`,
        )}</div></section>
<section aria-labelledby="h-over-time"><h2 id="h-over-time">${rates.grain === "day" ? t.ratesByDay : t.ratesByWeek}</h2>
${rateChart(
  f,
  "rates-time-caption",
  rates.grain === "day" ? t.ratesByDay : t.ratesByWeek,
  rates.overTime.map((r) => ({ label: r.key ?? "", confirmation: r.confirmation_rate, delivered: r.delivered_rate })),
)}
${table(
  heads,
  rates.overTime.map((r) => figuresRow(f, r.key ?? "", r, "data-period")),
  t.ratesNone,
  rates.grain === "day" ? t.ratesByDay : t.ratesByWeek,
  true,
)}</section>
<section aria-labelledby="h-by-shop"><h2 id="h-by-shop">${t.ratesByShop}</h2>
${table(
  heads,
  rates.byShop.map((r) => figuresRow(f, r.key ?? "", r, "data-shop")),
  t.ratesNone,
  t.ratesByShop,
  true,
)}</section>
<section aria-labelledby="h-by-hour"><h2 id="h-by-hour">${t.ratesByHour}</h2>
${rateChart(
  f,
  "rates-hour-caption",
  t.ratesByHour,
  Array.from({ length: 24 }, (_, i) => {
    const r = hours.find((x) => x.key === String(i));
    return {
      label: `${f.number(i)}:00`,
      confirmation: r?.confirmation_rate ?? null,
      delivered: r?.delivered_rate ?? null,
    };
  }),
)}
${table(
  heads,
  rates.byHour.map((r) => figuresRow(f, hourName(r.key), r, "data-hour")),
  t.ratesNone,
  t.ratesByHour,
  true,
)}</section>
<p class="muted">${t.ratesNote}</p>`,
      ),
    );
  });
}
