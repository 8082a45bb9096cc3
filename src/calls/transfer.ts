// The dialer's side of a warm transfer (issue 34): checks the shop's handoff hours, asks the carrier to dial the
// person with the whisper, and records how it went as the call's `transfer`. Carrier-specific work lives in each
// carrier's CallSession.transfer (simulator/transfer.ts, twilio/, jambonz/).
import type { AppContext } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import { type HandoffHours, type HandoffTrigger, insideHandoffHours } from "../domain/handoff.ts";
import { settleOrder } from "./orders/settle.ts";
import type { ClaimedCall, CallEnd } from "./call-states.ts";
import { whisperText } from "../engine/dialogue/handoff.ts";
import type { TranscriptEntry } from "../engine/dialogue/types.ts";
import { speechLocale, type CallSession, type TransferOutcome } from "../engine/telephony/provider.ts";

export interface TransferRun {
  transfer: NonNullable<CallEnd["transfer"]>;
  /** The transcript's mark of the transfer, and what was said on the bridged line (when the carrier transcribes it). */
  bridgedTurns: TranscriptEntry[];
  decision: TransferOutcome["decision"] | null;
}

/** Dials the shop's person for `call` and reports how it went; never throws (a carrier error is `failed`). */
export async function runTransfer(
  ctx: AppContext,
  call: ClaimedCall,
  session: CallSession,
  handoff: ShopHandoff | null,
  asked: { reason: HandoffTrigger; question: string | null },
  spoken?: Promise<unknown>,
): Promise<TransferRun> {
  const requestedAt = new Date(ctx.now());
  const startSeconds = session.connectedSeconds();
  const to = handoff?.phoneNumber ?? "";
  let outcome: TransferOutcome;
  let status: NonNullable<CallEnd["transfer"]>["status"];
  if (!handoff || !session.transfer) {
    outcome = { status: "failed", answeredAtSeconds: null, bridgedSeconds: 0 };
    status = "failed";
  } else if (!insideHandoffHours(handoff.hours, requestedAt)) {
    outcome = { status: "failed", answeredAtSeconds: null, bridgedSeconds: 0 };
    status = "outside_hours";
  } else {
    const whisper = whisperText(call.language, {
      customerName: call.customerName,
      orderExternalId: call.orderExternalId,
      total: `${call.amount} ${call.currency}`,
      reason: asked.reason,
      question: asked.question,
    });
    outcome = await session
      .transfer({
        to,
        ...(call.callerNumber ? { from: call.callerNumber } : {}),
        ringTimeoutSeconds: handoff.ringTimeoutSeconds,
        whisper,
        whisperLocale: speechLocale(call.language, call.dialect),
        ...(spoken ? { spoken } : {}),
      })
      .catch((): TransferOutcome => ({ status: "failed", answeredAtSeconds: null, bridgedSeconds: 0 }));
    status = outcome.status;
  }
  const answeredAt =
    outcome.answeredAtSeconds === null
      ? null
      : new Date(requestedAt.getTime() + Math.max(0, outcome.answeredAtSeconds - startSeconds) * 1000).toISOString();
  const mark: TranscriptEntry = {
    speaker: "agent",
    text: `[transfer to ${to || "nobody"}: ${status}]`,
    at: startSeconds,
  };
  return {
    transfer: {
      status,
      to,
      reason: asked.reason,
      requested_at: requestedAt.toISOString(),
      answered_at: answeredAt,
      seconds: Math.max(0, Math.round(outcome.bridgedSeconds)),
      ended_by: null,
    },
    bridgedTurns: [mark, ...(outcome.bridgedTurns ?? [])],
    decision: outcome.decision ?? null,
  };
}

/** The person's decision on the order (the simulator's person), as PUT .../resolution records it: channel `agent`. */
export async function applyPersonDecision(
  ctx: AppContext,
  call: ClaimedCall,
  decision: NonNullable<TransferOutcome["decision"]>,
): Promise<void> {
  const { rows } = await ctx.db.query<{ order_id: string }>("SELECT order_id FROM calls WHERE id = $1", [call.id]);
  if (!rows[0]) return;
  await settleOrder(ctx, ctx.db, {
    accountId: call.accountId,
    orderId: rows[0].order_id,
    resolution: decision.value,
    channel: "agent",
    at: new Date(ctx.now()),
    details: { note: decision.note },
  });
}

/** What the engine needs of a shop's handoff at a trigger; null when the shop has none. */
export interface ShopHandoff {
  phoneNumber: string;
  triggers: HandoffTrigger[];
  ringTimeoutSeconds: number;
  hours: HandoffHours | null;
}

export async function loadHandoff(db: Queryable, shopId: string): Promise<ShopHandoff | null> {
  const { rows } = await db.query<{
    phone_number: string;
    triggers: HandoffTrigger[];
    ring_timeout_seconds: number;
    hours: HandoffHours | null;
  }>("SELECT phone_number, triggers, ring_timeout_seconds, hours FROM shop_handoffs WHERE shop_id = $1", [shopId]);
  const r = rows[0];
  return r
    ? { phoneNumber: r.phone_number, triggers: r.triggers, ringTimeoutSeconds: r.ring_timeout_seconds, hours: r.hours }
    : null;
}
