// A shop's store connector and the account's WhatsApp fallback (issue 38.3): whether each is set up, the address to
// paste in the store (with a copy button), recent events and messages with their reasons in words, and the retry of
// a failed write-back. Setting them up stays on /v1 and MCP (the credentials are pasted once there).
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.ts";
import { getConnector, listConnectorEvents, retryConnectorEvent } from "../services/connectors.ts";
import { getShop } from "../services/shops.ts";
import { getWhatsAppSettings, listRecentWhatsAppMessages } from "../services/whatsapp.ts";
import type { ConsoleHelpers } from "./helpers.ts";
import { href, html, type Html } from "./html.ts";
import type { Formats } from "./i18n.ts";
import { csrfField, layout, notice } from "./layout.ts";
import { table } from "./page-kit.ts";

const shopPath = (shop: string) => `/console/shops/${encodeURIComponent(shop)}`;

/** A reason slug in words; an error slug the table does not know is shown as the code it is. */
function reasonText(f: Formats, reason: string | null): Html | string {
  if (!reason) return "";
  const words = (f.l.connectorReasons as Record<string, string>)[reason];
  return words ?? html`${f.t.otherReason} <code>${reason}</code>`;
}

/** The shop's own order name (#1001) when the platform gave one, the platform's id otherwise. */
function orderName(detail: Record<string, unknown> | null, platformId: string | null): Html | string {
  const name = typeof detail?.["display_name"] === "string" ? detail["display_name"] : null;
  if (name)
    return html`<bdi>${name}</bdi>${platformId ? html` <span class="muted" dir="ltr">${platformId}</span>` : ""}`;
  return platformId ? html`<span dir="ltr">${platformId}</span>` : "—";
}

function copyField(f: Formats, id: string, value: string): Html {
  return html`<div class="copy"><input id="${id}" readonly dir="ltr" value="${value}" aria-label="${f.t.webhookAddress}"><button type="button" data-copy="${id}" data-copied="${f.t.copied}">${f.t.copy}</button></div>`;
}

export function storePages(app: FastifyInstance, h: ConsoleHelpers): void {
  const { ctx } = h;

  app.get<{ Params: { shop: string }; Querystring: { cursor?: string; retried?: string } }>(
    "/shops/:shop/connector",
    async (req, reply) => {
      const who = h.session(req).principal;
      const shop = await getShop(ctx, who, req.params.shop);
      const connector = await getConnector(ctx, who, shop.external_id).catch((err: unknown) => {
        if (err instanceof ApiError && err.slug === "connector_not_found") return null;
        throw err;
      });
      const events = connector
        ? await listConnectorEvents(ctx, who, shop.external_id, { limit: 20, cursor: req.query.cursor || undefined })
        : null;
      const v = await h.view(req, reply);
      const {
        f,
        f: { t },
      } = v;
      const base = `${shopPath(shop.external_id)}/connector`;
      const rows = (events?.data ?? []).map(
        (e) => html`<tr data-event-id="${e.id}" data-event-status="${e.status}">
<td data-label="${t.created}">${f.time(e.created_at)}</td>
<td data-label="${t.event}">${f.label("connectorEventTypes", e.type)}</td>
<td data-label="${t.order}">${orderName(e.detail, e.platform_order_id)}${e.call_id ? html` · <a href="/console/calls/${e.call_id}">${t.callTitle}</a>` : ""}</td>
<td data-label="${t.status}"><span class="badge c-${e.status}">${f.label("connectorEventStatuses", e.status)}</span> ${reasonText(f, e.reason)}${e.resolution ? html` · ${f.resolution(e.resolution)}` : ""}</td>
<td>${e.type === "write_back" && e.status === "failed" ? html`<form method="post" action="${base}/events/${e.id}/retry">${csrfField(v)}<button type="submit">${t.retryWriteBack}</button></form>` : ""}</td></tr>`,
      );
      return h.send(
        reply,
        layout(
          v,
          `${t.connectorTitle} · ${shop.name}`,
          html`${req.query.retried ? notice(t.writeBackRetried) : ""}
${
  connector
    ? html`<p class="summary" data-connector="on"><span class="badge s-completed">${t.connected}</span> ${f.label("platforms", connector.platform)} · <span dir="ltr">${connector.store_url}</span></p>
<dl class="details"><dt>${t.webhookAddress}</dt><dd>${copyField(f, "connector-url", connector.webhook_url)}<p class="muted">${t.webhookAddressHint}</p></dd>
<dt>${t.credentialEnds}</dt><dd dir="ltr">…${connector.credential_last4}</dd>
<dt>${t.lastSync}</dt><dd>${f.time(connector.last_sync_at)}</dd></dl>
<section aria-labelledby="h-events"><h2 id="h-events">${t.connectorEvents}</h2>
${table([t.created, t.event, t.order, t.status, ""], rows, t.noEntries, t.connectorEvents, true)}
${events?.next_cursor ? html`<nav class="pager"><a rel="next" href="${href(base, { cursor: events.next_cursor })}">${t.nextPage}</a></nav>` : ""}
</section>`
    : html`<p data-connector="off">${t.notConnected}</p><p class="muted">${t.connectHint}</p>`
}
<p><a href="${shopPath(shop.external_id)}">${t.back}</a></p>`,
        ),
      );
    },
  );

  app.post<{ Params: { shop: string; id: string } }>(
    "/shops/:shop/connector/events/:id/retry",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      await retryConnectorEvent(ctx, h.session(req).principal, req.params.shop, req.params.id);
      return reply.redirect(`${shopPath(req.params.shop)}/connector?retried=1`, 303);
    },
  );

  app.get("/whatsapp", async (req, reply) => {
    const who = h.session(req).principal;
    const [settings, messages] = await Promise.all([
      getWhatsAppSettings(ctx, who).catch((err: unknown) => {
        if (err instanceof ApiError && err.slug === "whatsapp_not_configured") return null;
        throw err;
      }),
      listRecentWhatsAppMessages(ctx, who, 20),
    ]);
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const templates = settings
      ? (["ar", "fr"] as const).map(
          (l) =>
            html`<tr><th scope="row">${l === "ar" ? t.arabic : t.french}</th><td>${settings.templates[l] ? html`<code>${settings.templates[l]!.name}</code> <span class="muted" dir="ltr">${settings.templates[l]!.language}</span>` : t.noTemplate}</td></tr>`,
        )
      : [];
    const rows = messages.map(
      (m) => html`<tr data-message-id="${m.id}">
<td data-label="${t.created}">${f.time(m.createdAt)}</td>
<td data-label="${t.type}">${f.label("whatsappKinds", m.kind)}</td>
<td data-label="${t.order}"><a href="/console/orders/${encodeURIComponent(m.shopExternalId)}/${encodeURIComponent(m.orderExternalId)}"><bdi>${m.orderExternalId}</bdi></a><br><span class="muted" dir="ltr">${m.toPhone}</span></td>
<td data-label="${t.status}"><span class="badge w-${m.status}">${f.label("whatsappStatuses", m.status)}</span>${m.problem ? html` <span class="muted" dir="auto">${(f.l.connectorReasons as Record<string, string>)[m.problem] ?? m.problem}</span>` : ""}</td></tr>`,
    );
    return h.send(
      reply,
      layout(
        v,
        t.whatsappTitle,
        html`
${
  settings
    ? html`<p data-whatsapp="on"><span class="badge s-completed">${t.connected}</span> ${t.whatsappNumberId} <code>${settings.phone_number_id}</code> · ${t.credentialEnds} <span dir="ltr">…${settings.access_token_last4}</span></p>
<p>${settings.fallback === "immediately" ? t.fallbackImmediately : t.fallbackAfterLast}</p>
<div class="scroll"><table><caption>${t.templates}</caption><tbody>${templates}</tbody></table></div>`
    : html`<p data-whatsapp="off">${t.whatsappOff}</p><p class="muted">${t.whatsappHint}</p>`
}
<section aria-labelledby="h-msgs"><h2 id="h-msgs">${t.recentMessages}</h2>
${table([t.created, t.type, t.order, t.status], rows, t.noEntries, t.recentMessages, true)}</section>`,
      ),
    );
  });
}
