// The Order read model (issue 16): the one query and mapping from an order's row, its shop and its calls to the
// Order that REST and MCP return (services/orders.ts) and that `order.resolved` carries (orders/settle.ts).
import type { Queryable } from "../../db/pool.ts";
import type { CallOutcome, CallStatus } from "../../domain/calls.ts";
import type { Country, Currency, Language } from "../../domain/locale.ts";
import { orderStatusOf, type OrderResolution, type ResolutionChannel } from "../../domain/orders.ts";
import type { CallItem } from "../../schemas/calls.ts";
import type { DeliveryEvent } from "../../schemas/delivery.ts";
import type { OrderOut } from "../../schemas/orders.ts";

/** An order's row as ORDER_SELECT gives it. */
export interface OrderRow {
  seq: number;
  external_id: string;
  shop_external_id: string;
  merchant_external_id: string;
  created_at: Date;
  resolution: OrderResolution;
  resolution_channel: ResolutionChannel | null;
  resolved_at: Date | null;
  resolution_details: OrderOut["resolution"]["details"];
  resolution_call_id: string | null;
  resolution_message_id: string | null;
  customer_name: string;
  customer_phone: string;
  items: CallItem[];
  amount: string;
  currency: Currency;
  country: Country;
  language: Language;
  /** Oldest first; timestamps as JSON gives them (text). */
  attempts: {
    id: string;
    status: CallStatus;
    outcome: CallOutcome | null;
    created_at: string;
    ended_at: string | null;
  }[];
  /**
   * The WhatsApp fallback's messages (issue 16) in the order Wakha recorded them (WhatsApp's own timestamps are whole
   * seconds, so a quick reply could sort before its template; on a tie the reply comes first, since a clarifying
   * message is recorded after the reply it answers); `at` as JSON gives it (text).
   */
  messages: (Omit<OrderOut["messages"][number], "at"> & { at: string })[] | null;
  /** Issue 35: the deciding event's status and time, and every event (timestamps as JSON gives them). */
  delivery_status: OrderOut["delivery"]["status"];
  delivery_updated_at: Date | null;
  delivery_events: DeliveryEvent[] | null;
}

/**
 * The SELECT list and FROM of an order (`o` orders, `s` its shop, `l` its latest call); add WHERE, ORDER BY, LIMIT.
 * Every order has at least one call: the order and its first call are created in one statement.
 */
export const ORDER_SELECT = `SELECT o.seq, o.external_id, s.external_id AS shop_external_id, s.merchant_external_id, o.created_at,
    o.resolution, o.resolution_channel, o.resolved_at, o.resolution_details, o.resolution_call_id, o.resolution_message_id,
    l.customer_name, l.customer_phone, l.items, l.amount::text AS amount, l.currency, l.country, l.language,
    (SELECT json_agg(json_build_object('id', a.id, 'status', a.status, 'outcome', a.outcome, 'created_at', a.created_at,
                                       'ended_at', a.ended_at) ORDER BY a.seq)
       FROM calls a WHERE a.order_id = o.id) AS attempts,
    (SELECT json_agg(to_jsonb(m) - 'recorded_at' ORDER BY m.recorded_at, m.direction) FROM (
       SELECT 'outbound' AS direction, w.wamid AS id, w.kind AS type, NULL::text AS text, w.status, w.error,
              NULL::text AS intent, NULL::text AS resolution, NULL::text AS action, w.created_at AS at, w.created_at AS recorded_at
       FROM whatsapp_messages w WHERE w.order_id = o.id
       UNION ALL
       SELECT 'inbound', r.message_id, r.kind, r.text, NULL, NULL, r.intent, r.resolution, r.action, COALESCE(r.sent_at, r.received_at),
              r.received_at
       FROM order_messages r WHERE r.order_id = o.id) m) AS messages,
    o.delivery_status, o.delivery_updated_at,
    (SELECT json_agg(json_build_object('event_id', d.event_id, 'status', d.status, 'occurred_at', d.occurred_at, 'carrier', d.carrier,
                                       'tracking_number', d.tracking_number, 'reason', d.reason, 'source', d.source,
                                       'received_at', d.received_at) ORDER BY d.occurred_at, d.event_id)
       FROM delivery_events d WHERE d.order_id = o.id) AS delivery_events
  FROM orders o JOIN shops s ON s.id = o.shop_id
  CROSS JOIN LATERAL (SELECT c.customer_name, c.customer_phone, c.items, c.amount, c.currency, c.country, c.language
                      FROM calls c WHERE c.order_id = o.id ORDER BY c.seq DESC LIMIT 1) l`;

const iso = (text: string | null) => (text === null ? null : new Date(text).toISOString());

/** A delivery event as JSON (or a row) gives it, with its timestamps in RFC 3339 UTC. */
export function toDeliveryEventOut(
  d: DeliveryEvent | (Omit<DeliveryEvent, "occurred_at" | "received_at"> & { occurred_at: Date; received_at: Date }),
): DeliveryEvent {
  return {
    ...d,
    occurred_at: new Date(d.occurred_at).toISOString(),
    received_at: new Date(d.received_at).toISOString(),
  };
}

export function toOrderOut(r: OrderRow): OrderOut {
  return {
    external_id: r.external_id,
    shop_external_id: r.shop_external_id,
    merchant_external_id: r.merchant_external_id,
    status: orderStatusOf(r.resolution),
    customer: { name: r.customer_name, phone_number: r.customer_phone },
    items: r.items,
    amount: r.amount,
    currency: r.currency,
    country: r.country,
    language: r.language,
    created_at: r.created_at.toISOString(),
    attempts: (r.attempts ?? []).map((a) => ({
      id: a.id,
      status: a.status,
      outcome: a.outcome,
      created_at: iso(a.created_at)!,
      ended_at: iso(a.ended_at),
    })),
    messages: (r.messages ?? []).map((m) => ({ ...m, at: iso(m.at)! })),
    delivery: {
      status: r.delivery_status,
      updated_at: r.delivery_updated_at?.toISOString() ?? null,
      events: (r.delivery_events ?? []).map(toDeliveryEventOut),
    },
    resolution: {
      value: r.resolution,
      channel: r.resolution_channel,
      resolved_at: r.resolved_at?.toISOString() ?? null,
      details: r.resolution_details,
      call_id: r.resolution_call_id,
      message_id: r.resolution_message_id,
    },
  };
}

/** One order of the account by its internal id, through the given client; null if none. */
export async function readOrderById(db: Queryable, accountId: string, orderId: string): Promise<OrderOut | null> {
  const { rows } = await db.query<OrderRow>(`${ORDER_SELECT} WHERE o.id = $1 AND o.account_id = $2`, [
    orderId,
    accountId,
  ]);
  return rows[0] ? toOrderOut(rows[0]) : null;
}

/** One order of the account by its shop's and its own external ids (any shop status); null if none. */
export async function readOrder(
  db: Queryable,
  accountId: string,
  shopExternalId: string,
  orderExternalId: string,
): Promise<OrderOut | null> {
  const { rows } = await db.query<OrderRow>(
    `${ORDER_SELECT} WHERE o.account_id = $1 AND s.external_id = $2 AND o.external_id = $3`,
    [accountId, shopExternalId, orderExternalId],
  );
  return rows[0] ? toOrderOut(rows[0]) : null;
}
