// Outcomes back (issue 17): when an order taken in by a connector is resolved, a `write_back` entry is added to the
// connector's log and a `writeBackStore` job enqueued in the same transaction (settle.ts). The job writes the
// order's current resolution to the store through the platform's adapter, retrying transient refusals (rate limits,
// outages) with backoff, each attempt visible in GET .../connector/events.
import type { AppContext } from "../../context.ts";
import type { Queryable } from "../../db/pool.ts";
import type { OrderResolution, ResolutionChannel, ResolutionDetails } from "../../domain/orders.ts";
import { JOBS } from "../../jobs/catalogue.ts";
import { openCredentials } from "../../connectors/credentials.ts";
import { StoreApiError, type StorePlatformName, type StoreWriteBackResult } from "../../connectors/platform.ts";
import { adapterOf } from "../../connectors/registry.ts";

/** Attempts before a write-back is given up as `failed`. */
export const WRITE_BACK_ATTEMPTS = 8;
/** The first retry's delay when the platform names none; each later one doubles it, up to an hour. */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 3_600_000;

/** The tag a resolution puts on a store order (platforms with tags: Shopify). */
export function resolutionTag(resolution: OrderResolution): string {
  return `wakha:${resolution}`;
}

/** The tags of a resolution; a customer's opt-out adds `wakha:opted_out` (issue 36), so the shop can filter on it. */
export function resolutionTags(resolution: OrderResolution, details: ResolutionDetails | null): string[] {
  return details?.["opted_out"] === true ? [resolutionTag(resolution), "wakha:opted_out"] : [resolutionTag(resolution)];
}

function frenchDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso;
}

function frenchDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${frenchDate(d.toISOString())} à ${d.toISOString().slice(11, 16)} UTC`;
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(text).join(" ; ");
  if (value && typeof value === "object")
    return Object.entries(value)
      .map(([k, v]) => `${k} : ${text(v)}`)
      .join(", ");
  return value === null || value === undefined ? "" : String(value);
}

/**
 * The normalised decline reasons (engine/dialogue/slots.ts, and do_not_call) in the note's language (issue 32.5);
 * anything else is the customer's own words, kept as said.
 */
const FRENCH_REASONS: Record<string, string> = {
  "changed their mind": "a changé d'avis",
  "did not place the order": "n'a pas passé cette commande",
  "ordered by mistake": "a commandé par erreur",
  "too expensive": "trop cher",
  "cannot afford it": "n'a pas les moyens",
  "bought it elsewhere": "l'a acheté ailleurs",
  "delivery took too long": "délai de livraison trop long",
  "no longer needed": "n'en a plus besoin",
  "does not like it": "ne lui plaît pas",
  "not interested": "n'est pas intéressé",
  do_not_call: "ne veut plus être appelé",
};

function frenchReason(reason: string): string {
  return FRENCH_REASONS[reason] ?? reason;
}

/**
 * The merchant's note for a resolution, in French: the back-office language of COD merchants in Morocco, Algeria,
 * Tunisia and France (the account has no language of its own). One line, details included.
 */
export function resolutionNote(
  resolution: OrderResolution,
  details: ResolutionDetails | null,
  channel: ResolutionChannel | null,
): string {
  const by = channel === "whatsapp" ? "sur WhatsApp" : channel === "agent" ? "auprès de votre équipe" : "par téléphone";
  const d = details ?? {};
  switch (resolution) {
    case "confirmed":
      return `commande confirmée par le client ${by}.${deliveryNote(d["delivery"])}`;
    case "declined":
      return d["opted_out"] === true
        ? `commande refusée par le client ${by} : il demande à ne plus jamais être appelé (numéro ajouté à la liste d'opposition de Wakha ; ne le rappelez pas).`
        : `commande refusée par le client ${by}${d["reason"] ? `. Motif : ${frenchReason(text(d["reason"]))}` : ""}.`;
    case "rescheduled":
      return `le client ${by} demande la livraison ${d["preferred_date"] ? `le ${frenchDate(text(d["preferred_date"]))}` : "plus tard (sans date précise)"}.`;
    case "callback_requested":
      return `le client demande à être rappelé${d["callback_at"] ? ` (${frenchDateTime(text(d["callback_at"]))})` : ""}.`;
    case "change_requested":
      return `le client ${by} demande une modification${d["changes"] ? ` : ${text(d["changes"])}` : ""}.`;
    case "wrong_number":
      return `mauvais numéro : la personne jointe dit ne pas avoir passé cette commande.`;
    case "unresolved":
      return `client non joint.`;
  }
}

/** What the customer said when the address was read back (issue 35, `outcome_details.delivery`), for the note. */
function deliveryNote(delivery: unknown): string {
  if (!delivery || typeof delivery !== "object") return "";
  const d = delivery as {
    address_confirmed?: boolean;
    corrected?: { city?: string };
    landmark?: string;
    preferred_time?: string;
  };
  const parts = [
    d.corrected?.city
      ? `ville corrigée par le client : ${d.corrected.city}`
      : d.address_confirmed
        ? "adresse confirmée par le client"
        : "adresse non confirmée",
    ...(d.landmark ? [`repère : ${d.landmark}`] : []),
    ...(d.preferred_time ? [`livraison souhaitée : ${d.preferred_time}`] : []),
  ];
  return ` Livraison : ${parts.join(" ; ")}.`;
}

/** The same as order attributes (Shopify's note_attributes), keys prefixed `wakha_`; none without a read-back. */
export function deliveryAttributes(details: ResolutionDetails | null): { key: string; value: string }[] {
  const d = details?.["delivery"] as
    | { address_confirmed?: boolean; corrected?: { city?: string }; landmark?: string; preferred_time?: string }
    | undefined;
  if (!d || typeof d !== "object") return [];
  return [
    { key: "wakha_address_confirmed", value: d.address_confirmed ? "yes" : "no" },
    ...(d.corrected?.city ? [{ key: "wakha_corrected_city", value: d.corrected.city }] : []),
    ...(d.landmark ? [{ key: "wakha_landmark", value: d.landmark }] : []),
    ...(d.preferred_time ? [{ key: "wakha_preferred_time", value: d.preferred_time }] : []),
  ];
}

/**
 * Adds a pending write-back for each connector intake of the order and enqueues its job, in the caller's transaction
 * (the one that changed the resolution): rolled back, nothing is written back.
 */
export async function enqueueWriteBacks(
  ctx: AppContext,
  db: Queryable,
  orderId: string,
  resolution: OrderResolution,
  callId: string | null,
): Promise<void> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO connector_events (id, connector_id, account_id, kind, status, platform_order_id, order_id, call_id, resolution)
     SELECT gen_random_uuid(), e.connector_id, e.account_id, 'write_back', 'pending', e.platform_order_id, e.order_id, $3, $2
     FROM connector_events e WHERE e.order_id = $1 AND e.kind = 'order' RETURNING id`,
    [orderId, resolution, callId],
  );
  for (const r of rows) await ctx.queue.enqueue(db, JOBS.writeBackStore, { event_id: r.id, attempt: 1 });
}

interface WriteBackRow {
  id: string;
  platform_order_id: string;
  platform: StorePlatformName;
  store_url: string;
  credentials_sealed: string;
  webhook_secret_sealed: string;
  resolution: OrderResolution;
  resolution_details: ResolutionDetails | null;
  resolution_channel: ResolutionChannel | null;
}

/**
 * One attempt of a write-back. Claims it atomically (pending, and this attempt's number), so a duplicate or stale job
 * does nothing; writes the order's current resolution; records success, that the platform had nothing to write
 * (`skipped`), a retry (re-enqueued with its delay) or the failure. Throws only on our own errors (the database), for
 * pg-boss to retry the job.
 */
export async function runStoreWriteBack(ctx: AppContext, eventId: string, attempt: number): Promise<void> {
  const { rows } = await ctx.db.query<WriteBackRow>(
    `WITH claimed AS (
       UPDATE connector_events SET attempts = $2, updated_at = now(), next_attempt_at = NULL
       WHERE id = $1 AND kind = 'write_back' AND status = 'pending' AND attempts = $2 - 1 RETURNING *)
     SELECT e.id, e.platform_order_id, c.platform, c.store_url, c.credentials_sealed, c.webhook_secret_sealed,
       o.resolution, o.resolution_details, o.resolution_channel
     FROM claimed e JOIN store_connectors c ON c.id = e.connector_id JOIN orders o ON o.id = e.order_id`,
    [eventId, attempt],
  );
  const w = rows[0];
  if (!w) return;
  const fail = (reason: string, error: string) =>
    ctx.db.query(
      "UPDATE connector_events SET status = 'failed', reason = $2, last_error = $3, updated_at = now() WHERE id = $1",
      [w.id, reason, error.slice(0, 1000)],
    );
  const adapter = adapterOf(ctx.stores, w.platform);
  if (!adapter)
    return void (await fail("platform_unavailable", `platform ${w.platform} is not available on this installation`));
  if (!ctx.secretBox) return void (await fail("no_encryption_key", "WAKHA_ENCRYPTION_KEY is not configured"));
  const note = resolutionNote(w.resolution, w.resolution_details, w.resolution_channel);
  let result: StoreWriteBackResult;
  try {
    const credentials = openCredentials(
      ctx.secretBox,
      w.platform,
      w.store_url,
      w.credentials_sealed,
      w.webhook_secret_sealed,
    );
    result = await adapter.writeBack(credentials, {
      platformOrderId: w.platform_order_id,
      resolution: w.resolution,
      tags: resolutionTags(w.resolution, w.resolution_details),
      note,
      attributes: deliveryAttributes(w.resolution_details),
    });
  } catch (err) {
    if (!(err instanceof StoreApiError)) return void (await fail("error", (err as Error).message ?? String(err)));
    if (!err.transient)
      return void (await fail(
        err.status === 401 || err.status === 403 ? "credentials_refused" : "store_refused",
        err.message,
      ));
    if (attempt >= WRITE_BACK_ATTEMPTS) return void (await fail("retries_exhausted", err.message));
    // The platform's own wait (Retry-After, the GraphQL bucket's refill) when it gives one, else doubling backoff.
    const delay = Math.min(MAX_RETRY_MS, err.retryAfterMs ?? FIRST_RETRY_MS * 2 ** (attempt - 1));
    const at = new Date(ctx.now() + delay);
    await ctx.db.tx(async (client) => {
      await client.query(
        "UPDATE connector_events SET last_error = $2, reason = $3, next_attempt_at = $4, updated_at = now() WHERE id = $1",
        [
          w.id,
          err.message.slice(0, 1000),
          err.status === 429 || /throttl/i.test(err.message) ? "rate_limited" : "store_unavailable",
          at,
        ],
      );
      await ctx.queue.enqueue(
        client,
        JOBS.writeBackStore,
        { event_id: w.id, attempt: attempt + 1 },
        { startAfter: at },
      );
    });
    return;
  }
  // The note is kept in the log either way: the merchant reads there what a platform without notes could not show.
  // A platform with nothing to write for this resolution is `skipped`, saying so, never a success that changed nothing.
  await ctx.db.query(
    "UPDATE connector_events SET status = $3, reason = $4, last_error = NULL, resolution = $2, detail = $5, updated_at = now() WHERE id = $1",
    [
      w.id,
      w.resolution,
      result.written ? "succeeded" : "skipped",
      result.written ? null : "nothing_to_write",
      JSON.stringify(result.written ? { note } : { note, why: result.reason }),
    ],
  );
}

/**
 * Puts a failed write-back back to `pending`, its attempts counted afresh, and enqueues its first attempt, in the
 * caller's transaction (issue 32.5). Returns "retried", "not_found" (not this connector's write-back) or the status
 * that forbids it.
 */
export async function retryWriteBack(
  ctx: AppContext,
  db: Queryable,
  e: { eventId: string; connectorId: string; accountId: string },
): Promise<"retried" | "not_found" | string> {
  const { rows } = await db.query<{ status: string }>(
    "SELECT status FROM connector_events WHERE id = $1 AND connector_id = $2 AND account_id = $3 AND kind = 'write_back' FOR UPDATE",
    [e.eventId, e.connectorId, e.accountId],
  );
  if (!rows[0]) return "not_found";
  if (rows[0].status !== "failed") return rows[0].status;
  await db.query(
    "UPDATE connector_events SET status = 'pending', reason = NULL, attempts = 0, next_attempt_at = NULL, updated_at = now() WHERE id = $1",
    [e.eventId],
  );
  await ctx.queue.enqueue(db, JOBS.writeBackStore, { event_id: e.eventId, attempt: 1 });
  return "retried";
}

/** A pending write-back untouched this long has lost its job (a crash, pg-boss giving up): it is sent again. */
const STUCK_AFTER = "10 minutes";

/**
 * Crash recovery, run by the minute sweep: re-enqueues the next attempt of write-backs still `pending` whose job is
 * gone (nothing touched them for 10 minutes and no attempt is scheduled). A job that was only late and the new one
 * race for the same attempt number; the claim lets one through.
 */
export async function requeueStuckWriteBacks(ctx: AppContext): Promise<number> {
  return ctx.db.tx(async (client) => {
    const { rows } = await client.query<{ id: string; attempts: number }>(
      `UPDATE connector_events SET updated_at = now()
       WHERE id IN (SELECT id FROM connector_events WHERE kind = 'write_back' AND status = 'pending'
                      AND updated_at < now() - $1::interval AND (next_attempt_at IS NULL OR next_attempt_at < now() - $1::interval)
                    ORDER BY updated_at LIMIT 500 FOR UPDATE SKIP LOCKED)
       RETURNING id, attempts`,
      [STUCK_AFTER],
    );
    for (const r of rows)
      await ctx.queue.enqueue(client, JOBS.writeBackStore, { event_id: r.id, attempt: r.attempts + 1 });
    return rows.length;
  });
}
