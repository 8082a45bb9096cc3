// Recording a delivery event (issue 35): the one place a courier's or a store's report about a parcel becomes part of
// its order. Below the services and the connectors, so the REST route, the MCP tool and every connector call it.
import { randomUUID } from "node:crypto";
import type { AppContext } from "../../context.ts";
import { Database, type Queryable } from "../../db/pool.ts";
import { decidingEvent, type DeliveryEventStatus, type DeliverySource } from "../../domain/delivery.ts";
import { readOrderById, toDeliveryEventOut } from "./read-model.ts";
import type { DeliveryEvent, DeliveryEventInput } from "../../schemas/delivery.ts";
import { emitEvent } from "../../webhooks/events.ts";

export type DeliveryApplied =
  | { kind: "recorded"; event: DeliveryEvent; statusChanged: boolean }
  | { kind: "duplicate"; event: DeliveryEvent }
  /** The event_id is already recorded on the order with other content. */
  | { kind: "conflict"; event: DeliveryEvent };

interface EventRow {
  event_id: string;
  status: DeliveryEventStatus;
  occurred_at: Date;
  carrier: string | null;
  tracking_number: string | null;
  reason: string | null;
  source: DeliverySource;
  received_at: Date;
}
const COLUMNS = "event_id, status, occurred_at, carrier, tracking_number, reason, source, received_at";

function sameContent(row: EventRow, input: DeliveryEventInput): boolean {
  return (
    row.status === input.status &&
    row.occurred_at.getTime() === Date.parse(input.occurred_at) &&
    row.carrier === (input.carrier ?? null) &&
    row.tracking_number === (input.tracking_number ?? null) &&
    row.reason === (input.reason ?? null)
  );
}

/**
 * Records `input` on order `orderId` of the account, once per event_id, and moves the order's delivery status to
 * its deciding event's (latest occurred_at, domain/delivery.ts) whatever order the events arrive in. When the status
 * changes, `order.delivery_updated` (data: the order as GET shows it) is emitted in the same transaction.
 * Atomic: the order's row is locked first, so two copies of one event record it once and two events never both
 * judge against a stale status. Given the pool, it runs in a transaction of its own. An unknown order throws.
 */
export async function applyDeliveryEvent(
  ctx: AppContext,
  db: Queryable,
  accountId: string,
  orderId: string,
  input: DeliveryEventInput,
  source: DeliverySource,
): Promise<DeliveryApplied> {
  if (db instanceof Database)
    return db.tx((client) => applyDeliveryEvent(ctx, client, accountId, orderId, input, source));
  const order = await db.query<{ delivery_status: DeliveryEventStatus | null }>(
    "SELECT delivery_status FROM orders WHERE id = $1 AND account_id = $2 FOR UPDATE",
    [orderId, accountId],
  );
  if (!order.rows[0]) throw new Error(`order ${orderId} of account ${accountId} does not exist`);
  const inserted = await db.query<EventRow>(
    `INSERT INTO delivery_events (id, account_id, order_id, event_id, status, occurred_at, carrier, tracking_number, reason, source, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (order_id, event_id) DO NOTHING RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      accountId,
      orderId,
      input.event_id,
      input.status,
      input.occurred_at,
      input.carrier ?? null,
      input.tracking_number ?? null,
      input.reason ?? null,
      source,
      new Date(ctx.now()),
    ],
  );
  const row = inserted.rows[0];
  if (!row) {
    const { rows } = await db.query<EventRow>(
      `SELECT ${COLUMNS} FROM delivery_events WHERE order_id = $1 AND event_id = $2`,
      [orderId, input.event_id],
    );
    const existing = rows[0]!;
    return { kind: sameContent(existing, input) ? "duplicate" : "conflict", event: toDeliveryEventOut(existing) };
  }
  const all = await db.query<{ status: DeliveryEventStatus; occurred_at: Date; event_id: string }>(
    "SELECT status, occurred_at, event_id FROM delivery_events WHERE order_id = $1",
    [orderId],
  );
  const decider = decidingEvent(
    all.rows.map((e) => ({ status: e.status, occurredAt: e.occurred_at, eventId: e.event_id })),
  )!;
  await db.query("UPDATE orders SET delivery_status = $2, delivery_updated_at = $3, updated_at = now() WHERE id = $1", [
    orderId,
    decider.status,
    decider.occurredAt,
  ]);
  const statusChanged = decider.status !== order.rows[0].delivery_status;
  if (statusChanged) {
    const out = await readOrderById(db, accountId, orderId);
    if (!out) throw new Error(`order ${orderId} vanished before its order.delivery_updated event`);
    await emitEvent(ctx, db, accountId, "order.delivery_updated", out);
  }
  return { kind: "recorded", event: toDeliveryEventOut(row), statusChanged };
}
