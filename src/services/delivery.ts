// Delivery events by API (issue 35): POST /v1/shops/{shop}/orders/{order}/delivery-events and the MCP tool
// record_delivery_event. The rule and the event are orders/delivery.ts's, shared with the connectors and couriers.
import type { AppContext, Principal } from "../context.ts";
import { isExternalId } from "../domain/catalogue.ts";
import { ApiError } from "../errors.ts";
import { applyDeliveryEvent } from "../calls/orders/delivery.ts";
import { readOrderById } from "../calls/orders/read-model.ts";
import type { DeliveryEventInput, DeliveryEventResult } from "../schemas/delivery.ts";
import { isOrderExternalId, orderNotFound } from "./orders.ts";

/** The internal id of one of the account's orders by its shop's and its own external ids (any shop status); null if none. */
export async function findOrderId(
  ctx: AppContext,
  accountId: string,
  shopExternalId: string,
  orderExternalId: string,
): Promise<string | null> {
  if (!isExternalId(shopExternalId) || !isOrderExternalId(orderExternalId)) return null;
  const { rows } = await ctx.db.query<{ id: string }>(
    "SELECT o.id FROM orders o JOIN shops s ON s.id = o.shop_id WHERE o.account_id = $1 AND s.external_id = $2 AND o.external_id = $3",
    [accountId, shopExternalId, orderExternalId],
  );
  return rows[0]?.id ?? null;
}

/**
 * Records a delivery event on an order of the account, once per event_id: `created` is false for a copy of an event
 * already recorded. The same event_id with other content is 409 `conflict`; an unknown order is 404 `not_found`.
 */
export async function recordDeliveryEvent(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  orderExternalId: string,
  input: DeliveryEventInput,
): Promise<{ created: boolean; result: DeliveryEventResult }> {
  const orderId = await findOrderId(ctx, who.accountId, shopExternalId, orderExternalId);
  if (!orderId) throw orderNotFound(shopExternalId, orderExternalId);
  const applied = await applyDeliveryEvent(ctx, ctx.db, who.accountId, orderId, input, "api");
  if (applied.kind === "conflict") {
    throw new ApiError(
      "conflict",
      `event_id ${input.event_id.slice(0, 64)} is already recorded on this order with other content; send a new event_id for a new event.`,
    );
  }
  const order = await readOrderById(ctx.db, who.accountId, orderId);
  if (!order) throw orderNotFound(shopExternalId, orderExternalId);
  return {
    created: applied.kind === "recorded",
    result: { recorded: applied.kind === "recorded", event: applied.event, delivery: order.delivery },
  };
}
