// The calls and orders pages: lists with /v1's filters, a call (live status, recording, transcript) and an order.
// Each handler reads and writes through the services with the session's principal: another account's call, key or
// delivery is "not found" here too.
import type { FastifyInstance } from "fastify";
import { CALL_OUTCOMES, CALL_STATUSES } from "../domain/calls.ts";
import { parseRange } from "../http/byte-range.ts";
import { listCallsQuery } from "../schemas/calls.ts";
import { agentResolutionInputSchema, listOrdersQuery } from "../schemas/orders.ts";
import { AGENT_RESOLUTIONS, ORDER_RESOLUTIONS, ORDER_STATUSES } from "../domain/orders.ts";
import { cancelCall, getCall, listCalls, openCallRecording } from "../services/calls.ts";
import { findConsoleSession, getCallStatuses } from "../services/console.ts";
import { getOrder, listOrders, resolveOrderByAgent } from "../services/orders.ts";
import { getCallTranscript } from "../services/transcripts.ts";
import { listCallDeliveries } from "../services/webhooks.ts";
import { href, html } from "./html.ts";
import { csrfField, layout } from "./layout.ts";
import { SESSION_COOKIE, type ConsoleHelpers } from "./helpers.ts";
import { orderNamesOfCalls, orderNamesOfOrders } from "../services/connectors.ts";
import {
  deliveriesTable,
  filledFields,
  one,
  type Form,
  filterFields,
  numHeader,
  orderHref,
  orderLabel,
  parseWith,
  resolutionCell,
  statusBadge,
  table,
} from "./page-kit.ts";

const TERMINAL = new Set<string>(CALL_STATUSES.filter((s) => !["queued", "ringing", "in_progress"].includes(s)));
/** Seconds between two reads of the statuses a live page follows. */
export const LIVE_POLL_MS = 1_000;

export function callsPages(app: FastifyInstance, h: ConsoleHelpers): void {
  const { ctx } = h;
  // Open event streams, ended when the server closes (they would otherwise hold its shutdown open).
  const streams = new Set<() => void>();
  app.addHook("preClose", async () => {
    for (const stop of streams) stop();
  });

  // ---- Calls ----------------------------------------------------------------------------------------------------

  app.get<{ Querystring: Record<string, string> }>("/calls", async (req, reply) => {
    const who = h.session(req).principal;
    const raw = filledFields(req.query);
    const query = parseWith(listCallsQuery, raw);
    const { limit, cursor, ...filters } = query;
    const page = await listCalls(ctx, who, filters, { limit, cursor });
    const names = await orderNamesOfCalls(
      ctx,
      who,
      page.data.map((c) => c.id),
    );
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const { select, input } = filterFields(raw, t.any, t.dayFormat);
    const rows = page.data.map(
      (c) => html`<tr data-call-id="${c.id}">
<td data-label="${t.created}" class="date"><a href="/console/calls/${c.id}">${f.time(c.created_at)}</a></td>
<td data-label="${t.customer}"><bdi>${c.customer.name}</bdi><br><span class="muted" dir="ltr">${c.customer.phone_number}</span></td>
<td data-label="${t.shop}"><bdi>${c.shop_external_id}</bdi></td><td data-label="${t.order}">${orderLabel(names.get(c.id), c.order.external_id)}</td>
<td data-label="${t.amount}" class="num">${f.money(c.amount, c.currency)}</td>
<td data-label="${t.status}" class="live-status">${statusBadge(f, c.status)}</td>
<td data-label="${t.outcome}" class="live-outcome">${f.outcome(c.outcome)}</td></tr>`,
    );
    const filtersWithoutCursor = { ...raw, cursor: undefined };
    return h.send(
      reply,
      layout(
        v,
        t.callsTitle,
        html`
<form method="get" action="/console/calls" class="filters" aria-label="${t.filters}">
${select("status", t.status, CALL_STATUSES, (s) => f.status(s))}
${select("outcome", t.outcome, CALL_OUTCOMES, (s) => f.outcome(s))}
${input("shop_external_id", t.shop)}${input("order_external_id", t.order)}
${input("created_after", t.createdAfter, "day")}${input("created_before", t.createdBefore, "day")}
<div class="actions"><button type="submit">${t.apply}</button> <a href="/console/calls">${t.reset}</a></div>
</form>
<p class="muted" id="live-note">${t.live}</p>
<p class="notice" id="new-calls" role="status" hidden><a href="${v.path}">${t.newCalls}</a></p>
<div data-live="calls"${!raw["cursor"] && Object.keys(raw).every((k) => k === "limit") ? html` data-newest="${page.data[0]?.id ?? "none"}"` : ""}>
${table([t.created, t.customer, t.shop, t.order, numHeader(t.amount), t.status, t.outcome], rows, t.noCalls, t.callsTitle, true)}
</div>
<nav class="pager" aria-label="${t.nextPage}">
${raw["cursor"] ? html`<a href="${href("/console/calls", filtersWithoutCursor)}">${t.firstPage}</a>` : ""}
${page.next_cursor ? html`<a rel="next" href="${href("/console/calls", { ...raw, cursor: page.next_cursor })}">${t.nextPage}</a>` : ""}
</nav>`,
      ),
    );
  });

  // Live statuses (Server-Sent Events): the page names its calls; each change is pushed with its localized label.
  app.get<{ Querystring: { ids?: string; newest?: string } }>("/calls/events", async (req, reply) => {
    const session = h.session(req);
    const f = req.consoleFormats;
    const ids = (req.query.ids ?? "").split(",").filter(Boolean).slice(0, 100);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
      "Content-Security-Policy": reply.getHeader("Content-Security-Policy") as string,
      "X-Content-Type-Options": "nosniff",
    });
    res.write("retry: 2000\n\n");
    const last = new Map<string, string>();
    let ticks = 0;
    let announced = false;
    let stopped = false;
    const stop = () => {
      stopped = true;
      streams.delete(stop);
      clearInterval(timer);
      res.end();
    };
    streams.add(stop);
    const poll = async () => {
      ticks++;
      // The session is checked again every 15 s: a sign-out, an expiry or a revoked key ends the stream too.
      if (ticks % 15 === 0 && !(await findConsoleSession(ctx, req.cookies[SESSION_COOKIE]))) {
        res.write("event: ended\ndata: {}\n\n");
        return stop();
      }
      const statuses = await getCallStatuses(ctx, session.principal, ids);
      for (const s of statuses) {
        const key = `${s.status}|${s.outcome ?? ""}`;
        if (last.get(s.id) === key) continue;
        last.set(s.id, key);
        const data = {
          id: s.id,
          status: s.status,
          status_label: f.status(s.status),
          outcome: s.outcome,
          outcome_label: f.outcome(s.outcome),
          terminal: TERMINAL.has(s.status),
        };
        res.write(`event: status\ndata: ${JSON.stringify(data)}\n\n`);
      }
      // The unfiltered first page also learns of newer calls (every 5 s), to offer showing them.
      if (req.query.newest && !announced && ticks % 5 === 0) {
        const latest = await listCalls(ctx, session.principal, {}, { limit: 1 });
        if (latest.data[0] && latest.data[0].id !== req.query.newest) {
          announced = true;
          res.write("event: new\ndata: {}\n\n");
        }
      }
      if (ticks % 15 === 0) res.write(": keep-alive\n\n");
    };
    let running = false;
    const timer = setInterval(() => {
      if (running || stopped) return;
      running = true;
      poll()
        .catch(() => stop())
        .finally(() => {
          running = false;
        });
    }, LIVE_POLL_MS);
    req.raw.on("close", () => {
      stopped = true;
      streams.delete(stop);
      clearInterval(timer);
    });
    await poll().catch(() => stop());
  });

  app.get<{ Params: { id: string } }>("/calls/:id", async (req, reply) => {
    const who = h.session(req).principal;
    const call = await getCall(ctx, who, req.params.id);
    const [transcript, deliveries] = await Promise.all([
      getCallTranscript(ctx, who, call.id),
      listCallDeliveries(ctx, who, call.id),
    ]);
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const step = (label: string, at: string | null) =>
      at ? html`<li><span class="when">${f.time(at)}</span> ${label}</li>` : "";
    const details = call.outcome_details
      ? html`<dl class="details">${Object.entries(call.outcome_details)
          .filter(([k, val]) => val !== null && val !== undefined && k !== "error")
          .map(
            ([k, val]) =>
              html`<dt>${t.detailNames[k] ?? k}</dt><dd dir="auto">${typeof val === "string" ? val : html`<pre>${JSON.stringify(val, null, 2)}</pre>`}</dd>`,
          )}</dl>`
      : "";
    const turns = transcript.turns.map(
      (turn) => html`<li class="turn ${turn.speaker}">
<button type="button" class="seek" data-seek="${turn.start_seconds}">${f.number(Number(turn.start_seconds.toFixed(1)))} ${t.seconds}</button>
<span class="who">${turn.speaker === "agent" ? t.agent : t.customer}</span>
<span class="text" dir="auto">${turn.text}</span>
${turn.intent ? html`<span class="intent">${t.intent}: ${f.label("intents", turn.intent)} (${f.number(Math.round((turn.confidence ?? 0) * 100))} %)</span>` : ""}</li>`,
    );
    const active = !TERMINAL.has(call.status);
    return h.send(
      reply,
      layout(
        v,
        `${t.callTitle} · ${call.customer.name}`,
        html`
<div data-live="call" data-call-id="${call.id}" data-status="${call.status}">
<p class="summary"><span class="live-status">${statusBadge(f, call.status)}</span> <span class="live-outcome">${f.outcome(call.outcome)}</span>
· ${f.money(call.amount, call.currency)} · <bdi>${call.shop_external_id}</bdi> · ${t.order} <a href="${orderHref(call.shop_external_id, call.order.external_id)}" title="${t.orderOf}"><bdi>${call.order.external_id}</bdi></a>
· <span dir="ltr">${call.customer.phone_number}</span></p>
${active ? html`<form method="post" action="/console/calls/${call.id}/cancel">${csrfField(v)}<button type="submit" class="danger">${t.cancelCall}</button></form>` : ""}
</div>
<section aria-labelledby="h-timeline"><h2 id="h-timeline">${t.timeline}</h2>
<ol class="timeline">${step(t.tCreated, call.created_at)}${step(t.tScheduled, call.scheduled_at)}${step(t.tAnswered, call.answered_at)}${step(t.tEnded, call.ended_at)}</ol>
${call.outcome_details?.error ? html`<p class="call-error"><strong>${t.failureCause}</strong>: <span dir="auto">${call.outcome_details.error.message}</span> (<code>${call.outcome_details.error.code}</code>)</p>` : ""}
<p>${t.endReason}: ${call.end_reason ? html`<a href="/docs/call-endings#${call.end_reason}" data-end-reason="${call.end_reason}">${f.label("endReasons", call.end_reason)}</a>` : "—"} · ${t.duration}: ${f.seconds(call.duration_seconds)} · ${t.billed}: ${f.seconds(call.billed_seconds)}
${call.retry_of ? html` · ${t.retryOf} <a href="/console/calls/${call.retry_of}">${call.retry_of.slice(0, 8)}</a>` : ""}</p>
${call.waiting_reason ? html`<p class="waiting-reason" role="status">${t.waitingReason}: ${t.waitingReasons[call.waiting_reason] ?? call.waiting_reason}</p>` : ""}
${call.billing_adjustment ? html`<p class="billing-adjustment" role="note">${t.tBillingAdjusted} ${f.seconds(call.billing_adjustment.reported_seconds)} · ${t.billed}: ${f.seconds(call.billing_adjustment.billed_seconds)} (${t.billingBoundNote})</p>` : ""}
</section>
<section aria-labelledby="h-details"><h2 id="h-details">${t.details}</h2>${details || html`<p class="empty">—</p>`}
${table(
  [t.product, t.quantity, t.unitPrice],
  call.order.items.map(
    (i) =>
      html`<tr><td><bdi>${i.name}</bdi>${i.variant_name ? html` (<bdi>${i.variant_name}</bdi>)` : ""}</td><td class="num">${f.number(i.quantity)}</td><td class="num">${f.money(i.unit_price, call.currency)}</td></tr>`,
  ),
  "—",
  t.items,
)}
</section>
<section aria-labelledby="h-recording"><h2 id="h-recording">${t.recording}</h2>
${call.recording_url ? html`<audio id="player" controls preload="metadata" src="/console/calls/${call.id}/recording"></audio>` : html`<p class="empty">${t.noRecording}</p>`}
</section>
<section aria-labelledby="h-transcript"><h2 id="h-transcript">${t.transcript}</h2>
${transcript.complete ? html`<ol class="transcript">${turns}</ol>` : html`<p class="empty">${t.transcriptPending}</p>`}
</section>
<section aria-labelledby="h-deliveries"><h2 id="h-deliveries">${t.deliveries}</h2>
${deliveriesTable(v, deliveries)}
</section>`,
      ),
    );
  });

  app.post<{ Params: { id: string } }>("/calls/:id/cancel", { preHandler: app.csrfProtection }, async (req, reply) => {
    const call = await cancelCall(ctx, h.session(req).principal, req.params.id);
    return reply.redirect(`/console/calls/${call.id}`, 303);
  });

  // The recording through the session (the audio element cannot send a Bearer key), with Range for seeking.
  app.get<{ Params: { id: string } }>("/calls/:id/recording", async (req, reply) => {
    const recording = await openCallRecording(ctx, h.session(req).principal, req.params.id);
    const range = parseRange(req.headers.range, recording.size);
    reply.header("Accept-Ranges", "bytes").header("Cache-Control", "private, no-store");
    if (range.kind === "unsatisfiable") {
      return reply.code(416).header("Content-Range", `bytes */${recording.size}`).send();
    }
    reply.type(recording.contentType);
    if (range.kind === "partial") {
      reply
        .code(206)
        .header("Content-Range", `bytes ${range.start}-${range.end}/${recording.size}`)
        .header("Content-Length", String(range.end - range.start + 1));
      return reply.send(recording.stream(range) as never);
    }
    reply.header("Content-Length", String(recording.size));
    return reply.send(recording.stream() as never);
  });

  // ---- Orders ---------------------------------------------------------------------------------------------------

  app.get<{ Querystring: Record<string, string> }>("/orders", async (req, reply) => {
    const who = h.session(req).principal;
    const raw = filledFields(req.query);
    const query = parseWith(listOrdersQuery, raw);
    const { limit, cursor, ...filters } = query;
    const page = await listOrders(ctx, who, filters, { limit, cursor });
    const names = await orderNamesOfOrders(
      ctx,
      who,
      page.data.map((o) => ({ shop: o.shop_external_id, order: o.external_id })),
    );
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const { select, input } = filterFields(raw, t.any, t.dayFormat);
    const rows = page.data.map(
      (o) => html`<tr data-order="${o.external_id}">
<td data-label="${t.order}"><a href="${orderHref(o.shop_external_id, o.external_id)}">${orderLabel(names.get(`${o.shop_external_id}/${o.external_id}`), o.external_id)}</a></td>
<td data-label="${t.shop}"><bdi>${o.shop_external_id}</bdi></td>
<td data-label="${t.customer}"><bdi>${o.customer.name}</bdi><br><span class="muted" dir="ltr">${o.customer.phone_number}</span></td>
<td data-label="${t.amount}" class="num">${f.money(o.amount, o.currency)}</td>
<td data-label="${t.resolution}">${resolutionCell(f, o)}</td>
<td data-label="${t.attempts}" class="num">${f.number(o.attempts.length)}</td>
<td data-label="${t.created}" class="date">${f.time(o.created_at)}</td></tr>`,
    );
    return h.send(
      reply,
      layout(
        v,
        t.ordersTitle,
        html`
<form method="get" action="/console/orders" class="filters" aria-label="${t.filters}">
${select("status", t.status, ORDER_STATUSES, (s) => t.orderStatusNames[s] ?? s)}
${select("resolution", t.resolution, ORDER_RESOLUTIONS, (s) => f.resolution(s))}
${input("shop_external_id", t.shop)}
${input("created_after", t.createdAfter, "day")}${input("created_before", t.createdBefore, "day")}
<div class="actions"><button type="submit">${t.apply}</button> <a href="/console/orders">${t.reset}</a></div>
</form>
${table([t.order, t.shop, t.customer, numHeader(t.amount), t.resolution, numHeader(t.attempts), t.created], rows, t.noOrders, t.ordersTitle, true)}
<nav class="pager" aria-label="${t.nextPage}">
${raw["cursor"] ? html`<a href="${href("/console/orders", { ...raw, cursor: undefined })}">${t.firstPage}</a>` : ""}
${page.next_cursor ? html`<a rel="next" href="${href("/console/orders", { ...raw, cursor: page.next_cursor })}">${t.nextPage}</a>` : ""}
</nav>`,
      ),
    );
  });

  app.get<{ Params: { shop: string; order: string } }>("/orders/:shop/:order", async (req, reply) => {
    const order = await getOrder(ctx, h.session(req).principal, req.params.shop, req.params.order);
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const r = order.resolution;
    const details = r.details
      ? html`<dl class="details">${Object.entries(r.details)
          .filter(([, val]) => val !== null && val !== undefined)
          .map(
            ([k, val]) =>
              html`<dt>${t.detailNames[k] ?? k}</dt><dd dir="auto">${typeof val === "string" ? val : html`<pre>${JSON.stringify(val, null, 2)}</pre>`}</dd>`,
          )}</dl>`
      : "";
    const attempts = order.attempts.map(
      (a, i) => html`<tr data-call-id="${a.id}"><td class="num">${f.number(i + 1)}</td>
<td><a href="/console/calls/${a.id}">${f.time(a.created_at)}</a></td><td>${statusBadge(f, a.status)}</td><td>${f.outcome(a.outcome)}</td><td>${f.time(a.ended_at)}</td></tr>`,
    );
    return h.send(
      reply,
      layout(
        v,
        `${t.orderTitle} ${order.external_id}`,
        html`
<p class="summary" data-resolution="${r.value}">${resolutionCell(f, order)} · ${f.money(order.amount, order.currency)} · <bdi>${order.shop_external_id}</bdi>
· <bdi>${order.customer.name}</bdi> · <span dir="ltr">${order.customer.phone_number}</span></p>
<section aria-labelledby="h-resolution"><h2 id="h-resolution">${t.resolution}</h2>
<p>${f.resolution(r.value)} · ${t.channel}: ${r.channel ? (t.channelNames[r.channel] ?? r.channel) : "—"} · ${t.resolvedAt}: ${f.time(r.resolved_at)}
${r.call_id ? html` · <a href="/console/calls/${r.call_id}" data-settled-by="${r.call_id}">${t.settledBy}</a>` : ""}
${r.message_id ? html` · ${t.whatsappMessage} <code>${r.message_id}</code>` : ""}</p>
${details}
</section>
<section aria-labelledby="h-agent"><h2 id="h-agent">${t.agentResolutionTitle}</h2>
<p class="muted">${t.agentResolutionHint}</p>
<form method="post" action="${orderHref(order.shop_external_id, order.external_id)}/resolution" data-form="agent-resolution">${csrfField(v)}
<label>${t.agentResolutionValue} <select name="value" required>${AGENT_RESOLUTIONS.map((value) => html`<option value="${value}">${f.resolution(value)}</option>`)}</select></label>
<label>${t.agentResolutionNote} <textarea name="note" maxlength="1000" dir="auto"></textarea></label>
<button type="submit">${t.agentResolutionSubmit}</button></form>
</section>
<section aria-labelledby="h-items"><h2 id="h-items">${t.items}</h2>
${table(
  [t.product, t.quantity, t.unitPrice],
  order.items.map(
    (i) =>
      html`<tr><td><bdi>${i.name}</bdi>${i.variant_name ? html` (<bdi>${i.variant_name}</bdi>)` : ""}</td><td class="num">${f.number(i.quantity)}</td><td class="num">${f.money(i.unit_price, order.currency)}</td></tr>`,
  ),
  "—",
  t.items,
)}
<p>${t.amount}: ${f.money(order.amount, order.currency)}</p>
</section>
<section aria-labelledby="h-attempts"><h2 id="h-attempts">${t.attemptsTitle}</h2>
${table(["#", t.created, t.status, t.outcome, t.tEnded], attempts, "—", t.attemptsTitle)}
</section>`,
      ),
    );
  });

  app.post<{ Params: { shop: string; order: string }; Body: Form }>(
    "/orders/:shop/:order/resolution",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      const note = one(req.body, "note")?.trim();
      const input = parseWith(agentResolutionInputSchema, { value: one(req.body, "value"), ...(note ? { note } : {}) });
      await resolveOrderByAgent(ctx, h.session(req).principal, req.params.shop, req.params.order, input);
      return reply.redirect(orderHref(req.params.shop, req.params.order), 303);
    },
  );
}
