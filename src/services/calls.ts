// The calls' use cases as the doors see them (REST, MCP, the console, the store connectors): a call's creation and its
// cancellation live in calls/ (create.ts, cancel.ts) and are served from here; the reads of calls (one call through the
// node's read batcher, the list, the recording) are read models over calls/read-model.ts.
import type { AppContext, NodeBatchers, Principal } from "../context.ts";
import { CALL_STATUSES, type CallOutcome } from "../domain/calls.ts";
import { GroupCommitter } from "../db/group-commit.ts";
import { ApiError } from "../errors.ts";
import type { Page, PageInput } from "../pagination.ts";
import { callNotFound } from "../calls/create.ts";
import { type OpenedRecording, openRecording } from "../calls/recordings.ts";
import { CALL_COLUMNS, type CallRow, isCallId, readCallOut, readCallRows, toCallOut } from "../calls/read-model.ts";
import type { CallOut } from "../schemas/calls.ts";

export { type CreatedCall, createCall, queuedCreations } from "../calls/create.ts";
export { cancelCall } from "../calls/cancel.ts";

/** A read handed to the read batcher: a well-formed call id and the account that asks. */
interface PendingRead {
  accountId: string;
  id: string;
}

/**
 * The node's read batcher (built once by the root: callReadBatchers), or null when WAKHA_READ_BATCH_SIZE is 0: the reads of single
 * calls that arrive while `WAKHA_READ_BATCHES` statements are running leave together in one statement, one round trip
 * for up to WAKHA_READ_BATCH_SIZE of them. No timer: a read that finds a free slot goes at once. A queued read never
 * joins a statement already sent, so it sees every commit that came before it arrived, as a read of its own would.
 */
function readBatcher(ctx: AppContext): GroupCommitter<PendingRead, CallOut | null> | null {
  return ctx.batchers.callReads;
}

function newReadBatcher(ctx: AppContext): GroupCommitter<PendingRead, CallOut | null> | null {
  const size = ctx.config.WAKHA_READ_BATCH_SIZE ?? 32;
  return size === 0
    ? null
    : new GroupCommitter<PendingRead, CallOut | null>(
        async (members) => {
          const rows = await readCallRows(
            ctx.db,
            members.map((m) => m.item.id),
          );
          const byId = new Map(rows.map((r) => [r.id, r]));
          for (const m of members) {
            const row = byId.get(m.item.id.toLowerCase());
            // Another account's call is the same as no call: the row answers only the account it belongs to.
            m.resolve(row && row.account_id === m.item.accountId ? toCallOut(ctx.config.baseUrl, row) : null);
          }
        },
        () => [],
        { maxBatch: size, maxInFlight: ctx.config.WAKHA_READ_BATCHES ?? 2 },
      );
}

/** One of the account's calls; missing, foreign and malformed ids are the same 404. */
export async function getCall(ctx: AppContext, who: Principal, id: string): Promise<CallOut> {
  const batcher = readBatcher(ctx);
  const call = !batcher
    ? await readCallOut(ctx.db, ctx.config.baseUrl, who.accountId, id)
    : isCallId(id)
      ? await batcher.submit({ accountId: who.accountId, id })
      : null;
  if (!call) throw callNotFound(id);
  return call;
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
  /** One order's calls (issue 15: a call and its retries). */
  order_external_id?: string | undefined;
}

/** The account's calls, newest first; the filters are part of the cursor's scope. */
export async function listCalls(
  ctx: AppContext,
  who: Principal,
  filters: CallFilters,
  page: PageInput,
): Promise<Page<CallOut>> {
  if (filters.status !== undefined && !(CALL_STATUSES as readonly string[]).includes(filters.status)) {
    throw new ApiError(
      "invalid_status_filter",
      `status "${filters.status.slice(0, 32)}" is not accepted; use one of ${CALL_STATUSES.join(", ")}.`,
    );
  }
  const f = [
    filters.status,
    filters.outcome,
    filters.shop_external_id,
    filters.merchant_id,
    filters.created_after,
    filters.created_before,
    filters.order_external_id,
  ].map((v) => v ?? null);
  // Without an order filter the scope is as before it existed, so cursors issued then stay valid.
  const scope = `calls|${who.accountId}|${JSON.stringify(f[6] === null ? f.slice(0, 6) : f)}`;
  const after = ctx.paginator.start(scope, page.cursor);
  const { rows } = await ctx.db.query<CallRow>(
    `SELECT ${CALL_COLUMNS} FROM calls c JOIN shops s ON s.id = c.shop_id
     WHERE c.account_id = $1 AND ($2::bigint IS NULL OR c.seq < $2)
       AND ($3::text IS NULL OR c.status = $3) AND ($4::text IS NULL OR c.outcome = $4)
       AND ($5::text IS NULL OR s.external_id = $5) AND ($6::text IS NULL OR s.merchant_external_id = $6)
       AND ($7::timestamptz IS NULL OR c.created_at >= $7) AND ($8::timestamptz IS NULL OR c.created_at < $8)
       AND ($9::text IS NULL OR c.order_external_id = $9)
     ORDER BY c.seq DESC LIMIT $10`,
    [who.accountId, after, ...f, page.limit + 1],
  );
  return ctx.paginator.page(scope, rows, page.limit, (r) => toCallOut(ctx.config.baseUrl, r));
}

/** A call's recording, opened for streaming: 404 call_not_found if never produced, 410 once purged or lost. */
export async function openCallRecording(
  ctx: AppContext,
  who: Principal,
  id: string,
): Promise<OpenedRecording & { contentType: string }> {
  if (!isCallId(id)) throw callNotFound(id);
  const { rows } = await ctx.db.query<{
    recording_path: string | null;
    recording_content_type: string | null;
    recording_purged_at: Date | null;
  }>(
    "SELECT recording_path, recording_content_type, recording_purged_at FROM calls WHERE id = $1 AND account_id = $2",
    [id, who.accountId],
  );
  const r = rows[0];
  if (r?.recording_purged_at) {
    throw new ApiError(
      "recording_gone",
      `The recording of call ${id} was purged on ${r.recording_purged_at.toISOString()}, after the 30-day retention.`,
    );
  }
  if (!r?.recording_path) throw callNotFound(id);
  // A file that is no longer there is as gone as a purged one.
  const opened = await openRecording(ctx, r.recording_path);
  if (!opened) throw new ApiError("recording_gone", `The recording of call ${id} is no longer stored.`);
  return { ...opened, contentType: r.recording_content_type ?? "application/octet-stream" };
}

declare module "../context.ts" {
  interface NodeBatchers {
    /** GET /v1/calls/{id}'s batched reads. */
    callReads: GroupCommitter<PendingRead, CallOut | null> | null;
  }
}

/** The node's call read batcher, built once by the composition root on its context. */
export function callReadBatchers(ctx: AppContext): Pick<NodeBatchers, "callReads"> {
  return { callReads: newReadBatcher(ctx) };
}
