// What the carriers' inbound endpoints share: the call-id check and the record of the carrier's own seconds.
import type { AppContext } from "../../context.ts";

/** Carrier endpoints stay out of the OpenAPI document of the /v1 API. */
export const HIDDEN = { schema: { hide: true } } as const;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Keeps the carrier's connected seconds of a finished call on its row (first report wins), whichever node
 * holds the call: if the node that placed it is gone, the sweep bills these seconds instead of its last heartbeat.
 */
export async function recordCarrierSeconds(ctx: AppContext, callId: string, seconds: number): Promise<void> {
  if (!Number.isFinite(seconds) || seconds < 0) return;
  await ctx.db.query(
    "UPDATE calls SET carrier_seconds = $2 WHERE id = $1 AND carrier_seconds IS NULL AND answered_at IS NOT NULL",
    [callId, Math.ceil(seconds)],
  );
}
