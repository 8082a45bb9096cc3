// Issue 32.6: a number put on the do-not-call list ends its account's queued calls at once (failed,
// `number_do_not_call`, unbilled, with call.ended), instead of leaving them queued until their turn comes.
import type { AppContext } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import { DO_NOT_CALL_SKIPPED } from "../domain/do-not-call.ts";
import { failureDetails } from "../domain/end-reasons.ts";
import { emitCallEvent } from "./call-states.ts";
import { settleOrderOfCall } from "./order-resolution.ts";
import { wakeWaiting } from "./policy/concurrency.ts";

/**
 * Ends the account's queued calls to `phone`, in the caller's transaction (the one that lists the number); returns
 * their ids. A call already claimed (ringing) is left to its dialer; one canceled meanwhile stays canceled.
 */
export async function endQueuedCallsTo(
  ctx: AppContext,
  client: Queryable,
  accountId: string,
  phone: string,
): Promise<string[]> {
  const { rows } = await client.query<{ id: string; held_place: boolean }>(
    `WITH q AS (
       SELECT id, (deferred_until < 'infinity' AND wait_lines IS NULL) IS TRUE AS held_place FROM calls
       WHERE account_id = $1 AND customer_phone = $2 AND status = 'queued' AND cancel_requested_at IS NULL AND ended_at IS NULL
       ORDER BY id FOR UPDATE)
     UPDATE calls c SET status = 'failed', end_reason = $3, outcome_details = $4, ended_at = now(), duration_seconds = 0,
       billed_seconds = 0, deferred_until = NULL, wait_lines = NULL, updated_at = now()
     FROM q WHERE c.id = q.id RETURNING c.id, q.held_place`,
    [accountId, phone, DO_NOT_CALL_SKIPPED, failureDetails(DO_NOT_CALL_SKIPPED)],
  );
  for (const row of rows) {
    // A woken call held a place under the account's cap until claimed: it goes to the next in line.
    if (row.held_place) await wakeWaiting(ctx, client, accountId, null, false);
    await emitCallEvent(ctx, client, accountId, row.id, "call.ended");
    await settleOrderOfCall(ctx, client, accountId, row.id);
  }
  return rows.map((r) => r.id);
}
