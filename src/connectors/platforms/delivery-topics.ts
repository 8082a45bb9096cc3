// Store webhooks about a parcel (issue 35): Shopify's `fulfillment_events/create` (a FulfillmentEvent: id, order_id,
// status, happened_at; https://shopify.dev/docs/api/admin-rest/latest/resources/fulfillmentevent) and WooCommerce's
// `order.updated` (the order object, as order.created) when the status is completed, refunded or failed. Each becomes
// a delivery event on the order the connector took in; every other status says nothing about delivery.
import type { DeliveryEventStatus } from "../../domain/delivery.ts";
import { parseJsonExact } from "../exact-json.ts";
import type { StoreWebhookEvent } from "../platform.ts";

/** Shopify's FulfillmentEventStatus (REST: snake_case) as a delivery status; labels and confirmations say nothing. */
const SHOPIFY_STATUSES: Readonly<Record<string, DeliveryEventStatus>> = {
  carrier_picked_up: "in_transit",
  picked_up: "in_transit",
  in_transit: "in_transit",
  delayed: "in_transit",
  out_for_delivery: "out_for_delivery",
  attempted_delivery: "unreachable",
  delivered: "delivered",
};

/** WooCommerce's order statuses a COD merchant sets after the courier's verdict. */
const WOO_STATUSES: Readonly<Record<string, DeliveryEventStatus>> = {
  completed: "delivered",
  refunded: "returned",
  failed: "refused",
};

const str = (v: unknown): string | null =>
  typeof v === "string" && v.trim() !== ""
    ? v.trim()
    : typeof v === "number" || typeof v === "bigint"
      ? String(v)
      : null;

/** A Shopify `fulfillment_events/create` delivery (ids read exactly: they are 64-bit). */
export function shopifyFulfillmentEvent(rawBody: Buffer): StoreWebhookEvent {
  let body: unknown;
  try {
    body = parseJsonExact(rawBody.toString("utf8"));
  } catch {
    throw new Error("the body is not valid JSON");
  }
  const e =
    body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  const id = str(e?.["id"]);
  const orderId = str(e?.["order_id"]);
  const statusWord = str(e?.["status"]);
  const at = str(e?.["happened_at"]) ?? str(e?.["created_at"]);
  if (!e || !id || !orderId || !statusWord || !at || Number.isNaN(Date.parse(at)))
    throw new Error("not a Shopify fulfillment event (id, order_id, status, happened_at)");
  const status = SHOPIFY_STATUSES[statusWord.toLowerCase()];
  if (!status) return { kind: "ignored", topic: `fulfillment_events/create:${statusWord.slice(0, 40)}` };
  return {
    kind: "delivery",
    platformOrderId: orderId,
    event: { eventId: `shopify:${id}`, status, occurredAt: new Date(at).toISOString(), reason: str(e["message"]) },
  };
}

/** A WooCommerce `order.updated` delivery already parsed as JSON: a delivery event for completed, refunded, failed. */
export function wooStatusEvent(json: Record<string, unknown>): StoreWebhookEvent {
  const id = str(json["id"]);
  const word = str(json["status"]);
  if (!id || !word) throw new Error("WooCommerce order.updated: not an order (id, status)");
  const status = WOO_STATUSES[word];
  if (!status) return { kind: "ignored", topic: `order.updated:${word.slice(0, 40)}` };
  // WooCommerce's *_gmt dates have no offset: they are UTC.
  const gmt = str(
    status === "delivered" ? (json["date_completed_gmt"] ?? json["date_modified_gmt"]) : json["date_modified_gmt"],
  );
  const at = gmt ? new Date(`${gmt.replace(/Z$/, "")}Z`) : null;
  if (!at || Number.isNaN(at.getTime())) throw new Error("WooCommerce order.updated: no date_modified_gmt");
  return {
    kind: "delivery",
    platformOrderId: id,
    event: {
      eventId: `woocommerce:${id}:${word}:${at.toISOString()}`,
      status,
      occurredAt: at.toISOString(),
      reason: null,
    },
  };
}
