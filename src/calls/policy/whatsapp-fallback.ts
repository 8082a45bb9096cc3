// The WhatsApp fallback's hook at a call's end (issue 16): when the call did not reach the customer and no retry
// follows (or the account asks for it at once), one template message is queued for the order and attempt, in the
// transaction that ends the call. The unique (order, attempt, kind) row and the job id (the row's id) make it once.
import { randomUUID } from "node:crypto";
import type { AppContext } from "../../context.ts";
import type { Queryable } from "../../db/pool.ts";
import type { CallOutcome, CallStatus } from "../../domain/calls.ts";
import { DECISIVE_RESOLUTIONS } from "../../domain/orders.ts";
import { JOBS } from "../../jobs/catalogue.ts";
import { retryTrigger } from "./retries.ts";

interface EndedCall {
  account_id: string;
  order_id: string;
  status: CallStatus;
  outcome: CallOutcome | null;
  end_reason: string | null;
  previous_attempts: number;
  customer_phone: string;
  language: string;
  fallback: "after_last_attempt" | "immediately";
  has_template: boolean;
  listed: boolean;
  already_sent: boolean;
  settled: boolean;
}

/** Queues the order's WhatsApp template when this call's end calls for it; `retried` is the retry scheduleRetry made. */
export async function queueWhatsAppFallback(
  ctx: AppContext,
  client: Queryable,
  callId: string,
  retried: boolean,
): Promise<string | null> {
  const { rows } = await client.query<EndedCall>(
    `SELECT c.account_id, c.order_id, c.status, c.outcome, c.end_reason, c.previous_attempts, c.customer_phone, c.language, w.fallback,
       w.templates ? c.language AS has_template,
       EXISTS (SELECT 1 FROM do_not_call d WHERE d.account_id = c.account_id AND d.phone_number = c.customer_phone) AS listed,
       EXISTS (SELECT 1 FROM whatsapp_messages m WHERE m.order_id = c.order_id AND m.kind = 'template') AS already_sent,
       o.resolution = ANY($2::text[]) AS settled
     FROM calls c JOIN whatsapp_settings w ON w.account_id = c.account_id JOIN orders o ON o.id = c.order_id WHERE c.id = $1`,
    [callId, [...DECISIVE_RESOLUTIONS]],
  );
  const call = rows[0];
  // An order the customer already decided (say, on WhatsApp after an earlier template) needs no other message.
  if (!call || call.listed || !call.has_template || call.settled) return null;
  // Not reached: the ends a retry policy could retry, but a customer's callback request (they were reached).
  const trigger = retryTrigger(call.status, call.outcome, call.end_reason);
  if (!trigger || trigger === "callback_requested") return null;
  if (call.fallback === "after_last_attempt" ? retried : call.already_sent) return null;
  const id = randomUUID();
  const { rowCount } = await client.query(
    `INSERT INTO whatsapp_messages (id, account_id, order_id, call_id, attempt, kind, to_phone, language, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'template', $6, $7, $8, $8) ON CONFLICT (order_id, attempt, kind) DO NOTHING`,
    [
      id,
      call.account_id,
      call.order_id,
      callId,
      call.previous_attempts + 1,
      call.customer_phone,
      call.language,
      new Date(ctx.now()),
    ],
  );
  if (!rowCount) return null;
  await ctx.queue.enqueue(client, JOBS.sendWhatsApp, { message_id: id }, { id });
  return id;
}
