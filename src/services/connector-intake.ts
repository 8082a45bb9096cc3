// Orders in (issue 17): a store's order-created webhook, verified with the connector's secret, becomes a call through
// createCall (the same path as POST /v1/calls: calling policy, do-not-call, balance, order uniqueness), or is skipped or
// rejected with a reason in the connector's log. Idempotent on the platform's order id, even for simultaneous deliveries.
import { randomUUID } from "node:crypto";
import type { AppContext } from "../context.ts";
import type { InboundStoreWebhook, StoreOrder, StorePlatformName } from "../connectors/platform.ts";
import { COUNTRIES, COUNTRY_CURRENCY, type Country } from "../domain/locale.ts";
import { normalisePhone } from "../domain/phone.ts";
import { queryPrepared } from "../db/pool.ts";
import type { OrderResolution } from "../domain/orders.ts";
import { enqueueWriteBacks } from "../calls/orders/store-write-back.ts";
import { ApiError } from "../errors.ts";
import type { Address } from "../schemas/address.ts";
import { callCreateSchema, type CallCreate } from "../schemas/calls.ts";
import { createCall } from "./calls.ts";
import { recordStoreDelivery } from "./connector-delivery.ts";
import { adapterFor, logConnectorEvent } from "./connectors.ts";

/** What became of one delivery (the 2xx body): the platform only needs the status code. */
export type IntakeResult = "call_created" | "skipped" | "rejected" | "duplicate" | "ignored" | "delivery_recorded";

/** What became of one delivery, with the topic of one acknowledged and ignored (for the server's log). */
export interface IntakeOutcome {
  result: IntakeResult;
  /** For `ignored`: the platform's topic (`ping` for WooCommerce's activation ping, `orders/updated`, ...). */
  topic?: string;
}

/** Refused (badly signed) deliveries logged per connector and hour; more are refused without a log entry. */
const REFUSED_PER_HOUR = 100;

/** A delivery whose order was claimed by another delivery less than this long ago is a duplicate in flight. */
const CLAIM_TIMEOUT_SECONDS = 60;

interface ConnectorForIntake {
  id: string;
  account_id: string;
  webhook_secret_sealed: string;
  shop_id: string;
  shop_external_id: string;
  shop_status: string;
  default_country: Country | null;
}

const notFound = () => new ApiError("not_found", "No connector at this address.");

/** The country a call is placed under: the shipping country when Wakha serves it, else the shop's own. */
function callCountry(order: StoreOrder, shopCountry: Country | null): Country | null {
  const c = order.countryCode;
  return c && (COUNTRIES as readonly string[]).includes(c) ? (c as Country) : shopCountry;
}

/** Decimals of each currency Wakha calls in (ISO 4217 minor units: the Tunisian dinar counts millimes). */
const CURRENCY_DECIMALS: Record<string, number> = { MAD: 2, DZD: 2, TND: 3, EUR: 2 };

/**
 * A platform's amount in its currency's minor unit, rounded half up: WooCommerce's line `price` is a float (the line
 * total over its quantity, 33.333333333333336 after a discount) and YouCan's amounts are JSON numbers (776.5). The
 * call then shows and reads "33.33" and "776.50", as an amount sent through POST /v1/calls would be.
 */
export function inMinorUnits(value: string, currency: string): string {
  const places = CURRENCY_DECIMALS[currency] ?? 2;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return value; // not a plain non-negative decimal: left for the call's schema to refuse with its reason
  const [, whole = "0", fraction = ""] = m;
  const up = fraction.length > places && fraction.charCodeAt(places) >= 53; // the next digit is 5 or more
  const digits = (BigInt(whole + fraction.padEnd(places, "0").slice(0, places)) + (up ? 1n : 0n))
    .toString()
    .padStart(places + 1, "0");
  return `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** The shop's active variants that an order's lines may name: by the platform's product id, or by SKU. */
interface CatalogueMatch {
  product: string;
  variant: string;
}

/**
 * Each line as a call item: the shop's product and variant by the platform's ids (as the catalogue import names them),
 * else a variant whose variant_external_id is the line's SKU, else an ad-hoc line (name + unit price). Every line keeps
 * the price the customer pays (after the line's discounts).
 */
function itemsOf(order: StoreOrder, rows: CatalogueMatch[]): CallCreate["order"]["items"] {
  return order.lines.slice(0, 100).map((original) => {
    const line = { ...original, unitPrice: inMinorUnits(original.unitPrice, order.currency) };
    const ofProduct = rows.filter((r) => r.product === line.productId);
    const byId =
      ofProduct.find((r) => r.variant === line.variantId) ??
      (line.variantId === null && ofProduct.length === 1 ? ofProduct[0] : undefined);
    const bySku = line.sku ? rows.filter((r) => r.variant === line.sku) : [];
    const match = byId ?? (bySku.length === 1 ? bySku[0] : undefined);
    if (match)
      return {
        product_external_id: match.product,
        variant_external_id: match.variant,
        unit_price: line.unitPrice,
        quantity: line.quantity,
      };
    const name =
      `${line.title}${line.variantTitle && line.variantTitle !== "Default Title" ? ` (${line.variantTitle})` : ""}`.slice(
        0,
        200,
      );
    return { name, unit_price: line.unitPrice, quantity: line.quantity };
  });
}

async function finish(
  ctx: AppContext,
  eventId: string,
  status: "skipped" | "rejected",
  reason: string | null,
  detail: Record<string, unknown>,
): Promise<void> {
  await queryPrepared(
    ctx.db,
    "wakha_intake_finish",
    "UPDATE connector_events SET status = $2, reason = $3, detail = $4, updated_at = now() WHERE id = $1",
    [eventId, status, reason, JSON.stringify(detail)],
  );
}

/**
 * Links the intake to its call and order, under the order's row lock (the one settleOrder takes): an order settled
 * before this link (its call already over) found no intake to write back, so its write-back is enqueued here; one
 * settled after it finds the intake itself. Exactly one write-back either way.
 */
async function linkCall(
  ctx: AppContext,
  eventId: string,
  callId: string,
  detail: Record<string, unknown>,
): Promise<void> {
  await ctx.db.tx(async (client) => {
    const { rows } = await queryPrepared<{
      order_id: string;
      resolution: OrderResolution;
      resolution_call_id: string | null;
    }>(
      client,
      "wakha_intake_link",
      `WITH o AS (SELECT o.id, o.resolution, o.resolution_call_id FROM orders o JOIN calls c ON c.order_id = o.id WHERE c.id = $2 FOR UPDATE OF o)
       UPDATE connector_events e SET status = 'call_created', reason = NULL, detail = $3, call_id = $2, order_id = o.id, updated_at = now()
       FROM o WHERE e.id = $1 RETURNING o.id AS order_id, o.resolution, o.resolution_call_id`,
      [eventId, callId, JSON.stringify(detail)],
    );
    const r = rows[0];
    if (r && r.resolution !== "unresolved")
      await enqueueWriteBacks(ctx, client, r.order_id, r.resolution, r.resolution_call_id);
  });
}

/** Takes one order in, after its claim: a call, or a skip or rejection with its reason. */
async function takeIn(
  ctx: AppContext,
  c: ConnectorForIntake,
  eventId: string,
  order: StoreOrder,
  catalogue: CatalogueMatch[],
): Promise<IntakeResult> {
  const base = {
    display_name: order.displayName,
    payment: order.paymentDescription,
    phone: order.phone,
    total: order.total,
    currency: order.currency,
  };
  if (order.payment !== "cod") {
    await finish(ctx, eventId, "skipped", order.payment === "paid" ? "paid" : "not_cod", base);
    return "skipped";
  }
  const reject = async (reason: string, more: Record<string, unknown> = {}): Promise<IntakeResult> => {
    await finish(ctx, eventId, "rejected", reason, { ...base, ...more });
    return "rejected";
  };
  const country = callCountry(order, c.default_country);
  if (!country)
    return reject("country_not_served", {
      country: order.countryCode,
      hint: "Wakha calls MA, DZ, TN and FR; set the shop's default_country for orders without a shipping country.",
    });
  // The amount is read to the customer in the country's currency: another currency would be read wrongly, so it is refused.
  if (order.currency !== COUNTRY_CURRENCY[country])
    return reject("currency_mismatch", { country, expected_currency: COUNTRY_CURRENCY[country] });
  const phone = order.phone ? normalisePhone(order.phone, country) : null;
  if (!phone) return reject(order.phone ? "phone_not_normalisable" : "phone_missing", { country });
  if (order.lines.length === 0) return reject("no_items");

  const parsed = callCreateSchema.safeParse({
    shop_external_id: c.shop_external_id,
    customer: {
      name: (order.customerName ?? "").slice(0, 200).trim() || "Client",
      phone_number: phone,
      ...addressOf(order),
    },
    amount: inMinorUnits(order.total, order.currency),
    country,
    order: { external_id: order.platformOrderId, items: itemsOf(order, catalogue) },
  });
  if (!parsed.success)
    return reject("invalid_order", {
      country,
      issues: parsed.error.issues.slice(0, 10).map((i) => `${i.path.join(".")}: ${i.message}`),
    });
  try {
    const { call } = await createCall(ctx, { accountId: c.account_id, keyId: `connector:${c.id}` }, parsed.data, null);
    await linkCall(ctx, eventId, call.id, { ...base, phone_e164: phone, country });
    return "call_created";
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.slug === "order_external_id_already_exists") {
      // A claim taken over after a crash whose call did commit: link that call rather than reject the order.
      const { rows } = await ctx.db.query<{ id: string }>(
        `SELECT c.id FROM calls c JOIN orders o ON o.id = c.order_id WHERE o.shop_id = $1 AND o.external_id = $2 ORDER BY c.created_at LIMIT 1`,
        [c.shop_id, order.platformOrderId],
      );
      if (rows[0]) {
        await linkCall(ctx, eventId, rows[0].id, { ...base, phone_e164: phone, country, linked_existing_call: true });
        return "call_created";
      }
    }
    return reject(err.slug, { country, phone_e164: phone, error: err.message.slice(0, 500) });
  }
}

/**
 * One webhook delivery to /connectors/{platform}/{token}. Throws `not_found` (no such connector), `invalid_api_key`
 * with status 401 (bad signature, logged as refused), `bad_request` (a signed body that is not an order, logged as
 * rejected); otherwise the order is recorded before this returns, whatever became of it.
 */
export async function receiveStoreWebhook(
  ctx: AppContext,
  platform: string,
  token: string,
  request: InboundStoreWebhook,
): Promise<IntakeOutcome> {
  const adapter = adapterFor(ctx, platform);
  if (!adapter || !/^[A-Za-z0-9_-]{16,64}$/.test(token)) throw notFound();
  if (!ctx.secretBox) throw new ApiError("service_unavailable", "Store connectors are not configured on this server.");
  const { rows } = await queryPrepared<ConnectorForIntake>(
    ctx.db,
    "wakha_intake_connector",
    `SELECT c.id, c.account_id, c.webhook_secret_sealed, s.id AS shop_id, s.external_id AS shop_external_id, s.status AS shop_status, s.default_country
     FROM store_connectors c JOIN shops s ON s.id = c.shop_id WHERE c.webhook_token = $1 AND c.platform = $2`,
    [token, platform],
  );
  const c = rows[0];
  if (!c) throw notFound();
  const verdict = adapter.verifyWebhook(ctx.secretBox.open(c.webhook_secret_sealed), request);
  if (!verdict.ok) {
    // Logged, up to REFUSED_PER_HOUR a connector: whoever learns the address cannot flood the merchant's log. The
    // count and the insert run under the connector's advisory lock: simultaneous refusals would all count the same
    // rows and pass the cap together.
    await ctx.db.tx(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('wakha:connector-refused:' || $1::text, 0))", [
        c.id,
      ]);
      await client.query(
        `INSERT INTO connector_events (id, connector_id, account_id, kind, status, reason, detail)
         SELECT $1, $2, $3, 'webhook_refused', 'refused', 'bad_signature', $4
         WHERE (SELECT count(*) FROM (SELECT 1 FROM connector_events WHERE connector_id = $2 AND kind = 'webhook_refused'
                  AND created_at > now() - interval '1 hour' LIMIT $5) recent) < $5`,
        [randomUUID(), c.id, c.account_id, JSON.stringify({ why: verdict.reason }), REFUSED_PER_HOUR],
      );
    });
    throw new ApiError("invalid_api_key", "Invalid or missing webhook signature.", { status: 401 });
  }
  let event;
  try {
    event = adapter.parseWebhook(request);
  } catch (err) {
    const why = (err as Error).message.slice(0, 300);
    await logConnectorEvent(ctx.db, {
      connectorId: c.id,
      accountId: c.account_id,
      kind: "order",
      status: "rejected",
      reason: "malformed_payload",
      detail: { error: why },
    });
    throw new ApiError("bad_request", `The body is not a ${platform} order: ${why}.`);
  }
  // Nothing is recorded for another topic (WooCommerce's activation ping, orders/updated...): the platform only
  // needs its 200, and the connector's log stays the merchant's list of orders.
  if (event.kind === "ignored") return { result: "ignored", topic: event.topic };
  if (event.kind === "delivery")
    return {
      result: await recordStoreDelivery(ctx, c, platform as StorePlatformName, event.platformOrderId, event.event),
    };
  const order = event.order;
  const eventId = randomUUID();
  // The claim and the catalogue the lines may name, in one round trip.
  const { rows: claimed } = await queryPrepared<{ id: string | null; catalogue: CatalogueMatch[] }>(
    ctx.db,
    "wakha_intake_claim",
    `WITH claim AS (
       INSERT INTO connector_events (id, connector_id, account_id, kind, status, platform_order_id, detail)
       VALUES ($1, $2, $3, 'order', 'received', $4, $5)
       ON CONFLICT (connector_id, platform_order_id) WHERE kind = 'order' DO NOTHING RETURNING id)
     SELECT (SELECT id FROM claim) AS id,
       (SELECT coalesce(json_agg(json_build_object('product', p.external_id, 'variant', v.variant_external_id)), '[]'::json)
        FROM products p JOIN product_variants v ON v.product_id = p.id AND v.status = 'active'
        WHERE p.shop_id = $6 AND p.status = 'active' AND (p.external_id = ANY($7::text[]) OR v.variant_external_id = ANY($8::text[]))) AS catalogue`,
    [
      eventId,
      c.id,
      c.account_id,
      order.platformOrderId,
      JSON.stringify({ display_name: order.displayName }),
      c.shop_id,
      [...new Set(order.lines.flatMap((l) => (l.productId ? [l.productId] : [])))],
      [...new Set(order.lines.flatMap((l) => (l.sku ? [l.sku] : [])))],
    ],
  );
  const catalogue = claimed[0]?.catalogue ?? [];
  let claim = claimed[0]?.id ?? undefined;
  if (!claim) {
    // A claim left `received` by a node that died mid-intake is taken over once it is old enough.
    const { rows: taken } = await ctx.db.query<{ id: string }>(
      `UPDATE connector_events SET updated_at = now(), attempts = attempts + 1
       WHERE connector_id = $1 AND platform_order_id = $2 AND kind = 'order' AND status = 'received'
         AND updated_at < now() - make_interval(secs => $3) RETURNING id`,
      [c.id, order.platformOrderId, CLAIM_TIMEOUT_SECONDS],
    );
    claim = taken[0]?.id;
    if (!claim) return { result: "duplicate" };
  }
  if (c.shop_status !== "active") {
    await finish(ctx, claim, "rejected", "shop_archived", { display_name: order.displayName });
    return { result: "rejected" };
  }
  try {
    return { result: await takeIn(ctx, c, claim, order, catalogue) };
  } catch (err) {
    // Nothing was decided: release the claim so the platform's retry of this delivery takes the order in.
    await ctx.db.query("DELETE FROM connector_events WHERE id = $1 AND status = 'received'", [claim]).catch(() => {});
    throw err;
  }
}

/** The order's shipping address as CallCreate takes it (issue 35), each part cut to its bound; none without a city. */
function addressOf(order: StoreOrder): { address?: Address } {
  const a = order.address;
  if (!a) return {};
  const cut = (v: string | null, max: number) => (v ? v.slice(0, max) : undefined);
  const address = {
    line1: cut(a.line1, 200),
    line2: cut(a.line2, 200),
    city: a.city.slice(0, 100),
    region: cut(a.region, 100),
    postal_code: cut(a.postalCode, 20),
  };
  return { address: Object.fromEntries(Object.entries(address).filter(([, v]) => v !== undefined)) as Address };
}
