// Per-second billing of calls (CONTRACT §4, §10): one `debit` transaction per billed call, written in the
// transaction that ends the call, exactly once, and never taking the balance below zero.
import { randomUUID } from "node:crypto";
import { type Queryable, queryPrepared } from "../db/pool.ts";

/** Billed seconds for a connected time: answered seconds rounded up (0 when nothing was connected). */
export function billableSeconds(connectedSeconds: number): number {
  return connectedSeconds > 0 ? Math.ceil(connectedSeconds - 1e-9) : 0;
}

/** Wall-clock seconds a carrier's count may exceed our own answer-to-end time by (issue 31.1): clock and callback jitter. */
export const BILLING_TOLERANCE_SECONDS = 2;

/** Why a call was billed less than the carrier reported (CallOut.billing_adjustment.reason). */
export const OVER_WALL_CLOCK = "carrier_seconds_exceed_wall_clock";

export interface BillingAdjustment {
  reported_seconds: number;
  billed_seconds: number;
  reason: typeof OVER_WALL_CLOCK;
}

/**
 * The most seconds a call answered `wallSeconds` ago (our clock, the database's) can have been connected (issue 31.1):
 * that time plus BILLING_TOLERANCE_SECONDS, in the carrier's seconds (`timeScale` > 1 only for the local fakes and the
 * simulator, whose clocks run faster than the wall's).
 */
export function billableBound(wallSeconds: number, timeScale: number): number {
  return Math.ceil((Math.max(0, wallSeconds) + BILLING_TOLERANCE_SECONDS) * timeScale);
}

/** The carrier's (or the dialer's) seconds bounded by the wall clock: what may be billed, and the adjustment if any. */
export function boundBillable(
  reported: number,
  wallSeconds: number,
  timeScale: number,
): { seconds: number; adjustment: BillingAdjustment | null } {
  const bound = billableBound(wallSeconds, timeScale);
  if (reported <= bound) return { seconds: reported, adjustment: null };
  return { seconds: bound, adjustment: { reported_seconds: reported, billed_seconds: bound, reason: OVER_WALL_CLOCK } };
}

export interface Debit {
  /** Seconds actually debited: the billable seconds, capped by the balance. */
  seconds: number;
  balanceAfter: number;
}

/**
 * Debits a call, capped by the balance, inside the caller's transaction, which must already hold the call's row lock
 * (lock order: call, then account): the sweep's path, for a call lost with seconds its hold may not cover (the dialer's
 * ends use debitHeld). The account row is locked so concurrent calls of one account debit one after the
 * other; a call can only take what is left. FOR NO KEY UPDATE, like every lock on an account row in the engine: it
 * excludes the other debits, holds and claims, but not the key-share lock that inserting a call (a retry) or a
 * transaction takes on its account, so two ends of calls that each inserted a retry never wait on each other in a cycle. The unique index on transactions(call_id) for debits makes a
 * second debit for the same call a no-op that returns the first.
 */
export async function debitCall(
  client: Queryable,
  accountId: string,
  callId: string,
  billable: number,
): Promise<Debit> {
  const { rows: accounts } = await client.query<{ balance_seconds: number }>(
    "SELECT balance_seconds FROM accounts WHERE id = $1 FOR NO KEY UPDATE",
    [accountId],
  );
  const balance = accounts[0]?.balance_seconds ?? 0;
  // Issue 31.2: never the seconds the account's other live calls hold (their ends must be billable): this call's own
  // hold and the balance nobody holds, at most.
  const { rows: holds } = await client.query<{ held: number }>(
    `SELECT COALESCE(sum(held_seconds), 0)::int AS held FROM calls
     WHERE account_id = $1 AND ended_at IS NULL AND held_seconds > 0 AND id <> $2`,
    [accountId, callId],
  );
  const available = Math.max(0, balance - Number(holds[0]?.held ?? 0));
  const { rows: earlier } = await client.query<{ seconds: number; balance_after: number }>(
    "SELECT seconds, balance_after FROM transactions WHERE call_id = $1 AND type = 'debit'",
    [callId],
  );
  if (earlier[0]) return { seconds: -earlier[0].seconds, balanceAfter: earlier[0].balance_after };
  const seconds = Math.max(0, Math.min(billable, available));
  if (seconds === 0) return { seconds: 0, balanceAfter: balance };
  const { rows } = await client.query<{ balance_after: number }>(
    `WITH d AS (
       INSERT INTO transactions (id, account_id, type, seconds, balance_after, call_id, description)
       VALUES ($1, $2, 'debit', $3, $4, $5, $6)
       ON CONFLICT (call_id) WHERE type = 'debit' DO NOTHING
       RETURNING balance_after)
     UPDATE accounts SET balance_seconds = balance_seconds + $3 WHERE id = $2 AND EXISTS (SELECT 1 FROM d)
     RETURNING balance_seconds AS balance_after`,
    [randomUUID(), accountId, -seconds, balance - seconds, callId, `Call ${callId}: ${seconds} s`],
  );
  if (!rows[0]) throw new Error(`call ${callId} was debited concurrently`);
  return { seconds, balanceAfter: rows[0].balance_after };
}

/**
 * Debits a call whose hold covers its seconds (issue 15): one statement, meant to be the last of the transaction that
 * ends the call, so the account's row lock it takes is held only until the COMMIT that follows (a debit that took the
 * lock first and held it through the rest of the end serialised one account's call ends at about 40 a second).
 * The amount needs no read of the balance under the lock: the balance always covers the live calls' holds (holds are
 * taken under the account's lock from the balance the others do not hold, and only a debit lowers the balance, by at
 * most the hold its call gives back in the same transaction; the sweep's debitCall leaves other calls' holds alone).
 * Should that ever fail, the end is still recorded (issue 31.2: a customer's answer is never lost to a balance check):
 * the debit is clamped at what the balance has, never below zero, and the call's billed_seconds follow. The caller
 * holds the call's row lock and has just seen it unended, so there is no earlier debit; the unique index on
 * transactions(call_id) for debits would make one an error that rolls the end back, never a second bill.
 * Returns the seconds debited.
 */
export async function debitHeld(
  client: Queryable,
  accountId: string,
  callId: string,
  seconds: number,
): Promise<number> {
  if (await debitIfCovered(client, accountId, callId, seconds)) return seconds;
  // The balance does not cover the hold (a broken invariant): what it has, and the call says so.
  const { rows: accounts } = await client.query<{ balance_seconds: number }>(
    "SELECT balance_seconds FROM accounts WHERE id = $1 FOR NO KEY UPDATE",
    [accountId],
  );
  const clamped = Math.max(0, Math.min(seconds, Number(accounts[0]?.balance_seconds ?? 0)));
  if (clamped > 0) await debitIfCovered(client, accountId, callId, clamped); // covered: the account's row is locked
  await client.query("UPDATE calls SET billed_seconds = $2 WHERE id = $1", [callId, clamped]);
  return clamped;
}

/** Debits `seconds` and records the call's one debit, if the balance covers them; false (nothing written) otherwise. */
async function debitIfCovered(client: Queryable, accountId: string, callId: string, seconds: number): Promise<boolean> {
  const { rows } = await queryPrepared<{ balance_after: number }>(
    client,
    "wakha_debit_held",
    `WITH a AS (
       UPDATE accounts SET balance_seconds = balance_seconds - $3 WHERE id = $2 AND balance_seconds >= $3 RETURNING balance_seconds)
     INSERT INTO transactions (id, account_id, type, seconds, balance_after, call_id, description)
     SELECT $1, $2, 'debit', -$3::bigint, a.balance_seconds, $4, $5 FROM a
     RETURNING balance_after`,
    [randomUUID(), accountId, seconds, callId, `Call ${callId}: ${seconds} s`],
  );
  return rows.length > 0;
}
