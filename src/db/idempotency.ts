// Idempotent call creation (spec 7.3, part 8; CONTRACT §10): REST takes the key from the Idempotency-Key
// header, MCP from the create_call argument.
//
// Design (issue 19): a creation is one write statement in a transaction of its own, and the key is held by the unique
// index of idempotency_keys, not by a lock taken first. The statement inserts the order, the call, the key's record
// and the call's job together; a duplicate that reaches its own write while the first is still in its statement waits
// on the index entry (at most LOCK_WAIT_MS, else 409 `conflict` with Retry-After), then finds the key taken
// (unique_violation: nothing of it is written), reads the committed record and replays it. Only a completed creation
// stores a record, in the same statement as the call; a request that fails (validation or any other error) stores
// nothing and can be retried with the same key, as at Stripe. Records older than 24 h are ignored, deleted when their
// key returns, and deleted in batches by purgeExpiredIdempotencyKeys, which createCall triggers off the request path
// at most once a minute.
import { createHash } from "node:crypto";
import type { Database, Queryable } from "./pool.ts";
import { ApiError } from "../errors.ts";
import { Throttle } from "../throttle.ts";

export const IDEMPOTENCY_WINDOW_HOURS = 24;
export const MAX_KEY_LENGTH = 255;
/** How long a duplicate waits for the request holding its key before it gets 409 `conflict`. */
export const LOCK_WAIT_MS = 5_000;
const PURGE_EVERY_MS = 60_000;
const PURGE_BATCH = 1_000;

/** Characters as a person counts them: Unicode code points, so an astral character (two UTF-16 units) is one. */
export function characterCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The key rules (spec part 8): 1 to 255 characters. Transports check presence in their own terms first. */
export function checkIdempotencyKey(key: string): string {
  if (key.length === 0)
    throw new ApiError(
      "idempotency_key_empty",
      `The idempotency key is empty; send 1 to ${MAX_KEY_LENGTH} characters.`,
    );
  const count = characterCount(key);
  if (count > MAX_KEY_LENGTH) {
    throw new ApiError(
      "idempotency_key_too_long",
      `The idempotency key has ${count} characters; the maximum is ${MAX_KEY_LENGTH}.`,
    );
  }
  return key;
}

/** JSON with object keys sorted at every level, so the same body always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 of the operation and the canonical JSON of the parsed body. */
export function requestHash(operation: string, body: unknown): Buffer {
  return createHash("sha256")
    .update(`${operation}\n${canonicalJson(body)}`)
    .digest();
}

/** The unique index that holds a key: a write that meets it finds the key taken by a request that committed first. */
const KEY_INDEX = "idempotency_keys_pkey";

/** True for the error of a write whose key a concurrent request took first (its statement wrote nothing). */
export function isKeyTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e.code === "23505" && e.constraint === KEY_INDEX;
}

/** The lock_timeout of a creation's write, set by the statement itself for its own transaction. */
export const LOCK_TIMEOUT_SETTING = `set_config('lock_timeout', '${LOCK_WAIT_MS}', true)`;

/** 409 `conflict`: a request holding the key or the order is still running (its write waited LOCK_WAIT_MS, or lost again). */
export function stillProcessing(): ApiError {
  return new ApiError(
    "conflict",
    "A request with this idempotency key (or for the same order) is still being processed. Retry in a second to get its result.",
    {
      retryAfterSeconds: 1,
    },
  );
}

/** The 409 `conflict` of a write that waited LOCK_WAIT_MS for a key or an order (lock_not_available), else null. */
export function waitedTooLong(err: unknown): ApiError | null {
  return (err as { code?: string }).code === "55P03" ? stillProcessing() : null;
}

/** Deletes the key's record if it is past the window, so the key can be used again; a live record stays. */
export async function deleteExpiredKey(db: Queryable, accountId: string, key: string): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND created_at <= now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours'`,
    [accountId, key],
  );
}

/** What a lookup finds for a key inside the window. */
export interface StoredResponse {
  request_hash: string;
  call_id: string;
  response_body: string;
}

/** The scalar subquery that finds the live record of ($account, $key) as JSON, for the creation's one read. */
export function storedResponseSubquery(account: string, key: string, now: string): string {
  return `(SELECT json_build_object('request_hash', encode(request_hash, 'hex'), 'call_id', call_id, 'response_body', response_body)
    FROM idempotency_keys WHERE account_id = ${account} AND key = ${key}
      AND created_at > ${now} - interval '${IDEMPOTENCY_WINDOW_HOURS} hours')`;
}

/** The stored response's JSON, or 409 idempotency_key_conflict when the request differs (the original is never shown). */
export function replayOrConflict(stored: StoredResponse, hash: Buffer): string {
  if (stored.request_hash !== hash.toString("hex")) {
    throw new ApiError(
      "idempotency_key_conflict",
      "This idempotency key was already used in the last 24 hours with a different request. Use a new key for a new request, or resend the identical request to get the original result.",
    );
  }
  return stored.response_body;
}

/** Deletes up to `batch` records older than the window; returns how many went. */
export async function purgeExpiredIdempotencyKeys(db: Pick<Database, "query">, batch = PURGE_BATCH): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM idempotency_keys WHERE (account_id, key) IN (
       SELECT account_id, key FROM idempotency_keys WHERE created_at <= now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours'
       ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [batch],
  );
  return rowCount ?? 0;
}

/** Purge-on-write for the composition root: at most once a minute per root, off the request path; a failure waits for the next one. */
export function idempotencyPurge(db: Pick<Database, "query">): Throttle {
  return new Throttle(() => purgeExpiredIdempotencyKeys(db), PURGE_EVERY_MS);
}
