// The call row's life in the engine: claim (queued to ringing, exactly once), answer, heartbeat, and the
// one transaction that ends it (status, outcome, transcript, billing, call.ended). Lock order everywhere:
// the call's row, then the account's.
import type pg from "pg";
import type { AppContext } from "../context.ts";
import type { Database, Queryable } from "../db/pool.ts";
import { REQUIRED_SECONDS } from "../domain/money.ts";
import type { CallOutcome, CallStatus, TerminalCallStatus } from "../domain/calls.ts";
import type { Country, Language } from "../domain/locale.ts";
import type { EventType } from "../domain/webhooks.ts";
import type { CallItem, CallOut } from "../schemas/calls.ts";
import { readCallOut } from "../read-models/calls.ts";
import { emitEvent } from "../webhooks/events.ts";
import { DO_NOT_CALL_END_REASON, DO_NOT_CALL_SKIPPED } from "../domain/do-not-call.ts";
import { listNumber } from "./policy/do-not-call.ts";
import { scheduleRetry } from "./policy/retries.ts";
import { queueWhatsAppFallback } from "./policy/whatsapp-fallback.ts";
import { admission, deferCall, wakeNextWaiting } from "./policy/concurrency.ts";
import { effectiveHours, nextCallingTime } from "./policy/calling-hours.ts";
import type { CallingHoursOverride } from "../schemas/calling-hours.ts";
import { JOBS } from "../jobs/catalogue.ts";
import { randomUUID } from "node:crypto";
import { billableSeconds, debitCall } from "./billing.ts";
import { settleOrderOfCall } from "./order-resolution.ts";
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
  /** The balance not held by the account's other live calls when this one was claimed. */
  balanceSeconds: number;
  /** The seconds this call holds: it may be connected that long before it must extend its hold or close. */
  heldSeconds: number;
}

/** Seconds a call holds at a time: taken at the claim, extended by as much again while it runs (issue 20). */
export const HOLD_CHUNK_SECONDS = 60;
/** A live call extends its hold when fewer than this many held seconds are left. */
export const HOLD_TOPUP_BELOW_SECONDS = 30;

/**
 * Adds up to `chunk` seconds to the call's hold from the balance the account's live calls do not hold, in the
 * caller's transaction, which holds the call's row lock (lock order: call, then account). The account's row lock
 * serialises holds, and the sum is read by a statement started after it, so two calls never hold the same second.
 * Nothing is added when less than `minimum` is free. Returns the free balance before, and the call's hold after.
 */
async function takeHold(client: Queryable, accountId: string, callId: string, chunk: number, minimum: number): Promise<{ free: number; held: number }> {
  await client.query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [accountId]);
  const { rows } = await client.query<{ free: number; held: number }>(
    `WITH f AS (
       SELECT GREATEST(0, a.balance_seconds - COALESCE((SELECT sum(o.held_seconds) FROM calls o
                                                         WHERE o.account_id = a.id AND o.ended_at IS NULL AND o.held_seconds > 0), 0))::int AS free
       FROM accounts a WHERE a.id = $1),
     u AS (
       UPDATE calls SET held_seconds = held_seconds + LEAST($3::int, f.free) FROM f
       WHERE calls.id = $2 AND calls.ended_at IS NULL AND f.free >= $4::int
       RETURNING calls.held_seconds)
     SELECT f.free, COALESCE((SELECT held_seconds FROM u), (SELECT held_seconds FROM calls WHERE id = $2), 0) AS held FROM f`,
    [accountId, callId, chunk, minimum],
  );
  return { free: Number(rows[0]?.free ?? 0), held: Number(rows[0]?.held ?? 0) };
}

/** Emits an event whose data is the call's CallOut, in the caller's transaction. */
export async function emitCallEvent(ctx: AppContext, client: Queryable, accountId: string, callId: string, type: EventType): Promise<void> {
  const call = await readCallOut(client, ctx.config.baseUrl, accountId, callId);
  if (!call) throw new Error(`call ${callId} of account ${accountId} vanished before its ${type} event`);
  await emitEvent(ctx, client, accountId, type, call);
}

/**
 * Takes a queued call to `ringing`. Null when there is nothing to place: the call is gone, no longer queued
 * (another worker has it, or it ended) or a cancel was requested. The guarded UPDATE under the row lock is
 * what makes two workers unable to both place one call.
 */
export async function claimCall(ctx: AppContext, callId: string): Promise<ClaimedCall | null> {
  return ctx.db.tx(async (client) => {
    const { rows } = await client.query<ClaimedCall & { status: CallStatus; cancel_requested_at: Date | null } & ClaimHours>(
      `SELECT c.id, c.account_id AS "accountId", s.name AS "shopName", c.customer_name AS "customerName", c.customer_phone AS phone,
         c.country, c.language, c.dialect, c.channel, c.amount::text AS amount, c.currency, c.items, c.status, c.cancel_requested_at,
         a.balance_seconds AS "balanceSeconds", a.calling_hours AS "accountHours", s.calling_hours AS "shopHours"
       FROM calls c JOIN shops s ON s.id = c.shop_id JOIN accounts a ON a.id = c.account_id
       WHERE c.id = $1 FOR UPDATE OF c`,
      [callId],
    );
    const row = rows[0];
    if (!row || row.status !== "queued" || row.cancel_requested_at) return null;
    // Outside the calling hours now (a wait for a place, a sweep or a change of hours carried it there): it waits
    // for their next opening (issue 15).
    if (ctx.config.WAKHA_CALLING_HOURS && (await holdUntilOpen(ctx, client, row))) return null;
    // Issue 15: a number listed after the call was created is never dialled (the call ends failed, unbilled, with
    // call.ended); a call over the account's concurrency cap is put back for a few seconds.
    const admitted = await admission(client, row.accountId, row.phone, ctx.config.WAKHA_MAX_CONCURRENT_CALLS);
    if (admitted === "listed") {
      await client.query(
        `UPDATE calls SET status = 'failed', end_reason = $2, ended_at = now(), duration_seconds = 0, billed_seconds = 0, updated_at = now()
         WHERE id = $1`, [callId, DO_NOT_CALL_SKIPPED]);
      await emitCallEvent(ctx, client, row.accountId, callId, "call.ended");
      return null;
    }
    if (admitted === "full") {
      await deferCall(ctx, client, callId);
      return null;
    }
    const { rowCount } = await client.query(
      `UPDATE calls SET status = 'ringing', last_heartbeat_at = now(), dialed_at = now(), updated_at = now()
       WHERE id = $1 AND status = 'queued' AND cancel_requested_at IS NULL`,
      [callId],
    );
    if (!rowCount) return null;
    // Dialled only when the balance the account's other live calls do not hold covers the minimum (issue 20).
    const hold = await takeHold(client, row.accountId, callId, HOLD_CHUNK_SECONDS, REQUIRED_SECONDS);
    const { status: _s, cancel_requested_at: _c, accountHours: _a, shopHours: _h, ...call } = row;
    return { ...call, balanceSeconds: hold.free, heldSeconds: hold.held };
  });
}

interface ClaimHours {
  accountHours: CallingHoursOverride | null;
  shopHours: CallingHoursOverride | null;
}

/**
 * Puts a call due outside its calling hours back until they open, with a job of its own; true when it did. Hours
 * changed to leave no window in the next 40 days end the call `failed` (`no_calling_hours`), unbilled.
 */
async function holdUntilOpen(ctx: AppContext, client: Queryable, row: Pick<ClaimedCall, "id" | "accountId" | "country"> & ClaimHours): Promise<boolean> {
  const now = ctx.now();
  const opening = nextCallingTime(new Date(now), row.country, effectiveHours(row.country, row.accountHours, row.shopHours));
  if (!opening) {
    await client.query(
      `UPDATE calls SET status = 'failed', end_reason = 'no_calling_hours', ended_at = now(), duration_seconds = 0, billed_seconds = 0, updated_at = now()
       WHERE id = $1`, [row.id]);
    await emitCallEvent(ctx, client, row.accountId, row.id, "call.ended");
    return true;
  }
  if (opening.getTime() <= now) return false;
  await client.query("UPDATE calls SET scheduled_at = $2, updated_at = now() WHERE id = $1", [row.id, opening]);
  await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: row.id }, { id: randomUUID(), startAfter: opening });
  return true;
}

/** The line state the dialer steers by: a cancel request, and the seconds the account can still pay for. */
export interface LineCheck {
  /** The call was ended elsewhere (the sweep took it for lost): stop at once, without settling. */
  lost: boolean;
  cancel: boolean;
  /** The seconds this call holds (issue 20): it may be connected that long; the dialer closes it before. */
  availableSeconds: number;
}

/**
 * Refreshes the call's heartbeat (and its connected seconds so far) and reads the line state. A connected call
 * whose hold runs low extends it from the account's free balance (one short transaction under the account's lock).
 */
export async function heartbeat(db: Database, callId: string, connectedSeconds: number | null): Promise<LineCheck> {
  const check = await heartbeatIn(db, callId, connectedSeconds);
  if (check.lost || connectedSeconds === null || check.availableSeconds - connectedSeconds >= HOLD_TOPUP_BELOW_SECONDS) return check;
  const held = await db.tx(async (client) => {
    const { rows } = await client.query<{ account_id: string }>("SELECT account_id FROM calls WHERE id = $1 AND ended_at IS NULL FOR UPDATE", [callId]);
    if (!rows[0]) return null;
    return (await takeHold(client, rows[0].account_id, callId, HOLD_CHUNK_SECONDS, 1)).held;
  });
  return held === null ? { lost: true, cancel: false, availableSeconds: 0 } : { ...check, availableSeconds: held };
}

async function heartbeatIn(db: Queryable, callId: string, connectedSeconds: number | null): Promise<LineCheck> {
  const { rows } = await db.query<{ cancel: boolean; held: number }>(
    `UPDATE calls SET last_heartbeat_at = now(), answered_seconds = COALESCE($2, answered_seconds)
     WHERE id = $1 AND ended_at IS NULL RETURNING cancel_requested_at IS NOT NULL AS cancel, held_seconds AS held`,
    [callId, connectedSeconds === null ? null : billableSeconds(connectedSeconds)],
  );
  const row = rows[0];
  if (!row) return { lost: true, cancel: false, availableSeconds: 0 };
  return { lost: false, cancel: row.cancel, availableSeconds: Number(row.held) };
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
    return heartbeatIn(client, call.id, 0);
  });
}

/** How a call ended, as the dialer saw it. */
export interface CallEnd {
  status: TerminalCallStatus;
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
  const { rows } = await client.query<{ status: CallStatus; answered_at: Date | null; ended_at: Date | null; customer_phone: string }>(
    "SELECT status, answered_at, ended_at, customer_phone FROM calls WHERE id = $1 FOR UPDATE", [call.id],
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
  // The customer asked not to be called again (issue 15): listed with the call's end, so no later call reaches them.
  if (end.endReason === DO_NOT_CALL_END_REASON) {
    const words = typeof end.outcomeDetails?.["transcript_excerpt"] === "string" ? end.outcomeDetails["transcript_excerpt"] : null;
    await listNumber(client, call.accountId, row.customer_phone, { source: "call", reason: words, callId: call.id });
  }
  // The next attempt, when the retry policy says so, is created with this end (issue 15): exactly once.
  const retry = await scheduleRetry(ctx, client, call.id, new Date(ctx.now()));
  // Not reached and no attempt left (issue 16): the order's WhatsApp template, when the account has one.
  await queueWhatsAppFallback(ctx, client, call.id, retry !== null);
  // Its place under the account's concurrency cap goes to the oldest call waiting for one.
  await wakeNextWaiting(ctx, client, call.accountId);
  await emitCallEvent(ctx, client, call.accountId, call.id, "call.ended");
  // The call's answer settles its order (issue 16): order.resolved follows call.ended when the resolution changes.
  await settleOrderOfCall(ctx, client, call.accountId, call.id);
  if (retry) await emitCallEvent(ctx, client, call.accountId, retry, "call.retry_scheduled");
  return true;
}
