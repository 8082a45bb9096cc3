// The call row's life in the engine: claim (queued to ringing, exactly once), answer, heartbeat, and the
// one transaction that ends it (status, outcome, transcript, billing, call.ended). Lock order everywhere:
// the call's row, then the account's.
import type pg from "pg";
import type { AppContext } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import { readCall } from "../services/calls.ts";
import type { CallItem, CallOut, CallOutcome, CallStatus, Country, Language } from "../services/call-schemas.ts";
import { emitEvent, type EventType } from "../webhooks/events.ts";
import { billableSeconds, debitCall } from "./billing.ts";
import type { Dialect, TranscriptEntry } from "./dialogue/types.ts";

/** What the dialer knows about the call it places. */
export interface ClaimedCall {
  id: string;
  accountId: string;
  shopName: string;
  customerName: string;
  phone: string;
  country: Country;
  language: Language;
  dialect: Dialect;
  channel: string;
  amount: string;
  currency: CallOut["currency"];
  items: CallItem[];
  balanceSeconds: number;
}

/** Emits an event whose data is the call's CallOut, in the caller's transaction. */
export async function emitCallEvent(ctx: AppContext, client: Queryable, accountId: string, callId: string, type: EventType): Promise<void> {
  await emitEvent(ctx, client, accountId, type, await readCall(ctx, client, accountId, callId));
}

/**
 * Takes a queued call to `ringing`. Null when there is nothing to place: the call is gone, no longer queued
 * (another worker has it, or it ended) or a cancel was requested. The guarded UPDATE under the row lock is
 * what makes two workers unable to both place one call.
 */
export async function claimCall(ctx: AppContext, callId: string): Promise<ClaimedCall | null> {
  return ctx.db.tx(async (client) => {
    const { rows } = await client.query<ClaimedCall & { status: CallStatus; cancel_requested_at: Date | null }>(
      `SELECT c.id, c.account_id AS "accountId", s.name AS "shopName", c.customer_name AS "customerName", c.customer_phone AS phone,
         c.country, c.language, c.dialect, c.channel, c.amount::text AS amount, c.currency, c.items, c.status, c.cancel_requested_at,
         a.balance_seconds AS "balanceSeconds"
       FROM calls c JOIN shops s ON s.id = c.shop_id JOIN accounts a ON a.id = c.account_id
       WHERE c.id = $1 FOR UPDATE OF c`,
      [callId],
    );
    const row = rows[0];
    if (!row || row.status !== "queued" || row.cancel_requested_at) return null;
    const { rowCount } = await client.query(
      `UPDATE calls SET status = 'ringing', last_heartbeat_at = now(), updated_at = now()
       WHERE id = $1 AND status = 'queued' AND cancel_requested_at IS NULL`,
      [callId],
    );
    if (!rowCount) return null;
    const { status: _s, cancel_requested_at: _c, ...call } = row;
    return call;
  });
}

/** The line state the dialer steers by: a cancel request, and the seconds the account can still pay for. */
export interface LineCheck {
  /** The call was ended elsewhere (the sweep took it for lost): stop at once, without settling. */
  lost: boolean;
  cancel: boolean;
  /** Balance minus what the account's other connected calls have used so far; this call's seconds not taken off. */
  availableSeconds: number;
}

const CHECK_SQL = `
  SELECT hb.cancel_requested_at IS NOT NULL AS cancel,
    (SELECT balance_seconds FROM accounts WHERE id = hb.account_id)
      - COALESCE((SELECT sum(answered_seconds) FROM calls o
                  WHERE o.account_id = hb.account_id AND o.answered_at IS NOT NULL AND o.ended_at IS NULL AND o.id <> $1), 0)
      AS available
  FROM hb`;

/** Refreshes the call's heartbeat (and its connected seconds so far) and reads the line state. */
export async function heartbeat(db: Queryable, callId: string, connectedSeconds: number | null): Promise<LineCheck> {
  const { rows } = await db.query<{ cancel: boolean; available: number }>(
    `WITH hb AS (
       UPDATE calls SET last_heartbeat_at = now(), answered_seconds = COALESCE($2, answered_seconds)
       WHERE id = $1 AND ended_at IS NULL RETURNING account_id, cancel_requested_at)
     ${CHECK_SQL}`,
    [callId, connectedSeconds === null ? null : billableSeconds(connectedSeconds)],
  );
  const row = rows[0];
  if (!row) return { lost: true, cancel: false, availableSeconds: 0 };
  return { lost: false, cancel: row.cancel, availableSeconds: Math.max(0, Number(row.available)) };
}

/** Records the answer (in_progress, answered_at) and emits call.answered, in one transaction. */
export async function markAnswered(ctx: AppContext, call: ClaimedCall): Promise<LineCheck> {
  return ctx.db.tx(async (client) => {
    // A call canceled while it rang keeps its canceled status; the dialer closes it politely.
    const { rowCount } = await client.query(
      `UPDATE calls SET status = CASE WHEN status = 'ringing' THEN 'in_progress' ELSE status END, answered_at = now(),
         answered_seconds = 0, last_heartbeat_at = now(), updated_at = now()
       WHERE id = $1 AND ended_at IS NULL`,
      [call.id],
    );
    if (!rowCount) return { lost: true, cancel: false, availableSeconds: 0 };
    await emitCallEvent(ctx, client, call.accountId, call.id, "call.answered");
    return heartbeat(client, call.id, 0);
  });
}

/** How a call ended, as the dialer saw it. */
export interface CallEnd {
  status: Exclude<CallStatus, "queued" | "ringing" | "in_progress">;
  outcome: CallOutcome | null;
  outcomeDetails: Record<string, unknown> | null;
  endReason: string;
  transcript: TranscriptEntry[] | null;
  /** Seconds from answer to hang-up on the carrier's clock; 0 for an unanswered call. */
  connectedSeconds: number;
}

/**
 * Ends the call in one transaction: terminal status, outcome, transcript, durations, the debit (capped by
 * the balance) and call.ended. A call the API canceled meanwhile stays canceled (without an outcome). Returns
 * false when the call had already been ended (by the sweep), in which case nothing is written.
 */
export async function settleCall(ctx: AppContext, call: Pick<ClaimedCall, "id" | "accountId">, end: CallEnd): Promise<boolean> {
  return ctx.db.tx(async (client) => settleInTransaction(ctx, client, call, end));
}

async function settleInTransaction(ctx: AppContext, client: pg.PoolClient, call: Pick<ClaimedCall, "id" | "accountId">, end: CallEnd): Promise<boolean> {
  const { rows } = await client.query<{ status: CallStatus; answered_at: Date | null; ended_at: Date | null }>(
    "SELECT status, answered_at, ended_at FROM calls WHERE id = $1 FOR UPDATE", [call.id],
  );
  const row = rows[0];
  if (!row || row.ended_at) return false;
  const status = row.status === "canceled" ? "canceled" : end.status;
  const completed = status === "completed";
  const connected = row.answered_at ? billableSeconds(end.connectedSeconds) : 0;
  const debit = connected > 0 ? await debitCall(client, call.accountId, call.id, connected) : { seconds: 0 };
  await client.query(
    `UPDATE calls SET status = $2, outcome = $3, outcome_details = $4, end_reason = $5, transcript = $6, ended_at = now(),
       duration_seconds = $7, answered_seconds = $7, billed_seconds = $8, updated_at = now()
     WHERE id = $1`,
    [
      call.id, status, completed ? end.outcome : null, completed && end.outcomeDetails ? JSON.stringify(end.outcomeDetails) : null,
      status === "canceled" ? "canceled" : end.endReason, end.transcript ? JSON.stringify(end.transcript) : null, connected, debit.seconds,
    ],
  );
  await emitCallEvent(ctx, client, call.accountId, call.id, "call.ended");
  return true;
}
