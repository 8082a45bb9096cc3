// Issue 16, voice: a call's end settles its order (orders/settle.ts), in the transaction that ends the call.
import type { AppContext } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import type { CallOutcome, CallStatus } from "../domain/calls.ts";
import { resolutionOfCall, type ResolutionDetails } from "../domain/orders.ts";
import { settleOrder } from "./orders/settle.ts";

/**
 * Settles the order of a call that has just ended (its row already updated, in the caller's transaction) from its
 * status and outcome, on channel `voice`, at the call's end. An unreached or undecided call gives `unresolved`,
 * which changes nothing. Returns whether the order's resolution changed (then `order.resolved` was emitted).
 */
export async function settleOrderOfCall(
  ctx: AppContext,
  client: Queryable,
  accountId: string,
  callId: string,
): Promise<boolean> {
  const { rows } = await client.query<{
    order_id: string;
    status: CallStatus;
    outcome: CallOutcome | null;
    outcome_details: ResolutionDetails | null;
    ended_at: Date | null;
  }>("SELECT order_id, status, outcome, outcome_details, ended_at FROM calls WHERE id = $1 AND account_id = $2", [
    callId,
    accountId,
  ]);
  const call = rows[0];
  if (!call?.ended_at) return false;
  const resolution = resolutionOfCall(call.status, call.outcome);
  if (resolution === "unresolved") return false;
  const { changed } = await settleOrder(ctx, client, {
    accountId,
    orderId: call.order_id,
    resolution,
    channel: "voice",
    at: call.ended_at,
    details: call.outcome_details,
    callId,
  });
  return changed;
}
