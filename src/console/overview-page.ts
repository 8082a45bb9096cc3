// The console's home (issue 38.4): the day at a glance, the last 7 and 30 days, calls by hour of day (an SVG chart
// drawn here), and the ten latest calls that need a person. Every figure comes from one service function.
import type { FastifyInstance } from "fastify";
import { orderRateTotals } from "../services/analytics.ts";
import { getOverview, OVERVIEW_PERIODS, type PeriodFigures } from "../services/overview.ts";
import { hourChart } from "./chart.ts";
import type { ConsoleHelpers } from "./helpers.ts";
import { html } from "./html.ts";
import type { Formats } from "./i18n.ts";
import { layout } from "./layout.ts";
import { statusBadge, table } from "./page-kit.ts";

function percent(f: Formats, rate: number | null): string {
  return rate === null
    ? "—"
    : new Intl.NumberFormat(f.intlLocale, { style: "percent", maximumFractionDigits: 0 }).format(rate);
}

export function overviewPages(app: FastifyInstance, h: ConsoleHelpers): void {
  const { ctx } = h;

  app.get("/overview", async (req, reply) => {
    const who = h.session(req).principal;
    const now = ctx.now();
    // Issue 35: the delivered rate of the orders created in the last 30 days (the rates page has the rest).
    const [overview, delivery] = await Promise.all([
      getOverview(ctx, who, req.consoleFormats.timeZone),
      orderRateTotals(ctx.db, who.accountId, { from: new Date(now - 30 * 86_400_000), to: new Date(now) }),
    ]);
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const names = { today: t.today, days7: t.last7, days30: t.last30 };
    const metric = (label: string, key: string, cell: (p: PeriodFigures) => string) =>
      html`<tr data-metric="${key}"><th scope="row">${label}</th>${OVERVIEW_PERIODS.map((p) => html`<td class="num" data-period="${p}">${cell(overview.periods[p])}</td>`)}</tr>`;
    const why = {
      callback_requested: f.outcome("callback_requested"),
      change_requested: f.outcome("change_requested"),
      question: t.unansweredQuestion,
    };
    const follow = overview.followUps.map(
      (c) => html`<tr data-call-id="${c.id}">
<td data-label="${t.created}"><a href="/console/calls/${c.id}">${f.time(c.createdAt)}</a></td>
<td data-label="${t.customer}"><bdi>${c.customerName}</bdi><br><span class="muted" dir="ltr">${c.phoneNumber}</span></td>
<td data-label="${t.order}"><bdi>${c.orderExternalId}</bdi></td>
<td data-label="${t.needsWhy}">${why[c.reason]}</td>
<td data-label="${t.status}">${statusBadge(f, c.status)}</td></tr>`,
    );
    return h.send(
      reply,
      layout(
        v,
        t.overviewTitle,
        html`
<section aria-labelledby="h-figures"><h2 id="h-figures" class="sr">${t.overviewTitle}</h2>
<div class="tiles">${OVERVIEW_PERIODS.map(
          (p) => html`<div class="tile" data-tile="${p}"><p class="tile-name">${names[p]}</p>
<p class="tile-big">${f.number(overview.periods[p].confirmed)} <span class="muted">/ ${f.number(overview.periods[p].placed)}</span></p>
<p class="muted">${t.confirmedCount} / ${t.placed}</p></div>`,
        )}<div class="tile" data-tile="delivered_rate"><p class="tile-name"><a href="/console/rates?days=30">${t.deliveredTile}</a></p>
<p class="tile-big">${percent(f, delivery.deliveredRate)} <span class="muted">${f.number(delivery.confirmedDelivered)} / ${f.number(delivery.confirmed)}</span></p>
<p class="muted">${t.deliveredTileHint}</p></div></div>
<div class="scroll"><table class="figures"><caption>${t.overviewTitle}</caption>
<thead><tr><td></td>${OVERVIEW_PERIODS.map((p) => html`<th scope="col" class="num">${names[p]}</th>`)}</tr></thead>
<tbody>
${metric(t.placed, "placed", (p) => f.number(p.placed))}
${metric(t.reached, "reached", (p) => f.number(p.reached))}
${metric(t.confirmedCount, "confirmed", (p) => f.number(p.confirmed))}
${metric(t.declinedCount, "declined", (p) => f.number(p.declined))}
${metric(t.waitingCount, "waiting", (p) => f.number(p.waiting))}
${metric(t.confirmationRate, "confirmation_rate", (p) => percent(f, p.confirmationRate))}
${metric(t.spend, "spend", (p) => f.span(p.billedSeconds))}
</tbody></table></div></section>
<section aria-labelledby="h-hours"><h2 id="h-hours">${t.byHour}</h2>${hourChart(f, overview.byHour)}</section>
<section aria-labelledby="h-follow"><h2 id="h-follow">${t.needsPerson}</h2>
${table([t.created, t.customer, t.order, t.needsWhy, t.status], follow, t.needsPersonNone, t.needsPerson, true)}
</section>`,
      ),
    );
  });
}
