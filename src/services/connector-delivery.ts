// A store's parcel news (issue 35): the delivery event a connector's webhook carried, recorded on the order that
// connector took in (orders/delivery.ts: once per event id, the latest occurred_at decides).
import type { AppContext } from "../context.ts";
import type { StorePlatformName } from "../connectors/platform.ts";
import type { DeliveryEventStatus } from "../domain/delivery.ts";
import { applyDeliveryEvent } from "../calls/orders/delivery.ts";

/** `delivery_recorded`, `duplicate` (this event was recorded already) or `ignored` (no order of this connector has that id). */
export async function recordStoreDelivery(
  ctx: AppContext,
  connector: { id: string; account_id: string },
  platform: StorePlatformName,
  platformOrderId: string,
  event: { eventId: string; status: DeliveryEventStatus; occurredAt: string; reason: string | null },
): Promise<"delivery_recorded" | "duplicate" | "ignored"> {
  const { rows } = await ctx.db.query<{ order_id: string }>(
    "SELECT order_id FROM connector_events WHERE connector_id = $1 AND platform_order_id = $2 AND kind = 'order' AND order_id IS NOT NULL",
    [connector.id, platformOrderId],
  );
  const orderId = rows[0]?.order_id;
  if (!orderId) return "ignored";
  const applied = await applyDeliveryEvent(
    ctx,
    ctx.db,
    connector.account_id,
    orderId,
    {
      event_id: event.eventId.slice(0, 255),
      status: event.status,
      occurred_at: event.occurredAt,
      ...(event.reason ? { reason: event.reason.slice(0, 500) } : {}),
    },
    platform,
  );
  return applied.kind === "recorded" ? "delivery_recorded" : "duplicate";
}
