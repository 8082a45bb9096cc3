// Concurrency caps (issue 15): at most N calls of an account ringing or in progress at once, and at most the line
// count of a caller number that has one (a GSM gateway's SIM slots). Both are taken at the claim, in one statement
// run under the account's row lock and the lines' advisory locks (lock order everywhere: the call, the account, the
// lines by name), so two workers never both take the last place. A call that finds no place is parked: it waits
// without a job, in order (seq), and the end of a call hands its place to the oldest call parked for it, in the
// transaction that ends it. Parking costs one UPDATE, so a burst far over the cap costs each call one look, not one
// look every few seconds (issue 15's bench: 30 dials/s with 2 to 26 looks per call before).
import { randomUUID } from "node:crypto";
import type { AppContext } from "../../context.ts";
import { type Queryable, queryPrepared } from "../../db/pool.ts";
import { JOBS } from "../../jobs/catalogue.ts";
import type { CallerLineChoice } from "./lines.ts";

/** A call parked longer than this is looked at again by the sweep (a wake lost to a crash or a cap changed meanwhile). */
export const PARK_RECHECK_SECONDS = 60;

/**
 * A queued call's place in the scheduler, from `deferred_until` and `wait_lines`: a new call (both null); parked,
 * without a job, for the account's place (`infinity`, no lines) or for a line of `wait_lines` (`infinity`); woken for
 * the account's place (a time, no lines), which holds that place until its claim so no newer call takes it first; or
 * woken for a line (a time, with lines), which holds nothing.
 */
const HOLDS_PLACE = "(status <> 'queued' OR (deferred_until < 'infinity' AND wait_lines IS NULL))";

export type Admission =
  | { kind: "listed" }
  /** No place: the account is at its cap, or (`lines`) every line of the call's numbers is busy. */
  | { kind: "full"; lines: string[] | null }
  /** Claimed: the call is `ringing` on `line` (null when its carrier has no numbers configured) with its hold taken. */
  | { kind: "claimed"; line: CallerLineChoice | null; free: number; held: number };

export interface PlaceRequest {
  callId: string;
  accountId: string;
  phone: string;
  /** The numbers the call may show (lines.ts callerLinesFor). */
  lines: CallerLineChoice[];
  defaultCap: number;
  /** Seconds of balance the claim holds for the call (call-states.ts), taken only when at least `holdMinimum` are free. */
  holdChunk: number;
  holdMinimum: number;
}

/** Takes the advisory locks of the limited lines among `keys`, in name order (the lock order of every claim and end). */
export async function lockLines(client: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await queryPrepared(client, "wakha_lock_lines",
    "SELECT pg_advisory_xact_lock(15, hashtext(k)) FROM (SELECT DISTINCT unnest($1::text[]) AS k ORDER BY 1) l", [keys]);
}

/**
 * Claims a queued call whose row lock the caller's transaction holds: `listed` when its number went on the
 * do-not-call list after it was created; `full` when the account is at its cap or no line is free; else the call
 * is `ringing` on a free line with its hold on the balance (one statement, after the locks, so it counts every
 * claim committed before).
 */
export async function takePlace(client: Queryable, req: PlaceRequest): Promise<Admission> {
  const { rows: locked } = await queryPrepared<{ cap: number | null; listed: boolean }>(client, "wakha_place_account",
    `SELECT max_concurrent_calls AS cap,
       EXISTS (SELECT 1 FROM do_not_call WHERE account_id = $1 AND phone_number = $2) AS listed
     FROM accounts WHERE id = $1 FOR UPDATE`, [req.accountId, req.phone]);
  if (locked[0]?.listed) return { kind: "listed" };
  const limited = req.lines.filter((l) => l.lines !== null);
  await lockLines(client, limited.map((l) => l.key));
  const { rows } = await queryPrepared<{ live: number; line: string | null; free: number; held: number | null }>(client, "wakha_place_take",
    `WITH live AS (
       SELECT count(*)::int AS n FROM calls
       WHERE account_id = $1 AND ended_at IS NULL AND ${HOLDS_PLACE} AND id <> $2
     ), line AS (
       -- The number with the most free lines (a number without a limit first), then in the configured order.
       SELECT l.k FROM unnest($4::text[], $5::int[]) WITH ORDINALITY AS l(k, lim, ord)
         CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM calls c WHERE c.caller_line = l.k AND c.ended_at IS NULL AND c.status <> 'queued') busy
       WHERE l.lim IS NULL OR busy.n < l.lim
       ORDER BY l.lim - busy.n DESC NULLS FIRST, l.ord LIMIT 1
     ), f AS (
       SELECT GREATEST(0, a.balance_seconds - COALESCE((SELECT sum(o.held_seconds) FROM calls o
                                                         WHERE o.account_id = a.id AND o.ended_at IS NULL AND o.held_seconds > 0), 0))::int AS free
       FROM accounts a WHERE a.id = $1
     ), u AS (
       UPDATE calls SET status = 'ringing', last_heartbeat_at = now(), dialed_at = now(), updated_at = now(),
         caller_line = (SELECT k FROM line), wait_lines = NULL,
         held_seconds = held_seconds + CASE WHEN f.free >= $7::int THEN LEAST($6::int, f.free) ELSE 0 END
       FROM f, live
       WHERE calls.id = $2 AND calls.status = 'queued' AND calls.cancel_requested_at IS NULL
         AND live.n < $3::int AND (cardinality($4::text[]) = 0 OR EXISTS (SELECT 1 FROM line))
       RETURNING calls.held_seconds
     )
     SELECT live.n AS live, (SELECT k FROM line) AS line, f.free, (SELECT held_seconds FROM u) AS held FROM live, f`,
    [req.accountId, req.callId, locked[0]?.cap ?? req.defaultCap, req.lines.map((l) => l.key), req.lines.map((l) => l.lines),
      req.holdChunk, req.holdMinimum]);
  const r = rows[0];
  if (r && r.held !== null) {
    return { kind: "claimed", line: req.lines.find((l) => l.key === r.line) ?? null, free: Number(r.free), held: Number(r.held) };
  }
  if (!r || r.live >= (locked[0]?.cap ?? req.defaultCap)) return { kind: "full", lines: null };
  return { kind: "full", lines: limited.map((l) => l.key) };
}

/**
 * Parks a queued call that found no place: no job, until the end of a call hands it one (wakeWaiting) or the sweep
 * looks again. One parked for a line leaves the account's place it found free to the next call parked for one.
 */
export async function parkCall(ctx: AppContext, client: Queryable, accountId: string, callId: string, lines: string[] | null): Promise<void> {
  await queryPrepared(client, "wakha_park_call",
    "UPDATE calls SET deferred_until = 'infinity', wait_lines = $2, deferrals = deferrals + 1, updated_at = now() WHERE id = $1",
    [callId, lines]);
  if (lines) await wakeForPlace(ctx, client, accountId);
}

/** The oldest call parked for the account's place gets a job due now and holds that place (the caller holds the account's lock). */
async function wakeForPlace(ctx: AppContext, client: Queryable, accountId: string): Promise<void> {
  const { rows } = await queryPrepared<{ id: string }>(client, "wakha_wake_place",
    `UPDATE calls SET deferred_until = now() WHERE id = (
       SELECT id FROM calls WHERE account_id = $1 AND status = 'queued' AND deferred_until = 'infinity' AND wait_lines IS NULL
       ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id`, [accountId]);
  if (rows[0]) await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: rows[0].id }, { id: randomUUID() });
}

/** The oldest call (of any account) parked for `line` gets a job due now. */
async function wakeForLine(ctx: AppContext, client: Queryable, line: string): Promise<void> {
  const { rows } = await queryPrepared<{ id: string }>(client, "wakha_wake_line",
    `UPDATE calls SET deferred_until = now() WHERE id = (
       SELECT id FROM calls WHERE status = 'queued' AND deferred_until = 'infinity' AND wait_lines @> ARRAY[$1::text]
       ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id`, [line]);
  if (rows[0]) await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: rows[0].id }, { id: randomUUID() });
}

/**
 * A call of the account ended (on `line` when it had one): its place and its line go to the oldest calls parked for
 * them, in the transaction that ends it. Takes the account's lock then the line's, like a claim, so a claim that
 * counted the call as live has parked its call before this looks (no wake is missed).
 */
export async function wakeWaiting(ctx: AppContext, client: Queryable, accountId: string, line: string | null, lineLimited: boolean): Promise<void> {
  await queryPrepared(client, "wakha_lock_account", "SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [accountId]);
  await wakeForPlace(ctx, client, accountId);
  if (!line || !lineLimited) return;
  await lockLines(client, [line]);
  await wakeForLine(ctx, client, line);
}

/**
 * The sweep's safety net: calls parked longer than PARK_RECHECK_SECONDS get a job due now, oldest first, at most
 * `limit` (a wake lost to a crash between a claim and an end, or a cap raised meanwhile). Returns how many.
 */
export async function recheckParked(ctx: AppContext, limit: number): Promise<number> {
  return ctx.db.tx(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `UPDATE calls SET deferred_until = now() WHERE id IN (
         SELECT id FROM calls WHERE status = 'queued' AND deferred_until = 'infinity'
           AND updated_at < now() - make_interval(secs => $1)
         ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`, [PARK_RECHECK_SECONDS, limit]);
    for (const { id } of rows) await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: id }, { id: randomUUID() });
    return rows.length;
  });
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
