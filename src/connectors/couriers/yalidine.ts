// Yalidine (Algeria): its webhooks as its developer documentation describes them (https://yalidine.app/app/dev/docs/api/,
// "Webhooks"): a GET with `subscribe` and `crc_token` must echo the token; each POST is JSON `{type, events: [{event_id,
// occurred_at, data}]}` with one type per request, signed in `X-YALIDINE-SIGNATURE` = hex HMAC-SHA256 of the raw body
// keyed with the webhook's secret key; events may repeat (event_id) and arrive out of order (occurred_at).
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { DeliveryEventStatus } from "../../domain/delivery.ts";
import type { CourierAdapter, CourierEvent } from "./courier.ts";

const eventSchema = z.looseObject({
  event_id: z.string().min(1).max(255),
  occurred_at: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, "YYYY-MM-DD HH:MM:SS"),
  data: z.looseObject({
    tracking: z.string().min(1).max(100).optional(),
    order_id: z.string().max(255).nullish(),
    status: z.string().max(100).nullish(),
    reason: z.string().max(500).nullish(),
  }),
});
const payloadSchema = z.looseObject({ type: z.string().min(1).max(64), events: z.array(eventSchema).max(1000) });

/**
 * Yalidine's status words (French) as delivery statuses. The documentation's examples show "Sorti en livraison" and
 * "Tentative échouée"; the rest of the list is the one a public Yalidine WooCommerce integration handles. Preparation
 * statuses ("En préparation", "Prêt à expédier", ...) say nothing about delivery: null.
 */
export function yalidineStatus(word: string): DeliveryEventStatus | null {
  const w = word
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();
  if (w === "livre") return "delivered";
  if (w === "sorti en livraison") return "out_for_delivery";
  if (w === "tentative echouee") return "unreachable";
  if (w === "echec livraison" || w === "echec de livraison") return "refused";
  if (w.startsWith("retour")) return "returned";
  if (
    [
      "ramasse",
      "transfert",
      "expedie",
      "centre",
      "vers wilaya",
      "recu a wilaya",
      "en attente du client",
      "en attente",
      "en alerte",
      "alerte resolue",
    ].includes(w)
  )
    return "in_transit";
  return null;
}

/** Yalidine's `occurred_at` has no offset: read as Algeria's time (UTC+1 all year, no daylight saving). */
export function algeriaTimeToIso(local: string): string {
  return new Date(`${local.replace(" ", "T")}+01:00`).toISOString();
}

export class YalidineCourier implements CourierAdapter {
  verify(secret: string, headers: Readonly<Record<string, string | undefined>>, rawBody: Buffer): boolean {
    const given = headers["x-yalidine-signature"];
    if (!given || !/^[0-9a-f]{64}$/i.test(given)) return false;
    const expected = createHmac("sha256", secret).update(rawBody).digest();
    return timingSafeEqual(Buffer.from(given.toLowerCase(), "hex"), expected);
  }

  challenge(query: Readonly<Record<string, string | undefined>>): string | null {
    return query["subscribe"] !== undefined && query["crc_token"] ? query["crc_token"] : null;
  }

  parse(rawBody: Buffer): CourierEvent[] {
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString("utf8"));
    } catch {
      throw new Error("the body is not JSON");
    }
    const parsed = payloadSchema.safeParse(json);
    if (!parsed.success)
      throw new Error(
        `not a Yalidine webhook: ${parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join(".")}: ${i.message}`)
          .join("; ")}`,
      );
    const { type, events } = parsed.data;
    return events.map((e): CourierEvent => {
      const tracking = e.data.tracking;
      if (type === "parcel_created" && tracking && e.data.order_id) {
        return { kind: "parcel_created", eventId: e.event_id, tracking, orderExternalId: e.data.order_id };
      }
      if (type === "parcel_status_updated" && tracking && e.data.status) {
        return {
          kind: "status",
          eventId: e.event_id,
          tracking,
          occurredAt: algeriaTimeToIso(e.occurred_at),
          status: yalidineStatus(e.data.status),
          courierStatus: e.data.status,
          reason: e.data.reason ?? null,
        };
      }
      return { kind: "ignored", eventId: e.event_id, type };
    });
  }
}
