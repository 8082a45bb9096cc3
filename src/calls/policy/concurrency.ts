// Concurrency caps (issue 15): at most N calls of an account ringing or in progress at once, and at most the line
// count of a caller number that has one (a GSM gateway's SIM slots). Both are given at the claim of a fetch of calls,
// under the accounts' row locks and the lines' advisory locks (lock order everywhere: the calls, the accounts, the
// lines by name), so two workers never both take the last place or line. A call that finds none is parked: it waits
// without a job, in order (seq). The end of a call wakes the oldest call parked for its place and its line; a
// dispatcher on each worker node hands out, under the locks, whatever places and lines those wakes missed; the sweep
// looks again at a call parked for over a minute. Parking costs one UPDATE in the claim's transaction, so a burst far
// over the cap costs each call one look and one wake, not one look every few seconds (the bench before:
// 2.16 looks per call, up to 26, each a transaction and a job, all under the account's lock).
import { randomUUID } from "node:crypto";
import type { AppContext } from "../../context.ts";
import { type Queryable, queryPrepared } from "../../db/pool.ts";
import { JOBS } from "../../jobs/catalogue.ts";
import { REQUIRED_SECONDS } from "../../domain/money.ts";
import type { CallerLineChoice } from "./lines.ts";

/**
 * A woken call's job goes before the calls not yet looked at (pg-boss fetches by priority, then age): it is older, and
 * it holds the place it was woken for, so a fetch of new calls would only find the account full and park them.
 */
function woken(): { id: string; priority: number } {
  return { id: randomUUID(), priority: 1 };
}

/**
 * Issue 31.3: the `wait_lines` of a call parked because the account's live calls hold all of its balance: it waits for
 * one of them to end (its hold frees) rather than failing `insufficient_balance` while the balance is not spent. Not a
 * caller line's key (those are `provider:number`).
 */
export const BALANCE_WAIT = "balance";

/** A call parked longer than this is looked at again by the sweep (a wake lost to a crash or a cap changed meanwhile). */
export const PARK_RECHECK_SECONDS = 60;

/**
 * A queued call's place in the scheduler, from `deferred_until` and `wait_lines`: a new call (both null); parked,
 * without a job, for the account's place (`infinity`, no lines) or for a line of `wait_lines` (`infinity`); woken for
 * the account's place (a time, no lines), which holds that place until its claim so no newer call takes it first; or
 * woken for a line (a time, with lines), which holds nothing.
 */
const HOLDS_PLACE = "(status <> 'queued' OR (deferred_until < 'infinity' AND wait_lines IS NULL))";

/** A queued call asking for a place, its row locked by the caller's transaction. */
export interface PlaceRequest {
  callId: string;
  accountId: string;
  phone: string;
  /** Its order among the account's calls: places go to the oldest first. */
  seq: number;
  /** The numbers the call may show (lines.ts callerLinesFor). */
  lines: CallerLineChoice[];
}

export type Admission =
  | { kind: "listed" }
  /** No place: the account is at its cap, or (`lines`) every line of the call's numbers is busy. Parked. */
  | { kind: "full"; lines: string[] | null }
  /** Claimed: the call is `ringing` on `line` (null when its carrier has no numbers configured) with its hold taken. */
  | { kind: "claimed"; line: CallerLineChoice | null; free: number; held: number };

export interface PlaceOptions {
  defaultCap: number;
  /** Seconds of balance the claim holds for each call (call-states.ts), taken only when at least `holdMinimum` are free. */
  holdChunk: number;
  holdMinimum: number;
}

/** Takes the advisory locks of `keys` (lines with a limit) in name order: the lock order of every claim and end. */
export async function lockLines(client: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await queryPrepared(
    client,
    "wakha_lock_lines",
    "SELECT pg_advisory_xact_lock(15, hashtext(k)) FROM (SELECT DISTINCT unnest($1::text[]) AS k ORDER BY 1) l",
    [keys],
  );
}

interface Counts {
  /** Places held per account by calls outside the batch. */
  live: Record<string, number> | null;
  /** Busy lines per number. */
  busy: Record<string, number> | null;
  /** Balance seconds not held by the account's live calls. */
  free: Record<string, number> | null;
  /** Balance seconds held by the account's live calls (issue 31.3). */
  held: Record<string, number> | null;
}

/**
 * Gives places to a batch of queued calls whose rows the caller's transaction has locked: every account's lock (in id
 * order), then every line's (in name order), then one statement that counts what is taken, so it sees every claim
 * committed before; the places then go to each account's oldest calls, each on the free line of its numbers with the
 * most room, with its hold on the balance. One transaction for the batch: the locks and the commit are paid once for
 * up to a fetch of calls, not once per call (a commit under the account's lock was the dial rate's ceiling).
 * Calls that find no place are parked; calls whose number was listed meanwhile come back `listed` for the caller to end.
 */
export async function takePlaces(
  ctx: AppContext,
  client: Queryable,
  calls: PlaceRequest[],
  options: PlaceOptions,
): Promise<Map<string, Admission>> {
  const out = new Map<string, Admission>();
  if (calls.length === 0) return out;
  const accountIds = [...new Set(calls.map((c) => c.accountId))].sort();
  const { rows: accounts } = await queryPrepared<{ id: string; cap: number | null }>(
    client,
    "wakha_place_accounts",
    "SELECT id, max_concurrent_calls AS cap FROM accounts WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE",
    [accountIds],
  );
  const { rows: listed } = await queryPrepared<{ account_id: string; phone_number: string }>(
    client,
    "wakha_place_listed",
    `SELECT d.account_id, d.phone_number FROM do_not_call d JOIN unnest($1::uuid[], $2::text[]) AS v(a, p)
       ON d.account_id = v.a AND d.phone_number = v.p`,
    [calls.map((c) => c.accountId), calls.map((c) => c.phone)],
  );
  const limits = new Map<string, number>();
  for (const c of calls) for (const l of c.lines) if (l.lines !== null) limits.set(l.key, l.lines);
  await lockLines(client, [...limits.keys()]);
  const { rows } = await queryPrepared<Counts>(
    client,
    "wakha_place_counts",
    `SELECT
       (SELECT json_object_agg(account_id, n) FROM (
          SELECT account_id, count(*)::int AS n FROM calls
          WHERE account_id = ANY($1::uuid[]) AND ended_at IS NULL AND ${HOLDS_PLACE} AND NOT (id = ANY($2::uuid[]))
          GROUP BY account_id) x) AS live,
       (SELECT json_object_agg(caller_line, n) FROM (
          SELECT caller_line, count(*)::int AS n FROM calls
          WHERE caller_line = ANY($3::text[]) AND ended_at IS NULL AND status <> 'queued' AND caller_line IS NOT NULL
          GROUP BY caller_line) y) AS busy,
       (SELECT json_object_agg(a.id, GREATEST(0, a.balance_seconds - COALESCE((SELECT sum(o.held_seconds) FROM calls o
            WHERE o.account_id = a.id AND o.ended_at IS NULL AND o.held_seconds > 0), 0))) FROM accounts a WHERE a.id = ANY($1::uuid[])) AS free,
       (SELECT json_object_agg(account_id, n) FROM (
          SELECT account_id, sum(held_seconds)::int AS n FROM calls
          WHERE account_id = ANY($1::uuid[]) AND ended_at IS NULL AND held_seconds > 0
          GROUP BY account_id) h) AS held`,
    [accountIds, calls.map((c) => c.callId), [...limits.keys()]],
  );
  const counts = rows[0]!;
  const busy = new Map(Object.entries(counts.busy ?? {}));
  const isListed = new Set(listed.map((l) => `${l.account_id} ${l.phone_number}`));
  const claimed: { id: string; line: string | null; held: number }[] = [];
  const parked: { id: string; lines: string }[] = [];
  for (const account of accounts) {
    let room = (account.cap ?? options.defaultCap) - (counts.live?.[account.id] ?? 0);
    let free = Number(counts.free?.[account.id] ?? 0);
    let held = Number(counts.held?.[account.id] ?? 0);
    for (const call of calls.filter((c) => c.accountId === account.id).sort((a, b) => a.seq - b.seq)) {
      if (isListed.has(`${call.accountId} ${call.phone}`)) {
        out.set(call.callId, { kind: "listed" });
        continue;
      }
      if (room <= 0) {
        out.set(call.callId, { kind: "full", lines: null });
        parked.push({ id: call.callId, lines: "" });
        continue;
      }
      // Issue 31.3: the balance is not spent but held by live calls: wait for one to end instead of failing. Only when
      // nothing is held and the free balance is under the minimum is the call claimed to end `insufficient_balance`.
      if (free < options.holdMinimum && held > 0) {
        out.set(call.callId, { kind: "full", lines: [BALANCE_WAIT] });
        parked.push({ id: call.callId, lines: BALANCE_WAIT });
        continue;
      }
      // The number with the most free lines (one without a limit first), then in the configured order.
      let line: CallerLineChoice | null = null;
      let best = 0;
      for (const l of call.lines) {
        const left = l.lines === null ? Number.POSITIVE_INFINITY : l.lines - (busy.get(l.key) ?? 0);
        if (left > best) [line, best] = [l, left];
      }
      if (call.lines.length > 0 && !line) {
        const lines = call.lines.filter((l) => l.lines !== null).map((l) => l.key);
        out.set(call.callId, { kind: "full", lines });
        parked.push({ id: call.callId, lines: lines.join(",") });
        continue;
      }
      room--;
      if (line && line.lines !== null) busy.set(line.key, (busy.get(line.key) ?? 0) + 1);
      const hold = free >= options.holdMinimum ? Math.min(options.holdChunk, free) : 0;
      out.set(call.callId, { kind: "claimed", line, free, held: hold });
      claimed.push({ id: call.callId, line: line?.key ?? null, held: hold });
      free -= hold;
      held += hold;
    }
    // Places left over (a call woken for one went to wait for a line instead): the oldest calls parked for one get them.
    if (room > 0) await wakeForPlace(ctx, client, account.id, room);
  }
  if (claimed.length) {
    await queryPrepared(
      client,
      "wakha_place_claim",
      `UPDATE calls c SET status = 'ringing', last_heartbeat_at = now(), dialed_at = now(), updated_at = now(),
         caller_line = v.line, wait_lines = NULL, held_seconds = c.held_seconds + v.held
       FROM unnest($1::uuid[], $2::text[], $3::int[]) AS v(id, line, held) WHERE c.id = v.id`,
      [claimed.map((c) => c.id), claimed.map((c) => c.line), claimed.map((c) => c.held)],
    );
  }
  if (parked.length) {
    // Parked without a job until the end of a call hands it a place (wakeWaiting) or the sweep looks again.
    await queryPrepared(
      client,
      "wakha_place_park",
      `UPDATE calls c SET deferred_until = 'infinity', wait_lines = NULLIF(string_to_array(v.lines, ','), '{}'),
         deferrals = c.deferrals + 1, updated_at = now()
       FROM unnest($1::uuid[], $2::text[]) AS v(id, lines) WHERE c.id = v.id`,
      [parked.map((p) => p.id), parked.map((p) => p.lines)],
    );
  }
  return out;
}

/**
 * The oldest `n` calls parked for the account's place get a job due now and hold a place each; returns how many. Given
 * `relay`, they get no job: their ids are pushed there for the caller to claim once its transaction has committed (the
 * sweep gives a job to a woken call left unclaimed, after QUEUED_GRACE_SECONDS, should the caller die first).
 */
async function wakeForPlace(
  ctx: AppContext,
  client: Queryable,
  accountId: string,
  n = 1,
  relay?: string[],
): Promise<number> {
  const { rows } = await queryPrepared<{ id: string }>(
    client,
    "wakha_wake_place",
    `UPDATE calls SET deferred_until = now() WHERE id IN (
       SELECT id FROM calls WHERE account_id = $1 AND status = 'queued' AND deferred_until = 'infinity' AND wait_lines IS NULL
       ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [accountId, n],
  );
  await handOver(ctx, client, rows, relay);
  return rows.length;
}

/** A place-call job for a woken call, due now, fetched before new calls' (for a woken call its relay could not claim). */
export async function enqueueWoken(ctx: AppContext, callId: string): Promise<void> {
  await ctx.queue.enqueue(ctx.db, JOBS.placeCall, { call_id: callId }, woken());
}

async function handOver(
  ctx: AppContext,
  client: Queryable,
  rows: { id: string }[],
  relay: string[] | undefined,
): Promise<void> {
  if (relay) relay.push(...rows.map((r) => r.id));
  else for (const { id } of rows) await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: id }, woken());
}

/** The oldest `n` calls (of any account) parked for `line` get a job due now; returns how many. */
async function wakeForLine(ctx: AppContext, client: Queryable, line: string, n = 1, relay?: string[]): Promise<number> {
  const { rows } = await queryPrepared<{ id: string }>(
    client,
    "wakha_wake_line",
    `UPDATE calls SET deferred_until = now() WHERE id IN (
       SELECT id FROM calls WHERE status = 'queued' AND deferred_until = 'infinity' AND wait_lines @> ARRAY[$1::text]
       ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [line, n],
  );
  await handOver(ctx, client, rows, relay);
  return rows.length;
}

/**
 * A call of the account ended (on `line` when it had one): its place and its line go to the oldest calls parked for
 * them, in the transaction that ends it. Without the account's or the line's lock, so an end holds no lock a claim
 * waits for: a call parked by a claim that counted this one as live and committed after this looked is woken by the
 * dispatcher (dispatchParked) within DISPATCH_EVERY_MS instead. A wake never over-fills: the claim counts under locks.
 * Given `relay`, the woken calls get no job: their ids go there, for the node that ended the call to claim (dialer.ts).
 */
export async function wakeWaiting(
  ctx: AppContext,
  client: Queryable,
  accountId: string,
  line: string | null,
  lineLimited: boolean,
  relay?: string[],
): Promise<void> {
  await wakeForPlace(ctx, client, accountId, 1, relay);
  if (line && lineLimited) await wakeForLine(ctx, client, line, 1, relay);
  // Its hold is released with this end (issue 31.3): the oldest call waiting for balance looks again.
  await wakeForBalance(ctx, client, accountId, 1, relay);
}

/** The oldest `n` calls of the account parked for balance (issue 31.3) get a job due now (or go to `relay`). */
async function wakeForBalance(
  ctx: AppContext,
  client: Queryable,
  accountId: string,
  n = 1,
  relay?: string[],
): Promise<number> {
  const { rows } = await queryPrepared<{ id: string }>(
    client,
    "wakha_wake_balance",
    `UPDATE calls SET deferred_until = now() WHERE id IN (
       SELECT id FROM calls WHERE account_id = $1 AND status = 'queued' AND deferred_until = 'infinity' AND wait_lines = '{balance}'::text[]
       ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [accountId, n],
  );
  await handOver(ctx, client, rows, relay);
  return rows.length;
}

/** How often each worker node hands free places and lines to parked calls (a wake the ends of calls missed). */
export const DISPATCH_EVERY_MS = 250;

/**
 * Hands free places and lines to parked calls: per account with calls parked for a place, under its lock, as many of
 * the oldest as it has places (cap minus live calls and calls woken for a place); per limited line with calls parked for
 * it, under its lock, as many as it has free lines not already promised to a woken call. Returns how many were woken.
 */
export async function dispatchParked(ctx: AppContext, limits: Map<string, number>): Promise<number> {
  let count = 0;
  const { rows: accounts } = await ctx.db.query<{ account_id: string }>(
    `SELECT DISTINCT account_id FROM calls WHERE status = 'queued' AND deferred_until = 'infinity' AND wait_lines IS NULL LIMIT 100`,
  );
  for (const { account_id } of accounts) {
    count += await ctx.db.tx(async (client) => {
      const { rows } = await client.query<{ room: number }>(
        "SELECT COALESCE(max_concurrent_calls, $2::int) AS room FROM accounts WHERE id = $1 FOR NO KEY UPDATE",
        [account_id, ctx.config.WAKHA_MAX_CONCURRENT_CALLS],
      );
      const { rows: held } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM calls WHERE account_id = $1 AND ended_at IS NULL AND ${HOLDS_PLACE}`,
        [account_id],
      );
      const room = (rows[0]?.room ?? 0) - (held[0]?.n ?? 0);
      return room > 0 ? wakeForPlace(ctx, client, account_id, room) : 0;
    });
  }
  count += await dispatchBalanceWaits(ctx);
  const { rows: lines } = await ctx.db.query<{ line: string }>(
    `SELECT DISTINCT unnest(wait_lines) AS line FROM calls WHERE status = 'queued' AND deferred_until = 'infinity' AND wait_lines IS NOT NULL LIMIT 100`,
  );
  for (const { line } of lines) {
    const limit = limits.get(line);
    if (limit === undefined) continue; // no longer limited here: the sweep's second look wakes its calls
    count += await ctx.db.tx(async (client) => {
      await lockLines(client, [line]);
      const { rows } = await client.query<{ busy: number; promised: number }>(
        `SELECT (SELECT count(*)::int FROM calls WHERE caller_line = $1 AND ended_at IS NULL AND status <> 'queued' AND caller_line IS NOT NULL) AS busy,
           (SELECT count(*)::int FROM calls WHERE status = 'queued' AND deferred_until < 'infinity' AND wait_lines @> ARRAY[$1::text]) AS promised`,
        [line],
      );
      const free = limit - (rows[0]?.busy ?? 0) - (rows[0]?.promised ?? 0);
      return free > 0 ? wakeForLine(ctx, client, line, free) : 0;
    });
  }
  return count;
}

/**
 * Issue 31.3: per account with calls parked for balance and none woken for it yet, under the account's lock: as many of
 * the oldest as the free balance can give a hold to (one hold chunk each, at least one when the minimum is free); or,
 * when no live call holds anything and the free balance is under the minimum, a batch of them, to end
 * `insufficient_balance` (nothing will free a hold for them). A credit is picked up here too.
 */
async function dispatchBalanceWaits(ctx: AppContext): Promise<number> {
  let count = 0;
  const { rows: accounts } = await ctx.db.query<{ account_id: string }>(
    `SELECT DISTINCT account_id FROM calls WHERE status = 'queued' AND deferred_until = 'infinity' AND wait_lines = '{balance}'::text[] LIMIT 100`,
  );
  for (const { account_id } of accounts) {
    count += await ctx.db.tx(async (client) => {
      await client.query("SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE", [account_id]);
      const { rows } = await client.query<{ balance: number; held: number; promised: number }>(
        `SELECT a.balance_seconds AS balance,
           (SELECT COALESCE(sum(held_seconds), 0)::int FROM calls WHERE account_id = a.id AND ended_at IS NULL AND held_seconds > 0) AS held,
           (SELECT count(*)::int FROM calls WHERE account_id = a.id AND status = 'queued' AND deferred_until < 'infinity' AND wait_lines = '{balance}'::text[]) AS promised
         FROM accounts a WHERE a.id = $1`,
        [account_id],
      );
      const r = rows[0];
      if (!r || r.promised > 0) return 0;
      const free = Math.max(0, Number(r.balance) - r.held);
      const n = free >= REQUIRED_SECONDS ? Math.ceil(free / BALANCE_WAKE_CHUNK) : r.held === 0 ? 100 : 0;
      return n > 0 ? wakeForBalance(ctx, client, account_id, n) : 0;
    });
  }
  return count;
}

/** The hold a woken call is expected to take (call-states.ts HOLD_CHUNK_SECONDS): how many one free balance may start. */
const BALANCE_WAKE_CHUNK = 60;

/**
 * The sweep's safety net: calls parked longer than PARK_RECHECK_SECONDS get a job due now, oldest first, at most
 * `limit` (a wake lost to a crash between a claim and an end, or a cap raised meanwhile). Returns how many.
 */
export async function recheckParked(
  ctx: AppContext,
  limit: number,
  afterSeconds = PARK_RECHECK_SECONDS,
): Promise<number> {
  return ctx.db.tx(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `UPDATE calls SET deferred_until = now() WHERE id IN (
         SELECT id FROM calls WHERE status = 'queued' AND deferred_until = 'infinity'
           AND updated_at < now() - make_interval(secs => $1)
         ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [afterSeconds, limit],
    );
    for (const { id } of rows) await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: id }, woken());
    return rows.length;
  });
}

/** Sets an account's cap; null goes back to the installation's default. */
export async function setConcurrencyCap(
  db: Queryable,
  accountId: string,
  cap: number | null,
): Promise<{ account_id: string; max_concurrent_calls: number | null }> {
  const { rows } = await db
    .query<{ id: string; max_concurrent_calls: number | null }>(
      "UPDATE accounts SET max_concurrent_calls = $2 WHERE id = $1 RETURNING id, max_concurrent_calls",
      [accountId, cap],
    )
    .catch((err: { code?: string }) => {
      if (err.code === "22P02") return { rows: [] }; // not a uuid: same answer as an unknown account
      throw err;
    });
  if (!rows[0]) throw new Error(`no account ${accountId}`);
  return { account_id: rows[0].id, max_concurrent_calls: rows[0].max_concurrent_calls };
}
