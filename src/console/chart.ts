// Seconds billed per day as a server-rendered SVG bar chart: no script, no style attribute (the CSP forbids
// inline styles), colours from the stylesheet's classes; a table of the same figures follows for screen readers.
import type { DailyUsage } from "../services/console.ts";
import { html, type Html } from "./html.ts";
import type { Formats } from "./i18n.ts";

const WIDTH = 600;
const HEIGHT = 160;
const TOP = 10;
const BOTTOM = 20;

export function usageChart(f: Formats, days: DailyUsage[]): Html {
  const max = Math.max(1, ...days.map((d) => d.billedSeconds));
  const slot = WIDTH / Math.max(1, days.length);
  const plot = HEIGHT - TOP - BOTTOM;
  const total = days.reduce((s, d) => s + d.billedSeconds, 0);
  const bars = days.map((d, i) => {
    const h = Math.round((d.billedSeconds / max) * plot);
    // Right to left pages read the days from the right.
    const x = f.dir === "rtl" ? WIDTH - (i + 1) * slot : i * slot;
    return html`<rect class="bar" x="${(x + 1).toFixed(1)}" y="${TOP + plot - h}" width="${(slot - 2).toFixed(1)}" height="${h}"><title>${d.day}: ${f.seconds(d.billedSeconds)} (${f.number(d.calls)})</title></rect>`;
  });
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  const [left, right] = f.dir === "rtl" ? [last, first] : [first, last];
  return html`<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="usage-caption">
<line class="axis" x1="0" y1="${TOP + plot}" x2="${WIDTH}" y2="${TOP + plot}"></line>
${bars}
<text class="label" x="2" y="${HEIGHT - 4}">${left}</text>
<text class="label" x="${WIDTH - 2}" y="${HEIGHT - 4}" text-anchor="end">${right}</text>
<text class="label" x="2" y="${TOP + 8}">${f.seconds(max)}</text>
</svg>
<figcaption id="usage-caption">${f.seconds(total)} · ${f.number(days.reduce((s, d) => s + d.calls, 0))} ${f.t.navCalls.toLowerCase()}</figcaption>
</figure>
<details><summary>${f.t.usage}</summary><div class="scroll"><table><thead><tr><th scope="col">${f.t.created}</th><th scope="col">${f.t.billed}</th><th scope="col">${f.t.navCalls}</th></tr></thead>
<tbody>${days.filter((d) => d.calls > 0).map((d) => html`<tr><td>${d.day}</td><td class="num">${f.seconds(d.billedSeconds)}</td><td class="num">${f.number(d.calls)}</td></tr>`)}</tbody></table></div></details>`;
}

/** Calls by local hour of day as bars, hour 0 at the reading start (the right on an Arabic page). */
export function hourChart(f: Formats, byHour: number[]): Html {
  const max = Math.max(1, ...byHour);
  const slot = WIDTH / 24;
  const plot = HEIGHT - TOP - BOTTOM;
  const x = (i: number) => (f.dir === "rtl" ? WIDTH - (i + 1) * slot : i * slot);
  const bars = byHour.map((n, i) => {
    const h = Math.round((n / max) * plot);
    return html`<rect class="bar" x="${(x(i) + 1).toFixed(1)}" y="${TOP + plot - h}" width="${(slot - 2).toFixed(1)}" height="${h}"><title>${f.number(i)}:00 · ${f.number(n)}</title></rect>`;
  });
  const ticks = [0, 6, 12, 18].map(
    (i) =>
      html`<text class="label" x="${(x(i) + slot / 2).toFixed(1)}" y="${HEIGHT - 4}" text-anchor="middle">${f.number(i)}:00</text>`,
  );
  return html`<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="hour-caption">
<line class="axis" x1="0" y1="${TOP + plot}" x2="${WIDTH}" y2="${TOP + plot}"></line>
${bars}${ticks}
<text class="label" x="${f.dir === "rtl" ? WIDTH - 2 : 2}" y="${TOP + 8}"${f.dir === "rtl" ? html` text-anchor="end"` : ""}>${f.number(max)}</text>
</svg>
<figcaption id="hour-caption">${f.t.byHour}: ${f.number(byHour.reduce((s, n) => s + n, 0))}</figcaption>
</figure>
<details><summary>${f.t.byHour}</summary><div class="scroll"><table><thead><tr><th scope="col">${f.t.hour}</th><th scope="col" class="num">${f.t.navCalls}</th></tr></thead>
<tbody>${byHour.map((n, i) => (n > 0 ? html`<tr><td>${f.number(i)}:00</td><td class="num">${f.number(n)}</td></tr>` : ""))}</tbody></table></div></details>`;
}

/** One slot of a rates chart: its label and two rates (0 to 1, null when there is nothing to divide). */
export interface RateSlot {
  label: string;
  confirmation: number | null;
  delivered: number | null;
}

/**
 * Confirmation and delivered rates side by side per slot (a day, a week, an hour), 0 to 100%, the first slot at the
 * reading start (the right on an Arabic page); a missing rate draws no bar. `id` names the caption (several per page).
 */
export function rateChart(f: Formats, id: string, caption: string, slots: RateSlot[]): Html {
  const slot = WIDTH / Math.max(1, slots.length);
  const plot = HEIGHT - TOP - BOTTOM;
  const pct = (r: number) =>
    new Intl.NumberFormat(f.intlLocale, { style: "percent", maximumFractionDigits: 0 }).format(r);
  const x = (i: number) => (f.dir === "rtl" ? WIDTH - (i + 1) * slot : i * slot);
  const bar = (i: number, half: 0 | 1, rate: number | null, cls: string, name: string, label: string) => {
    if (rate === null) return "";
    const h = Math.round(rate * plot);
    const w = Math.max(0.5, slot / 2 - 1);
    // In reading order: confirmation first, delivered second (mirrored on a right to left page).
    const offset = (f.dir === "rtl" ? 1 - half : half) * (slot / 2);
    return html`<rect class="${cls}" x="${(x(i) + offset + 0.5).toFixed(1)}" y="${TOP + plot - h}" width="${w.toFixed(1)}" height="${h}"><title>${label} · ${name}: ${pct(rate)}</title></rect>`;
  };
  const bars = slots.map(
    (s, i) =>
      html`${bar(i, 0, s.confirmation, "bar", f.t.confirmationRate, s.label)}${bar(i, 1, s.delivered, "bar alt", f.t.deliveredRate, s.label)}`,
  );
  const first = slots[0]?.label ?? "";
  const last = slots.at(-1)?.label ?? "";
  const [left, right] = f.dir === "rtl" ? [last, first] : [first, last];
  return html`<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}">
<line class="axis" x1="0" y1="${TOP + plot}" x2="${WIDTH}" y2="${TOP + plot}"></line>
${bars}
<text class="label" x="2" y="${HEIGHT - 4}">${left}</text>
<text class="label" x="${WIDTH - 2}" y="${HEIGHT - 4}" text-anchor="end">${right}</text>
<text class="label" x="${f.dir === "rtl" ? WIDTH - 2 : 2}" y="${TOP + 8}"${f.dir === "rtl" ? html` text-anchor="end"` : ""}>${pct(1)}</text>
</svg>
<figcaption id="${id}">${caption} <span class="legend"><span class="key"></span> ${f.t.confirmationRate} <span class="key alt"></span> ${f.t.deliveredRate}</span></figcaption>
</figure>`;
}
