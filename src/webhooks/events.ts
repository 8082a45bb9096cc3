// Outbound events: written inside the transaction of the change that caused them, with their delivery job.
import { randomBytes, randomUUID } from "node:crypto";
import type { AppContext } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import type { EventType } from "../domain/webhooks.ts";
import { JOBS } from "../jobs/catalogue.ts";

/** The event and delivery written by recordEvent. */
export interface RecordedEvent {
  eventId: string;
  deliveryId: string;
}

export function newEventId(): string {
  return `evt_${randomBytes(12).toString("hex")}`;
}

/**
 * Writes the event and a pending delivery to the account's active webhook, in the caller's transaction.
 * Nothing is written when the account has no active webhook (null). Locks the webhook row so a concurrent
 * DELETE waits for this transaction instead of racing it.
 */
export async function recordEvent(
  ctx: AppContext,
  client: Queryable,
  accountId: string,
  type: EventType,
  data: object,
): Promise<RecordedEvent | null> {
  const hook = await client.query<{ id: string }>(
    "SELECT id FROM webhooks WHERE account_id = $1 AND status = 'active' FOR SHARE",
    [accountId],
  );
  const webhookId = hook.rows[0]?.id;
  if (!webhookId) return null;
  const eventId = newEventId();
  const deliveryId = randomUUID();
  const at = new Date(ctx.now());
  await client.query(
    `WITH e AS (INSERT INTO webhook_events (id, account_id, type, payload, created_at) VALUES ($1, $2, $3, $4::json, $5))
     INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, status, next_attempt_at, created_at, updated_at)
     VALUES ($6, $2, $7, $1, 'pending', $5, $5, $5)`,
    [eventId, accountId, type, JSON.stringify(data), at, deliveryId, webhookId],
  );
  return { eventId, deliveryId };
}

/**
 * Emits an event to the account's webhook inside the caller's transaction: the event, a pending delivery and
 * its `deliver-webhook` job commit or roll back with the change that caused them. Returns the event id
 * (`evt_...`), or null when the account has no active webhook (then nothing is written).
 */
export async function emitEvent(
  ctx: AppContext,
  client: Queryable,
  accountId: string,
  type: EventType,
  data: object,
): Promise<string | null> {
  const recorded = await recordEvent(ctx, client, accountId, type, data);
  if (!recorded) return null;
  await ctx.queue.enqueue(client, JOBS.deliverWebhook, { delivery_id: recorded.deliveryId, attempt: 1 });
  return recorded.eventId;
}
