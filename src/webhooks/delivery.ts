// One delivery attempt of an outbound event: send, record, then schedule the next attempt or settle it.
import type { AppContext } from "../context.ts";
import { type Queryable, queryPrepared } from "../db/pool.ts";
import { JOBS } from "../jobs/catalogue.ts";
import { sendWebhook, type SendResult } from "./sender.ts";
import { signWebhook } from "./signature.ts";

export const USER_AGENT = "Wakha-Webhooks/1";
const MAX_ERROR_CHARS = 500;

interface DeliveryRow {
  id: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  webhook_id: string;
  url: string;
  secret_sealed: string;
  webhook_status: "active" | "deleted" | "disabled";
  event_id: string;
  event_type: string;
  payload: string;
  event_created_at: Date;
}

/** What became of an attempt: `stale` when the job was no longer due (already settled or superseded). */
export type AttemptOutcome = "stale" | "delivered" | "retrying" | "failed";

/**
 * The exact body of an event: the stored `data` bytes inside the envelope of CONTRACT §6, identical at every
 * retry (only the signature's timestamp changes).
 */
export function envelope(event: { id: string; type: string; created_at: Date; payload: string }): string {
  const head = JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    api_version: "1",
  });
  return `${head.slice(0, -1)},"data":${event.payload}}`;
}

// One statement loads a whole batch (named: planned once per connection).
async function load(db: Queryable, deliveryIds: string[]): Promise<DeliveryRow[]> {
  const { rows } = await queryPrepared<DeliveryRow>(
    db,
    "webhook_deliveries_load",
    `SELECT d.id, d.status, d.attempts, d.webhook_id, w.url, w.secret_sealed, w.status AS webhook_status,
            e.id AS event_id, e.type AS event_type, e.payload::text AS payload, e.created_at AS event_created_at
     FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN webhook_events e ON e.id = d.event_id
     WHERE d.id = ANY($1::uuid[])`,
    [deliveryIds],
  );
  return rows;
}

/** Settles a pending delivery as failed without sending (webhook gone, secret unreadable). */
async function abandon(ctx: AppContext, row: DeliveryRow, reason: string): Promise<AttemptOutcome> {
  const at = new Date(ctx.now());
  const { rowCount } = await ctx.db.query(
    `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $3, failed_at = $4, updated_at = $4
     WHERE id = $1 AND status = 'pending' AND attempts = $2`,
    [row.id, row.attempts, reason, at],
  );
  return rowCount ? "failed" : "stale";
}

function errorText(result: SendResult): string | null {
  const code = result.statusCode;
  let text = result.error;
  if (code !== null && code >= 300 && code < 400)
    text = `redirect not followed: the receiver answered ${code}${result.location ? ` to ${result.location}` : ""}`;
  else if (code !== null && (code < 200 || code >= 300))
    text = `the receiver answered ${code}${code === 410 ? " Gone: the webhook is now disabled" : ""}`;
  return text === null ? null : text.slice(0, MAX_ERROR_CHARS);
}

/**
 * Makes attempt number `attempt` of a delivery, if it is still due: a pending delivery with attempt - 1
 * attempts recorded. A 2xx delivers; a 410 fails it and disables the webhook; anything else schedules the
 * next attempt after the WAKHA_WEBHOOK_RETRY_SCHEDULE delay, or fails it once the schedule is spent (the
 * failed deliveries are the dead-letter queue). A crash between the POST and the record re-sends the same
 * event id (at least once).
 */
export async function attemptDelivery(ctx: AppContext, deliveryId: string, attempt: number): Promise<AttemptOutcome> {
  return (await attemptDeliveries(ctx, [{ deliveryId, attempt }]))[0]!;
}

/** One due attempt, between its POST and its record. */
interface Sent {
  row: DeliveryRow;
  attempt: number;
  result: SendResult;
  startedAt: Date;
  outcome: Exclude<AttemptOutcome, "stale">;
  nextAt: Date | null;
}

/**
 * attemptDelivery for a batch of jobs (the worker's): one statement loads them, the POSTs go out together, and
 * one statement records every delivered or spent attempt; a retry (its next job in the same transaction) or a
 * 410 (the webhook disabled) is recorded on its own. Returns each job's outcome, in order.
 */
export async function attemptDeliveries(
  ctx: AppContext,
  jobs: { deliveryId: string; attempt: number }[],
): Promise<AttemptOutcome[]> {
  if (!ctx.secretBox) throw new Error("WAKHA_ENCRYPTION_KEY is not set: webhook deliveries cannot be signed");
  const box = ctx.secretBox;
  const rows = new Map((await load(ctx.db, [...new Set(jobs.map((j) => j.deliveryId))])).map((r) => [r.id, r]));
  const outcomes: AttemptOutcome[] = jobs.map(() => "stale");
  const secrets = new Map<string, string | null>();
  const claimed = new Set<string>();
  const sending: Promise<void>[] = [];
  const sent: { index: number; sent: Sent }[] = [];
  for (const [index, { deliveryId, attempt }] of jobs.entries()) {
    const row = rows.get(deliveryId);
    // Two jobs for the same due attempt in one batch (a requeued one beside a late original): one sends.
    if (row?.status !== "pending" || row.attempts !== attempt - 1 || claimed.has(row.id)) continue;
    claimed.add(row.id);
    if (row.webhook_status !== "active") {
      sending.push(
        abandon(ctx, row, `the webhook was ${row.webhook_status} before this attempt`).then(
          (o) => void (outcomes[index] = o),
        ),
      );
      continue;
    }
    if (!secrets.has(row.secret_sealed)) {
      let secret: string | null = null;
      try {
        secret = box.open(row.secret_sealed);
      } catch {
        // null: unreadable
      }
      secrets.set(row.secret_sealed, secret);
    }
    const secret = secrets.get(row.secret_sealed);
    if (!secret) {
      sending.push(
        abandon(
          ctx,
          row,
          "the webhook secret cannot be unsealed (WAKHA_ENCRYPTION_KEY changed?); delete and create the webhook again",
        ).then((o) => void (outcomes[index] = o)),
      );
      continue;
    }
    sending.push(send(ctx, row, attempt, secret).then((s) => void sent.push({ index, sent: s })));
  }
  await Promise.all(sending);

  // Delivered, or failed at the end of the schedule without a 410: one statement for all of them.
  const simple = sent.filter(({ sent: s }) => s.nextAt === null && s.result.statusCode !== 410);
  if (simple.length) {
    const recorded = await recordSettled(
      ctx,
      simple.map((x) => x.sent),
    );
    for (const { index, sent: s } of simple) outcomes[index] = recorded.has(s.row.id) ? s.outcome : "stale";
  }
  await Promise.all(
    sent
      .filter((x) => !simple.includes(x))
      .map(async ({ index, sent: s }) => {
        outcomes[index] = await recordOne(ctx, s);
      }),
  );
  return outcomes;
}

async function send(ctx: AppContext, row: DeliveryRow, attempt: number, secret: string): Promise<Sent> {
  const body = envelope({
    id: row.event_id,
    type: row.event_type,
    created_at: row.event_created_at,
    payload: row.payload,
  });
  const startedAt = new Date(ctx.now());
  const result = await sendWebhook(
    row.url,
    body,
    {
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
      "X-Service-Signature": signWebhook(secret, body, Math.floor(startedAt.getTime() / 1000)),
      "X-Service-Event-Id": row.event_id,
      "X-Service-Event-Type": row.event_type,
    },
    { allowPrivate: ctx.config.WAKHA_WEBHOOK_ALLOW_PRIVATE },
  );
  const code = result.statusCode;
  const schedule = ctx.config.WAKHA_WEBHOOK_RETRY_SCHEDULE;
  let outcome: Sent["outcome"];
  if (code !== null && code >= 200 && code < 300) outcome = "delivered";
  else if (code === 410 || attempt > schedule.length) outcome = "failed";
  else outcome = "retrying";
  const nextAt = outcome === "retrying" ? new Date(ctx.now() + schedule[attempt - 1]! * 1000) : null;
  return { row, attempt, result, startedAt, outcome, nextAt };
}

/** Records settled attempts (no next job, no 410) in one statement; returns the ids whose attempt was still due. */
async function recordSettled(ctx: AppContext, batch: Sent[]): Promise<Set<string>> {
  const at = new Date(ctx.now());
  const { rows } = await queryPrepared<{ id: string }>(
    ctx.db,
    "webhook_deliveries_settle",
    `WITH u AS (
       SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::int[], $5::text[], $6::timestamptz[], $7::int[], $8::text[])
         AS u(id, attempt, status, code, error, started_at, duration_ms, excerpt)),
     d AS (
       UPDATE webhook_deliveries w SET status = u.status, attempts = u.attempt, next_attempt_at = NULL, last_status_code = u.code,
              last_error = u.error, updated_at = $9::timestamptz,
              delivered_at = CASE WHEN u.status = 'delivered' THEN $9::timestamptz END,
              failed_at = CASE WHEN u.status = 'failed' THEN $9::timestamptz END
       FROM u WHERE w.id = u.id AND w.status = 'pending' AND w.attempts = u.attempt - 1 RETURNING w.id),
     a AS (
       INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, response_excerpt, error)
       SELECT u.id, u.attempt, u.started_at, u.duration_ms, u.code, u.excerpt, u.error FROM u JOIN d ON d.id = u.id)
     SELECT id FROM d`,
    [
      batch.map((s) => s.row.id),
      batch.map((s) => s.attempt),
      batch.map((s) => s.outcome),
      batch.map((s) => s.result.statusCode),
      batch.map((s) => errorText(s.result)),
      batch.map((s) => s.startedAt),
      batch.map((s) => s.result.durationMs),
      batch.map((s) => s.result.excerpt),
      at,
    ],
  );
  return new Set(rows.map((r) => r.id));
}

/** Records one attempt that schedules a retry (with its next job, in one transaction) or got a 410. */
async function recordOne(ctx: AppContext, s: Sent): Promise<AttemptOutcome> {
  const { row, attempt, result, startedAt, outcome, nextAt } = s;
  const code = result.statusCode;
  const at = new Date(ctx.now());
  const record = async (client: Queryable): Promise<boolean> => {
    // One statement: the delivery's new state (only if this attempt is still the due one), the attempt's
    // record, and on a 410 the webhook disabled with its other pending deliveries.
    const { rows } = await client.query<{ n: number }>(
      `WITH d AS (
         UPDATE webhook_deliveries SET status = $3, attempts = $2, next_attempt_at = $4, last_status_code = $5, last_error = $6,
                updated_at = $7::timestamptz, delivered_at = CASE WHEN $3 = 'delivered' THEN $7::timestamptz END,
                failed_at = CASE WHEN $3 = 'failed' THEN $7::timestamptz END
         WHERE id = $1 AND status = 'pending' AND attempts = $2 - 1 RETURNING id),
       a AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, response_excerpt, error)
         SELECT id, $2, $8, $9, $5, $10, $6 FROM d),
       w AS (
         UPDATE webhooks SET status = 'disabled', disabled_reason = $12, updated_at = $7::timestamptz
         WHERE id = $11 AND status = 'active' AND $5::int = 410 AND EXISTS (SELECT 1 FROM d)),
       others AS (
         UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, failed_at = $7::timestamptz, updated_at = $7::timestamptz,
                last_error = 'the webhook was disabled (410 Gone) before this delivery succeeded'
         WHERE webhook_id = $11 AND status = 'pending' AND id <> $1 AND $5::int = 410 AND EXISTS (SELECT 1 FROM d))
       SELECT count(*)::int AS n FROM d`,
      [
        row.id,
        attempt,
        outcome === "retrying" ? "pending" : outcome,
        nextAt,
        code,
        errorText(result),
        at,
        startedAt,
        result.durationMs,
        result.excerpt,
        row.webhook_id,
        `The receiver answered 410 Gone to event ${row.event_id} on ${at.toISOString()}.`,
      ],
    );
    return rows[0]!.n === 1;
  };
  // Another runner may have recorded this attempt first (a job re-run after a stall): its record stands.
  if (!nextAt) return (await record(ctx.db)) ? outcome : "stale";
  return ctx.db.tx(async (client) => {
    if (!(await record(client))) return "stale";
    await ctx.queue.enqueue(
      client,
      JOBS.deliverWebhook,
      { delivery_id: row.id, attempt: attempt + 1 },
      { startAfter: nextAt },
    );
    return outcome;
  });
}

/**
 * A pending delivery this far past its due time has lost its job (pg-boss gave up on a crashing attempt, or the
 * job was lost with its node): longer than every retry pg-boss itself would still make.
 */
export const STUCK_AFTER_SECONDS = 30 * 60;

/**
 * Puts back the job of each pending delivery that is long overdue, for its next attempt. Safe to run on several
 * nodes and next to a late original job: only the attempt that is still due is recorded (attemptDelivery).
 */
export async function requeueStuckDeliveries(
  ctx: AppContext,
  stuckAfterSeconds = STUCK_AFTER_SECONDS,
): Promise<number> {
  const { rows } = await ctx.db.query<{ id: string; attempts: number }>(
    `SELECT id, attempts FROM webhook_deliveries
     WHERE status = 'pending' AND COALESCE(next_attempt_at, created_at) < $1::timestamptz - make_interval(secs => $2)
     ORDER BY next_attempt_at LIMIT 200`,
    [new Date(ctx.now()), stuckAfterSeconds],
  );
  for (const row of rows) {
    await ctx.db.tx(async (client) => {
      // Push the due time forward first, so the next sweep does not queue it again while this job waits.
      const { rowCount } = await client.query(
        "UPDATE webhook_deliveries SET next_attempt_at = $3, updated_at = $3 WHERE id = $1 AND status = 'pending' AND attempts = $2",
        [row.id, row.attempts, new Date(ctx.now())],
      );
      if (rowCount)
        await ctx.queue.enqueue(client, JOBS.deliverWebhook, { delivery_id: row.id, attempt: row.attempts + 1 });
    });
  }
  return rows.length;
}
