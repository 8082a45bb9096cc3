import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { AppContext, Principal } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import { JOBS } from "../engine/jobs.ts";
import { ApiError } from "../errors.ts";
import type { Page, PageInput } from "../pagination.ts";
import { REQUIRED_SECONDS } from "./accounts.ts";
import {
  ACTIVE_STATUSES, CALL_STATUSES, type CallCreate, type CallItem, type CallOut, type CallOutcome, callOutSchema,
  type Country, type Language, normalizeDecimal,
} from "./call-schemas.ts";
import { inKeyedTransaction, purgeSoon, replayOrConflict, requestHash, type StoredResponse, storedResponseSubquery } from "./idempotency.ts";
import { type CatalogueVariant, catalogueSubquery, productIds, resolveItems } from "./order-items.ts";

export const DEFAULT_CHANNEL = "gsm";
const CURRENCY = { MA: "MAD", DZ: "DZD", TN: "TND", FR: "EUR" } as const;
const DEFAULT_LANGUAGE: Record<Country, Language> = { MA: "ar", DZ: "ar", TN: "ar", FR: "fr" };
const SERVED_LANGUAGES: Record<Country, readonly Language[]> = { MA: ["ar", "fr"], DZ: ["ar", "fr"], TN: ["ar", "fr"], FR: ["fr"] };
const DIALECT = { MA: "ma", DZ: "dz", TN: "tn", FR: "fr" } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CREATE_OPERATION = "POST /v1/calls";

/** The result of a creation: the CallOut exactly as first serialised, and whether this is a replay. */
export interface CreatedCall {
  callId: string;
  body: string;
  replayed: boolean;
}

interface CreationSnapshot {
  now: Date;
  balance_seconds: number | null;
  shop_id: string | null;
  order_last_attempt: number | null;
  stored: StoredResponse | null;
  catalogue: CatalogueVariant[];
}

/** A call id from a path: anything that is not a UUID is a call that does not exist. */
function callNotFound(id: string): ApiError {
  return new ApiError("call_not_found", `No call ${id.slice(0, 64)} on this account.`);
}

function chooseLanguage(input: CallCreate): Language {
  const language = input.language ?? DEFAULT_LANGUAGE[input.country];
  if (!SERVED_LANGUAGES[input.country].includes(language)) {
    throw new ApiError("language_not_supported_for_country",
      `Language "${language}" is not served for country ${input.country}: ${input.country} calls are in ${SERVED_LANGUAGES[input.country].join(" or ")}. Omit language for the country's default.`);
  }
  return language;
}

function chooseChannel(ctx: AppContext, input: CallCreate): string {
  const channel = input.call_params?.channel ?? DEFAULT_CHANNEL;
  const open = ctx.config.WAKHA_CHANNELS;
  if (!open.includes(channel)) {
    throw new ApiError("channel_not_available",
      `Channel "${channel.slice(0, 64)}" is not open on this installation. Open channels: ${open.join(", ") || "none"}. The default channel, used when call_params.channel is omitted, is ${DEFAULT_CHANNEL}.`);
  }
  return channel;
}

function orderExists(shop: string, externalId: string, lastAttempt: number): ApiError {
  return new ApiError("order_external_id_already_exists", `Shop "${shop}" already has an order "${externalId}" (last attempt: previous_attempts ${lastAttempt}).`, {
    extensions: {
      hint: `To call the customer again about this order, send a new Idempotency-Key and set order.previous_attempts to ${lastAttempt + 1}. To place a different order, use a new order.external_id.`,
    },
  });
}

/**
 * Runs a hot-path statement as a named prepared statement (parsed and planned once per connection): planning
 * these took several times the PostgreSQL CPU of running them (issue 8, bench/results/latest.md).
 */
function queryPrepared<R extends pg.QueryResultRow>(db: Queryable, name: string, text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
  // Every Queryable is a pg Pool, PoolClient or Database, whose query() hands a config object to pg as it is.
  return (db as unknown as Pick<pg.Pool, "query">).query<R>({ name, text, values });
}

// Everything the checks need, read in one round trip under the key's lock.
async function readSnapshot(client: Queryable, who: Principal, input: CallCreate, key: string | null): Promise<CreationSnapshot> {
  const { rows } = await queryPrepared<CreationSnapshot>(client, "wakha_create_call_snapshot",
    `WITH shop AS (SELECT id FROM shops WHERE account_id = $1 AND external_id = $3 AND status = 'active')
     SELECT now() AS now,
       (SELECT balance_seconds FROM accounts WHERE id = $1) AS balance_seconds,
       (SELECT id FROM shop) AS shop_id,
       (SELECT last_attempt FROM orders WHERE shop_id = (SELECT id FROM shop) AND external_id = $4) AS order_last_attempt,
       ${storedResponseSubquery("$1", "$2", "now()")} AS stored,
       ${catalogueSubquery("(SELECT id FROM shop)", "$5")} AS catalogue`,
    [who.accountId, key, input.shop_external_id, input.order.external_id, productIds(input.order.items)],
  );
  return rows[0]!;
}

/**
 * Creates a queued call with its order and its place-call job in one transaction, after every check of
 * spec part 4. With an Idempotency-Key, a repeat of the same body within 24 h replays the first response.
 */
export async function createCall(ctx: AppContext, who: Principal, input: CallCreate, idempotencyKey: string | null): Promise<CreatedCall> {
  const hash = requestHash(CREATE_OPERATION, input);
  const created = await inKeyedTransaction(ctx.db, who.accountId, idempotencyKey, async (client): Promise<CreatedCall> => {
    const snap = await readSnapshot(client, who, input, idempotencyKey);
    if (snap.stored) return { ...replayOrConflict(snap.stored, hash), replayed: true };

    const language = chooseLanguage(input);
    const channel = chooseChannel(ctx, input);
    if (!snap.shop_id) throw new ApiError("shop_not_found", `No active shop "${input.shop_external_id}" on this account.`);
    const items = resolveItems(input.order.items, snap.catalogue, input.shop_external_id);
    const order = input.order;
    if (snap.order_last_attempt !== null && order.previous_attempts <= snap.order_last_attempt) {
      throw orderExists(input.shop_external_id, order.external_id, snap.order_last_attempt);
    }
    const balance = snap.balance_seconds ?? 0;
    if (balance < REQUIRED_SECONDS) {
      throw new ApiError("insufficient_balance", `The balance is ${balance} s; starting a call needs at least ${REQUIRED_SECONDS} s. No call was created and nothing was billed.`, {
        extensions: { balance_seconds: balance, required_seconds: REQUIRED_SECONDS },
      });
    }

    const callId = randomUUID();
    const out: CallOut = {
      id: callId,
      status: "queued",
      outcome: null,
      end_reason: null,
      shop_external_id: input.shop_external_id,
      customer: { name: input.customer.name, phone_number: input.customer.phone_number },
      amount: normalizeDecimal(input.amount),
      currency: CURRENCY[input.country],
      country: input.country,
      language,
      dialect: DIALECT[input.country],
      channel,
      order: { external_id: order.external_id, previous_attempts: order.previous_attempts, items },
      outcome_details: null,
      created_at: snap.now.toISOString(),
      answered_at: null,
      ended_at: null,
      duration_seconds: null,
      billed_seconds: null,
      recording_url: null,
    };
    // Serialised as the response serialiser does for reads, so POST and GET agree byte for byte.
    const body = JSON.stringify(callOutSchema.encode(out));
    const { rows } = await queryPrepared<{ calls: number; keys: number }>(client, "wakha_create_call_insert",
      `WITH o AS (
         INSERT INTO orders (id, account_id, shop_id, external_id, last_attempt, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (shop_id, external_id) DO UPDATE SET last_attempt = EXCLUDED.last_attempt, updated_at = EXCLUDED.updated_at
           WHERE orders.last_attempt < EXCLUDED.last_attempt
         RETURNING id
       ), c AS (
         INSERT INTO calls (id, account_id, shop_id, order_id, order_external_id, previous_attempts, customer_name, customer_phone,
           amount, currency, country, language, dialect, channel, items, created_at, updated_at)
         SELECT $7, $2, $3, o.id, $4, $5, $8, $9, $10, $11, $12, $13, $14, $15, $16, $6, $6 FROM o
         RETURNING id
       ), k AS (
         INSERT INTO idempotency_keys (account_id, key, request_hash, call_id, response_status, response_body, created_at)
         SELECT $2, $17, $18, c.id, 201, $19, $6 FROM c WHERE $17::text IS NOT NULL
         ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, call_id = EXCLUDED.call_id,
           response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at
           WHERE idempotency_keys.created_at <= EXCLUDED.created_at - interval '24 hours'
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM c)::int AS calls, (SELECT count(*) FROM k)::int AS keys`,
      [
        randomUUID(), who.accountId, snap.shop_id, order.external_id, order.previous_attempts, snap.now, callId,
        out.customer.name, out.customer.phone_number, out.amount, out.currency, out.country, language, out.dialect, channel,
        JSON.stringify(items), idempotencyKey, idempotencyKey === null ? null : hash, body,
      ],
    );
    // A concurrent request (another key) created the order or this attempt between the read and the write.
    if (rows[0]!.calls === 0) throw orderExists(input.shop_external_id, order.external_id, Math.max(order.previous_attempts, snap.order_last_attempt ?? 0));
    await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: callId }, { id: callId });
    return { callId, body, replayed: false };
  });
  if (!created.replayed && idempotencyKey !== null) purgeSoon(ctx.db, ctx.now());
  return created;
}

interface CallRow {
  seq: number;
  id: string;
  status: CallOut["status"];
  outcome: CallOutcome | null;
  end_reason: string | null;
  shop_external_id: string;
  customer_name: string;
  customer_phone: string;
  amount: string;
  currency: CallOut["currency"];
  country: Country;
  language: Language;
  dialect: CallOut["dialect"];
  channel: string;
  order_external_id: string;
  previous_attempts: number;
  items: CallItem[];
  outcome_details: CallOut["outcome_details"];
  created_at: Date;
  answered_at: Date | null;
  ended_at: Date | null;
  duration_seconds: number | null;
  billed_seconds: number | null;
  recording_path: string | null;
  recording_purged_at: Date | null;
}

const CALL_COLUMNS = `c.seq, c.id, c.status, c.outcome, c.end_reason, s.external_id AS shop_external_id, c.customer_name,
  c.customer_phone, c.amount::text AS amount, c.currency, c.country, c.language, c.dialect, c.channel, c.order_external_id,
  c.previous_attempts, c.items, c.outcome_details, c.created_at, c.answered_at, c.ended_at, c.duration_seconds,
  c.billed_seconds, c.recording_path, c.recording_purged_at`;

function toCallOut(ctx: AppContext, r: CallRow): CallOut {
  return {
    id: r.id,
    status: r.status,
    outcome: r.outcome,
    end_reason: r.end_reason,
    shop_external_id: r.shop_external_id,
    customer: { name: r.customer_name, phone_number: r.customer_phone },
    amount: r.amount,
    currency: r.currency,
    country: r.country,
    language: r.language,
    dialect: r.dialect,
    channel: r.channel,
    order: { external_id: r.order_external_id, previous_attempts: r.previous_attempts, items: r.items },
    outcome_details: r.outcome_details,
    created_at: r.created_at.toISOString(),
    answered_at: r.answered_at?.toISOString() ?? null,
    ended_at: r.ended_at?.toISOString() ?? null,
    duration_seconds: r.duration_seconds,
    billed_seconds: r.billed_seconds,
    recording_url: r.recording_path && !r.recording_purged_at ? `${ctx.config.baseUrl}/v1/calls/${r.id}/recording` : null,
  };
}

/** One of the account's calls; missing, foreign and malformed ids are the same 404. */
export async function getCall(ctx: AppContext, who: Principal, id: string): Promise<CallOut> {
  return readCall(ctx, ctx.db, who.accountId, id);
}

/** getCall through a given client, so the engine can read a call inside its own transaction. */
export async function readCall(ctx: AppContext, db: Queryable, accountId: string, id: string): Promise<CallOut> {
  if (!UUID.test(id)) throw callNotFound(id);
  const { rows } = await queryPrepared<CallRow>(db, "wakha_read_call",
    `SELECT ${CALL_COLUMNS} FROM calls c JOIN shops s ON s.id = c.shop_id WHERE c.id = $1 AND c.account_id = $2`,
    [id, accountId],
  );
  if (!rows[0]) throw callNotFound(id);
  return toCallOut(ctx, rows[0]);
}

export interface CallFilters {
  status?: string | undefined;
  outcome?: CallOutcome | undefined;
  shop_external_id?: string | undefined;
  /** The shop's merchant_external_id. */
  merchant_id?: string | undefined;
  /** Inclusive lower bound on created_at (RFC 3339 or YYYY-MM-DD, UTC). */
  created_after?: string | undefined;
  /** Exclusive upper bound on created_at. */
  created_before?: string | undefined;
}

/** The account's calls, newest first; the filters are part of the cursor's scope. */
export async function listCalls(ctx: AppContext, who: Principal, filters: CallFilters, page: PageInput): Promise<Page<CallOut>> {
  if (filters.status !== undefined && !(CALL_STATUSES as readonly string[]).includes(filters.status)) {
    throw new ApiError("invalid_status_filter", `status "${filters.status.slice(0, 32)}" is not accepted; use one of ${CALL_STATUSES.join(", ")}.`);
  }
  const f = [filters.status, filters.outcome, filters.shop_external_id, filters.merchant_id, filters.created_after, filters.created_before]
    .map((v) => v ?? null);
  const scope = `calls|${who.accountId}|${JSON.stringify(f)}`;
  const after = ctx.paginator.start(scope, page.cursor);
  const { rows } = await ctx.db.query<CallRow>(
    `SELECT ${CALL_COLUMNS} FROM calls c JOIN shops s ON s.id = c.shop_id
     WHERE c.account_id = $1 AND ($2::bigint IS NULL OR c.seq < $2)
       AND ($3::text IS NULL OR c.status = $3) AND ($4::text IS NULL OR c.outcome = $4)
       AND ($5::text IS NULL OR s.external_id = $5) AND ($6::text IS NULL OR s.merchant_external_id = $6)
       AND ($7::timestamptz IS NULL OR c.created_at >= $7) AND ($8::timestamptz IS NULL OR c.created_at < $8)
     ORDER BY c.seq DESC LIMIT $9`,
    [who.accountId, after, ...f, page.limit + 1],
  );
  return ctx.paginator.page(scope, rows, page.limit, (r) => toCallOut(ctx, r));
}

/**
 * Cancels a queued, ringing or in-progress call (CONTRACT §4, §10). A queued call ends here and its
 * place-call job is cancelled; a live one is marked canceled with cancel_requested_at, and the engine
 * closes the line and fills ended_at and billed_seconds. A terminal call is 409 conflict.
 */
export async function cancelCall(ctx: AppContext, who: Principal, id: string): Promise<CallOut> {
  if (!UUID.test(id)) throw callNotFound(id);
  return ctx.db.tx(async (client) => {
    const { rows: found } = await client.query<{ status: CallOut["status"] }>(
      "SELECT status FROM calls WHERE id = $1 AND account_id = $2 FOR UPDATE", [id, who.accountId],
    );
    const status = found[0]?.status;
    if (!status) throw callNotFound(id);
    if (!(ACTIVE_STATUSES as readonly string[]).includes(status)) {
      throw new ApiError("conflict", `Call ${id} is already ${status}; only queued, ringing or in_progress calls can be canceled.`);
    }
    const neverDialed = status === "queued";
    const { rows } = await client.query<CallRow>(
      `WITH c AS (
         UPDATE calls SET status = 'canceled', end_reason = 'canceled', cancel_requested_at = now(), updated_at = now(),
           ended_at = CASE WHEN $2 THEN now() ELSE ended_at END,
           duration_seconds = CASE WHEN $2 THEN 0 ELSE duration_seconds END,
           billed_seconds = CASE WHEN $2 THEN 0 ELSE billed_seconds END
         WHERE id = $1 RETURNING *)
       SELECT ${CALL_COLUMNS} FROM c JOIN shops s ON s.id = c.shop_id`,
      [id, neverDialed],
    );
    if (neverDialed) await ctx.queue.cancel(client, JOBS.placeCall, id);
    return toCallOut(ctx, rows[0]!);
  });
}

/** Where a call's recording is, for streaming: 404 call_not_found if never produced, 410 once purged. */
export async function findCallRecording(ctx: AppContext, who: Principal, id: string): Promise<{ path: string; contentType: string }> {
  if (!UUID.test(id)) throw callNotFound(id);
  const { rows } = await ctx.db.query<{ recording_path: string | null; recording_content_type: string | null; recording_purged_at: Date | null }>(
    "SELECT recording_path, recording_content_type, recording_purged_at FROM calls WHERE id = $1 AND account_id = $2",
    [id, who.accountId],
  );
  const r = rows[0];
  if (r?.recording_purged_at) {
    throw new ApiError("recording_gone", `The recording of call ${id} was purged on ${r.recording_purged_at.toISOString()}, after the 30-day retention.`);
  }
  if (!r?.recording_path) throw callNotFound(id);
  return { path: r.recording_path, contentType: r.recording_content_type ?? "application/octet-stream" };
}
