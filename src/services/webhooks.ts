import { randomUUID } from "node:crypto";
import type { AppContext, Principal } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import { JOBS } from "../jobs/catalogue.ts";
import { DELIVERY_STATUSES, type DeliveryStatus, type EventType } from "../domain/webhooks.ts";
import { ApiError } from "../errors.ts";
import type { Page, PageInput } from "../pagination.ts";
import type { DeliveryOut } from "../schemas/deliveries.ts";
import type { CreatedWebhook, WebhookOut } from "../schemas/webhooks.ts";
import { AddressRejected, checkWebhookUrl } from "../net/address-guard.ts";
import { attemptDelivery } from "../webhooks/delivery.ts";
import { recordEvent } from "../webhooks/events.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { newWebhookSecret } from "../webhooks/signature.ts";

// If the process dies between committing a test event and its inline attempt, this job sends it instead.
const TEST_FALLBACK_DELAY_MS = 30_000;

interface WebhookRow {
  id: string;
  url: string;
  description: string | null;
  created_at: Date;
}

interface DeliveryRow {
  id: string;
  seq: number;
  event_id: string;
  event_type: EventType;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
  failed_at: Date | null;
  last_started_at: Date | null;
  last_duration_ms: number | null;
  last_response_excerpt: string | null;
}

const DELIVERY_SELECT = `
  SELECT d.id, d.seq, d.event_id, e.type AS event_type, w.url, d.status, d.attempts, d.last_status_code, d.last_error,
         d.next_attempt_at, d.created_at, d.delivered_at, d.failed_at,
         a.started_at AS last_started_at, a.duration_ms AS last_duration_ms, a.response_excerpt AS last_response_excerpt
  FROM webhook_deliveries d
  JOIN webhook_events e ON e.id = d.event_id
  JOIN webhooks w ON w.id = d.webhook_id
  LEFT JOIN LATERAL (SELECT started_at, duration_ms, response_excerpt FROM webhook_attempts
                     WHERE delivery_id = d.id ORDER BY attempt DESC, id DESC LIMIT 1) a ON true`;

function toWebhookOut(row: WebhookRow): WebhookOut {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    status: "active",
    created_at: row.created_at.toISOString(),
  };
}

function toDeliveryOut(row: DeliveryRow): DeliveryOut {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    last_attempt_at: row.last_started_at?.toISOString() ?? null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_response_excerpt: row.last_response_excerpt,
    last_duration_ms: row.last_duration_ms,
    next_attempt_at: row.status === "pending" ? (row.next_attempt_at?.toISOString() ?? null) : null,
    created_at: row.created_at.toISOString(),
    delivered_at: row.delivered_at?.toISOString() ?? null,
    failed_at: row.failed_at?.toISOString() ?? null,
  };
}

function requireSecretBox(ctx: AppContext): SecretBox {
  if (!ctx.secretBox) {
    throw new ApiError(
      "service_unavailable",
      "Webhooks are unavailable: no encryption key for webhook secrets is configured (WAKHA_ENCRYPTION_KEY).",
    );
  }
  return ctx.secretBox;
}

function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === "23505" && e.constraint === constraint;
}

const alreadyConfigured = () =>
  new ApiError(
    "webhook_already_configured",
    "This account already has an active webhook. Delete it first (DELETE /v1/me/webhooks), then create the new one (this also rotates the secret).",
  );

async function activeWebhook(db: Queryable, accountId: string, lock = ""): Promise<WebhookRow | undefined> {
  const { rows } = await db.query<WebhookRow>(
    `SELECT id, url, description, created_at FROM webhooks WHERE account_id = $1 AND status = 'active' ${lock}`,
    [accountId],
  );
  return rows[0];
}

/** The 404 for an account with no active webhook, saying why when the receiver had it disabled. */
async function notConfigured(db: Queryable, accountId: string): Promise<ApiError> {
  const { rows } = await db.query<{ status: string; disabled_reason: string | null }>(
    "SELECT status, disabled_reason FROM webhooks WHERE account_id = $1 ORDER BY updated_at DESC LIMIT 1",
    [accountId],
  );
  const last = rows[0];
  const why =
    last?.status === "disabled" && last.disabled_reason ? ` The last one was disabled: ${last.disabled_reason}` : "";
  return new ApiError(
    "webhook_not_configured",
    `This account has no active webhook.${why} Configure one first (POST /v1/me/webhooks).`,
  );
}

/** Configures the account's webhook after the address guard; the secret is returned only here. */
export async function createWebhook(
  ctx: AppContext,
  who: Principal,
  input: { url: string; description?: string | undefined },
): Promise<CreatedWebhook> {
  const box = requireSecretBox(ctx);
  if (await activeWebhook(ctx.db, who.accountId)) throw alreadyConfigured();
  let url: URL;
  try {
    url = await checkWebhookUrl(input.url, { allowPrivate: ctx.config.WAKHA_WEBHOOK_ALLOW_PRIVATE });
  } catch (err) {
    if (err instanceof AddressRejected) throw err.toApiError();
    throw err;
  }
  const secret = newWebhookSecret();
  try {
    const { rows } = await ctx.db.query<WebhookRow>(
      `INSERT INTO webhooks (id, account_id, url, description, secret_sealed, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
       RETURNING id, url, description, created_at`,
      [randomUUID(), who.accountId, url.href, input.description ?? null, box.seal(secret), new Date(ctx.now())],
    );
    return { ...toWebhookOut(rows[0]!), secret };
  } catch (err) {
    if (isUniqueViolation(err, "webhooks_one_active_per_account")) throw alreadyConfigured();
    throw err;
  }
}

/** The account's active webhook, without its secret. */
export async function getWebhook(ctx: AppContext, who: Principal): Promise<WebhookOut> {
  const row = await activeWebhook(ctx.db, who.accountId);
  if (!row) throw await notConfigured(ctx.db, who.accountId);
  return toWebhookOut(row);
}

/**
 * Removes the active webhook and fails its pending deliveries (they stay listed, with `status=failed`).
 * Rotation is delete then create.
 */
export async function deleteWebhook(ctx: AppContext, who: Principal): Promise<void> {
  const at = new Date(ctx.now());
  const { rows } = await ctx.db.query<{ n: number }>(
    `WITH w AS (UPDATE webhooks SET status = 'deleted', updated_at = $2 WHERE account_id = $1 AND status = 'active' RETURNING id),
          d AS (UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, failed_at = $2, updated_at = $2,
                       last_error = 'the webhook was deleted before this delivery succeeded'
                WHERE webhook_id IN (SELECT id FROM w) AND status = 'pending')
     SELECT count(*)::int AS n FROM w`,
    [who.accountId, at],
  );
  if (!rows[0]!.n) throw await notConfigured(ctx.db, who.accountId);
}

async function getDelivery(ctx: AppContext, accountId: string, deliveryId: string): Promise<DeliveryOut> {
  const { rows } = await ctx.db.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.id = $1 AND d.account_id = $2`, [
    deliveryId,
    accountId,
  ]);
  return toDeliveryOut(rows[0]!);
}

/**
 * Sends a `webhook.test` event now and returns its delivery after that first attempt; a failed attempt is
 * retried on the schedule like any other delivery.
 */
export async function testWebhook(ctx: AppContext, who: Principal): Promise<DeliveryOut> {
  requireSecretBox(ctx);
  const recorded = await ctx.db.tx(async (client) => {
    const hook = await activeWebhook(client, who.accountId);
    if (!hook)
      throw new ApiError(
        "webhook_url_not_configured",
        "This account has no active webhook to test. Configure one first (POST /v1/me/webhooks).",
      );
    const event = await recordEvent(ctx, client, who.accountId, "webhook.test", {
      message: "This is a test delivery from Wakha. Verify its X-Service-Signature with your webhook secret.",
      webhook_id: hook.id,
    });
    if (!event)
      throw new ApiError(
        "webhook_url_not_configured",
        "The webhook was removed meanwhile. Configure one first (POST /v1/me/webhooks).",
      );
    await ctx.queue.enqueue(
      client,
      JOBS.deliverWebhook,
      { delivery_id: event.deliveryId, attempt: 1 },
      {
        startAfter: new Date(ctx.now() + TEST_FALLBACK_DELAY_MS),
      },
    );
    return event;
  });
  await attemptDelivery(ctx, recorded.deliveryId, 1);
  return getDelivery(ctx, who.accountId, recorded.deliveryId);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sends a delivery's event again now (as Stripe's and Svix's resend do): a new delivery of the same event, same
 * `evt_` id so receivers de-duplicate, to the account's current webhook, attempted at once and then retried on the
 * schedule. A delivery still pending is 409 (its retries are under way); another account's is 404 like a missing one.
 */
export async function redeliverWebhookDelivery(
  ctx: AppContext,
  who: Principal,
  deliveryId: string,
): Promise<DeliveryOut> {
  requireSecretBox(ctx);
  const notFound = () => new ApiError("not_found", `No webhook delivery ${deliveryId.slice(0, 64)} on this account.`);
  if (!UUID.test(deliveryId)) throw notFound();
  const recorded = await ctx.db.tx(async (client) => {
    const { rows } = await client.query<{ event_id: string; status: DeliveryStatus }>(
      "SELECT event_id, status FROM webhook_deliveries WHERE id = $1 AND account_id = $2",
      [deliveryId, who.accountId],
    );
    const original = rows[0];
    if (!original) throw notFound();
    if (original.status === "pending") {
      throw new ApiError(
        "conflict",
        `Delivery ${deliveryId} is still pending: its retries are under way. Redeliver it once it is delivered or failed.`,
      );
    }
    // FOR SHARE: a concurrent DELETE of the webhook waits for this transaction (as recordEvent does).
    const hook = await activeWebhook(client, who.accountId, "FOR SHARE");
    if (!hook)
      throw new ApiError(
        "webhook_url_not_configured",
        "This account has no active webhook to redeliver to. Configure one first (POST /v1/me/webhooks).",
      );
    const id = randomUUID();
    const at = new Date(ctx.now());
    await client.query(
      `INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, status, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'pending', $5, $5, $5)`,
      [id, who.accountId, hook.id, original.event_id, at],
    );
    await ctx.queue.enqueue(
      client,
      JOBS.deliverWebhook,
      { delivery_id: id, attempt: 1 },
      { startAfter: new Date(ctx.now() + TEST_FALLBACK_DELAY_MS) },
    );
    return id;
  });
  await attemptDelivery(ctx, recorded, 1);
  return getDelivery(ctx, who.accountId, recorded);
}

/** Validates the deliveries' `status` filter: absent means all; anything unknown is 400 invalid_status_filter. */
export function parseDeliveryStatus(value: string | undefined): DeliveryStatus | undefined {
  if (value === undefined) return undefined;
  if ((DELIVERY_STATUSES as readonly string[]).includes(value)) return value as DeliveryStatus;
  throw new ApiError(
    "invalid_status_filter",
    `Unknown status filter "${value.slice(0, 64)}". Accepted values: delivered, failed, pending (omit it for all).`,
  );
}

/** Lists the account's webhook deliveries, newest first; `status=failed` is the dead-letter queue. */
export async function listWebhookDeliveries(
  ctx: AppContext,
  who: Principal,
  input: PageInput & { status?: string | undefined },
): Promise<Page<DeliveryOut>> {
  const status = parseDeliveryStatus(input.status);
  const scope = `webhook-deliveries|${who.accountId}|${status ?? "all"}`;
  const after = ctx.paginator.start(scope, input.cursor);
  const { rows } = await ctx.db.query<DeliveryRow>(
    `${DELIVERY_SELECT}
     WHERE d.account_id = $1 AND ($2::text IS NULL OR d.status = $2) AND ($3::bigint IS NULL OR d.seq < $3)
     ORDER BY d.seq DESC LIMIT $4`,
    [who.accountId, status ?? null, after, input.limit + 1],
  );
  return ctx.paginator.page(scope, rows, input.limit, toDeliveryOut);
}

/** The deliveries of the events about one call (call.answered, call.ended, recording.ready), newest first. */
export async function listCallDeliveries(
  ctx: AppContext,
  who: Principal,
  callId: string,
  limit = 50,
): Promise<DeliveryOut[]> {
  if (!UUID.test(callId)) return [];
  const { rows } = await ctx.db.query<DeliveryRow>(
    `${DELIVERY_SELECT} WHERE d.account_id = $1 AND e.type IN ('call.answered', 'call.ended', 'recording.ready')
       AND (e.payload->>'id') = $2 ORDER BY d.seq DESC LIMIT $3`,
    [who.accountId, callId.toLowerCase(), limit],
  );
  return rows.map(toDeliveryOut);
}

export interface DeliveryAttemptOut {
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

/** One of the account's deliveries with the event's payload and every attempt, oldest attempt first. */
export async function getDeliveryWithAttempts(
  ctx: AppContext,
  who: Principal,
  deliveryId: string,
): Promise<{ delivery: DeliveryOut; payload: string; attempts: DeliveryAttemptOut[] }> {
  const notFound = () => new ApiError("not_found", `No webhook delivery ${deliveryId.slice(0, 64)} on this account.`);
  if (!UUID.test(deliveryId)) throw notFound();
  const { rows } = await ctx.db.query<DeliveryRow & { payload: string }>(
    `${DELIVERY_SELECT.replace("SELECT d.id,", "SELECT e.payload::text AS payload, d.id,")} WHERE d.id = $1 AND d.account_id = $2`,
    [deliveryId, who.accountId],
  );
  const row = rows[0];
  if (!row) throw notFound();
  const attempts = await ctx.db.query<{
    attempt: number;
    started_at: Date;
    duration_ms: number;
    status_code: number | null;
    error: string | null;
    response_excerpt: string | null;
  }>(
    "SELECT attempt, started_at, duration_ms, status_code, error, response_excerpt FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt, id",
    [row.id],
  );
  return {
    delivery: toDeliveryOut(row),
    payload: row.payload,
    attempts: attempts.rows.map((a) => ({ ...a, started_at: a.started_at.toISOString() })),
  };
}
