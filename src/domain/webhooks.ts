// What the webhook receiver is told about, and where each delivery of it stands.

export const EVENT_TYPES = [
  "call.answered",
  "call.ended",
  "call.retry_scheduled",
  "recording.ready",
  "message.received",
  "order.resolved",
  "webhook.test",
  "customer.opted_out",
  "order.delivery_updated",
  "call.transferred",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A delivery's state, and the values of the deliveries' `status` filter (CONTRACT §3). */
export const DELIVERY_STATUSES = ["delivered", "failed", "pending"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
