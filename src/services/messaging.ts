import type { AppContext } from "../context.ts";
import { handleReply, type InboundStatus, recordStatuses } from "../calls/whatsapp/replies.ts";
import { emitEvent } from "../webhooks/events.ts";

/** How far back a call may be for an inbound message to be attached to it (CONTRACT §7). */
export const MATCH_WINDOW_MS = 30 * 24 * 3600 * 1000;

/** One message of a WhatsApp Cloud API webhook, as the inbound route extracted it. */
export interface InboundMessage {
  id: string;
  /** The sender's number as WhatsApp gives it: digits, no '+'. */
  from: string;
  /** Unix seconds, as a string. */
  timestamp?: string | undefined;
  type: string;
  text?: string | undefined;
  /** A quick-reply or reply button's payload (issue 16). */
  payload?: string | undefined;
  buttonText?: string | undefined;
  /** The wamid of the message it replies to. */
  contextId?: string | undefined;
}

export interface ReceiveResult {
  received: number;
  duplicates: number;
  matched: number;
  /** Replies that answered an order's WhatsApp message (issue 16). */
  replies: number;
  /** Delivery statuses recorded (duplicates not counted). */
  statuses: number;
}

/** WhatsApp's `from` has no '+'; calls store E.164 with it. */
export function e164(from: string): string {
  return `+${from.replace(/\D/g, "")}`;
}

function sentAt(timestamp: string | undefined): Date | null {
  return timestamp && /^\d{1,12}$/.test(timestamp) ? new Date(Number(timestamp) * 1000) : null;
}

/**
 * Records delivery statuses (calls/whatsapp/replies.ts). Stores each message once (a repeated message id does nothing: the platform delivers at least once),
 * settles the order a reply answers (calls/whatsapp/replies.ts),
 * attaches it to the latest call to that phone in the last 30 days, and sends that call's owner a
 * `message.received` event, all in one transaction per message.
 */
export async function receiveMessages(
  ctx: AppContext,
  messages: InboundMessage[],
  statuses: InboundStatus[] = [],
): Promise<ReceiveResult> {
  const result: ReceiveResult = { received: 0, duplicates: 0, matched: 0, replies: 0, statuses: 0 };
  if (statuses.length) result.statuses = await ctx.db.tx((client) => recordStatuses(ctx, client, statuses));
  for (const message of messages) {
    const phone = e164(message.from);
    const receivedAt = new Date(ctx.now());
    await ctx.db.tx(async (client) => {
      const inserted = await client.query(
        `INSERT INTO inbound_messages (message_id, from_phone, type, text, sent_at, received_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (message_id) DO NOTHING`,
        [message.id, phone, message.type, message.text ?? null, sentAt(message.timestamp), receivedAt],
      );
      if (!inserted.rowCount) {
        result.duplicates++;
        return;
      }
      result.received++;
      // A reply to an order's WhatsApp message settles the order (issue 16), in this transaction: once per message id.
      const since = new Date(receivedAt.getTime() - MATCH_WINDOW_MS);
      const order = await handleReply(
        ctx,
        client,
        {
          id: message.id,
          phone,
          type: message.type,
          text: message.text,
          payload: message.payload,
          buttonText: message.buttonText,
          contextId: message.contextId,
          sentAt: sentAt(message.timestamp),
          receivedAt,
        },
        since,
      );
      if (order) result.replies++;
      const { rows } = await client.query<{ id: string; account_id: string }>(
        `SELECT id, account_id FROM calls WHERE customer_phone = $1 AND created_at >= $2 ORDER BY created_at DESC, seq DESC LIMIT 1`,
        [phone, new Date(receivedAt.getTime() - MATCH_WINDOW_MS)],
      );
      const call = rows[0];
      if (!call) return;
      result.matched++;
      const eventId = await emitEvent(ctx, client, call.account_id, "message.received", {
        call_id: call.id,
        message_id: message.id,
        from: phone,
        type: message.type,
        text: message.text ?? null,
        sent_at: sentAt(message.timestamp)?.toISOString() ?? null,
        received_at: receivedAt.toISOString(),
      });
      await client.query(
        "UPDATE inbound_messages SET call_id = $2, account_id = $3, event_id = $4 WHERE message_id = $1",
        [message.id, call.id, call.account_id, eventId],
      );
    });
  }
  return result;
}
