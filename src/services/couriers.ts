// A shop's courier webhooks (issue 35): set, read and remove the courier's webhook (its secret sealed), and take in
// what the courier posts: a parcel created for an order links its tracking number to it; a status change becomes a
// delivery event (orders/delivery.ts: once per event_id, the latest occurred_at decides).
import { randomBytes, randomUUID } from "node:crypto";
import type { AppContext, Principal } from "../context.ts";
import { YalidineCourier } from "../connectors/couriers/yalidine.ts";
import type { CourierAdapter, CourierEvent } from "../connectors/couriers/courier.ts";
import { COURIERS, type CourierName } from "../domain/delivery.ts";
import { ApiError } from "../errors.ts";
import { applyDeliveryEvent } from "../calls/orders/delivery.ts";
import type { Courier, CourierInput } from "../schemas/couriers.ts";
import { requireSecretBox } from "./connectors.ts";
import { findActiveShop } from "./shops.ts";

const ADAPTERS: Record<CourierName, CourierAdapter> = { yalidine: new YalidineCourier() };

interface CourierRow {
  id: string;
  courier: CourierName;
  webhook_secret_last4: string;
  webhook_token: string;
  created_at: Date;
  updated_at: Date;
}
const COLUMNS = "id, courier, webhook_secret_last4, webhook_token, created_at, updated_at";

function shape(ctx: AppContext, shopExternalId: string, r: CourierRow): Courier {
  return {
    courier: r.courier,
    shop_external_id: shopExternalId,
    webhook_url: `${ctx.config.baseUrl.replace(/\/+$/, "")}/couriers/${r.courier}/${r.webhook_token}`,
    webhook_secret_last4: r.webhook_secret_last4,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

const notFound = (shop: string, courier: string) =>
  new ApiError("not_found", `Shop ${shop.slice(0, 64)} has no ${courier} webhook.`);

/** Sets (or replaces) the shop's webhook from `courier`; its address stays the same across replacements. */
export async function setCourier(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  courier: CourierName,
  input: CourierInput,
): Promise<Courier> {
  const box = requireSecretBox(ctx);
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const now = new Date(ctx.now());
  const { rows } = await ctx.db.query<CourierRow>(
    `INSERT INTO courier_connectors (id, account_id, shop_id, courier, webhook_secret_sealed, webhook_secret_last4, webhook_token, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (shop_id, courier) DO UPDATE SET webhook_secret_sealed = EXCLUDED.webhook_secret_sealed,
       webhook_secret_last4 = EXCLUDED.webhook_secret_last4, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      who.accountId,
      shop.id,
      courier,
      box.seal(input.webhook_secret),
      input.webhook_secret.slice(-4),
      randomBytes(24).toString("base64url"),
      now,
    ],
  );
  return shape(ctx, shop.external_id, rows[0]!);
}

/** The shop's webhook from `courier`, without its secret. */
export async function getCourier(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  courier: CourierName,
): Promise<Courier> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const { rows } = await ctx.db.query<CourierRow>(
    `SELECT ${COLUMNS} FROM courier_connectors WHERE shop_id = $1 AND courier = $2`,
    [shop.id, courier],
  );
  if (!rows[0]) throw notFound(shopExternalId, courier);
  return shape(ctx, shop.external_id, rows[0]);
}

/** Removes the shop's webhook from `courier`: its address answers 404 from then on. Recorded events stay. */
export async function deleteCourier(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  courier: CourierName,
): Promise<void> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const { rowCount } = await ctx.db.query("DELETE FROM courier_connectors WHERE shop_id = $1 AND courier = $2", [
    shop.id,
    courier,
  ]);
  if (!rowCount) throw notFound(shopExternalId, courier);
}

interface Target {
  id: string;
  account_id: string;
  shop_id: string;
  webhook_secret_sealed: string;
}

async function targetOf(
  ctx: AppContext,
  courier: string,
  token: string,
): Promise<{ adapter: CourierAdapter; target: Target }> {
  const adapter = (COURIERS as readonly string[]).includes(courier) ? ADAPTERS[courier as CourierName] : undefined;
  if (!adapter || token.length > 64) throw new ApiError("not_found", "No courier webhook at this address.");
  const { rows } = await ctx.db.query<Target>(
    "SELECT id, account_id, shop_id, webhook_secret_sealed FROM courier_connectors WHERE courier = $1 AND webhook_token = $2",
    [courier, token],
  );
  if (!rows[0]) throw new ApiError("not_found", "No courier webhook at this address.");
  return { adapter, target: rows[0] };
}

/** The courier's ownership check (a GET): the text to answer, or null when the query is not a challenge. */
export async function answerCourierChallenge(
  ctx: AppContext,
  courier: string,
  token: string,
  query: Record<string, string | undefined>,
): Promise<string | null> {
  const { adapter } = await targetOf(ctx, courier, token);
  return adapter.challenge(query);
}

export interface CourierIntake {
  recorded: number;
  duplicates: number;
  linked: number;
  ignored: number;
}

/** One delivery from a courier: verified, then each of its events applied; a bad signature is 401, a bad body 400. */
export async function receiveCourierWebhook(
  ctx: AppContext,
  courier: string,
  token: string,
  headers: Record<string, string | undefined>,
  rawBody: Buffer,
): Promise<CourierIntake> {
  const { adapter, target } = await targetOf(ctx, courier, token);
  const box = requireSecretBox(ctx);
  if (!adapter.verify(box.open(target.webhook_secret_sealed), headers, rawBody))
    throw new ApiError("invalid_api_key", "The courier's signature is missing or wrong.");
  let events: CourierEvent[];
  try {
    events = adapter.parse(rawBody);
  } catch (err) {
    throw new ApiError("bad_request", (err as Error).message.slice(0, 300));
  }
  const tally: CourierIntake = { recorded: 0, duplicates: 0, linked: 0, ignored: 0 };
  for (const e of events) await applyCourierEvent(ctx, courier as CourierName, target, e, tally);
  return tally;
}

async function applyCourierEvent(
  ctx: AppContext,
  courier: CourierName,
  target: Target,
  e: CourierEvent,
  tally: CourierIntake,
): Promise<void> {
  if (e.kind === "ignored") return void (tally.ignored += 1);
  if (e.kind === "parcel_created") {
    const { rowCount } = await ctx.db.query(
      `INSERT INTO courier_parcels (courier_connector_id, tracking, order_id)
       SELECT $1, $2, o.id FROM orders o WHERE o.shop_id = $3 AND o.external_id = $4 ON CONFLICT DO NOTHING`,
      [target.id, e.tracking, target.shop_id, e.orderExternalId],
    );
    return void (rowCount ? (tally.linked += 1) : (tally.ignored += 1));
  }
  if (e.status === null) return void (tally.ignored += 1);
  // The parcel's order: linked by the courier's own creation event, else a delivery event that named this tracking number.
  const { rows } = await ctx.db.query<{ order_id: string }>(
    `SELECT order_id FROM courier_parcels WHERE courier_connector_id = $1 AND tracking = $2
     UNION ALL
     SELECT d.order_id FROM delivery_events d JOIN orders o ON o.id = d.order_id WHERE d.tracking_number = $3 AND o.shop_id = $4
     LIMIT 1`,
    [target.id, e.tracking, e.tracking, target.shop_id],
  );
  const orderId = rows[0]?.order_id;
  if (!orderId) return void (tally.ignored += 1);
  const applied = await applyDeliveryEvent(
    ctx,
    ctx.db,
    target.account_id,
    orderId,
    {
      event_id: `${courier}:${e.eventId}`,
      status: e.status,
      occurred_at: e.occurredAt,
      carrier: courier,
      tracking_number: e.tracking,
      ...(e.reason ? { reason: e.reason.slice(0, 500) } : {}),
    },
    courier,
  );
  if (applied.kind === "recorded") tally.recorded += 1;
  else tally.duplicates += 1;
}
