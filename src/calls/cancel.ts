// Cancelling a call (POST /v1/calls/{id}/cancel, MCP cancel_call, the console): a queued call ends at once and its job
// is cancelled; a live one is marked for the engine to close.
import type { AppContext, Principal } from "../context.ts";
import { ACTIVE_STATUSES } from "../domain/calls.ts";
import { ApiError } from "../errors.ts";
import { JOBS } from "../jobs/catalogue.ts";
import type { CallOut } from "../schemas/calls.ts";
import { callNotFound } from "./create.ts";
import { CALL_COLUMNS, type CallRow, isCallId, toCallOut } from "./read-model.ts";

/**
 * Cancels a queued, ringing or in-progress call (CONTRACT §4, §10). A queued call ends here and its
 * place-call job is cancelled; a live one is marked canceled with cancel_requested_at, and the engine
 * closes the line and fills ended_at and billed_seconds. A terminal call is 409 conflict.
 */
export async function cancelCall(ctx: AppContext, who: Principal, id: string): Promise<CallOut> {
  if (!isCallId(id)) throw callNotFound(id);
  return ctx.db.tx(async (client) => {
    const { rows: found } = await client.query<{ status: CallOut["status"] }>(
      "SELECT status FROM calls WHERE id = $1 AND account_id = $2 FOR UPDATE",
      [id, who.accountId],
    );
    const status = found[0]?.status;
    if (!status) throw callNotFound(id);
    if (!(ACTIVE_STATUSES as readonly string[]).includes(status)) {
      throw new ApiError(
        "conflict",
        `Call ${id} is already ${status}; only queued, ringing or in_progress calls can be canceled.`,
      );
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
    return toCallOut(ctx.config.baseUrl, rows[0]!);
  });
}
