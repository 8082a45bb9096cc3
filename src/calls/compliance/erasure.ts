// Erasing a customer's personal data on request (issue 36.4): the job behind POST /v1/erasures. Everything personal
// about the number on the account goes (names, the number, transcripts and the customer's words, recordings in
// storage, WhatsApp message bodies, the customer fields of stored webhook events and of replayable creation replies);
// amounts, durations and billing stay, anonymised. The number stays on the do-not-call list (without the customer's
// words), so a customer who objected is still never called: the right to object outlives the erasure.
import type { AppContext } from "../../context.ts";
import type { Queryable } from "../../db/pool.ts";
import { JOBS } from "../../jobs/catalogue.ts";
import type { ErasureCounts } from "../../schemas/erasures.ts";
import { STRIP_WORDS } from "./retention.ts";

/** What replaces a name or a number. */
export const ERASED = "erased";
/** A call to the number still under way is waited for: the erasure tries again this much later. */
const WAIT_FOR_LIVE_CALLS_MS = 60_000;

/** The customer fields of a stored event's data (CallOut, order, message, opt-out), erased. */
function eraseEventData(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  if (out["customer"] && typeof out["customer"] === "object")
    out["customer"] = { ...(out["customer"] as object), name: ERASED, phone_number: ERASED };
  for (const key of ["phone_number", "from"]) if (typeof out[key] === "string") out[key] = ERASED;
  for (const key of ["text", "words"]) if (key in out) out[key] = null;
  for (const key of ["outcome_details", "details"]) {
    const d = out[key];
    if (d && typeof d === "object") {
      const { transcript_excerpt: _t, ...rest } = d as Record<string, unknown>;
      for (const k of ["reason", "changes"]) if (k in rest) rest[k] = null;
      out[key] = rest;
    }
  }
  if (out["resolution"] && typeof out["resolution"] === "object")
    out["resolution"] = eraseEventData(out["resolution"] as Record<string, unknown>);
  return out;
}

/**
 * Runs erasure `erasureId` to completion (or re-sends itself while calls to the number are under way). Storage
 * objects go first, then one transaction erases the rows and completes the erasure: a crash in between leaves the
 * erasure pending and the job's retry finishes it (deleting an object already gone is not an error).
 */
export async function runErasure(ctx: AppContext, erasureId: string): Promise<void> {
  const { rows } = await ctx.db.query<{ account_id: string; phone_number: string | null; status: string }>(
    "SELECT account_id, phone_number, status FROM erasures WHERE id = $1",
    [erasureId],
  );
  const e = rows[0];
  if (!e || e.status === "completed" || !e.phone_number) return;
  const { account_id: accountId, phone_number: phone } = e;
  const live = await ctx.db.query(
    "SELECT 1 FROM calls WHERE account_id = $1 AND customer_phone = $2 AND ended_at IS NULL LIMIT 1",
    [accountId, phone],
  );
  if (live.rowCount) {
    await ctx.queue.enqueue(
      ctx.db,
      JOBS.eraseCustomerData,
      { erasure_id: erasureId },
      { startAfter: new Date(ctx.now() + WAIT_FOR_LIVE_CALLS_MS) },
    );
    return;
  }
  const recordings = await ctx.db.query<{ recording_path: string }>(
    "SELECT recording_path FROM calls WHERE account_id = $1 AND customer_phone = $2 AND recording_path IS NOT NULL",
    [accountId, phone],
  );
  if (recordings.rows.length) await ctx.recordings.deleteMany(recordings.rows.map((r) => r.recording_path));
  await ctx.db.tx(async (client) => {
    const locked = await client.query("SELECT 1 FROM erasures WHERE id = $1 AND status = 'pending' FOR UPDATE", [
      erasureId,
    ]);
    if (!locked.rowCount) return;
    const { counts, writeBacks } = await eraseRows(client, accountId, phone);
    await client.query(
      `UPDATE erasures SET status = 'completed', counts = $2, store_write_backs = $3, completed_at = now(), phone_number = NULL WHERE id = $1`,
      [erasureId, JSON.stringify(counts), JSON.stringify(writeBacks)],
    );
    // The audit trail of the key that asked (GET /v1/me/api-keys/{id}/events).
    await client.query(
      `INSERT INTO api_key_events (id, key_id, type, detail) SELECT gen_random_uuid(), key_id, 'erasure_completed', $2 FROM erasures WHERE id = $1`,
      [erasureId, JSON.stringify({ erasure_id: erasureId, counts })],
    );
  });
}

async function eraseRows(
  client: Queryable,
  accountId: string,
  phone: string,
): Promise<{ counts: ErasureCounts; writeBacks: object[] }> {
  const calls = await client.query<{ id: string; order_id: string; recorded: boolean; worded: boolean }>(
    `SELECT id, order_id, recording_path IS NOT NULL AS recorded,
       transcript IS NOT NULL OR COALESCE(outcome_details ?| array['transcript_excerpt', 'reason', 'changes', 'delivery'], false) AS worded
     FROM calls WHERE account_id = $1 AND customer_phone = $2 FOR UPDATE`,
    [accountId, phone],
  );
  const callIds = calls.rows.map((c) => c.id);
  const orderIds = [...new Set(calls.rows.map((c) => c.order_id))];
  await client.query(
    `UPDATE calls SET customer_name = $2, customer_phone = $2, customer_address = NULL, transcript = NULL, outcome_details = ${STRIP_WORDS("outcome_details")},
       recording_path = NULL, recording_purged_at = CASE WHEN recording_path IS NULL THEN recording_purged_at ELSE now() END, updated_at = now()
     WHERE id = ANY($1::uuid[])`,
    [callIds, ERASED],
  );
  const orders = await client.query(
    `UPDATE orders SET resolution_details = ${STRIP_WORDS("resolution_details")}, updated_at = now()
     WHERE account_id = $1 AND id = ANY($2::uuid[]) AND resolution_details IS NOT NULL`,
    [accountId, orderIds],
  );
  const inbound = await client.query<{ message_id: string }>(
    "UPDATE inbound_messages SET text = NULL, from_phone = $3 WHERE account_id = $1 AND from_phone = $2 RETURNING message_id",
    [accountId, phone, ERASED],
  );
  await client.query("UPDATE order_messages SET text = NULL, payload = NULL WHERE message_id = ANY($1::text[])", [
    inbound.rows.map((m) => m.message_id),
  ]);
  const outbound = await client.query(
    "UPDATE whatsapp_messages SET to_phone = $3, updated_at = now() WHERE account_id = $1 AND to_phone = $2",
    [accountId, phone, ERASED],
  );
  // An event's payload is its `data`: a CallOut, an order (resolution.call_id), a message or an opt-out.
  const events = await client.query<{ id: string; payload: Record<string, unknown> }>(
    `SELECT id, payload FROM webhook_events WHERE account_id = $1 AND (payload->>'id' = ANY($2::text[]) OR payload->>'call_id' = ANY($2::text[])
       OR payload->'resolution'->>'call_id' = ANY($2::text[]) OR payload->>'phone_number' = $3 OR payload->>'from' = $3)
     FOR UPDATE`,
    [accountId, callIds, phone],
  );
  for (const ev of events.rows) {
    await client.query("UPDATE webhook_events SET payload = $2::json WHERE id = $1", [
      ev.id,
      JSON.stringify(eraseEventData(ev.payload)),
    ]);
  }
  const replies = await client.query(
    "DELETE FROM idempotency_keys WHERE account_id = $1 AND call_id = ANY($2::uuid[])",
    [accountId, callIds],
  );
  const notes = await client.query(
    "UPDATE do_not_call SET reason = NULL WHERE account_id = $1 AND phone_number = $2 AND reason IS NOT NULL AND source = 'customer_request'",
    [accountId, phone],
  );
  // The connector's log keeps the store's raw intake and the notes written back, both about the customer.
  await client.query(
    "UPDATE connector_events SET detail = NULL, updated_at = now() WHERE account_id = $1 AND (order_id = ANY($2::uuid[]) OR call_id = ANY($3::uuid[])) AND detail IS NOT NULL",
    [accountId, orderIds, callIds],
  );
  const writeBacks = await client.query<{
    platform: string;
    store_url: string;
    platform_order_id: string;
    written_at: Date;
  }>(
    `SELECT c.platform, c.store_url, e.platform_order_id, e.updated_at AS written_at FROM connector_events e JOIN store_connectors c ON c.id = e.connector_id
     WHERE e.account_id = $1 AND e.kind = 'write_back' AND e.status = 'succeeded' AND e.order_id = ANY($2::uuid[]) ORDER BY e.updated_at`,
    [accountId, orderIds],
  );
  return {
    counts: {
      calls: callIds.length,
      transcripts: calls.rows.filter((c) => c.worded).length,
      recordings: calls.rows.filter((c) => c.recorded).length,
      messages: inbound.rows.length + (outbound.rowCount ?? 0),
      orders: orders.rowCount ?? 0,
      webhook_events: events.rows.length,
      idempotency_records: replies.rowCount ?? 0,
      do_not_call_notes: notes.rowCount ?? 0,
    },
    writeBacks: writeBacks.rows.map((w) => ({ ...w, written_at: w.written_at.toISOString() })),
  };
}
