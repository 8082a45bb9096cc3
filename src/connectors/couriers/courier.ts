// Couriers (issue 35): the interface each courier's webhook adapter implements. An adapter speaks its courier's wire
// format only (signature, payload, status words); what an event does to an order is services/courier-intake.ts's.
import type { DeliveryEventStatus } from "../../domain/delivery.ts";

/** One event of a courier's delivery, in one shape whatever the courier. */
export type CourierEvent =
  /** A parcel was created for one of the seller's orders: links the tracking number to the order. */
  | { kind: "parcel_created"; eventId: string; tracking: string; orderExternalId: string }
  /** The parcel's status changed; `status` null when the courier's word says nothing about delivery (preparation...). */
  | {
      kind: "status";
      eventId: string;
      tracking: string;
      occurredAt: string;
      status: DeliveryEventStatus | null;
      courierStatus: string;
      reason: string | null;
    }
  | { kind: "ignored"; eventId: string; type: string };

export interface CourierAdapter {
  /** Checks the courier's documented signature over the raw body with the shop's webhook secret. */
  verify(secret: string, headers: Readonly<Record<string, string | undefined>>, rawBody: Buffer): boolean;
  /** The answer to the courier's ownership check (a GET with a challenge), or null when the query is not one. */
  challenge(query: Readonly<Record<string, string | undefined>>): string | null;
  /** Reads a verified delivery; throws an Error with a plain message when the body is not what the courier sends. */
  parse(rawBody: Buffer): CourierEvent[];
}
