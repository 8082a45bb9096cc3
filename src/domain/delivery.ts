// What happens to a parcel after the confirmation (issue 35): the courier's statuses and which event decides an
// order's delivery status. Pure: no I/O. src/calls/orders/delivery.ts applies it under the order's row lock.

export const DELIVERY_EVENT_STATUSES = [
  "in_transit",
  "out_for_delivery",
  "delivered",
  "refused",
  "returned",
  "unreachable",
  "lost",
] as const;
export type DeliveryEventStatus = (typeof DELIVERY_EVENT_STATUSES)[number];

/** Where a delivery event came from: the REST API, a store connector or a courier's webhook. */
export const DELIVERY_SOURCES = ["api", "shopify", "woocommerce", "youcan", "yalidine"] as const;
export type DeliverySource = (typeof DELIVERY_SOURCES)[number];

/** The couriers whose webhooks Wakha reads (src/connectors/couriers/). */
export const COURIERS = ["yalidine"] as const;
export type CourierName = (typeof COURIERS)[number];

/** The statuses that end a parcel's journey; on a tie of occurred_at they win over one still moving. */
const FINAL: readonly DeliveryEventStatus[] = ["delivered", "refused", "returned", "lost"];

/** A delivery event as the rule compares them. */
export interface DeliveryMoment {
  status: DeliveryEventStatus;
  occurredAt: Date;
  eventId: string;
}

/**
 * Whether `b` decides the order's status over `a`: the later occurred_at wins whatever the arrival order; on a tie
 * a final status beats a moving one, then the greater event_id (any fixed rule, so every arrival order agrees).
 */
export function decidesOver(a: DeliveryMoment, b: DeliveryMoment): boolean {
  const dt = b.occurredAt.getTime() - a.occurredAt.getTime();
  if (dt !== 0) return dt > 0;
  const fa = FINAL.includes(a.status) ? 1 : 0;
  const fb = FINAL.includes(b.status) ? 1 : 0;
  if (fa !== fb) return fb > fa;
  return b.eventId > a.eventId;
}

/** The deciding event of a list (null for none). */
export function decidingEvent<T extends DeliveryMoment>(events: readonly T[]): T | null {
  return events.reduce<T | null>((cur, e) => (cur === null || decidesOver(cur, e) ? e : cur), null);
}
