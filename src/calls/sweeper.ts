// Crash recovery (issue 5 item 1): a worker killed mid-call stops refreshing its calls' heartbeat. The
// sweep (every SWEEP_EVERY_MS on each worker node, and the sweep-calls job every minute) ends such calls as failed with end_reason
// worker_lost, billed exactly once for the carrier's seconds, or from its answer to the time of loss; and it re-enqueues
// queued calls whose place-call job was lost.
import type { AppContext } from "../context.ts";
import { JOBS } from "../jobs/catalogue.ts";
import { QUEUE_SCHEMA } from "../jobs/queue.ts";
import { billingTimeScale, emitCallEvent, lineIsLimited } from "./call-states.ts";
import { PARK_RECHECK_SECONDS, enqueueWoken, recheckParked, wakeWaiting } from "./policy/concurrency.ts";
import type { Country } from "../domain/locale.ts";
import { failureDetails } from "../domain/end-reasons.ts";
import { debitCall } from "./billing.ts";

/** Wall-clock heartbeat of a live call (the dialer's; the sweep below relies on it). */
export const HEARTBEAT_MS = 5_000;
/**
 * A live call whose heartbeat is this old is taken for lost (heartbeats come every HEARTBEAT_MS). With a sweep every
 * SWEEP_EVERY_MS, a lost call is ended within STALE_AFTER_SECONDS + 10 s of its last heartbeat: inside the
 * minute the README promises (issue 20 measured 107 s with a 60 s threshold and the minute cron alone).
 */
export const STALE_AFTER_SECONDS = 25;
/** How often each worker node sweeps, besides the minute cron (which stays as the fallback of every node). */
export const SWEEP_EVERY_MS = 10_000;
/** A queued call gets this long for its job to be picked up before the sweep looks at the job. */
const QUEUED_GRACE_SECONDS = 120;
const BATCH = 200;

/**
 * The crash recovery's clock, compressed by WAKHA_RECOVERY_TIME_SCALE (tests only; 1 in production): every interval
 * divided by the same factor, so a lost call is still noticed after five missed heartbeats, by a sweep twice as
 * often as that, and a woken call is still given a job only once it has waited 24 heartbeats.
 */
export function recoveryClock(config: Pick<AppContext["config"], "WAKHA_RECOVERY_TIME_SCALE">): {
  heartbeatMs: number;
  staleAfterSeconds: number;
  sweepEveryMs: number;
  queuedGraceSeconds: number;
  parkRecheckSeconds: number;
} {
  const scale = config.WAKHA_RECOVERY_TIME_SCALE;
  return {
    heartbeatMs: HEARTBEAT_MS / scale,
    staleAfterSeconds: STALE_AFTER_SECONDS / scale,
    sweepEveryMs: SWEEP_EVERY_MS / scale,
    queuedGraceSeconds: QUEUED_GRACE_SECONDS / scale,
    parkRecheckSeconds: PARK_RECHECK_SECONDS / scale,
  };
}

export interface SweepReport {
  /** Live calls ended as worker_lost. */
  ended: number;
  /** Queued calls whose job was put back. */
  requeued: number;
  /** Calls parked for a place (issue 15) looked at again after PARK_RECHECK_SECONDS. */
  rechecked: number;
}

/** Runs one sweep; safe to run on several nodes at once (rows are locked and re-checked). */
export async function sweepCalls(
  ctx: AppContext,
  staleAfterSeconds = recoveryClock(ctx.config).staleAfterSeconds,
): Promise<SweepReport> {
  const { rows: stale } = await ctx.db.query<{ id: string }>(
    `SELECT id FROM calls WHERE ended_at IS NULL AND status IN ('ringing', 'in_progress', 'canceled')
       AND COALESCE(last_heartbeat_at, updated_at) < now() - make_interval(secs => $1) LIMIT $2`,
    [staleAfterSeconds, BATCH],
  );
  let ended = 0;
  for (const { id } of stale) if (await endLostCall(ctx, id, staleAfterSeconds)) ended++;
  return {
    ended,
    requeued: await requeueLostJobs(ctx),
    rechecked: await recheckParked(ctx, BATCH, recoveryClock(ctx.config).parkRecheckSeconds),
  };
}

/** Ends one lost call in one transaction: status, billing from the last heartbeat, call.ended. */
async function endLostCall(ctx: AppContext, callId: string, staleAfterSeconds: number): Promise<boolean> {
  return ctx.db.tx(async (client) => {
    const { rows } = await client.query<{
      account_id: string;
      status: string;
      answered_at: Date | null;
      answered_seconds: number | null;
      carrier_seconds: number | null;
      caller_line: string | null;
      channel: string;
      country: Country;
      lost_wall: number | null;
    }>(
      `SELECT account_id, status, answered_at, answered_seconds, carrier_seconds, caller_line, channel, country,
         EXTRACT(EPOCH FROM LEAST(clock_timestamp(), GREATEST(COALESCE(last_heartbeat_at, answered_at), answered_at) + make_interval(secs => $3))
           - answered_at)::float8 AS lost_wall
       FROM calls
       WHERE id = $1 AND ended_at IS NULL AND status IN ('ringing', 'in_progress', 'canceled')
         AND COALESCE(last_heartbeat_at, updated_at) < now() - make_interval(secs => $2)
       FOR UPDATE SKIP LOCKED`,
      [callId, staleAfterSeconds, recoveryClock(ctx.config).heartbeatMs / 2000],
    );
    const call = rows[0];
    if (!call) return false; // settled meanwhile, alive again, or being swept by another node
    // A real carrier's own count, when its final callback reached any node, is what the call really lasted (bounded by
    // the wall clock when it was recorded, issue 31.1). Otherwise (issue 31.4) the recorded answer time to the time of
    // loss: the line was alive at the last heartbeat and would have beaten again one interval later, so it was lost in
    // between, taken at its middle (never past now); never less than the connected seconds the last heartbeat saw. A
    // call answered within its last heartbeat is no longer billed 0.
    const lostAt = call.answered_at
      ? Math.ceil(Math.max(0, call.lost_wall ?? 0) * billingTimeScale(ctx.config, call.channel))
      : 0;
    const connected = call.answered_at ? (call.carrier_seconds ?? Math.max(call.answered_seconds ?? 0, lostAt)) : 0;
    const debit = connected > 0 ? await debitCall(client, call.account_id, callId, connected) : { seconds: 0 };
    // A call the API canceled keeps that status; any other becomes failed. Its line ended after the last heartbeat.
    await client.query(
      `UPDATE calls SET status = CASE WHEN status = 'canceled' THEN 'canceled' ELSE 'failed' END,
         end_reason = CASE WHEN status = 'canceled' THEN 'canceled' ELSE 'worker_lost' END, outcome = NULL,
         outcome_details = CASE WHEN status = 'canceled' THEN NULL ELSE $6::jsonb END,
         ended_at = CASE WHEN $4::boolean THEN answered_at + make_interval(secs => $5)
           ELSE GREATEST(COALESCE(last_heartbeat_at, updated_at), COALESCE(answered_at, created_at)) END,
         duration_seconds = $2, answered_seconds = $2, billed_seconds = $3, updated_at = now()
       WHERE id = $1`,
      [
        callId,
        connected,
        debit.seconds,
        call.answered_at !== null && call.carrier_seconds === null,
        Math.max(0, call.lost_wall ?? 0),
        failureDetails("worker_lost"),
      ],
    );
    // Its place and its line are free now (issue 15): the oldest calls waiting for them are woken.
    await wakeWaiting(ctx, client, call.account_id, call.caller_line, lineIsLimited(ctx, call));
    await emitCallEvent(ctx, client, call.account_id, callId, "call.ended");
    return true;
  });
}

/**
 * Puts back the place-call job of queued calls whose job is gone or dead (failed after its retries,
 * completed or cancelled without the call moving). The job keeps the call's id, so a cancel still finds it.
 */
async function requeueLostJobs(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.query<{ id: string; state: string | null; scheduled_at: Date | null }>(
    `SELECT c.id, j.state, c.scheduled_at FROM calls c
       LEFT JOIN ${QUEUE_SCHEMA}.job j ON j.name = $1 AND j.id = c.id
     WHERE c.status = 'queued' AND c.ended_at IS NULL AND c.cancel_requested_at IS NULL
       AND c.created_at < now() - make_interval(secs => $2)
       -- A call parked for a place has no job by design (recheckParked looks at it); one woken for a place has a job of its
       -- own id (issue 15): looked at once that is overdue too.
       AND (c.deferred_until IS NULL OR c.deferred_until < now() - make_interval(secs => $2))
       -- Nor one held until its calling hours open (or scheduled), before that time.
       AND (c.scheduled_at IS NULL OR c.scheduled_at < now() - make_interval(secs => $2))
       AND (j.id IS NULL OR j.state IN ('completed', 'cancelled', 'failed')
         -- Woken with a relay for the node that ended a call, which died before claiming it: its own job is still
         -- \`active\` in that node's fetch (the one that parked it, started before the wake), and would stay so until
         -- pg-boss expires it (30 minutes).
         OR (j.state = 'active' AND c.deferred_until < 'infinity' AND j.started_on < c.deferred_until))
     LIMIT $3`,
    [JOBS.placeCall.name, recoveryClock(ctx.config).queuedGraceSeconds, BATCH],
  );
  for (const { id, state, scheduled_at } of rows) {
    if (state === "active") {
      // That job belongs to a fetch we cannot finish: a woken call's job of its own, fetched before new calls'. Should
      // that node be alive after all, the claim is atomic: one of the two finds the call no longer queued. The wake's
      // time moves to now first, so the next sweeps give it one more job only if this one too is not claimed in time.
      await ctx.db.query(
        "UPDATE calls SET deferred_until = now() WHERE id = $1 AND status = 'queued' AND deferred_until < 'infinity'",
        [id],
      );
      await enqueueWoken(ctx, id);
      continue;
    }
    if (state === "failed") {
      await ctx.queue.boss.retry(JOBS.placeCall.name, id);
      continue;
    }
    if (state) await ctx.queue.boss.deleteJob(JOBS.placeCall.name, id);
    // A scheduled call's job waits for its time again (issue 15).
    await ctx.queue.enqueue(
      ctx.db,
      JOBS.placeCall,
      { call_id: id },
      { id, ...(scheduled_at && scheduled_at.getTime() > ctx.now() ? { startAfter: scheduled_at } : {}) },
    );
  }
  return rows.length;
}
