// The schemas of delivery events (issue 35): what a courier or a store reports about an order's parcel, and the
// `delivery` an order shows. One definition documents REST (OpenAPI), shapes the MCP tool and types the read model.
import { z } from "zod";
import { DELIVERY_EVENT_STATUSES, DELIVERY_SOURCES } from "../domain/delivery.ts";
import { instant } from "./calls.ts";
import { safeString, timestamp } from "./common.ts";

const text = (max: number) => safeString().min(1).max(max);

export const deliveryEventInputSchema = z
  .strictObject({
    event_id: text(255).describe(
      "Your id for this event (the courier's event id, or any unique string): the same event_id on the same order is recorded once.",
    ),
    status: z.enum(DELIVERY_EVENT_STATUSES).describe("What happened to the parcel."),
    occurred_at: instant.describe(
      "When it happened, RFC 3339 with its offset. The event with the latest occurred_at decides the order's delivery status, whatever the order events arrive in.",
    ),
    carrier: text(100).optional().describe("The courier, for example `yalidine`."),
    tracking_number: text(100).optional(),
    reason: text(500).optional().describe("Why, for refused, returned, unreachable or lost (the courier's words)."),
  })
  .meta({ id: "DeliveryEventCreate" });
export type DeliveryEventInput = z.output<typeof deliveryEventInputSchema>;

export const deliveryEventSchema = z
  .object({
    event_id: z.string(),
    status: z.enum(DELIVERY_EVENT_STATUSES),
    occurred_at: timestamp,
    carrier: z.string().nullable(),
    tracking_number: z.string().nullable(),
    reason: z.string().nullable(),
    source: z
      .enum(DELIVERY_SOURCES)
      .describe(
        "Who reported it: `api`, a store connector (`shopify`, `woocommerce`, `youcan`) or a courier (`yalidine`).",
      ),
    received_at: timestamp.describe("When Wakha recorded it."),
  })
  .meta({ id: "DeliveryEvent" });
export type DeliveryEvent = z.output<typeof deliveryEventSchema>;

export const orderDeliverySchema = z
  .object({
    status: z
      .enum(DELIVERY_EVENT_STATUSES)
      .nullable()
      .describe("The status of the deciding event (latest occurred_at); null before any event."),
    updated_at: timestamp.nullable().describe("occurred_at of the deciding event; null before any event."),
    events: z.array(deliveryEventSchema).describe("Every event recorded on the order, by occurred_at."),
  })
  .meta({ id: "OrderDelivery" });
export type OrderDelivery = z.output<typeof orderDeliverySchema>;

export const deliveryEventResultSchema = z
  .object({
    recorded: z.boolean().describe("false when this event_id was already recorded on the order (nothing changed)."),
    event: deliveryEventSchema,
    delivery: orderDeliverySchema,
  })
  .meta({ id: "DeliveryEventResult" });
export type DeliveryEventResult = z.output<typeof deliveryEventResultSchema>;
