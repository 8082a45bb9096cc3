// The API keys, webhook and balance pages.
// Each handler reads and writes through the services with the session's principal: another account's call, key or
// delivery is "not found" here too.
import type { FastifyInstance } from "fastify";
import { DELIVERY_STATUSES } from "../domain/webhooks.ts";
import { ApiError } from "../errors.ts";
import { getBalance, listTransactions } from "../services/accounts.ts";
import { createApiKey, listApiKeys, listKeyEvents, revokeApiKey } from "../services/api-keys.ts";
import { getDailyUsage } from "../services/console.ts";
import {
  createWebhook,
  deleteWebhook,
  getDeliveryWithAttempts,
  getWebhook,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
  testWebhook,
} from "../services/webhooks.ts";
import { href, html, type Html } from "./html.ts";
import { csrfField, layout, notice } from "./layout.ts";
import type { ConsoleHelpers } from "./helpers.ts";
import { usageChart } from "./chart.ts";
import { deliveriesTable, type Form, numHeader, one, table, transactionText } from "./page-kit.ts";

export function accountPages(app: FastifyInstance, h: ConsoleHelpers): void {
  const { ctx } = h;
  // ---- API keys -------------------------------------------------------------------------------------------------

  const keysPage = async (
    req: Parameters<ConsoleHelpers["view"]>[0],
    reply: Parameters<ConsoleHelpers["view"]>[1],
    top: Html | string = "",
  ) => {
    const session = h.session(req);
    const keys = await listApiKeys(ctx, session.principal, { limit: 100 });
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const eventsOf = await Promise.all(keys.data.map((k) => listKeyEvents(ctx, session.principal, k.id, { limit: 5 })));
    const rows = keys.data.map(
      (k, i) => html`<tr data-key-id="${k.id}">
<td data-label="${t.name}">${k.name ?? "—"}${k.id === session.principal.keyId ? html` <em>(${t.thisSession})</em>` : ""}</td><td data-label="${t.prefix}"><code>${k.prefix}…</code></td>
<td data-label="${t.status}" class="key-status">${k.status === "active" ? t.active : t.revoked}</td><td data-label="${t.created}">${f.time(k.created_at)}</td><td data-label="${t.lastUsed}">${f.time(k.last_used_at)}</td>
<td data-label="${t.keyEvents}" class="events">${eventsOf[i]!.data.map((e) => html`<span>${f.label("keyEvents", e.type)} ${f.time(e.created_at)}</span>`)}</td>
<td>${k.status === "active" ? html`<form method="post" action="/console/keys/${k.id}/revoke">${csrfField(v)}<button type="submit" class="danger" aria-label="${t.revoke} ${k.name ?? k.prefix}">${t.revoke}</button></form>` : f.time(k.revoked_at)}</td></tr>`,
    );
    return h.send(
      reply,
      layout(
        v,
        t.keysTitle,
        html`${top}
<form method="post" action="/console/keys" class="inline">${csrfField(v)}
<label for="key-name">${t.name}</label><input id="key-name" name="name" maxlength="100">
<button type="submit">${t.createKey}</button></form>
${table([t.name, t.prefix, t.status, t.created, t.lastUsed, t.keyEvents, ""], rows, t.noEntries, t.keysTitle, true)}`,
      ),
    );
  };

  app.get("/keys", (req, reply) => keysPage(req, reply));

  app.post<{ Body: Form }>("/keys", { preHandler: app.csrfProtection }, async (req, reply) => {
    const name = one(req.body, "name");
    const created = await createApiKey(ctx, h.session(req).principal, { name: name || undefined });
    const t = req.consoleFormats.t;
    // Shown once, in this response only (no-store): the secret is never readable again.
    return keysPage(
      req,
      reply,
      html`<div class="secret" role="status"><p>${t.keyCreated}</p><code id="new-secret">${created.api_key}</code></div>`,
    );
  });

  app.post<{ Params: { id: string } }>("/keys/:id/revoke", { preHandler: app.csrfProtection }, async (req, reply) => {
    await revokeApiKey(ctx, h.session(req).principal, req.params.id);
    return reply.redirect("/console/keys", 303);
  });

  // ---- Webhook --------------------------------------------------------------------------------------------------

  const webhookPage = async (
    req: Parameters<ConsoleHelpers["view"]>[0] & { query: unknown },
    reply: Parameters<ConsoleHelpers["view"]>[1],
    top: Html | string = "",
  ) => {
    const who = h.session(req).principal;
    const q = req.query as { status?: string; cursor?: string; tested?: string };
    const hook = await getWebhook(ctx, who).catch((err: unknown) => {
      if (
        err instanceof ApiError &&
        (err.slug === "webhook_not_configured" || err.slug === "webhook_url_not_configured")
      )
        return null;
      throw err;
    });
    const status = q.status || undefined;
    const deliveries = await listWebhookDeliveries(ctx, who, { limit: 20, cursor: q.cursor || undefined, status });
    const v = await h.view(req, reply);
    const {
      f: { t },
    } = v;
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
    return h.send(
      reply,
      layout(
        v,
        t.webhookTitle,
        html`${top}${q.tested ? notice(t.testSent) : ""}
${config}
<section aria-labelledby="h-del"><h2 id="h-del">${t.deliveries}</h2>${filter}
${deliveriesTable(v, deliveries.data)}
${deliveries.next_cursor ? html`<nav class="pager"><a rel="next" href="${href("/console/webhook", { status, cursor: deliveries.next_cursor })}">${t.nextPage}</a></nav>` : ""}
</section>`,
      ),
    );
  };

  app.get("/webhook", (req, reply) => webhookPage(req, reply));

  app.post<{ Body: Form }>("/webhook", { preHandler: app.csrfProtection }, async (req, reply) => {
    const created = await createWebhook(ctx, h.session(req).principal, {
      url: one(req.body, "url") ?? "",
      description: one(req.body, "description") || undefined,
    });
    const t = req.consoleFormats.t;
    return webhookPage(
      req,
      reply,
      html`<div class="secret" role="status"><p>${t.webhookSecret}</p><code id="new-secret">${created.secret}</code></div>`,
    );
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
    const {
      f,
      f: { t },
    } = v;
    let pretty = payload;
    try {
      pretty = JSON.stringify(JSON.parse(payload), null, 2);
    } catch {
      /* shown as stored */
    }
    return h.send(
      reply,
      layout(
        v,
        `${t.event} · ${f.label("webhookEvents", delivery.event_type)}`,
        html`
<p>${(t.deliveryStatusNames as Record<string, string>)[delivery.status]} · <code>${delivery.event_id}</code> · <code>${delivery.url}</code></p>
${delivery.status !== "pending" ? html`<form method="post" action="/console/webhook/deliveries/${delivery.id}/redeliver">${csrfField(v)}<button type="submit">${t.redeliver}</button></form>` : ""}
<h2>${t.attempts}</h2>
${table(
  ["#", t.lastAttempt, t.code, t.duration, t.errorText],
  attempts.map(
    (a) =>
      html`<tr><td>${a.attempt}</td><td>${f.time(a.started_at)}</td><td>${a.status_code ?? "—"}</td><td class="num">${f.number(a.duration_ms)} ms</td><td>${a.error ?? ""}${a.response_excerpt ? html`<pre>${a.response_excerpt}</pre>` : ""}</td></tr>`,
  ),
  "—",
)}
<h2>${t.payload}</h2><pre class="payload">${pretty}</pre>`,
      ),
    );
  });

  app.post<{ Params: { id: string } }>(
    "/webhook/deliveries/:id/redeliver",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      const delivery = await redeliverWebhookDelivery(ctx, h.session(req).principal, req.params.id);
      return reply.redirect(`/console/webhook/deliveries/${delivery.id}`, 303);
    },
  );

  // ---- Balance --------------------------------------------------------------------------------------------------

  app.get<{ Querystring: { cursor?: string } }>("/balance", async (req, reply) => {
    const who = h.session(req).principal;
    const f0 = req.consoleFormats;
    const [balance, transactions, usage] = await Promise.all([
      getBalance(ctx, who),
      listTransactions(ctx, who, { limit: 20, cursor: req.query.cursor || undefined }),
      getDailyUsage(ctx, who, 30, f0.timeZone),
    ]);
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    return h.send(
      reply,
      layout(
        v,
        t.balanceTitle,
        html`
<p class="big" data-balance="${balance.balance_seconds}"><span title="${f.seconds(balance.balance_seconds)}">${f.span(balance.balance_seconds)}</span></p>
<p>${balance.can_start_call ? t.canStart : t.cannotStart}</p>
<section aria-labelledby="h-usage"><h2 id="h-usage">${t.usage}</h2>${usageChart(f, usage)}</section>
<section aria-labelledby="h-tx"><h2 id="h-tx">${t.transactions}</h2>
${table(
  [t.created, t.type, numHeader(t.timeHeader), numHeader(t.balanceAfter), t.description],
  transactions.data.map(
    (x) =>
      html`<tr><td>${f.time(x.created_at)}</td><td>${f.label("transactionKinds", x.type)}</td><td class="num"><span title="${f.seconds(x.seconds)}">${f.span(x.seconds)}</span></td><td class="num"><span title="${f.seconds(x.balance_after)}">${f.span(x.balance_after)}</span></td><td>${x.call_id ? html`<a href="/console/calls/${x.call_id}">${t.callTitle} <code>${x.call_id.slice(0, 8)}</code></a>` : transactionText(f, x.description)}</td></tr>`,
  ),
  t.noEntries,
)}
${transactions.next_cursor ? html`<nav class="pager"><a rel="next" href="${href("/console/balance", { cursor: transactions.next_cursor })}">${t.nextPage}</a></nav>` : ""}
</section>`,
      ),
    );
  });
}
