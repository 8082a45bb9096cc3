// The carrier's own connected seconds of a finished call, reported by its callback (engine/telephony/<vendor>/inbound.ts,
// through CarrierReports), kept on the call's row for the sweep.
import type { AppContext } from "../context.ts";
import { boundBillable } from "./billing.ts";
import { billingTimeScale } from "./call-states.ts";

/**
 * Keeps the carrier's connected seconds of a finished call on its row (first report wins), whichever node
 * holds the call: if the node that placed it is gone, the sweep bills these seconds instead of its last heartbeat.
 * Issue 31.1: never more than the wall clock from the recorded answer to now (plus BILLING_TOLERANCE_SECONDS): a larger
 * report (a carrier's error, a leaked token) is kept as the call's billing_adjustment and logged, not billed.
 */
export async function recordCarrierSeconds(
  ctx: AppContext,
  callId: string,
  seconds: number,
  log?: (message: string) => void,
): Promise<void> {
  if (!Number.isFinite(seconds) || seconds < 0) return;
  const reported = Math.min(Math.ceil(seconds), 2_000_000_000);
  const { rows } = await ctx.db.query<{ wall: number; channel: string }>(
    `SELECT EXTRACT(EPOCH FROM clock_timestamp() - answered_at)::float8 AS wall, channel FROM calls
     WHERE id = $1 AND carrier_seconds IS NULL AND answered_at IS NOT NULL`,
    [callId],
  );
  if (!rows[0]) return;
  const { seconds: kept, adjustment } = boundBillable(
    reported,
    rows[0].wall,
    billingTimeScale(ctx.config, rows[0].channel),
  );
  if (adjustment)
    log?.(`call ${callId}: the carrier reported ${reported} s connected, more than the ${kept} s our clock allows`);
  await ctx.db.query(
    `UPDATE calls SET carrier_seconds = $2, billing_adjustment = COALESCE($3::jsonb, billing_adjustment)
     WHERE id = $1 AND carrier_seconds IS NULL AND answered_at IS NOT NULL`,
    [callId, kept, adjustment ? JSON.stringify(adjustment) : null],
  );
}
