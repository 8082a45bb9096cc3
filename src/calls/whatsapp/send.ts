// Sending the order fallback's WhatsApp messages (issue 16), one `sendWhatsApp` job per message: the template
// queued when an order's calls did not reach the customer (calls/policy/whatsapp-fallback.ts), and the one
// clarifying message after an unclear reply. Never to a do-not-call number; retried on transient errors only.
import type { AppContext } from "../../context.ts";
import type { Language } from "../../domain/locale.ts";
import type { CallItem } from "../../schemas/calls.ts";
import type { WhatsAppTemplate } from "../../schemas/whatsapp.ts";
import { type OutboundWhatsApp, REENGAGEMENT_CODE, type ReplyButton, WhatsAppError } from "../../messaging/whatsapp.ts";

/** The three answers a template or clarifying message offers, in the template's button order. */
export const BUTTON_ACTIONS = ["confirm", "cancel", "call_me"] as const;
export type ButtonAction = (typeof BUTTON_ACTIONS)[number];

/** The hours after the customer's last message in which a free-form (non-template) message may be sent. */
export const SERVICE_WINDOW_MS = 24 * 3600 * 1000;

const TITLES: Record<Language, Record<ButtonAction, string>> = {
  ar: { confirm: "تأكيد الطلب", cancel: "إلغاء الطلب", call_me: "اتصلوا بي" },
  fr: { confirm: "Confirmer", cancel: "Annuler", call_me: "Appelez-moi" },
};

const CLARIFY: Record<Language, (shop: string) => string> = {
  ar: (shop) => `عذراً، لم نفهم جوابك. هل تؤكد طلبك من ${shop}؟ اختر زراً من فضلك.`,
  fr: (shop) =>
    `Désolé, nous n'avons pas compris votre réponse. Confirmez-vous votre commande chez ${shop} ? Choisissez un bouton, s'il vous plaît.`,
};

/** The payload a button carries: `wakha:<action>:<order id>`. */
export function buttonPayload(action: ButtonAction, orderId: string): string {
  return `wakha:${action}:${orderId}`;
}

/** Reads a payload back; null when it is not one of ours. */
export function parseButtonPayload(payload: string): { action: ButtonAction; orderId: string } | null {
  const m = /^wakha:(confirm|cancel|call_me):([0-9a-f-]{36})$/.exec(payload);
  return m ? { action: m[1] as ButtonAction, orderId: m[2]! } : null;
}

export function buttons(language: Language, orderId: string): ReplyButton[] {
  return BUTTON_ACTIONS.map((action) => ({ payload: buttonPayload(action, orderId), title: TITLES[language][action] }));
}

// Template parameters may not hold new lines, tabs or more than four spaces in a row.
function param(text: string): string {
  return (
    text
      .replace(/[\n\r\t]+/g, " ")
      .replace(/ {4,}/g, "   ")
      .trim()
      .slice(0, 1000) || "-"
  );
}

interface QueuedMessage {
  id: string;
  account_id: string;
  order_id: string;
  kind: "template" | "clarification";
  status: string;
  to_phone: string;
  language: Language;
  phone_number_id: string | null;
  access_token_sealed: string | null;
  templates: Partial<Record<Language, WhatsAppTemplate>> | null;
  customer_name: string;
  shop_name: string;
  amount: string;
  currency: string;
  items: CallItem[];
  listed: boolean;
}

async function mark(
  ctx: AppContext,
  id: string,
  status: "skipped" | "failed",
  error: Record<string, unknown>,
): Promise<void> {
  await ctx.db.query(
    `UPDATE whatsapp_messages SET status = $2, error = $3, failed_at = CASE WHEN $2 = 'failed' THEN $4 ELSE failed_at END, updated_at = $4
     WHERE id = $1 AND status = 'pending'`,
    [id, status, JSON.stringify(error), new Date(ctx.now())],
  );
}

/** The message as it goes on the wire, or null when the account has no template for its language any more. */
function outbound(m: QueuedMessage): OutboundWhatsApp | null {
  if (m.kind === "clarification")
    return {
      type: "buttons",
      to: m.to_phone,
      body: CLARIFY[m.language](m.shop_name),
      buttons: buttons(m.language, m.order_id),
    };
  const template = m.templates?.[m.language];
  if (!template) return null;
  const items = m.items
    .map((i) => `${i.quantity} x ${i.name}${i.variant_name ? ` (${i.variant_name})` : ""}`)
    .join(", ");
  return {
    type: "template",
    to: m.to_phone,
    template: template.name,
    language: template.language ?? m.language,
    body: [param(m.customer_name), param(m.shop_name), param(items), param(`${m.amount} ${m.currency}`)],
    buttons: buttons(m.language, m.order_id),
  };
}

/**
 * Sends a queued message once: a message no longer `pending` (sent, or given up) is left alone. Throws only on a
 * transient Cloud API error, for the job to be tried again; any other refusal is recorded on the message.
 */
export async function sendQueuedMessage(ctx: AppContext, messageId: string): Promise<void> {
  const { rows } = await ctx.db.query<QueuedMessage>(
    `SELECT m.id, m.account_id, m.order_id, m.kind, m.status, m.to_phone, m.language,
       w.phone_number_id, w.access_token_sealed, w.templates,
       c.customer_name, s.name AS shop_name, c.amount::text AS amount, c.currency, c.items,
       EXISTS (SELECT 1 FROM do_not_call d WHERE d.account_id = m.account_id AND d.phone_number = m.to_phone) AS listed
     FROM whatsapp_messages m
     LEFT JOIN whatsapp_settings w ON w.account_id = m.account_id
     JOIN LATERAL (SELECT * FROM calls WHERE order_id = m.order_id ORDER BY previous_attempts DESC, created_at DESC LIMIT 1) c ON true
     JOIN shops s ON s.id = c.shop_id
     WHERE m.id = $1`,
    [messageId],
  );
  const m = rows[0];
  if (m?.status !== "pending") return;
  // Listed after the template was queued: never sent (issue 15's list covers every channel to the customer).
  if (m.listed) return mark(ctx, m.id, "skipped", { reason: "do_not_call" });
  if (!m.phone_number_id || !m.access_token_sealed)
    return mark(ctx, m.id, "skipped", { reason: "whatsapp_not_configured" });
  if (!ctx.secretBox) return mark(ctx, m.id, "failed", { reason: "no_encryption_key" });
  const message = outbound(m);
  if (!message) return mark(ctx, m.id, "skipped", { reason: "no_template", language: m.language });
  let accessToken: string;
  try {
    accessToken = ctx.secretBox.open(m.access_token_sealed);
  } catch {
    return mark(ctx, m.id, "failed", { reason: "token_unreadable" });
  }
  let wamid: string;
  try {
    ({ wamid } = await ctx.whatsapp.send({ phoneNumberId: m.phone_number_id, accessToken }, message));
  } catch (err) {
    if (!(err instanceof WhatsAppError)) throw err;
    if (err.transient) throw err;
    const reason = err.code === REENGAGEMENT_CODE ? "window_expired" : "api_error";
    return mark(ctx, m.id, "failed", { reason, ...err.toJSON() });
  }
  // A status WhatsApp reported before this answer came back is already in whatsapp_statuses: the furthest one wins
  // (STATUS_ORDER in replies.ts).
  await ctx.db.query(
    `UPDATE whatsapp_messages SET wamid = $2, updated_at = $3,
       status = COALESCE((SELECT s.status FROM whatsapp_statuses s WHERE s.wamid = $2
                          ORDER BY array_position(ARRAY['sent','failed','delivered','read'], s.status) DESC LIMIT 1), 'accepted'),
       sent_at = (SELECT at FROM whatsapp_statuses WHERE wamid = $2 AND status = 'sent'),
       delivered_at = (SELECT at FROM whatsapp_statuses WHERE wamid = $2 AND status = 'delivered'),
       read_at = (SELECT at FROM whatsapp_statuses WHERE wamid = $2 AND status = 'read'),
       failed_at = (SELECT at FROM whatsapp_statuses WHERE wamid = $2 AND status = 'failed'),
       error = (SELECT error FROM whatsapp_statuses WHERE wamid = $2 AND status = 'failed')
     WHERE id = $1 AND status = 'pending'`,
    [m.id, wamid, new Date(ctx.now())],
  );
}
