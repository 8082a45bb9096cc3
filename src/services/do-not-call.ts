// The account's do-not-call list (issue 15): numbers that are never called, added by the reseller or by the
// customer during a call. Writes are idempotent: adding a listed number or removing an unlisted one changes nothing.
import type { AppContext, Principal } from "../context.ts";
import { ApiError } from "../errors.ts";
import { DO_NOT_CALL_COLUMNS, type DoNotCallRow, listNumber } from "../calls/policy/do-not-call.ts";
import { endQueuedCallsTo } from "../calls/do-not-call-ends.ts";
import type { Page, PageInput } from "../pagination.ts";
import type { DoNotCallCreate, DoNotCallEntry } from "../schemas/do-not-call.ts";

function toEntry(row: DoNotCallRow): DoNotCallEntry {
  return {
    phone_number: row.phone_number,
    source: row.source,
    reason: row.reason,
    call_id: row.call_id,
    created_at: row.created_at.toISOString(),
  };
}

/** Lists a number; `created` is false when it was already listed (the entry is then returned unchanged). */
export async function addDoNotCall(
  ctx: AppContext,
  who: Principal,
  input: DoNotCallCreate,
): Promise<{ entry: DoNotCallEntry; created: boolean }> {
  return ctx.db.tx(async (client) => {
    const { row, created } = await listNumber(client, who.accountId, input.phone_number, {
      source: "api",
      reason: input.reason ?? null,
      callId: null,
    });
    // Its calls still queued end now, with their webhooks, in the same transaction (issue 32.6).
    await endQueuedCallsTo(ctx, client, who.accountId, input.phone_number);
    return { entry: toEntry(row), created };
  });
}

/** One listed number; an unlisted one is 404 not_found. */
export async function getDoNotCall(ctx: AppContext, who: Principal, phone: string): Promise<DoNotCallEntry> {
  const { rows } = await ctx.db.query<DoNotCallRow>(
    `SELECT ${DO_NOT_CALL_COLUMNS} FROM do_not_call WHERE account_id = $1 AND phone_number = $2`,
    [who.accountId, phone.slice(0, 32)],
  );
  if (!rows[0]) throw new ApiError("not_found", `${phone.slice(0, 32)} is not on this account's do-not-call list.`);
  return toEntry(rows[0]);
}

/** Removes a number from the list; removing one that is not listed is not an error. Returns whether it was listed. */
export async function removeDoNotCall(ctx: AppContext, who: Principal, phone: string): Promise<boolean> {
  const { rowCount } = await ctx.db.query("DELETE FROM do_not_call WHERE account_id = $1 AND phone_number = $2", [
    who.accountId,
    phone.slice(0, 32),
  ]);
  return (rowCount ?? 0) > 0;
}

/** The list, most recently added first. */
export async function listDoNotCall(ctx: AppContext, who: Principal, page: PageInput): Promise<Page<DoNotCallEntry>> {
  const scope = `do-not-call|${who.accountId}`;
  const after = ctx.paginator.start(scope, page.cursor);
  const { rows } = await ctx.db.query<DoNotCallRow>(
    `SELECT ${DO_NOT_CALL_COLUMNS} FROM do_not_call WHERE account_id = $1 AND ($2::bigint IS NULL OR seq < $2)
     ORDER BY seq DESC LIMIT $3`,
    [who.accountId, after, page.limit + 1],
  );
  return ctx.paginator.page(scope, rows, page.limit, toEntry);
}
