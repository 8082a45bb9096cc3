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
import { readCallOut } from "./read-model.ts";
import { emitEvent } from "../webhooks/events.ts";
import { DO_NOT_CALL_END_REASON, DO_NOT_CALL_SKIPPED } from "../domain/do-not-call.ts";
import { recordOptOut } from "./policy/do-not-call.ts";
import { type CallFailure, failureDetails } from "../domain/end-reasons.ts";
import { scheduleRetry } from "./policy/retries.ts";
import { takePlaces, wakeWaiting } from "./policy/concurrency.ts";
import { callerLinesFor } from "./policy/lines.ts";
import { queueWhatsAppFallback } from "./policy/whatsapp-fallback.ts";
import { closedReason, effectiveHours, nextCallingTime } from "./policy/calling-hours.ts";
import type { CallingHoursOverride } from "../schemas/calling-hours.ts";
import type { ShopKnowledge } from "../schemas/knowledge.ts";
import { JOBS } from "../jobs/catalogue.ts";
import { telephonyPlan } from "../config/config.ts";
import { randomUUID } from "node:crypto";
import { billableSeconds, boundBillable, debitHeld } from "./billing.ts";
import { settleOrderOfCall } from "./order-resolution.ts";
import type { Dialect, TranscriptEntry } from "../engine/dialogue/types.ts";

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
  /** The delivery address given with the call (issue 35), read back after a confirmation; null without one. */
  address: { city: string; line1?: string } | null;
  /** The shop's answers (issue 37), read with the shop at the claim: a change reaches the calls placed after it. */
  knowledge: ShopKnowledge | null;
  /** The balance not held by the account's other live calls when this one was claimed. */
  balanceSeconds: number;
  /** The seconds this call holds: it may be connected that long before it must extend its hold or close. */
  heldSeconds: number;
  /** The caller number whose line the claim took (issue 15); null when the carrier shows its own. */
  callerNumber: string | null;
  /** The shop (its handoff, issue 34) and the order's id in it (the person's brief). */
  shopId: string;
  orderExternalId: string;
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
async function takeHold(
  client: Queryable,
  accountId: string,
  callId: string,
  chunk: number,
  minimum: number,
): Promise<{ free: number; held: number }> {
  await client.query("SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE", [accountId]);
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

/**
 * Carrier seconds per wall second on the call's channel: 1 in production; the simulator's or the local carrier fakes'
 * compressed clock in tests (WAKHA_SIMULATOR_SPEED, WAKHA_CARRIER_TIME_SCALE). The wall-clock bound of billing
 * (issue 31.1) is scaled by it.
 */
export function billingTimeScale(config: AppContext["config"], channel: string): number {
  const provider = (config.telephony ?? telephonyPlan(config)).get(channel);
  return Math.max(1, provider === "simulator" ? config.WAKHA_SIMULATOR_SPEED : config.WAKHA_CARRIER_TIME_SCALE);
}

/** Emits an event whose data is the call's CallOut, in the caller's transaction. */
export async function emitCallEvent(
  ctx: AppContext,
  client: Queryable,
  accountId: string,
  callId: string,
  type: EventType,
): Promise<void> {
  const call = await readCallOut(client, ctx.config.baseUrl, accountId, callId);
  if (!call) throw new Error(`call ${callId} of account ${accountId} vanished before its ${type} event`);
  await emitEvent(ctx, client, accountId, type, call);
}

/**
 * Takes a queued call to `ringing`. Null when there is nothing to place: the call is gone, no longer queued
 * (another worker has it, or it ended), a cancel was requested, or it found no place and waits (issue 15).
 */
export async function claimCall(ctx: AppContext, callId: string): Promise<ClaimedCall | null> {
  return (await claimCalls(ctx, [callId]))[0] ?? null;
}

/**
 * Takes a batch of queued calls (a fetch of place-call jobs) to `ringing`, in one transaction, and returns those it
 * took. The guarded read under each call's row lock is what makes two workers unable to both place one call; the
 * places under the caps are given by takePlaces, for the whole batch at once.
 */
export async function claimCalls(ctx: AppContext, callIds: string[]): Promise<ClaimedCall[]> {
  return ctx.db.tx(async (client) => {
    const { rows } = await client.query<
      ClaimedCall & { status: CallStatus; cancel_requested_at: Date | null; seq: string } & ClaimHours
    >(
      `SELECT c.id, c.account_id AS "accountId", s.name AS "shopName", c.shop_id AS "shopId", c.order_external_id AS "orderExternalId", c.customer_name AS "customerName", c.customer_phone AS phone,
         c.country, c.language, c.dialect, c.channel, c.amount::text AS amount, c.currency, c.items, c.status, c.cancel_requested_at, c.seq,
         c.customer_address AS address, s.knowledge,
         a.calling_hours AS "accountHours", s.calling_hours AS "shopHours"
       FROM calls c JOIN shops s ON s.id = c.shop_id JOIN accounts a ON a.id = c.account_id
       WHERE c.id = ANY($1::uuid[]) ORDER BY c.id FOR UPDATE OF c`,
      [[...new Set(callIds)]],
    );
    const due: typeof rows = [];
    for (const row of rows) {
      if (row.status !== "queued" || row.cancel_requested_at) continue;
      // Outside the calling hours now (a wait for a place, a sweep or a change of hours carried it there): it waits
      // for their next opening (issue 15).
      if (ctx.config.WAKHA_CALLING_HOURS && (await holdUntilOpen(ctx, client, row))) continue;
      due.push(row);
    }
    // Issue 15: a number listed after the call was created is never dialled (the call ends failed, unbilled, with
    // call.ended); a call over the account's cap, or with every line of its numbers busy, is parked until a place frees.
    // Dialled only when the balance the account's other live calls do not hold covers the minimum (issue 20).
    const places = await takePlaces(
      ctx,
      client,
      due.map((row) => ({
        callId: row.id,
        accountId: row.accountId,
        phone: row.phone,
        seq: Number(row.seq),
        lines: callerLinesFor(ctx.config, row.channel, row.country),
      })),
      {
        defaultCap: ctx.config.WAKHA_MAX_CONCURRENT_CALLS,
        holdChunk: HOLD_CHUNK_SECONDS,
        holdMinimum: REQUIRED_SECONDS,
      },
    );
    const claimed: ClaimedCall[] = [];
    for (const row of due) {
      const place = places.get(row.id);
      if (place?.kind === "listed") {
        await client.query(
          `UPDATE calls SET status = 'failed', end_reason = $2, outcome_details = $3, ended_at = now(), duration_seconds = 0, billed_seconds = 0, updated_at = now()
           WHERE id = $1`,
          [row.id, DO_NOT_CALL_SKIPPED, failureDetails(DO_NOT_CALL_SKIPPED)],
        );
        await emitCallEvent(ctx, client, row.accountId, row.id, "call.ended");
      }
      if (place?.kind !== "claimed") continue;
      const { status: _s, cancel_requested_at: _c, accountHours: _a, shopHours: _h, seq: _q, ...call } = row;
      claimed.push({
        ...call,
        balanceSeconds: place.free,
        heldSeconds: place.held,
        callerNumber: place.line?.number ?? null,
      });
    }
    return claimed;
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
async function holdUntilOpen(
  ctx: AppContext,
  client: Queryable,
  row: Pick<ClaimedCall, "id" | "accountId" | "country"> & ClaimHours,
): Promise<boolean> {
  const now = ctx.now();
  const hours = effectiveHours(row.country, row.accountHours, row.shopHours);
  const opening = nextCallingTime(new Date(now), row.country, hours);
  if (!opening) {
    await client.query(
      `UPDATE calls SET status = 'failed', end_reason = 'no_calling_hours', outcome_details = $2, ended_at = now(), duration_seconds = 0, billed_seconds = 0, updated_at = now()
       WHERE id = $1`,
      [row.id, failureDetails("no_calling_hours")],
    );
    await emitCallEvent(ctx, client, row.accountId, row.id, "call.ended");
    return true;
  }
  if (opening.getTime() <= now) return false;
  // A call woken for a place gives it back: it waits for the hours, not for a place.
  await client.query(
    "UPDATE calls SET scheduled_at = $2, deferred_until = NULL, wait_lines = NULL, schedule_reason = $3, updated_at = now() WHERE id = $1",
    [row.id, opening, closedReason(new Date(now), row.country, hours)],
  );
  await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: row.id }, { id: randomUUID(), startAfter: opening });
  return true;
}

/** Whether the line a call took has a limit in this node's configuration (then calls may be parked for it). */
export function lineIsLimited(
  ctx: Pick<AppContext, "config">,
  call: { caller_line: string | null; channel: string; country: Country },
): boolean {
  if (!call.caller_line) return false;
  return callerLinesFor(ctx.config, call.channel, call.country).some(
    (l) => l.key === call.caller_line && l.lines !== null,
  );
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
  if (check.lost || connectedSeconds === null || check.availableSeconds - connectedSeconds >= HOLD_TOPUP_BELOW_SECONDS)
    return check;
  const held = await extendHold(db, callId, HOLD_CHUNK_SECONDS);
  return held === null ? { lost: true, cancel: false, availableSeconds: 0 } : { ...check, availableSeconds: held };
}

/** Extends a live call's hold by up to `seconds` in a transaction of its own (call, then account); null when it ended. */
async function extendHold(db: Database, callId: string, seconds: number): Promise<number | null> {
  return db.tx(async (client) => {
    const { rows } = await client.query<{ account_id: string }>(
      "SELECT account_id FROM calls WHERE id = $1 AND ended_at IS NULL FOR UPDATE",
      [callId],
    );
    if (!rows[0]) return null;
    return (await takeHold(client, rows[0].account_id, callId, seconds, 1)).held;
  });
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
  /** The customer objected to the recording (issue 36): the call says so and no recording is kept. */
  recordingDeclined?: boolean;
  /** A failed call's cause, shown as `outcome_details.error` (issue 32.4); the end reason's sentence when absent. */
  error?: CallFailure;
  /** Issue 34: the warm transfer, when the call had one (the call's `transfer`; `call.transferred` is sent with the end). */
  transfer?: NonNullable<CallOut["transfer"]>;
}

/** What a call's end writes as outcome_details: the typed details of a completed call, the cause of a failed one. */
function outcomeDetailsOf(status: CallStatus, end: CallEnd): string | null {
  if (status === "completed") return end.outcomeDetails ? JSON.stringify(end.outcomeDetails) : null;
  if (status === "failed") return failureDetails(end.endReason, end.error);
  return null;
}

/**
 * Ends the call in one transaction: terminal status, outcome, transcript, durations, the debit and call.ended. The debit
 * is what the call's hold covers (issue 20): a call whose seconds outgrew its hold first extends it, in a transaction of
 * its own, from the balance the account's other live calls do not hold, and is billed at most what it then holds. A call
 * the API canceled meanwhile stays canceled (without an outcome). Returns false when the call had already been ended (by
 * the sweep), in which case nothing is written.
 */
export async function settleCall(
  ctx: AppContext,
  call: Pick<ClaimedCall, "id" | "accountId">,
  end: CallEnd,
  relay?: string[],
  log?: (message: string) => void,
): Promise<boolean> {
  const woken: string[] = [];
  let result = await ctx.db.tx(async (client) =>
    settleInTransaction(ctx, client, call, end, false, relay && woken, log),
  );
  if (typeof result === "object") {
    // Extending the hold takes the account's lock, which the end takes last (below): outside its transaction.
    await extendHold(ctx.db, call.id, result.short);
    result = await ctx.db.tx(async (client) => settleInTransaction(ctx, client, call, end, true, relay && woken, log));
  }
  // Only once committed: the calls its end woke, for the caller to claim (issue 15).
  relay?.push(...woken);
  return result === true;
}

async function settleInTransaction(
  ctx: AppContext,
  client: pg.PoolClient,
  call: Pick<ClaimedCall, "id" | "accountId">,
  end: CallEnd,
  extended: boolean,
  relay: string[] | undefined,
  log?: (message: string) => void,
): Promise<boolean | { short: number }> {
  const { rows } = await client.query<{
    status: CallStatus;
    answered_at: Date | null;
    ended_at: Date | null;
    customer_phone: string;
    caller_line: string | null;
    channel: string;
    country: Country;
    held_seconds: number;
  }>(
    `SELECT status, answered_at, ended_at, customer_phone, caller_line, channel, country, held_seconds
     FROM calls WHERE id = $1 FOR UPDATE`,
    [call.id],
  );
  const row = rows[0];
  if (!row || row.ended_at) return false;
  // One instant, read once the row's lock is held, is both the end written and the end of the billing bound, so a bill
  // never exceeds the call's own answered_at -> ended_at plus the tolerance (now() is the transaction's start, which
  // may be well before the lock was granted).
  const { rows: clock } = await client.query<{ at: Date }>("SELECT clock_timestamp() AS at");
  const at = clock[0]!.at;
  const status = row.status === "canceled" ? "canceled" : end.status;
  const completed = status === "completed";
  // Issue 31.1: never more than our own clock saw from the answer to now, plus a tolerance, whatever the carrier says.
  const bounded = row.answered_at
    ? boundBillable(
        billableSeconds(end.connectedSeconds),
        (at.getTime() - row.answered_at.getTime()) / 1000,
        billingTimeScale(ctx.config, row.channel),
      )
    : null;
  const connected = bounded?.seconds ?? 0;
  if (connected > row.held_seconds && !extended) return { short: connected - row.held_seconds }; // nothing written yet
  // Billed what the hold covers: all of the connected seconds, unless the balance could not hold them all.
  const billed = Math.min(connected, row.held_seconds);
  const adjustment = bounded?.adjustment ? { ...bounded.adjustment, billed_seconds: billed } : null;
  if (adjustment)
    log?.(
      `call ${call.id}: the carrier reported ${adjustment.reported_seconds} s connected, more than the ${connected} s our clock allows; billed ${billed} s`,
    );
  await client.query(
    `UPDATE calls SET status = $2, outcome = $3, outcome_details = $4, end_reason = $5, transcript = $6, ended_at = $10,
       duration_seconds = $7, answered_seconds = $7, billed_seconds = $8, updated_at = now(), billing_adjustment = COALESCE($9::jsonb, billing_adjustment)
     WHERE id = $1`,
    [
      call.id,
      status,
      completed ? end.outcome : null,
      outcomeDetailsOf(status, end),
      status === "canceled" ? "canceled" : end.endReason,
      end.transcript ? JSON.stringify(end.transcript) : null,
      connected,
      billed,
      adjustment ? JSON.stringify(adjustment) : null,
      at,
    ],
  );
  if (end.recordingDeclined) await client.query("UPDATE calls SET recording_declined = true WHERE id = $1", [call.id]);
  if (end.transfer)
    await client.query("UPDATE calls SET transfer = $2 WHERE id = $1", [call.id, JSON.stringify(end.transfer)]);
  // The customer asked not to be called again (issue 15): listed with the call's end, so no later call reaches them,
  // with the call as evidence, and customer.opted_out sent (issue 36).
  if (end.endReason === DO_NOT_CALL_END_REASON) {
    const words =
      typeof end.outcomeDetails?.["transcript_excerpt"] === "string" ? end.outcomeDetails["transcript_excerpt"] : null;
    await recordOptOut(ctx, client, call.accountId, call.id, row.customer_phone, words);
  }
  // The next attempt, when the retry policy says so, is created with this end (issue 15): exactly once.
  const retry = await scheduleRetry(ctx, client, call.id, new Date(ctx.now()));
  if (retry) await emitCallEvent(ctx, client, call.accountId, retry, "call.retry_scheduled");
  // Not reached and no attempt left (issue 16): the order's WhatsApp template, when the account has one.
  await queueWhatsAppFallback(ctx, client, call.id, retry !== null);
  // Its place under the account's concurrency cap, and its line, go to the oldest calls waiting for them.
  await wakeWaiting(ctx, client, call.accountId, row.caller_line, lineIsLimited(ctx, row), relay);
  if (end.transfer) await emitCallEvent(ctx, client, call.accountId, call.id, "call.transferred");
  await emitCallEvent(ctx, client, call.accountId, call.id, "call.ended");
  // The call's answer settles its order (issue 16): order.resolved follows call.ended when the resolution changes.
  await settleOrderOfCall(ctx, client, call.accountId, call.id);
  // Last, the one statement that takes the account's row lock (lock order here: call, order, account): held only until
  // the COMMIT that follows, so the ends of one account's calls no longer queue behind each other's whole end (issue 15).
  if (billed > 0) await debitHeld(client, call.accountId, call.id, billed);
  return true;
}
