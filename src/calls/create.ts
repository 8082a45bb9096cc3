// A call's creation (POST /v1/calls, MCP create_call, the store connectors' intake): the checks (number, language,
// channel, calling policy, balance, do-not-call, catalogue), the idempotency record, the call and order rows and the
// place-call job, written in one statement; the node's creations are group-committed (issue 19). Served to the doors
// by services/calls.ts.
import { createHash, randomUUID } from "node:crypto";
import { channel } from "node:diagnostics_channel";
import type { AppContext, NodeBatchers, Principal } from "../context.ts";
import { type Queryable, queryPrepared } from "../db/pool.ts";
import { DEFAULT_CHANNEL } from "../domain/calls.ts";
import {
  COUNTRY_CURRENCY,
  COUNTRY_DIALECT,
  DEFAULT_LANGUAGE,
  type Language,
  SERVED_LANGUAGES,
} from "../domain/locale.ts";
import { normalizeDecimal, REQUIRED_SECONDS } from "../domain/money.ts";
import { JOBS } from "../jobs/catalogue.ts";
import { ApiError } from "../errors.ts";
import { numberRefusal } from "../domain/phone.ts";
import { undialable } from "../config/carriers.ts";
import type { CallPolicyInputs } from "./policy/policy-store.ts";
import { plannedSchedule, requestedStart } from "./policy/call-schedule.ts";
import { type CallCreate, type CallOut, callOutSchema } from "../schemas/calls.ts";
import {
  deleteExpiredKey,
  isKeyTaken,
  LOCK_TIMEOUT_SETTING,
  replayOrConflict,
  requestHash,
  stillProcessing,
  type StoredResponse,
  storedResponseSubquery,
  waitedTooLong,
} from "../db/idempotency.ts";
import { type CatalogueVariant, catalogueSubquery, productIds, resolveItems } from "./order-items.ts";
import { GroupCommitter, type GroupMember } from "../db/group-commit.ts";

// The timeline of creations for bench/create-trace.ts (issue 19): each submission to the batcher and each batch's stages,
// in performance.now() milliseconds. Nothing is built or published without a subscriber.
const creationTrace = channel("wakha:create-call");

// The namespace of request hashes; its value is in every stored idempotency record, so it never changes.
const CREATE_OPERATION = "POST /v1/calls";

/** The result of a creation: the call as it was when first created, its JSON as stored, and whether this is a replay. */
export interface CreatedCall {
  call: CallOut;
  /** The CallOut's JSON as stored with the key: what REST sends, so a replay is the first response byte for byte. */
  body: string;
  replayed: boolean;
}

interface CreationSnapshot extends CallPolicyInputs {
  now: Date;
  balance_seconds: number | null;
  shop_id: string | null;
  order_last_attempt: number | null;
  stored: StoredResponse | null;
  catalogue: CatalogueVariant[];
  /** The account dials any valid number (issue 31.5), not only mobile and fixed-line numbers of the call's country. */
  allowAnyNumber: boolean | null;
  /** Other orders of the account called on this number in the last 24 hours, counted up to the daily limit (issue 31.5; none read when it is 0). */
  numberOrdersToday: number;
}

/**
 * Issue 31.5: toll fraud and harassment. Only mobile and fixed-line numbers of the call's country, unless the account
 * allows any number; and at most WAKHA_NUMBER_DAILY_LIMIT orders a day on one number (retries of an order count once).
 */
function checkNumber(ctx: AppContext, input: CallCreate, snap: CreationSnapshot): void {
  const phone = input.customer.phone_number;
  const refusal = snap.allowAnyNumber ? null : numberRefusal(phone, input.country);
  if (refusal) {
    throw new ApiError(
      "phone_number_not_allowed",
      `${phone} is not called: ${refusal}. No call was created. An account that must call other numbers can be allowed to by its operator (wakha accounts set ACCOUNT_ID --allow-any-number on).`,
    );
  }
  const limit = ctx.config.WAKHA_NUMBER_DAILY_LIMIT;
  if (limit > 0 && snap.numberOrdersToday >= limit) {
    throw new ApiError(
      "phone_number_not_allowed",
      `${phone} was already called for ${snap.numberOrdersToday} other orders of this account in the last 24 hours (at most ${limit} a day). No call was created. Retries of one order (order.previous_attempts) are not limited.`,
    );
  }
}

/** A call id from a path: anything that is not a UUID is a call that does not exist. */
export function callNotFound(id: string): ApiError {
  return new ApiError("call_not_found", `No call ${id.slice(0, 64)} on this account.`);
}

function chooseLanguage(input: CallCreate): Language {
  const language = input.language ?? DEFAULT_LANGUAGE[input.country];
  if (!SERVED_LANGUAGES[input.country].includes(language)) {
    throw new ApiError(
      "language_not_supported_for_country",
      `Language "${language}" is not served for country ${input.country}: ${input.country} calls are in ${SERVED_LANGUAGES[input.country].join(" or ")}. Omit language for the country's default.`,
    );
  }
  return language;
}

function chooseChannel(ctx: AppContext, input: CallCreate): string {
  const channel = input.call_params?.channel ?? DEFAULT_CHANNEL;
  const open = ctx.config.WAKHA_CHANNELS;
  if (!open.includes(channel)) {
    throw new ApiError(
      "channel_not_available",
      `Channel "${channel.slice(0, 64)}" is not open on this installation. Open channels: ${open.join(", ") || "none"}. The default channel, used when call_params.channel is omitted, is ${DEFAULT_CHANNEL}.`,
    );
  }
  // A node that knows it cannot dial the call refuses it now (issue 32.4), instead of failing it a second later.
  const problem = undialable(ctx.config, channel, ctx.config.telephony.get(channel), input.country);
  if (problem) throw new ApiError("call_not_dialable", problem);
  return channel;
}

function orderExists(shop: string, externalId: string, lastAttempt: number): ApiError {
  return new ApiError(
    "order_external_id_already_exists",
    `Shop "${shop}" already has an order "${externalId}" (last attempt: previous_attempts ${lastAttempt}).`,
    {
      extensions: {
        hint: `To call the customer again about this order, use a new idempotency key (the Idempotency-Key header on REST, idempotency_key on MCP) and set order.previous_attempts to ${lastAttempt + 1}. To place a different order, use a new order.external_id.`,
      },
    },
  );
}

function doNotCall(phone: string): ApiError {
  return new ApiError(
    "number_do_not_call",
    `${phone} is on this account's do-not-call list; no call was created. Remove it (DELETE /v1/me/do-not-call/${encodeURIComponent(phone)}, or the remove_do_not_call tool) only if the customer asked to be called again.`,
  );
}

// Everything the checks need, read in one round trip before the write (no transaction: the write's constraints catch
// what changes in between): with the calling policy's inputs (the do-not-call entry, the account's and the shop's
// calling hours), which cost a round trip of their own before (issue 19).
async function readSnapshot(
  client: Queryable,
  who: Principal,
  input: CallCreate,
  key: string | null,
  dailyLimit: number,
): Promise<CreationSnapshot> {
  const { rows } = await queryPrepared<CreationSnapshot>(
    client,
    "wakha_create_call_snapshot",
    `WITH shop AS (SELECT id, calling_hours FROM shops WHERE account_id = $1 AND external_id = $3 AND status = 'active')
     SELECT now() AS now, a.balance_seconds, a.calling_hours AS "accountHours",
       (SELECT id FROM shop) AS shop_id,
       (SELECT calling_hours FROM shop) AS "shopHours",
       (SELECT last_attempt FROM orders WHERE shop_id = (SELECT id FROM shop) AND external_id = $4) AS order_last_attempt,
       EXISTS (SELECT 1 FROM do_not_call WHERE account_id = $1 AND phone_number = $6) AS listed,
       a.allow_any_number AS "allowAnyNumber",
       (SELECT count(*)::int FROM (SELECT DISTINCT c.order_id FROM calls c WHERE c.customer_phone = $6 AND c.account_id = $1
          AND c.created_at > now() - interval '24 hours' AND NOT (c.shop_id = (SELECT id FROM shop) AND c.order_external_id = $4) LIMIT $7) x) AS "numberOrdersToday",
       ${storedResponseSubquery("$1", "$2", "now()")} AS stored,
       ${catalogueSubquery("(SELECT id FROM shop)", "$5")} AS catalogue
     FROM (SELECT 1) one LEFT JOIN accounts a ON a.id = $1`,
    [
      who.accountId,
      key,
      input.shop_external_id,
      input.order.external_id,
      productIds(input.order.items),
      input.customer.phone_number,
      dailyLimit,
    ],
  );
  return rows[0]!;
}

const JOB_MISSING = "WK002";

/** A replay: the stored response's bytes, and the call they describe (for MCP). */
function replay(stored: StoredResponse, hash: Buffer): CreatedCall {
  const body = replayOrConflict(stored, hash);
  return { call: callOutSchema.parse(JSON.parse(body)), body, replayed: true };
}

/** The checks of spec part 4 on a snapshot, then the call as it will be created and its JSON (the stored response). */
function plan(
  ctx: AppContext,
  input: CallCreate,
  snap: CreationSnapshot,
): { out: CallOut; body: string; scheduledAt: Date | null } {
  requestedStart(input, ctx.now()); // a bad scheduled_at is a validation error, reported before the other checks
  const language = chooseLanguage(input);
  const channel = chooseChannel(ctx, input);
  if (!snap.shop_id)
    throw new ApiError("shop_not_found", `No active shop "${input.shop_external_id}" on this account.`);
  const items = resolveItems(input.order.items, snap.catalogue, input.shop_external_id);
  const order = input.order;
  if (snap.order_last_attempt !== null && order.previous_attempts <= snap.order_last_attempt) {
    throw orderExists(input.shop_external_id, order.external_id, snap.order_last_attempt);
  }
  if (snap.listed) throw doNotCall(input.customer.phone_number);
  checkNumber(ctx, input, snap);
  const balance = snap.balance_seconds ?? 0;
  if (balance < REQUIRED_SECONDS) {
    throw new ApiError(
      "insufficient_balance",
      `The balance is ${balance} s; starting a call needs at least ${REQUIRED_SECONDS} s. No call was created and nothing was billed.`,
      {
        extensions: { balance_seconds: balance, required_seconds: REQUIRED_SECONDS },
      },
    );
  }
  const { at: scheduledAt, reason: scheduleReason } = plannedSchedule(ctx.config, input, snap, ctx.now());
  const out: CallOut = {
    id: randomUUID(),
    status: "queued",
    outcome: null,
    end_reason: null,
    shop_external_id: input.shop_external_id,
    customer: {
      name: input.customer.name,
      phone_number: input.customer.phone_number,
      ...(input.customer.address ? { address: input.customer.address } : {}),
    },
    amount: normalizeDecimal(input.amount),
    currency: COUNTRY_CURRENCY[input.country],
    country: input.country,
    language,
    dialect: COUNTRY_DIALECT[input.country],
    channel,
    order: { external_id: order.external_id, previous_attempts: order.previous_attempts, items },
    outcome_details: null,
    created_at: snap.now.toISOString(),
    answered_at: null,
    ended_at: null,
    duration_seconds: null,
    billed_seconds: null,
    recording_url: null,
    scheduled_at: scheduledAt?.toISOString() ?? null,
    retry_of: null,
    legal_basis: "order_confirmation",
    recording_declined: false,
    schedule_reason: scheduleReason,
    billing_adjustment: null,
    transfer: null,
    waiting_reason: null,
  };
  // Stored as the CallOut's JSON, and sent as it is: a replay gives the call exactly as first created, byte for byte.
  return { out, body: JSON.stringify(callOutSchema.encode(out)), scheduledAt };
}

/**
 * Creates a queued call with its order and its place-call job, after every check of spec part 4: one read (the
 * snapshot), then one write statement, its own transaction. With an idempotency key, a repeat of the same body within
 * 24 h replays the first response; the key is held by its unique index (db/idempotency.ts). The concurrent
 * creations of this node are read and written together (group commit, createBatch below): one snapshot statement and
 * one write statement, so one commit, for up to WAKHA_CREATE_BATCH_SIZE of them; each still gets its own answer.
 */
export async function createCall(
  ctx: AppContext,
  who: Principal,
  input: CallCreate,
  idempotencyKey: string | null,
): Promise<CreatedCall> {
  const hash = requestHash(CREATE_OPERATION, input);
  const batcher = creationBatcher(ctx);
  if (!batcher) return createAlone(ctx, who, input, idempotencyKey, hash);
  if (creationTrace.hasSubscribers)
    creationTrace.publish({ kind: "submit", key: idempotencyKey, t: performance.now(), queued: batcher.queued });
  return batcher.submit({ who, input, key: idempotencyKey, hash });
}

/** One creation on its own: a snapshot, then the batch's write with this one row, retried after a key found taken or expired. */
async function createAlone(
  ctx: AppContext,
  who: Principal,
  input: CallCreate,
  idempotencyKey: string | null,
  hash: Buffer,
): Promise<CreatedCall> {
  const client = await ctx.db.pool.connect();
  try {
    let snap = await readSnapshot(client, who, input, idempotencyKey, ctx.config.WAKHA_NUMBER_DAILY_LIMIT);
    // At most three writes: a second after a key found expired, or the first losing to a concurrent request.
    for (let attempt = 1; ; attempt++) {
      if (snap.stored) return replay(snap.stored, hash);
      const { out, body, scheduledAt } = plan(ctx, input, snap);
      const written = await write(ctx, client, who, input, idempotencyKey, hash, snap, out, body, scheduledAt).catch(
        (err: unknown) => {
          if (idempotencyKey !== null && isKeyTaken(err)) {
            if (attempt < 3) return "key_taken" as const;
            throw stillProcessing();
          }
          throw waitedTooLong(err) ?? err;
        },
      );
      if (written === "created") {
        if (idempotencyKey !== null) ctx.idempotencyPurge.poke(ctx.now());
        return { call: out, body, replayed: false };
      }
      const order = input.order;
      // No call: the order already has this attempt (a concurrent request of the same key created it, or another
      // request did). Or the key is taken: by a concurrent request that committed first, or by a record past the window.
      if (written === "key_taken") await deleteExpiredKey(client, who.accountId, idempotencyKey!);
      else if (idempotencyKey === null)
        throw orderExists(
          input.shop_external_id,
          order.external_id,
          Math.max(order.previous_attempts, snap.order_last_attempt ?? 0),
        );
      snap = await readSnapshot(client, who, input, idempotencyKey, ctx.config.WAKHA_NUMBER_DAILY_LIMIT);
      if (written === "order_taken" && !snap.stored) {
        throw orderExists(
          input.shop_external_id,
          order.external_id,
          Math.max(order.previous_attempts, snap.order_last_attempt ?? 0),
        );
      }
    }
  } finally {
    client.release();
  }
}

/**
 * The write of a planned creation: "created", or "order_taken" when the order already had this attempt (nothing
 * written). The batch's writer with one row (issue 29: one statement serves both paths).
 */
async function write(
  ctx: AppContext,
  client: Queryable,
  who: Principal,
  input: CallCreate,
  key: string | null,
  hash: Buffer,
  snap: CreationSnapshot,
  out: CallOut,
  body: string,
  scheduledAt: Date | null,
): Promise<"created" | "order_taken"> {
  const written = await writeBatch(ctx, client, [{ item: { who, input, key, hash }, snap, out, body, scheduledAt }]);
  return written.has(out.id) ? "created" : "order_taken";
}

// ---- Group commit (issue 19) ----------------------------------------------------------------------------------------

/** A creation handed to the batcher: validated and hashed, not yet read nor planned. */
interface PendingCreation {
  who: Principal;
  input: CallCreate;
  key: string | null;
  hash: Buffer;
}

/** The node's creation batcher, or null when WAKHA_CREATE_BATCH_SIZE is 0; built once by the root (callCreationBatchers). */
function creationBatcher(ctx: AppContext): GroupCommitter<PendingCreation, CreatedCall> | null {
  return ctx.batchers.callCreations;
}

function newCreationBatcher(ctx: AppContext): GroupCommitter<PendingCreation, CreatedCall> | null {
  const size = ctx.config.WAKHA_CREATE_BATCH_SIZE ?? 32;
  return size === 0
    ? null
    : new GroupCommitter<PendingCreation, CreatedCall>(
        (members) => createBatch(ctx, members),
        // Two creations of one key, or of one order, never share a batch nor run in two batches at once: the second
        // waits for the first's batch, then reads what it wrote, as it would today in a later request.
        (c) => {
          const order = `o\u0000${c.who.accountId}\u0000${c.input.shop_external_id}\u0000${c.input.order.external_id}`;
          return c.key === null ? [order] : [order, `k\u0000${c.who.accountId}\u0000${c.key}`];
        },
        { maxBatch: size, maxInFlight: ctx.config.WAKHA_CREATE_BATCHES ?? 2 },
      );
}

/** Creations waiting for a batch on this node (tests and diagnostics). */
export function queuedCreations(ctx: AppContext): number {
  return ctx.batchers.callCreations?.queued ?? 0;
}

// The snapshots of a batch in one statement: readSnapshot's subqueries, once per row of the batch's JSON ($1), in its order.
const SNAPSHOTS_SELECT = `SELECT now() AS now, a.balance_seconds, a.calling_hours AS "accountHours",
     s.id AS shop_id, s.calling_hours AS "shopHours",
     (SELECT last_attempt FROM orders WHERE shop_id = s.id AND external_id = r.order_external_id) AS order_last_attempt,
     EXISTS (SELECT 1 FROM do_not_call WHERE account_id = r.account_id AND phone_number = r.phone) AS listed,
     a.allow_any_number AS "allowAnyNumber",
     (SELECT count(*)::int FROM (SELECT DISTINCT c.order_id FROM calls c WHERE c.customer_phone = r.phone AND c.account_id = r.account_id
        AND c.created_at > now() - interval '24 hours' AND NOT (c.shop_id IS NOT DISTINCT FROM s.id AND c.order_external_id = r.order_external_id)
        LIMIT r.lim) x) AS "numberOrdersToday",
     ${storedResponseSubquery("r.account_id", "r.key", "now()")} AS stored,
     ${catalogueSubquery("s.id", "r.products")} AS catalogue
   FROM json_to_recordset($1::json) AS r(i integer, account_id uuid, key text, shop text, order_external_id text, products text[], phone text, lim integer)
     LEFT JOIN accounts a ON a.id = r.account_id
     LEFT JOIN LATERAL (SELECT id, calling_hours FROM shops WHERE account_id = r.account_id AND external_id = r.shop AND status = 'active' LIMIT 1) s ON true
   ORDER BY r.i`;

async function readSnapshots(
  client: Queryable,
  creations: PendingCreation[],
  dailyLimit: number,
): Promise<CreationSnapshot[]> {
  const rows = creations.map((c, i) => ({
    i,
    account_id: c.who.accountId,
    key: c.key,
    shop: c.input.shop_external_id,
    order_external_id: c.input.order.external_id,
    products: productIds(c.input.order.items),
    phone: c.input.customer.phone_number,
    lim: dailyLimit,
  }));
  const { rows: snaps } = await queryPrepared<CreationSnapshot>(
    client,
    "wakha_create_calls_snapshots",
    SNAPSHOTS_SELECT,
    [JSON.stringify(rows)],
  );
  if (snaps.length !== creations.length)
    throw new Error(`the creation snapshots returned ${snaps.length} rows for ${creations.length}`);
  return snaps;
}

// The creation's write, the one statement of both paths (issue 29: createAlone writes a batch of one): for every row of
// $1, the order, the call, the idempotency record and, through pg-boss's own INSERT as one more CTE ($2, as
// insertManyStatement gives it), the place-call job; one statement, so one transaction and one commit. The orders are
// upserted in key order (two batches lock them in the same order); a row whose order already has this attempt upserts
// nothing, so it writes no call, no record and no job, and is reported as not created (its creation then answers "the
// order already has this attempt"). pg-boss's INSERT reads only the jobs of the calls written, and wakha_check
// (migration 022) undoes the whole statement unless it wrote one job per call. `t` bounds the waits on a key or an
// order held by another request's statement (lock_timeout, for this statement's transaction only). A key taken
// meanwhile (by another node, or a record past the window), a lock waited for too long or any other error undoes the
// whole statement: a batch's creations are then written one by one (createAlone), each getting its own answer.
const BATCH_INSERT = `WITH t AS (SELECT ${LOCK_TIMEOUT_SETTING} AS lock_timeout),
       r AS MATERIALIZED (
         SELECT * FROM json_to_recordset($1::json) AS x(i integer, order_id uuid, account_id uuid, shop_id uuid, external_id text,
           attempt integer, at timestamptz, call_id uuid, customer_name text, customer_phone text, amount numeric,
           currency text, country text, language text, dialect text, channel text, items jsonb, key text, hash text,
           body text, scheduled_at timestamptz, retry_policy jsonb, schedule_reason text, customer_address jsonb)
       ), o AS (
         INSERT INTO orders (id, account_id, shop_id, external_id, last_attempt, created_at, updated_at)
         SELECT r.order_id, r.account_id, r.shop_id, r.external_id, r.attempt, r.at, r.at FROM r, t ORDER BY r.shop_id, r.external_id
         ON CONFLICT (shop_id, external_id) DO UPDATE SET last_attempt = EXCLUDED.last_attempt, updated_at = EXCLUDED.updated_at
           WHERE orders.last_attempt < EXCLUDED.last_attempt
         RETURNING id, shop_id, external_id
       ), c AS (
         INSERT INTO calls (id, account_id, shop_id, order_id, order_external_id, previous_attempts, customer_name, customer_phone,
           amount, currency, country, language, dialect, channel, items, created_at, updated_at, scheduled_at, retry_policy, schedule_reason,
           customer_address)
         SELECT r.call_id, r.account_id, r.shop_id, o.id, r.external_id, r.attempt, r.customer_name, r.customer_phone,
           r.amount, r.currency, r.country, r.language, r.dialect, r.channel, r.items, r.at, r.at, r.scheduled_at, r.retry_policy, r.schedule_reason,
           r.customer_address
         FROM r JOIN o ON o.shop_id = r.shop_id AND o.external_id = r.external_id ORDER BY r.i
         RETURNING id
       ), k AS (
         INSERT INTO idempotency_keys (account_id, key, request_hash, call_id, response_status, response_body, created_at)
         SELECT r.account_id, r.key, decode(r.hash, 'hex'), c.id, 201, r.body, r.at FROM r JOIN c ON c.id = r.call_id
         WHERE r.key IS NOT NULL ORDER BY r.account_id, r.key
         RETURNING 1
       ), j AS (__JOB__)
       SELECT wakha_check((SELECT count(*) FROM j) = (SELECT count(*) FROM c), '${JOB_MISSING}', 'pg-boss did not write one ${JOBS.placeCall.name} job per call') AS checked,
         ARRAY(SELECT id::text FROM c) AS created`;
// pg-boss's $1 (its jobs' JSON array), narrowed to the jobs whose call the statement wrote (a job's id is its call's).
// In the batch's order, as the calls: their seq and the jobs' fetch order (priority, created_on, then the index's
// order, which is insertion order here) agree, as they do for creations written one by one.
const WRITTEN_JOBS = `(SELECT coalesce(json_agg(x.job ORDER BY x.n), '[]'::json) FROM json_array_elements($2::json) WITH ORDINALITY AS x(job, n)
         WHERE (x.job->>'id')::uuid IN (SELECT id FROM c))`;
const batchStatements = new Map<string, { name: string; text: string }>();

/** The batch's write with pg-boss's INSERT of the jobs in it, or (null) with the jobs left to pg-boss's send(). */
function batchStatement(jobInsert: string | null): { name: string; text: string } {
  let statement = batchStatements.get(jobInsert ?? "");
  if (!statement) {
    // Replacer functions: the SQL's own `$` must not be read as replacement patterns. Without an INSERT to embed, `j`
    // counts the calls themselves (their jobs are sent in the same transaction) and $2 is unused.
    const text = BATCH_INSERT.replace("__JOB__", () =>
      jobInsert === null
        ? "SELECT id FROM c WHERE $2::json IS NOT NULL"
        : jobInsert.replace(/\$1(?!\d)/g, () => WRITTEN_JOBS),
    );
    statement = { name: `wakha_create_calls_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`, text };
    if (batchStatements.size < 8) batchStatements.set(jobInsert ?? "", statement);
  }
  return statement;
}

/** A creation planned and ready to write: what it asked, what was read, the call and its stored JSON. */
interface WriteRow {
  item: PendingCreation;
  snap: CreationSnapshot;
  out: CallOut;
  body: string;
  scheduledAt: Date | null;
}

interface PlannedCreation extends WriteRow {
  member: GroupMember<PendingCreation, CreatedCall>;
}

/**
 * Writes the planned creations in one statement (the one writer of both paths, issue 29); the ids of the calls written
 * (the others' orders had the attempt). pg-boss's INSERT of their jobs is embedded as pg-boss gives it
 * (JobQueue.insertManyStatement); should pg-boss ever not give one plain INSERT, the statement writes the calls and
 * pg-boss's send() their jobs, in one transaction (test/job-insert-shape.test.ts fails first).
 */
async function writeBatch(ctx: AppContext, client: Queryable, planned: WriteRow[]): Promise<Set<string>> {
  const jobOptions = (p: WriteRow) => ({ id: p.out.id, ...(p.scheduledAt ? { startAfter: p.scheduledAt } : {}) });
  const jobs = await ctx.queue.insertManyStatement(
    JOBS.placeCall,
    planned.map((p) => ({ payload: { call_id: p.out.id }, options: jobOptions(p) })),
  );
  const rows = planned.map(({ item, snap, out, body, scheduledAt }, i) => ({
    i,
    order_id: randomUUID(),
    account_id: item.who.accountId,
    shop_id: snap.shop_id,
    external_id: out.order.external_id,
    attempt: out.order.previous_attempts,
    at: snap.now,
    call_id: out.id,
    customer_name: out.customer.name,
    customer_phone: out.customer.phone_number,
    amount: out.amount,
    currency: out.currency,
    country: out.country,
    language: out.language,
    dialect: out.dialect,
    channel: out.channel,
    items: out.order.items,
    key: item.key,
    hash: item.key === null ? null : item.hash.toString("hex"),
    body,
    scheduled_at: scheduledAt,
    retry_policy: item.input.retry_policy ?? null,
    schedule_reason: out.schedule_reason,
    customer_address: out.customer.address ?? null,
  }));
  if (jobs) {
    const statement = batchStatement(jobs.text);
    const {
      rows: [result],
    } = await queryPrepared<{ created: string[] }>(client, statement.name, statement.text, [
      JSON.stringify(rows),
      jobs.param,
    ]);
    return new Set(result!.created);
  }
  await client.query("BEGIN");
  try {
    const statement = batchStatement(null);
    const {
      rows: [result],
    } = await queryPrepared<{ created: string[] }>(client, statement.name, statement.text, [
      JSON.stringify(rows),
      "[]",
    ]);
    const created = new Set(result!.created);
    for (const p of planned) {
      if (created.has(p.out.id)) await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: p.out.id }, jobOptions(p));
    }
    await client.query("COMMIT");
    return created;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  }
}

/**
 * A batch of creations (GroupCommitter's runner): one snapshot statement for all, the checks of each, one write
 * statement for those that passed. Replays, refusals and creations each settle their own member. What the batch
 * cannot settle by itself goes to createAlone, which gives exactly today's answer: a creation whose order turned out
 * to have the attempt and that has a key (a concurrent request of the same key may have created it: replayed), and
 * every member of a write that failed as a whole.
 */
async function createBatch(ctx: AppContext, members: GroupMember<PendingCreation, CreatedCall>[]): Promise<void> {
  const alone = (m: GroupMember<PendingCreation, CreatedCall>) => {
    const { who, input, key, hash } = m.item;
    createAlone(ctx, who, input, key, hash).then(m.resolve, m.reject);
  };
  const marks: number[] | null = creationTrace.hasSubscribers ? [performance.now()] : null;
  const client = await ctx.db.pool.connect();
  marks?.push(performance.now());
  let planned: PlannedCreation[] = [];
  let written: Set<string> | null;
  try {
    const snaps = await readSnapshots(
      client,
      members.map((m) => m.item),
      ctx.config.WAKHA_NUMBER_DAILY_LIMIT,
    );
    marks?.push(performance.now());
    members.forEach((member, i) => {
      const snap = snaps[i]!;
      try {
        if (snap.stored) return member.resolve(replay(snap.stored, member.item.hash));
        planned.push({ member, item: member.item, snap, ...plan(ctx, member.item.input, snap) });
      } catch (err) {
        member.reject(err);
      }
    });
    marks?.push(performance.now());
    if (planned.length === 0) return;
    written = await writeBatch(ctx, client, planned).catch((err: unknown) => {
      if (planned.length > 1 || (planned[0]!.member.item.key !== null && isKeyTaken(err))) return null;
      // A lone creation's own failure: the same answer as createAlone's, without writing it again.
      planned[0]!.member.reject(waitedTooLong(err) ?? err);
      planned = [];
      return new Set<string>();
    });
  } finally {
    client.release();
  }
  marks?.push(performance.now());
  if (written === null) {
    for (const p of planned) alone(p.member);
    return;
  }
  let keyed = false;
  for (const { member, snap, out, body } of planned) {
    const { input, key } = member.item;
    if (written.has(out.id)) {
      keyed ||= key !== null;
      member.resolve({ call: out, body, replayed: false });
    } else if (key === null) {
      member.reject(
        orderExists(
          input.shop_external_id,
          input.order.external_id,
          Math.max(input.order.previous_attempts, snap.order_last_attempt ?? 0),
        ),
      );
    } else {
      alone(member);
    }
  }
  if (keyed) ctx.idempotencyPurge.poke(ctx.now());
  if (marks) {
    marks.push(performance.now());
    creationTrace.publish({ kind: "batch", keys: members.map((m) => m.item.key), marks, written: written.size });
  }
}

declare module "../context.ts" {
  interface NodeBatchers {
    /** POST /v1/calls' group commit (issue 19). */
    callCreations: GroupCommitter<PendingCreation, CreatedCall> | null;
  }
}

/** The node's creation batcher, built once by the composition root on its context. */
export function callCreationBatchers(ctx: AppContext): Pick<NodeBatchers, "callCreations"> {
  return { callCreations: newCreationBatcher(ctx) };
}
