// Settling an order (issue 16): the one place an answer, by voice (the engine, at a call's end) or on WhatsApp (a
// reply), becomes the order's resolution. Below the engine and the services, so both call it.
import type { AppContext } from "../../context.ts";
import { Database, type Queryable } from "../../db/pool.ts";
import {
  type OrderResolution,
  type ResolutionChannel,
  type ResolutionDetails,
  supersedes,
} from "../../domain/orders.ts";
import { readOrderById } from "./read-model.ts";
import { emitEvent } from "../../webhooks/events.ts";
import { enqueueWriteBacks } from "./store-write-back.ts";

/** An answer about an order. */
export interface OrderAnswer {
  accountId: string;
  /** The order's internal id (orders.id, calls.order_id). */
  orderId: string;
  resolution: OrderResolution;
  channel: ResolutionChannel;
  /** When the customer answered: the call's end, or the reply's time. The supersede rule compares these. */
  at: Date;
  /** The same typed details as a call's outcome_details; null for none. */
  details: ResolutionDetails | null;
  /** The call that gave the answer (channel `voice`). */
  callId?: string | null;
  /** The WhatsApp message id (`wamid...`) of the reply that gave it (channel `whatsapp`). */
  messageId?: string | null;
}

/**
 * Applies `answer` to its order by the supersede rule (domain/orders.ts `supersedes`) and, when the resolution
 * changes, emits `order.resolved` (data: the Order as GET shows it) in the same transaction. Returns whether it
 * changed. `db` is the caller's transaction (the change and the event commit or roll back with it); given the pool
 * (a Database), it runs in a transaction of its own.
 *
 * Atomic: the order's row is locked (FOR UPDATE) before the rule reads it, so of two concurrent settles the second
 * waits and judges against the first's result: neither update is lost, and each change emits exactly one event.
 * Lock order: take the order's lock after the call's, and before the account's (the engine ends a call holding the
 * call's, then the order's, and debits the account last).
 * An unknown order (or another account's) throws.
 */
export async function settleOrder(ctx: AppContext, db: Queryable, answer: OrderAnswer): Promise<{ changed: boolean }> {
  if (db instanceof Database) return db.tx((client) => settleOrder(ctx, client, answer));
  if ((answer.callId && answer.channel !== "voice") || (answer.messageId && answer.channel !== "whatsapp")) {
    throw new Error(`an order settled on ${answer.channel} cannot name a ${answer.callId ? "call" : "message"}`);
  }
  const { rows } = await db.query<{
    resolution: OrderResolution;
    resolved_at: Date | null;
    resolution_details: ResolutionDetails | null;
  }>("SELECT resolution, resolved_at, resolution_details FROM orders WHERE id = $1 AND account_id = $2 FOR UPDATE", [
    answer.orderId,
    answer.accountId,
  ]);
  const current = rows[0];
  if (!current) throw new Error(`order ${answer.orderId} of account ${answer.accountId} does not exist`);
  const next = { resolution: answer.resolution, at: answer.at, details: answer.details };
  if (
    !supersedes({ resolution: current.resolution, at: current.resolved_at, details: current.resolution_details }, next)
  ) {
    return { changed: false };
  }
  await db.query(
    `UPDATE orders SET resolution = $2, resolution_channel = $3, resolved_at = $4, resolution_details = $5::jsonb,
       resolution_call_id = $6, resolution_message_id = $7, updated_at = now()
     WHERE id = $1`,
    [
      answer.orderId,
      answer.resolution,
      answer.channel,
      answer.at,
      answer.details ? JSON.stringify(answer.details) : null,
      answer.callId ?? null,
      answer.messageId ?? null,
    ],
  );
  const order = await readOrderById(db, answer.accountId, answer.orderId);
  if (!order) throw new Error(`order ${answer.orderId} vanished before its order.resolved event`);
  await emitEvent(ctx, db, answer.accountId, "order.resolved", order);
  // Orders taken in by a store connector are written back to the store (issue 17), committed with the change.
  await enqueueWriteBacks(ctx, db, answer.orderId, answer.resolution, answer.callId ?? null);
  return { changed: true };
}
