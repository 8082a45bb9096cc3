// Concurrency caps (issue 15): at most N calls of an account ringing or in progress at once. Checked at the claim,
// under the account's row lock (lock order: the call, then the account), so two workers never both take the last
// place; a call over the cap is put back a few seconds later with a job of its own, never lost nor dialled twice.
import { randomUUID } from "node:crypto";
import type { AppContext } from "../../context.ts";
import { type Queryable, queryPrepared } from "../../db/pool.ts";
import { JOBS } from "../../jobs/catalogue.ts";

/**
 * How long a call over the cap waits before trying again by itself, plus up to DEFER_JITTER_MS so waiting calls
 * spread. Usually sooner: the end of each of the account's calls wakes the oldest waiting call (wakeNextWaiting).
 */
export const DEFER_MS = 5_000;
const DEFER_JITTER_MS = 5_000;

/**
 * Whether a queued call may be dialled now: `listed` when its number went on the do-not-call list after the call
 * was created, `full` when the account is at its cap, else `open`. The caller's transaction then holds the
 * account's row lock, which serialises the account's claims.
 */
export async function admission(client: Queryable, accountId: string, phone: string, defaultCap: number): Promise<"listed" | "full" | "open"> {
  const { rows: locked } = await queryPrepared<{ cap: number | null; listed: boolean }>(client, "wakha_claim_admission",
    `SELECT max_concurrent_calls AS cap,
       EXISTS (SELECT 1 FROM do_not_call WHERE account_id = $1 AND phone_number = $2) AS listed
     FROM accounts WHERE id = $1 FOR UPDATE`, [accountId, phone]);
  if (locked[0]?.listed) return "listed";
  const cap = locked[0]?.cap ?? defaultCap;
  // Counted by a statement started after the lock: it sees every claim committed before.
  const { rows } = await queryPrepared<{ live: number }>(client, "wakha_claim_live",
    "SELECT count(*)::int AS live FROM calls WHERE account_id = $1 AND ended_at IS NULL AND status <> 'queued'", [accountId]);
  return (rows[0]?.live ?? 0) < cap ? "open" : "full";
}

/** Puts a queued call back for a few seconds, with a new place-call job; the sweep leaves it alone meanwhile. */
export async function deferCall(ctx: AppContext, client: Queryable, callId: string): Promise<void> {
  const at = new Date(Date.now() + DEFER_MS + Math.floor(Math.random() * DEFER_JITTER_MS));
  await client.query("UPDATE calls SET deferred_until = $2, deferrals = deferrals + 1 WHERE id = $1", [callId, at]);
  await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: callId }, { id: randomUUID(), startAfter: at });
}

/**
 * A place freed (one of the account's calls ended): the oldest call waiting for one gets a job due now, in the
 * transaction that frees the place, so waiting calls go in their order and a freed place is taken within moments.
 * SKIP LOCKED: a waiting call another transaction holds is passed over, never waited for.
 */
export async function wakeNextWaiting(ctx: AppContext, client: Queryable, accountId: string): Promise<void> {
  const { rows } = await client.query<{ id: string }>(
    `UPDATE calls SET deferred_until = now() WHERE id = (
       SELECT id FROM calls WHERE account_id = $1 AND status = 'queued' AND deferred_until > now()
       ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id`, [accountId]);
  if (rows[0]) await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: rows[0].id }, { id: randomUUID() });
}

/** Sets an account's cap; null goes back to the installation's default. */
export async function setConcurrencyCap(db: Queryable, accountId: string, cap: number | null): Promise<{ account_id: string; max_concurrent_calls: number | null }> {
  const { rows } = await db.query<{ id: string; max_concurrent_calls: number | null }>(
    "UPDATE accounts SET max_concurrent_calls = $2 WHERE id = $1 RETURNING id, max_concurrent_calls", [accountId, cap],
  ).catch((err: { code?: string }) => {
    if (err.code === "22P02") return { rows: [] }; // not a uuid: same answer as an unknown account
    throw err;
  });
  if (!rows[0]) throw new Error(`no account ${accountId}`);
  return { account_id: rows[0].id, max_concurrent_calls: rows[0].max_concurrent_calls };
}
