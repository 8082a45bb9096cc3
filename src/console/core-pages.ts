// The console's pages and forms. Each handler reads and writes through the services, with the session's principal:
// the same scoping as /v1, so another account's call, key or delivery is "not found" here too.
import type { FastifyInstance } from "fastify";
import { CALL_OUTCOMES, CALL_STATUSES } from "../domain/calls.ts";
import { DELIVERY_STATUSES } from "../domain/webhooks.ts";
import { ApiError } from "../errors.ts";
import { parseRange } from "../http/byte-range.ts";
import { listCallsQuery } from "../schemas/calls.ts";
import { listOrdersQuery } from "../schemas/orders.ts";
import { ORDER_RESOLUTIONS, ORDER_STATUSES } from "../domain/orders.ts";
import { productCreateBody, productUpdateBody } from "../schemas/products.ts";
import { shopCreateBody, shopUpdateBody } from "../schemas/shops.ts";
import { getBalance, listTransactions } from "../services/accounts.ts";
import { createApiKey, listApiKeys, listKeyEvents, revokeApiKey } from "../services/api-keys.ts";
import { cancelCall, getCall, listCalls, openCallRecording } from "../services/calls.ts";
import {
  closeConsoleSession, findConsoleSession, getCallStatuses, getDailyUsage, openConsoleSession, setConsoleTimeZone,
} from "../services/console.ts";
import { getOrder, listOrders } from "../services/orders.ts";
import { archiveProduct, createProduct, getProduct, listProducts, updateProduct } from "../services/products.ts";
import { archiveShop, createShop, getShop, listShops, updateShop } from "../services/shops.ts";
import { getCallTranscript } from "../services/transcripts.ts";
import {
  createWebhook, deleteWebhook, getDeliveryWithAttempts, getWebhook, listCallDeliveries, listWebhookDeliveries,
  redeliverWebhookDelivery, testWebhook,
} from "../services/webhooks.ts";
import { href, html, type Html } from "./html.ts";
import { isLocale, type Formats } from "./i18n.ts";
import { csrfField, errorBox, layout, notice, type View } from "./layout.ts";
import { LANG_COOKIE, SESSION_COOKIE, type ConsoleHelpers } from "./helpers.ts";
import { usageChart } from "./chart.ts";
import { orderNamesOfCalls, orderNamesOfOrders } from "../services/connectors.ts";
import { type Form, filledFields, filterFields, numHeader, one, parseWith, safeNext, statusBadge, table } from "./page-kit.ts";

const TERMINAL = new Set<string>(CALL_STATUSES.filter((s) => !["queued", "ringing", "in_progress"].includes(s)));
/** Seconds between two reads of the statuses a live page follows. */
export const LIVE_POLL_MS = 1_000;
const SIGN_IN_LIMIT_PER_MINUTE = 10;

export function corePages(app: FastifyInstance, h: ConsoleHelpers): void {
  const { ctx } = h;
  // Open event streams, ended when the server closes (they would otherwise hold its shutdown open).
  const streams = new Set<() => void>();
  app.addHook("preClose", async () => {
    for (const stop of streams) stop();
  });

  app.get("/", async (_req, reply) => reply.redirect("/console/overview", 303));

  // ---- Sign-in, sign-out, language ----------------------------------------------------------------------------

  const signInPage = (v: View, next: string, extra: Html | string = "") => layout(v, v.f.t.signInTitle, html`
${extra}
<p>${v.f.t.signInIntro}</p>
<form method="post" action="/console/sign-in" class="stack" autocomplete="off">
${csrfField(v)}<input type="hidden" name="next" value="${next}">
<label for="api_key">${v.f.t.apiKey}</label>
<input id="api_key" name="api_key" type="password" required autocomplete="off" spellcheck="false" autofocus>
<button type="submit">${v.f.t.signIn}</button>
</form>`);

  app.get<{ Querystring: { next?: string; ended?: string; out?: string } }>("/sign-in", { config: { consolePublic: true } }, async (req, reply) => {
    if (req.consoleSession) return reply.redirect(safeNext(req.query.next), 303);
    const v = await h.view(req, reply);
    const extra = req.query.ended === "1" ? notice(v.f.t.sessionEnded) : req.query.out === "1" ? notice(v.f.t.signedOut) : "";
    return h.send(reply, signInPage(v, safeNext(req.query.next), extra));
  });

  app.post<{ Body: Form }>("/sign-in", { config: { consolePublic: true }, preHandler: app.csrfProtection }, async (req, reply) => {
    // Attempts per client address, counted in the shared limiter (Redis with several nodes) before the key is read.
    const limit = Math.max(1, Math.floor(SIGN_IN_LIMIT_PER_MINUTE * ctx.config.WAKHA_RATE_LIMIT_SCALE));
    const decision = await ctx.limiter.consume(`console-sign-in:${req.ip}`, limit, 60_000, ctx.now());
    const next = safeNext(one(req.body, "next"));
    if (!decision.allowed) {
      reply.header("Retry-After", String(decision.retryAfter));
      const v = await h.view(req, reply);
      return h.send(reply, signInPage(v, next, errorBox(v.f, {
        slug: "rate_limit_exceeded", status: 429, detail: `Too many sign-in attempts from this address: at most ${limit} per minute. Retry after ${decision.retryAfter} s.`,
      })), 429);
    }
    const key = (Array.isArray(req.body?.["api_key"]) ? req.body["api_key"][0] : req.body?.["api_key"]) ?? "";
    try {
      const { token } = await openConsoleSession(ctx, key);
      // A new session replaces the one this browser may still hold (never two live sessions for one cookie jar).
      await closeConsoleSession(ctx, req.cookies[SESSION_COOKIE]);
      reply.setCookie(SESSION_COOKIE, token, h.cookie);
      return reply.redirect(next, 303);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const v = await h.view(req, reply);
      return h.send(reply, signInPage(v, next, errorBox(v.f, { slug: err.slug, status: err.status, detail: err.message })), err.status);
    }
  });

  // Signing out a session that has already ended needs no token: there is nothing left to protect.
  app.post("/sign-out", {
    config: { consolePublic: true },
    preHandler: (req, reply, done) => (req.consoleSession ? app.csrfProtection.call(app, req, reply, done) : done()),
  }, async (req, reply) => {
    await closeConsoleSession(ctx, req.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, h.cookie);
    return reply.redirect("/console/sign-in?out=1", 303);
  });

  app.post<{ Body: Form }>("/lang", { config: { consolePublic: true }, preHandler: app.csrfProtection }, async (req, reply) => {
    const lang = one(req.body, "lang");
    if (isLocale(lang)) reply.setCookie(LANG_COOKIE, lang, { ...h.cookie, maxAge: 365 * 24 * 3600 });
    return reply.redirect(safeNext(one(req.body, "next")), 303);
  });

  // ---- Calls ----------------------------------------------------------------------------------------------------

  app.get<{ Querystring: Record<string, string> }>("/calls", async (req, reply) => {
    const who = h.session(req).principal;
    const raw = filledFields(req.query);
    const query = parseWith(listCallsQuery, raw);
    const { limit, cursor, ...filters } = query;
    const page = await listCalls(ctx, who, filters, { limit, cursor });
    const names = await orderNamesOfCalls(ctx, who, page.data.map((c) => c.id));
    const v = await h.view(req, reply);
    const { f, f: { t } } = v;
    const { select, input } = filterFields(raw, t.any, t.dayFormat);
    const rows = page.data.map((c) => html`<tr data-call-id="${c.id}">
<td data-label="${t.created}" class="date"><a href="/console/calls/${c.id}">${f.time(c.created_at)}</a></td>
<td data-label="${t.customer}"><bdi>${c.customer.name}</bdi><br><span class="muted" dir="ltr">${c.customer.phone_number}</span></td>
<td data-label="${t.shop}"><bdi>${c.shop_external_id}</bdi></td><td data-label="${t.order}">${orderLabel(names.get(c.id), c.order.external_id)}</td>
<td data-label="${t.amount}" class="num">${f.money(c.amount, c.currency)}</td>
<td data-label="${t.status}" class="live-status">${statusBadge(f, c.status)}</td>
<td data-label="${t.outcome}" class="live-outcome">${f.outcome(c.outcome)}</td></tr>`);
    const filtersWithoutCursor = { ...raw, cursor: undefined };
    return h.send(reply, layout(v, t.callsTitle, html`
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
</nav>`));
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
        const data = { id: s.id, status: s.status, status_label: f.status(s.status), outcome: s.outcome, outcome_label: f.outcome(s.outcome), terminal: TERMINAL.has(s.status) };
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
      poll().catch(() => stop()).finally(() => { running = false; });
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
    const [transcript, deliveries] = await Promise.all([getCallTranscript(ctx, who, call.id), listCallDeliveries(ctx, who, call.id)]);
    const v = await h.view(req, reply);
    const { f, f: { t } } = v;
    const step = (label: string, at: string | null) => at ? html`<li><span class="when">${f.time(at)}</span> ${label}</li>` : "";
    const details = call.outcome_details
      ? html`<dl class="details">${Object.entries(call.outcome_details).filter(([k, val]) => val !== null && val !== undefined && k !== "error").map(([k, val]) => html`<dt>${t.detailNames[k] ?? k}</dt><dd dir="auto">${typeof val === "string" ? val : html`<pre>${JSON.stringify(val, null, 2)}</pre>`}</dd>`)}</dl>`
      : "";
    const turns = transcript.turns.map((turn) => html`<li class="turn ${turn.speaker}">
<button type="button" class="seek" data-seek="${turn.start_seconds}">${f.number(Number(turn.start_seconds.toFixed(1)))} ${t.seconds}</button>
<span class="who">${turn.speaker === "agent" ? t.agent : t.customer}</span>
<span class="text" dir="auto">${turn.text}</span>
${turn.intent ? html`<span class="intent">${t.intent}: ${f.label("intents", turn.intent)} (${f.number(Math.round((turn.confidence ?? 0) * 100))} %)</span>` : ""}</li>`);
    const active = !TERMINAL.has(call.status);
    return h.send(reply, layout(v, `${t.callTitle} · ${call.customer.name}`, html`
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
${table([t.product, t.quantity, t.unitPrice], call.order.items.map((i) => html`<tr><td><bdi>${i.name}</bdi>${i.variant_name ? html` (<bdi>${i.variant_name}</bdi>)` : ""}</td><td class="num">${f.number(i.quantity)}</td><td class="num">${f.money(i.unit_price, call.currency)}</td></tr>`), "—", t.items)}
</section>
<section aria-labelledby="h-recording"><h2 id="h-recording">${t.recording}</h2>
${call.recording_url ? html`<audio id="player" controls preload="metadata" src="/console/calls/${call.id}/recording"></audio>` : html`<p class="empty">${t.noRecording}</p>`}
</section>
<section aria-labelledby="h-transcript"><h2 id="h-transcript">${t.transcript}</h2>
${transcript.complete ? html`<ol class="transcript">${turns}</ol>` : html`<p class="empty">${t.transcriptPending}</p>`}
</section>
<section aria-labelledby="h-deliveries"><h2 id="h-deliveries">${t.deliveries}</h2>
${deliveriesTable(v, deliveries)}
</section>`));
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
      reply.code(206).header("Content-Range", `bytes ${range.start}-${range.end}/${recording.size}`).header("Content-Length", String(range.end - range.start + 1));
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
    const names = await orderNamesOfOrders(ctx, who, page.data.map((o) => ({ shop: o.shop_external_id, order: o.external_id })));
    const v = await h.view(req, reply);
    const { f, f: { t } } = v;
    const { select, input } = filterFields(raw, t.any, t.dayFormat);
    const rows = page.data.map((o) => html`<tr data-order="${o.external_id}">
<td data-label="${t.order}"><a href="${orderHref(o.shop_external_id, o.external_id)}">${orderLabel(names.get(`${o.shop_external_id}/${o.external_id}`), o.external_id)}</a></td>
<td data-label="${t.shop}"><bdi>${o.shop_external_id}</bdi></td>
<td data-label="${t.customer}"><bdi>${o.customer.name}</bdi><br><span class="muted" dir="ltr">${o.customer.phone_number}</span></td>
<td data-label="${t.amount}" class="num">${f.money(o.amount, o.currency)}</td>
<td data-label="${t.resolution}">${resolutionCell(f, o)}</td>
<td data-label="${t.attempts}" class="num">${f.number(o.attempts.length)}</td>
<td data-label="${t.created}" class="date">${f.time(o.created_at)}</td></tr>`);
    return h.send(reply, layout(v, t.ordersTitle, html`
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
</nav>`));
  });

  app.get<{ Params: { shop: string; order: string } }>("/orders/:shop/:order", async (req, reply) => {
    const order = await getOrder(ctx, h.session(req).principal, req.params.shop, req.params.order);
    const v = await h.view(req, reply);
    const { f, f: { t } } = v;
    const r = order.resolution;
    const details = r.details
      ? html`<dl class="details">${Object.entries(r.details).filter(([, val]) => val !== null && val !== undefined).map(([k, val]) => html`<dt>${t.detailNames[k] ?? k}</dt><dd dir="auto">${typeof val === "string" ? val : html`<pre>${JSON.stringify(val, null, 2)}</pre>`}</dd>`)}</dl>`
      : "";
    const attempts = order.attempts.map((a, i) => html`<tr data-call-id="${a.id}"><td class="num">${f.number(i + 1)}</td>
<td><a href="/console/calls/${a.id}">${f.time(a.created_at)}</a></td><td>${statusBadge(f, a.status)}</td><td>${f.outcome(a.outcome)}</td><td>${f.time(a.ended_at)}</td></tr>`);
    return h.send(reply, layout(v, `${t.orderTitle} ${order.external_id}`, html`
<p class="summary" data-resolution="${r.value}">${resolutionCell(f, order)} · ${f.money(order.amount, order.currency)} · <bdi>${order.shop_external_id}</bdi>
· <bdi>${order.customer.name}</bdi> · <span dir="ltr">${order.customer.phone_number}</span></p>
<section aria-labelledby="h-resolution"><h2 id="h-resolution">${t.resolution}</h2>
<p>${f.resolution(r.value)} · ${t.channel}: ${r.channel ? (t.channelNames[r.channel] ?? r.channel) : "—"} · ${t.resolvedAt}: ${f.time(r.resolved_at)}
${r.call_id ? html` · <a href="/console/calls/${r.call_id}" data-settled-by="${r.call_id}">${t.settledBy}</a>` : ""}
${r.message_id ? html` · ${t.whatsappMessage} <code>${r.message_id}</code>` : ""}</p>
${details}
</section>
<section aria-labelledby="h-items"><h2 id="h-items">${t.items}</h2>
${table([t.product, t.quantity, t.unitPrice], order.items.map((i) => html`<tr><td><bdi>${i.name}</bdi>${i.variant_name ? html` (<bdi>${i.variant_name}</bdi>)` : ""}</td><td class="num">${f.number(i.quantity)}</td><td class="num">${f.money(i.unit_price, order.currency)}</td></tr>`), "—", t.items)}
<p>${t.amount}: ${f.money(order.amount, order.currency)}</p>
</section>
<section aria-labelledby="h-attempts"><h2 id="h-attempts">${t.attemptsTitle}</h2>
${table(["#", t.created, t.status, t.outcome, t.tEnded], attempts, "—", t.attemptsTitle)}
</section>`));
  });

  // ---- API keys -------------------------------------------------------------------------------------------------

  const keysPage = async (req: Parameters<ConsoleHelpers["view"]>[0], reply: Parameters<ConsoleHelpers["view"]>[1], top: Html | string = "") => {
    const session = h.session(req);
    const keys = await listApiKeys(ctx, session.principal, { limit: 100 });
    const v = await h.view(req, reply);
    const { f, f: { t } } = v;
    const eventsOf = await Promise.all(keys.data.map((k) => listKeyEvents(ctx, session.principal, k.id, { limit: 5 })));
    const rows = keys.data.map((k, i) => html`<tr data-key-id="${k.id}">
<td>${k.name ?? "—"}${k.id === session.principal.keyId ? html` <em>(${t.thisSession})</em>` : ""}</td><td><code>${k.prefix}…</code></td>
<td>${k.status === "active" ? t.active : t.revoked}</td><td>${f.time(k.created_at)}</td><td>${f.time(k.last_used_at)}</td>
<td class="events">${eventsOf[i]!.data.map((e) => html`<span>${f.label("keyEvents", e.type)} ${f.time(e.created_at)}</span>`)}</td>
<td>${k.status === "active" ? html`<form method="post" action="/console/keys/${k.id}/revoke">${csrfField(v)}<button type="submit" class="danger" aria-label="${t.revoke} ${k.name ?? k.prefix}">${t.revoke}</button></form>` : f.time(k.revoked_at)}</td></tr>`);
    return h.send(reply, layout(v, t.keysTitle, html`${top}
<form method="post" action="/console/keys" class="inline">${csrfField(v)}
<label for="key-name">${t.name}</label><input id="key-name" name="name" maxlength="100">
<button type="submit">${t.createKey}</button></form>
${table([t.name, t.prefix, t.status, t.created, t.lastUsed, t.keyEvents, ""], rows, t.noEntries, t.keysTitle)}`));
  };

  app.get("/keys", (req, reply) => keysPage(req, reply));

  app.post<{ Body: Form }>("/keys", { preHandler: app.csrfProtection }, async (req, reply) => {
    const name = one(req.body, "name");
    const created = await createApiKey(ctx, h.session(req).principal, { name: name || undefined });
    const t = req.consoleFormats.t;
    // Shown once, in this response only (no-store): the secret is never readable again.
    return keysPage(req, reply, html`<div class="secret" role="status"><p>${t.keyCreated}</p><code id="new-secret">${created.api_key}</code></div>`);
  });

  app.post<{ Params: { id: string } }>("/keys/:id/revoke", { preHandler: app.csrfProtection }, async (req, reply) => {
    await revokeApiKey(ctx, h.session(req).principal, req.params.id);
    return reply.redirect("/console/keys", 303);
  });

  // ---- Webhook --------------------------------------------------------------------------------------------------

  const webhookPage = async (req: Parameters<ConsoleHelpers["view"]>[0] & { query: unknown }, reply: Parameters<ConsoleHelpers["view"]>[1], top: Html | string = "") => {
    const who = h.session(req).principal;
    const q = req.query as { status?: string; cursor?: string; tested?: string };
    const hook = await getWebhook(ctx, who).catch((err: unknown) => {
      if (err instanceof ApiError && (err.slug === "webhook_not_configured" || err.slug === "webhook_url_not_configured")) return null;
      throw err;
    });
    const status = q.status || undefined;
    const deliveries = await listWebhookDeliveries(ctx, who, { limit: 20, cursor: q.cursor || undefined, status });
    const v = await h.view(req, reply);
    const { f: { t } } = v;
    const config = hook
      ? html`<dl class="details"><dt>${t.url}</dt><dd><code>${hook.url}</code></dd><dt>${t.description}</dt><dd>${hook.description ?? "—"}</dd></dl>
<div class="actions"><form method="post" action="/console/webhook/test">${csrfField(v)}<button type="submit">${t.sendTest}</button></form>
<form method="post" action="/console/webhook/delete">${csrfField(v)}<button type="submit" class="danger">${t.deleteWebhook}</button></form></div>`
      : html`<p>${t.webhookNone}</p>
<form method="post" action="/console/webhook" class="stack">${csrfField(v)}
<label for="wh-url">${t.url}</label><input id="wh-url" name="url" type="url" required placeholder="https://">
<label for="wh-desc">${t.description}</label><input id="wh-desc" name="description" maxlength="500">
<button type="submit">${t.configure}</button></form>`;
    const filter = html`<nav class="tabs" aria-label="${t.status}">${[undefined, ...DELIVERY_STATUSES].map((s) => html`<a href="${href("/console/webhook", { status: s })}"${s === status ? html` aria-current="page"` : ""}>${s ? (t.deliveryStatusNames as Record<string, string>)[s] : t.all}</a>`)}</nav>`;
    return h.send(reply, layout(v, t.webhookTitle, html`${top}${q.tested ? notice(t.testSent) : ""}
${config}
<section aria-labelledby="h-del"><h2 id="h-del">${t.deliveries}</h2>${filter}
${deliveriesTable(v, deliveries.data)}
${deliveries.next_cursor ? html`<nav class="pager"><a rel="next" href="${href("/console/webhook", { status, cursor: deliveries.next_cursor })}">${t.nextPage}</a></nav>` : ""}
</section>`));
  };

  app.get("/webhook", (req, reply) => webhookPage(req, reply));

  app.post<{ Body: Form }>("/webhook", { preHandler: app.csrfProtection }, async (req, reply) => {
    const created = await createWebhook(ctx, h.session(req).principal, { url: one(req.body, "url") ?? "", description: one(req.body, "description") || undefined });
    const t = req.consoleFormats.t;
    return webhookPage(req, reply, html`<div class="secret" role="status"><p>${t.webhookSecret}</p><code id="new-secret">${created.secret}</code></div>`);
  });

  app.post("/webhook/delete", { preHandler: app.csrfProtection }, async (req, reply) => {
    await deleteWebhook(ctx, h.session(req).principal);
    return reply.redirect("/console/webhook", 303);
  });

  app.post("/webhook/test", { preHandler: app.csrfProtection }, async (req, reply) => {
    const delivery = await testWebhook(ctx, h.session(req).principal);
    return reply.redirect(`/console/webhook?tested=${delivery.id}`, 303);
  });

  app.get<{ Params: { id: string } }>("/webhook/deliveries/:id", async (req, reply) => {
    const { delivery, payload, attempts } = await getDeliveryWithAttempts(ctx, h.session(req).principal, req.params.id);
    const v = await h.view(req, reply);
    const { f, f: { t } } = v;
    let pretty = payload;
    try { pretty = JSON.stringify(JSON.parse(payload), null, 2); } catch { /* shown as stored */ }
    return h.send(reply, layout(v, `${t.event} · ${f.label("webhookEvents", delivery.event_type)}`, html`
<p>${(t.deliveryStatusNames as Record<string, string>)[delivery.status]} · <code>${delivery.event_id}</code> · <code>${delivery.url}</code></p>
${delivery.status !== "pending" ? html`<form method="post" action="/console/webhook/deliveries/${delivery.id}/redeliver">${csrfField(v)}<button type="submit">${t.redeliver}</button></form>` : ""}
<h2>${t.attempts}</h2>
${table(["#", t.lastAttempt, t.code, t.duration, t.errorText], attempts.map((a) => html`<tr><td>${a.attempt}</td><td>${f.time(a.started_at)}</td><td>${a.status_code ?? "—"}</td><td class="num">${f.number(a.duration_ms)} ms</td><td>${a.error ?? ""}${a.response_excerpt ? html`<pre>${a.response_excerpt}</pre>` : ""}</td></tr>`), "—")}
<h2>${t.payload}</h2><pre class="payload">${pretty}</pre>`));
  });

  app.post<{ Params: { id: string } }>("/webhook/deliveries/:id/redeliver", { preHandler: app.csrfProtection }, async (req, reply) => {
    const delivery = await redeliverWebhookDelivery(ctx, h.session(req).principal, req.params.id);
    return reply.redirect(`/console/webhook/deliveries/${delivery.id}`, 303);
  });

  // ---- Balance --------------------------------------------------------------------------------------------------

  app.get<{ Querystring: { cursor?: string } }>("/balance", async (req, reply) => {
    const who = h.session(req).principal;
    const f0 = req.consoleFormats;
    const [balance, transactions, usage] = await Promise.all([
      getBalance(ctx, who), listTransactions(ctx, who, { limit: 20, cursor: req.query.cursor || undefined }), getDailyUsage(ctx, who, 30, f0.timeZone),
    ]);
    const v = await h.view(req, reply);
    const { f, f: { t } } = v;
    return h.send(reply, layout(v, t.balanceTitle, html`
<p class="big" data-balance="${balance.balance_seconds}"><span title="${f.seconds(balance.balance_seconds)}">${f.span(balance.balance_seconds)}</span></p>
<p>${balance.can_start_call ? t.canStart : t.cannotStart}</p>
<section aria-labelledby="h-usage"><h2 id="h-usage">${t.usage}</h2>${usageChart(f, usage)}</section>
<section aria-labelledby="h-tx"><h2 id="h-tx">${t.transactions}</h2>
${table([t.created, t.type, numHeader(t.timeHeader), numHeader(t.balanceAfter), t.description], transactions.data.map((x) => html`<tr><td>${f.time(x.created_at)}</td><td>${f.label("transactionKinds", x.type)}</td><td class="num"><span title="${f.seconds(x.seconds)}">${f.span(x.seconds)}</span></td><td class="num"><span title="${f.seconds(x.balance_after)}">${f.span(x.balance_after)}</span></td><td>${x.call_id ? html`<a href="/console/calls/${x.call_id}">${t.callTitle} <code>${x.call_id.slice(0, 8)}</code></a>` : transactionText(f, x.description)}</td></tr>`), t.noEntries)}
${transactions.next_cursor ? html`<nav class="pager"><a rel="next" href="${href("/console/balance", { cursor: transactions.next_cursor })}">${t.nextPage}</a></nav>` : ""}
</section>`));
  });

  // ---- Shops and products ---------------------------------------------------------------------------------------

  app.get<{ Querystring: { status?: string } }>("/shops", async (req, reply) => {
    const who = h.session(req).principal;
    const shops = await listShops(ctx, who, { status: req.query.status || "all" }, { limit: 100 });
    const v = await h.view(req, reply);
    const { f, f: { t } } = v;
    const rows = shops.data.map((s) => html`<tr><td>${s.status === "active" ? html`<a href="/console/shops/${encodeURIComponent(s.external_id)}"><bdi>${s.name}</bdi></a>` : html`<bdi>${s.name}</bdi>`}</td>
<td><code>${s.external_id}</code>${s.status === "active" ? html`<br><a href="/console/shops/${encodeURIComponent(s.external_id)}/connector">${t.connectorTitle}</a>` : ""}</td><td><bdi>${s.merchant_external_id}</bdi></td><td>${s.default_country ? f.country(s.default_country) : "—"}</td><td>${s.status === "active" ? t.active : t.archived}</td><td>${f.time(s.created_at)}</td>
<td>${s.status === "active" ? html`<form method="post" action="/console/shops/${encodeURIComponent(s.external_id)}/archive">${csrfField(v)}<button type="submit" class="danger">${t.archive}</button></form>` : ""}</td></tr>`);
    return h.send(reply, layout(v, t.shopsTitle, html`
${table([t.name, t.externalId, t.merchant, t.country, t.status, t.created, ""], rows, t.noEntries, t.shopsTitle)}
<h2>${t.createShop}</h2>
<form method="post" action="/console/shops" class="stack">${csrfField(v)}
<label for="s-ext">${t.externalId}</label><input id="s-ext" name="external_id" required maxlength="100">
<label for="s-merchant">${t.merchant}</label><input id="s-merchant" name="merchant_external_id" required maxlength="100">
<label for="s-name">${t.name}</label><input id="s-name" name="name" required maxlength="200">
<label for="s-phone">${t.phone}</label><input id="s-phone" name="contact_phone" type="tel" dir="ltr" placeholder="+212612345678">
<label for="s-country">${t.country}</label><select id="s-country" name="default_country"><option value="">—</option>${["MA", "DZ", "TN", "FR"].map((c) => html`<option value="${c}">${f.country(c)}</option>`)}</select>
<button type="submit">${t.createShop}</button></form>`));
  });

  app.post<{ Body: Form }>("/shops", { preHandler: app.csrfProtection }, async (req, reply) => {
    const input = parseWith(shopCreateBody, {
      external_id: one(req.body, "external_id"), merchant_external_id: one(req.body, "merchant_external_id"), name: one(req.body, "name"),
      contact_phone: one(req.body, "contact_phone") || null, default_country: one(req.body, "default_country") || null,
    });
    const shop = await createShop(ctx, h.session(req).principal, input);
    return reply.redirect(`/console/shops/${encodeURIComponent(shop.external_id)}`, 303);
  });

  app.post<{ Params: { shop: string } }>("/shops/:shop/archive", { preHandler: app.csrfProtection }, async (req, reply) => {
    await archiveShop(ctx, h.session(req).principal, req.params.shop);
    return reply.redirect("/console/shops", 303);
  });

  app.get<{ Params: { shop: string } }>("/shops/:shop", async (req, reply) => {
    const who = h.session(req).principal;
    const shop = await getShop(ctx, who, req.params.shop);
    const products = await listProducts(ctx, who, req.params.shop, { status: "active" }, { limit: 100 });
    const v = await h.view(req, reply);
    const { f, f: { t } } = v;
    const base = `/console/shops/${encodeURIComponent(shop.external_id)}`;
    const rows = products.data.map((p) => html`<tr><td><a href="${base}/products/${encodeURIComponent(p.external_id)}"><bdi>${p.name}</bdi></a></td><td><code>${p.external_id}</code></td>
<td>${p.variants.map((x) => html`<span class="variant">${x.name ?? x.variant_external_id}: ${x.price}</span>`)}</td><td>${f.time(p.updated_at)}</td>
<td><form method="post" action="${base}/products/${encodeURIComponent(p.external_id)}/archive">${csrfField(v)}<button type="submit" class="danger" aria-label="${t.archive} ${p.name}">${t.archive}</button></form></td></tr>`);
    return h.send(reply, layout(v, `${t.shop} ${shop.name}`, html`
<p><a href="${base}/connector">${t.connectorTitle}</a></p>
<h2>${t.editShop}</h2>
<form method="post" action="${base}/edit" class="stack">${csrfField(v)}
<label for="e-name">${t.name}</label><input id="e-name" name="name" required maxlength="200" value="${shop.name}">
<label for="e-merchant">${t.merchant}</label><input id="e-merchant" name="merchant_external_id" required maxlength="100" value="${shop.merchant_external_id}">
<label for="e-phone">${t.phone}</label><input id="e-phone" name="contact_phone" type="tel" dir="ltr" value="${shop.contact_phone ?? ""}">
<label for="e-country">${t.country}</label><select id="e-country" name="default_country"><option value="">—</option>${["MA", "DZ", "TN", "FR"].map((c) => html`<option value="${c}"${c === shop.default_country ? html` selected` : ""}>${f.country(c)}</option>`)}</select>
<button type="submit">${t.save}</button></form>
<h2>${t.products}</h2>
${table([t.name, t.externalId, t.variants, t.created, ""], rows, t.noEntries, t.products)}
<h2>${t.createProduct}</h2>
<form method="post" action="${base}/products" class="stack">${csrfField(v)}
<label for="p-ext">${t.externalId}</label><input id="p-ext" name="external_id" required maxlength="100">
<label for="p-name">${t.name}</label><input id="p-name" name="name" required maxlength="200">
<label for="p-vext">${t.variants}: ${t.externalId}</label><input id="p-vext" name="variant_external_id" required maxlength="100" value="default">
<label for="p-vname">${t.variantName}</label><input id="p-vname" name="variant_name" maxlength="200">
<label for="p-price">${t.price}</label><input id="p-price" name="price" required inputmode="decimal" dir="ltr" placeholder="249.00">
<button type="submit">${t.createProduct}</button></form>
<p><a href="/console/shops">${t.back}</a></p>`));
  });

  app.post<{ Params: { shop: string }; Body: Form }>("/shops/:shop/edit", { preHandler: app.csrfProtection }, async (req, reply) => {
    const input = parseWith(shopUpdateBody, {
      name: one(req.body, "name"), merchant_external_id: one(req.body, "merchant_external_id"),
      contact_phone: one(req.body, "contact_phone") || null, default_country: one(req.body, "default_country") || null,
    });
    const shop = await updateShop(ctx, h.session(req).principal, req.params.shop, input);
    return reply.redirect(`/console/shops/${encodeURIComponent(shop.external_id)}`, 303);
  });

  app.get<{ Params: { shop: string; product: string } }>("/shops/:shop/products/:product", async (req, reply) => {
    const product = await getProduct(ctx, h.session(req).principal, req.params.shop, req.params.product);
    const v = await h.view(req, reply);
    const { f: { t } } = v;
    const base = `/console/shops/${encodeURIComponent(product.shop_external_id)}/products/${encodeURIComponent(product.external_id)}`;
    const rows = product.variants.map((x) => html`<tr><td><code>${x.variant_external_id}</code></td><td>${x.name ?? "—"}</td><td class="num" dir="ltr">${x.price}</td>
<td>${product.variants.length > 1 ? html`<form method="post" action="${base}/edit">${csrfField(v)}<input type="hidden" name="retire" value="${x.variant_external_id}"><button type="submit" class="danger" aria-label="${t.retire} ${x.variant_external_id}">${t.retire}</button></form>` : ""}</td></tr>`);
    return h.send(reply, layout(v, `${t.product} ${product.name}`, html`
<form method="post" action="${base}/edit" class="inline">${csrfField(v)}
<label for="pr-name">${t.name}</label><input id="pr-name" name="name" required maxlength="200" value="${product.name}">
<button type="submit">${t.save}</button></form>
<h2>${t.variants}</h2>
${table([t.externalId, t.variantName, t.price, ""], rows, t.noEntries, t.variants)}
<h2>${t.setVariant}</h2>
<form method="post" action="${base}/edit" class="stack">${csrfField(v)}
<label for="v-ext">${t.externalId}</label><input id="v-ext" name="variant_external_id" required maxlength="100">
<label for="v-name">${t.variantName}</label><input id="v-name" name="variant_name" maxlength="200">
<label for="v-price">${t.price}</label><input id="v-price" name="price" inputmode="decimal" dir="ltr" placeholder="249.00">
<button type="submit">${t.save}</button></form>
<p><a href="/console/shops/${encodeURIComponent(product.shop_external_id)}">${t.back}</a></p>`));
  });

  // One form per change (rename, set a variant, retire a variant), each a PATCH of /v1 through the same schema.
  app.post<{ Params: { shop: string; product: string }; Body: Form }>("/shops/:shop/products/:product/edit", { preHandler: app.csrfProtection }, async (req, reply) => {
    const variant = one(req.body, "variant_external_id");
    const retire = one(req.body, "retire");
    const input = parseWith(productUpdateBody, {
      ...(one(req.body, "name") ? { name: one(req.body, "name") } : {}),
      ...(variant ? { variants: [{ variant_external_id: variant, ...(one(req.body, "price") ? { price: one(req.body, "price") } : {}), ...(one(req.body, "variant_name") ? { name: one(req.body, "variant_name") } : {}) }] } : {}),
      ...(retire ? { retire_variants: [retire] } : {}),
    });
    const product = await updateProduct(ctx, h.session(req).principal, req.params.shop, req.params.product, input);
    return reply.redirect(`/console/shops/${encodeURIComponent(product.shop_external_id)}/products/${encodeURIComponent(product.external_id)}`, 303);
  });

  app.post<{ Params: { shop: string }; Body: Form }>("/shops/:shop/products", { preHandler: app.csrfProtection }, async (req, reply) => {
    const input = parseWith(productCreateBody, {
      external_id: one(req.body, "external_id"), name: one(req.body, "name"),
      variants: [{ variant_external_id: one(req.body, "variant_external_id"), price: one(req.body, "price"), name: one(req.body, "variant_name") || null }],
    });
    await createProduct(ctx, h.session(req).principal, req.params.shop, input);
    return reply.redirect(`/console/shops/${encodeURIComponent(req.params.shop)}`, 303);
  });

  app.post<{ Params: { shop: string; product: string } }>("/shops/:shop/products/:product/archive", { preHandler: app.csrfProtection }, async (req, reply) => {
    await archiveProduct(ctx, h.session(req).principal, req.params.shop, req.params.product);
    return reply.redirect(`/console/shops/${encodeURIComponent(req.params.shop)}`, 303);
  });

  // ---- Settings -------------------------------------------------------------------------------------------------

  app.get<{ Querystring: { saved?: string } }>("/settings", async (req, reply) => {
    h.session(req);
    const v = await h.view(req, reply);
    const { f: { t } } = v;
    return h.send(reply, layout(v, t.settingsTitle, html`${req.query.saved ? notice(t.saved) : ""}
<form method="post" action="/console/settings" class="stack">${csrfField(v)}
<label for="tz">${t.timeZone}</label>
<select id="tz" name="time_zone">${["UTC", ...Intl.supportedValuesOf("timeZone")].map((z) => html`<option${z === v.f.timeZone ? html` selected` : ""}>${z}</option>`)}</select>
<button type="submit">${t.save}</button></form>`));
  });

  app.post<{ Body: Form }>("/settings", { preHandler: app.csrfProtection }, async (req, reply) => {
    await setConsoleTimeZone(ctx, h.session(req).principal, one(req.body, "time_zone") ?? "");
    return reply.redirect("/console/settings?saved=1", 303);
  });
}

/** The console's page of an order: its shop's and its own external ids, each percent-encoded. */
function orderHref(shopExternalId: string, orderExternalId: string): string {
  return `/console/orders/${encodeURIComponent(shopExternalId)}/${encodeURIComponent(orderExternalId)}`;
}

/** An order's resolution with its channel and time ("Confirmed · voice · 23 Nov 2026, 10:00:00"). */
function resolutionCell(f: Formats, o: import("../schemas/orders.ts").OrderOut): Html {
  const r = o.resolution;
  return html`<span class="badge r-${r.value}" data-resolution="${r.value}">${f.resolution(r.value)}</span>${r.channel ? html` · ${f.t.channelNames[r.channel] ?? r.channel}` : ""}${r.resolved_at ? html` · <span class="muted">${f.time(r.resolved_at)}</span>` : ""}`;
}

function deliveriesTable(v: View, deliveries: import("../schemas/deliveries.ts").DeliveryOut[]): Html {
  const { f, f: { t } } = v;
  const rows = deliveries.map((d) => html`<tr data-delivery-id="${d.id}"><td><a href="/console/webhook/deliveries/${d.id}" data-event="${d.event_type}">${f.label("webhookEvents", d.event_type)}</a></td>
<td><span class="badge d-${d.status}">${(t.deliveryStatusNames as Record<string, string>)[d.status]}</span></td>
<td class="num">${f.number(d.attempts)}</td><td>${f.time(d.last_attempt_at)}</td><td>${d.last_status_code ?? "—"}${d.last_error ? html` <span class="muted">${d.last_error}</span>` : ""}</td>
<td>${d.status === "failed" ? html`<form method="post" action="/console/webhook/deliveries/${d.id}/redeliver">${csrfField(v)}<button type="submit">${t.redeliver}</button></form>` : ""}</td></tr>`);
  return table([t.event, t.status, t.attempts, t.lastAttempt, t.code, ""], rows, t.noDeliveries, t.deliveries);
}

/** A credit's description in the page's language when it is one the server writes itself; an operator's own words as typed. */
function transactionText(f: Formats, description: string): string {
  if (description === "Opening balance") return f.t.openingBalance;
  if (description === "Credit") return f.t.credit;
  return description;
}

/** The shop's own order name (#1001) with the platform's id beside it, or the external id alone. */
function orderLabel(name: string | undefined, externalId: string): Html {
  return name ? html`<bdi>${name}</bdi> <span class="muted" dir="ltr">${externalId}</span>` : html`<bdi>${externalId}</bdi>`;
}
