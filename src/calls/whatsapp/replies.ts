// What WhatsApp tells us about the order fallback (issue 16), in the inbound webhook's transaction: delivery statuses
// of the messages we sent, and the customer's replies, which settle the order (channel `whatsapp`).
import { randomUUID } from "node:crypto";
import type { AppContext } from "../../context.ts";
import type { Queryable } from "../../db/pool.ts";
import type { Country, Language } from "../../domain/locale.ts";
import type { OrderResolution } from "../../domain/orders.ts";
import { settleOrder } from "../orders/settle.ts";
import { classifyIntent, type Intent } from "../../engine/dialogue/classifier.ts";
import { effectiveHours, nextCallingTime } from "../policy/calling-hours.ts";
import { JOBS } from "../../jobs/catalogue.ts";
import type { CallingHoursOverride } from "../../schemas/calling-hours.ts";
import { type ButtonAction, parseButtonPayload, SERVICE_WINDOW_MS } from "./send.ts";

/** How a status moves: never backwards, a failure only over `sent` (a message delivered or read stays so). */
export const STATUS_ORDER = ["pending", "accepted", "sent", "failed", "delivered", "read"] as const;
export type DeliveryStatus = "sent" | "delivered" | "read" | "failed";

/** One entry of `value.statuses[]`. */
export interface InboundStatus {
  id: string;
  status: string;
  timestamp?: string | undefined;
  errors?: unknown[] | undefined;
}

/** A reply's content, as the inbound route extracted it. */
export interface ReplyContent {
  id: string;
  /** E.164. */
  phone: string;
  type: string;
  text?: string | undefined;
  /** A template's quick-reply button (`button.payload`) or an interactive reply button (`button_reply.id`). */
  payload?: string | undefined;
  buttonText?: string | undefined;
  /** The wamid of the message it answers (`context.id`). */
  contextId?: string | undefined;
  sentAt: Date | null;
  receivedAt: Date;
}

const BUTTON_RESOLUTION: Record<ButtonAction, OrderResolution> = {
  confirm: "confirmed",
  cancel: "declined",
  call_me: "callback_requested",
};

const INTENT_RESOLUTION: Partial<Record<Intent, OrderResolution>> = {
  confirm: "confirmed",
  cancel: "declined",
  reschedule: "rescheduled",
  callback: "callback_requested",
  change_request: "change_requested",
  wrong_number: "wrong_number",
};

/** Below this confidence a free-text reply is unclear and gets the clarifying message. */
export const MIN_CONFIDENCE = 0.6;

function unixTime(timestamp: string | undefined, fallback: Date): Date {
  return timestamp && /^\d{1,12}$/.test(timestamp) ? new Date(Number(timestamp) * 1000) : fallback;
}

/** Records each status once and moves its message forward only (STATUS_ORDER); duplicates and unknown ids change nothing. */
export async function recordStatuses(ctx: AppContext, client: Queryable, statuses: InboundStatus[]): Promise<number> {
  let recorded = 0;
  for (const s of statuses) {
    if (!["sent", "delivered", "read", "failed"].includes(s.status)) continue;
    const at = unixTime(s.timestamp, new Date(ctx.now()));
    const error = s.status === "failed" ? JSON.stringify({ reason: "delivery_failed", errors: s.errors ?? [] }) : null;
    const inserted = await client.query(
      "INSERT INTO whatsapp_statuses (wamid, status, at, error, received_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
      [s.id, s.status, at, error, new Date(ctx.now())],
    );
    if (!inserted.rowCount) continue;
    recorded++;
    await client.query(
      `UPDATE whatsapp_messages SET
         status = CASE WHEN array_position($4::text[], $2) > array_position($4::text[], status) THEN $2 ELSE status END,
         sent_at = CASE WHEN $2 = 'sent' THEN $3 ELSE sent_at END,
         delivered_at = CASE WHEN $2 = 'delivered' THEN $3 ELSE delivered_at END,
         read_at = CASE WHEN $2 = 'read' THEN $3 ELSE read_at END,
         failed_at = CASE WHEN $2 = 'failed' THEN $3 ELSE failed_at END,
         error = CASE WHEN $2 = 'failed' THEN $5::jsonb ELSE error END,
         updated_at = now()
       WHERE wamid = $1`,
      [s.id, s.status, at, [...STATUS_ORDER], error],
    );
  }
  return recorded;
}

interface OrderTarget {
  account_id: string;
  order_id: string;
  attempt: number;
  language: Language;
}

/** The order a reply answers: by its button's payload, by the message it quotes, or the latest template to that phone. */
async function targetOrder(client: Queryable, reply: ReplyContent, since: Date): Promise<OrderTarget | null> {
  const byPayload = reply.payload ? parseButtonPayload(reply.payload) : null;
  const { rows } = await client.query<OrderTarget>(
    `SELECT account_id, order_id, attempt, language FROM whatsapp_messages
     WHERE to_phone = $1 AND kind = 'template' AND wamid IS NOT NULL
       AND ($2::uuid IS NULL OR order_id = $2) AND ($3::text IS NULL OR order_id = (SELECT order_id FROM whatsapp_messages WHERE wamid = $3))
       AND ($2::uuid IS NOT NULL OR $3::text IS NOT NULL OR created_at >= $4)
     ORDER BY created_at DESC LIMIT 1`,
    [reply.phone, byPayload?.orderId ?? null, byPayload ? null : (reply.contextId ?? null), since],
  );
  return rows[0] ?? null;
}

/** What a reply says: a resolution, a request for a clarifying message, or nothing Wakha reads (a photo, ...). */
function readReply(
  reply: ReplyContent,
  country: Country,
): { intent: string | null; resolution: OrderResolution | null; unclear: boolean } {
  const button = reply.payload ? parseButtonPayload(reply.payload) : null;
  if (button) return { intent: button.action, resolution: BUTTON_RESOLUTION[button.action], unclear: false };
  if (reply.type !== "text" || !reply.text?.trim()) return { intent: null, resolution: null, unclear: false };
  const reading = classifyIntent(reply.text, country);
  const resolution =
    reading.mixed || reading.confidence < MIN_CONFIDENCE ? null : (INTENT_RESOLUTION[reading.intent] ?? null);
  return { intent: reading.intent, resolution, unclear: resolution === null };
}

/**
 * Settles the order a reply answers, keeps the reply on it, and answers an unclear one with ONE clarifying message
 * (within the 24-hour window: after it, the refusal is recorded instead). "Call me" also schedules a call inside the
 * calling hours. Runs in the transaction that stored the inbound message, once per message id. Returns the order id.
 */
export async function handleReply(
  ctx: AppContext,
  client: Queryable,
  reply: ReplyContent,
  since: Date,
): Promise<string | null> {
  const target = await targetOrder(client, reply, since);
  if (!target) return null;
  const { rows } = await client.query<{ country: Country }>(
    "SELECT country FROM calls WHERE order_id = $1 ORDER BY previous_attempts DESC, created_at DESC LIMIT 1",
    [target.order_id],
  );
  const country = rows[0]?.country ?? "MA";
  const read = readReply(reply, country);
  const at = reply.sentAt ?? reply.receivedAt;
  let action = "ignored";
  if (read.resolution) {
    // The customer's words, as a call's outcome keeps them; the message itself is the resolution's `message_id`.
    const details: Record<string, unknown> | null = reply.text
      ? { transcript_excerpt: reply.text.slice(0, 500) }
      : null;
    await settleOrder(ctx, client, {
      accountId: target.account_id,
      orderId: target.order_id,
      resolution: read.resolution,
      channel: "whatsapp",
      at,
      details,
      messageId: reply.id,
    });
    action = "settled";
    if (read.resolution === "callback_requested" && (await scheduleCallBack(ctx, client, target.order_id)))
      action = "call_scheduled";
  } else if (read.unclear) {
    action = await clarify(ctx, client, target, reply);
  }
  await client.query(
    `INSERT INTO order_messages (message_id, account_id, order_id, kind, text, payload, intent, resolution, action, sent_at, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (message_id) DO NOTHING`,
    [
      reply.id,
      target.account_id,
      target.order_id,
      reply.payload ? "button" : reply.type,
      reply.text ?? reply.buttonText ?? null,
      reply.payload ?? null,
      read.intent,
      read.resolution,
      action,
      reply.sentAt,
      reply.receivedAt,
    ],
  );
  return target.order_id;
}

/** One clarifying message per order and attempt; none once the 24-hour window since the reply has closed. */
async function clarify(ctx: AppContext, client: Queryable, target: OrderTarget, reply: ReplyContent): Promise<string> {
  const now = new Date(ctx.now());
  const expired = now.getTime() - (reply.sentAt ?? reply.receivedAt).getTime() > SERVICE_WINDOW_MS;
  const id = randomUUID();
  const { rowCount } = await client.query(
    `INSERT INTO whatsapp_messages (id, account_id, order_id, attempt, kind, to_phone, language, status, error, failed_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'clarification', $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (order_id, attempt, kind) DO NOTHING`,
    [
      id,
      target.account_id,
      target.order_id,
      target.attempt,
      reply.phone,
      target.language,
      expired ? "failed" : "pending",
      expired ? JSON.stringify({ reason: "window_expired" }) : null,
      expired ? now : null,
      now,
    ],
  );
  if (!rowCount) return "ignored";
  if (expired) return "clarification_refused";
  await ctx.queue.enqueue(client, JOBS.sendWhatsApp, { message_id: id }, { id });
  return "clarified";
}

/**
 * "Call me": a new call on the order, copied from its latest one, ringing at the next opening of the calling hours
 * (now when they are open). None when a call of the order is still to ring or ringing, or the number is listed.
 * Two "call me" replies at once are judged one after the other: settleOrder took the order's row lock before.
 */
async function scheduleCallBack(ctx: AppContext, client: Queryable, orderId: string): Promise<boolean> {
  const { rows } = await client.query<{
    id: string;
    country: Country;
    account_hours: CallingHoursOverride | null;
    shop_hours: CallingHoursOverride | null;
    blocked: boolean;
  }>(
    `SELECT c.id, c.country, a.calling_hours AS account_hours, s.calling_hours AS shop_hours,
       EXISTS (SELECT 1 FROM calls x WHERE x.order_id = c.order_id AND x.ended_at IS NULL)
         OR EXISTS (SELECT 1 FROM do_not_call d WHERE d.account_id = c.account_id AND d.phone_number = c.customer_phone) AS blocked
     FROM calls c JOIN shops s ON s.id = c.shop_id JOIN accounts a ON a.id = c.account_id
     WHERE c.order_id = $1 ORDER BY c.previous_attempts DESC, c.created_at DESC LIMIT 1`,
    [orderId],
  );
  const last = rows[0];
  if (!last || last.blocked) return false;
  const now = new Date(ctx.now());
  const at = ctx.config.WAKHA_CALLING_HOURS
    ? nextCallingTime(now, last.country, effectiveHours(last.country, last.account_hours, last.shop_hours))
    : now;
  if (!at) return false;
  const id = randomUUID();
  const ring = at.getTime() > now.getTime() ? at : null;
  await client.query(
    `INSERT INTO calls (id, account_id, shop_id, order_id, order_external_id, previous_attempts, customer_name, customer_phone,
       amount, currency, country, language, dialect, channel, items, scheduled_at, retry_policy)
     SELECT $2, c.account_id, c.shop_id, c.order_id, c.order_external_id, o.last_attempt + 1, c.customer_name, c.customer_phone,
       c.amount, c.currency, c.country, c.language, c.dialect, c.channel, c.items, $3, c.retry_policy
     FROM calls c JOIN orders o ON o.id = c.order_id WHERE c.id = $1`,
    [last.id, id, ring],
  );
  await client.query("UPDATE orders SET last_attempt = last_attempt + 1, updated_at = now() WHERE id = $1", [orderId]);
  await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: id }, ring ? { id, startAfter: ring } : { id });
  return true;
}
