// A shop's store connector (issue 17): PUT replaces it (credentials and webhook secret sealed like webhook secrets,
// never shown again), GET shows it without them, DELETE removes it and its log; the log itself; the catalogue import.
import { randomBytes, randomUUID } from "node:crypto";
import { isIP } from "node:net";
import type { AppContext, Principal } from "../context.ts";
import { openCredentials } from "../connectors/credentials.ts";
import { adapterOf } from "../connectors/registry.ts";
import {
  type StoreCredentials,
  type StorePlatform,
  type StorePlatformName,
  StoreApiError,
} from "../connectors/platform.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import type { Queryable } from "../db/pool.ts";
import { ApiError } from "../errors.ts";
import type { Page, PageInput } from "../pagination.ts";
import { AddressRejected, checkHost, parseWebhookUrl } from "../net/address-guard.ts";
import type { Connector, ConnectorEvent, ConnectorInput, ConnectorSync } from "../schemas/connectors.ts";
import { retryWriteBack } from "../calls/orders/store-write-back.ts";
import { findActiveShop } from "./shops.ts";

interface ConnectorRow {
  id: string;
  platform: StorePlatformName;
  store_url: string;
  credential_last4: string;
  webhook_secret_last4: string;
  webhook_token: string;
  last_sync_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  "id, platform, store_url, credential_last4, webhook_secret_last4, webhook_token, last_sync_at, created_at, updated_at";

/** The inbound address a platform posts its webhooks to. */
export function webhookUrl(baseUrl: string, platform: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/connectors/${platform}/${token}`;
}

function shape(ctx: AppContext, shopExternalId: string, row: ConnectorRow): Connector {
  return {
    shop_external_id: shopExternalId,
    platform: row.platform,
    store_url: row.store_url,
    credential_last4: row.credential_last4,
    webhook_secret_last4: row.webhook_secret_last4,
    webhook_url: webhookUrl(ctx.config.baseUrl, row.platform, row.webhook_token),
    last_sync_at: row.last_sync_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function connectorNotFound(shopExternalId: string): ApiError {
  return new ApiError(
    "connector_not_found",
    `Shop ${JSON.stringify(shopExternalId.slice(0, 100))} has no store connector. Connect one with PUT /v1/shops/{shop_external_id}/connector.`,
  );
}

export function requireSecretBox(ctx: AppContext): SecretBox {
  if (!ctx.secretBox)
    throw new ApiError(
      "service_unavailable",
      "Store connectors are unavailable: no encryption key for credentials is configured (WAKHA_ENCRYPTION_KEY).",
    );
  return ctx.secretBox;
}

export function adapterFor(ctx: AppContext, platform: string): StorePlatform | null {
  return adapterOf(ctx.stores, platform);
}

/** The input as the adapters take it: the store's normalised address and the platform's credentials. */
function credentialsOf(input: ConnectorInput): StoreCredentials {
  switch (input.platform) {
    case "shopify":
      return {
        platform: "shopify",
        storeUrl: `https://${input.store_url.replace(/^https:\/\//, "").replace(/\/$/, "")}`,
        accessToken: input.access_token,
        webhookSecret: input.webhook_secret,
      };
    case "youcan":
      return {
        platform: "youcan",
        storeUrl: (input.store_url ?? "https://api.youcan.shop").replace(/\/+$/, ""),
        accessToken: input.access_token,
        webhookSecret: input.webhook_secret,
      };
    case "woocommerce":
      return {
        platform: "woocommerce",
        storeUrl: input.store_url.replace(/\/+$/, ""),
        consumerKey: input.consumer_key,
        consumerSecret: input.consumer_secret,
        webhookSecret: input.webhook_secret,
      };
  }
}

/**
 * A store address Wakha will call (catalogue, write-backs) must not reach this machine or a private network: https, an
 * allowed port, no loopback or private IP literal (the outbound webhooks' rules; http and private addresses only with
 * WAKHA_WEBHOOK_ALLOW_PRIVATE). A name is resolved by the adapter at each request, not here.
 */
async function checkStoreUrl(ctx: AppContext, raw: string): Promise<void> {
  const allowPrivate = ctx.config.WAKHA_WEBHOOK_ALLOW_PRIVATE;
  try {
    const url = parseWebhookUrl(raw, allowPrivate);
    if (isIP(url.hostname.replace(/^\[|\]$/g, ""))) await checkHost(url.hostname, { allowPrivate });
  } catch (err) {
    if (!(err instanceof AddressRejected)) throw err;
    const msg = err.message.replace("webhooks must use https", "stores must use https");
    throw new ApiError("validation_error", `store_url: ${msg}`, {
      issues: [{ path: ["store_url"], msg, type: "value_error" }],
    });
  }
}

async function connectorRow(db: Queryable, shopId: string): Promise<ConnectorRow | null> {
  const { rows } = await db.query<ConnectorRow>(`SELECT ${COLUMNS} FROM store_connectors WHERE shop_id = $1`, [shopId]);
  return rows[0] ?? null;
}

/** The shop's connector, without its secrets. */
export async function getConnector(ctx: AppContext, who: Principal, shopExternalId: string): Promise<Connector> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const row = await connectorRow(ctx.db, shop.id);
  if (!row) throw connectorNotFound(shopExternalId);
  return shape(ctx, shop.external_id, row);
}

/**
 * Creates or replaces the shop's connector in one statement (two identical PUTs leave one row). The inbound address
 * (webhook token) is kept across replacements, so the store's webhook subscription keeps working.
 */
export async function setConnector(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  input: ConnectorInput,
): Promise<Connector> {
  const box = requireSecretBox(ctx);
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  if (!adapterFor(ctx, input.platform)) {
    throw new ApiError("validation_error", `Platform "${input.platform}" is not available on this installation.`, {
      issues: [
        {
          path: ["platform"],
          msg: `Platform "${input.platform}" is not available on this installation`,
          type: "value_error",
        },
      ],
    });
  }
  const { platform, storeUrl, webhookSecret, ...secrets } = credentialsOf(input);
  if (platform !== "shopify") await checkStoreUrl(ctx, storeUrl);
  const mainSecret = "accessToken" in secrets ? secrets.accessToken : secrets.consumerSecret;
  const now = new Date(ctx.now());
  const { rows } = await ctx.db.query<ConnectorRow>(
    `INSERT INTO store_connectors (id, account_id, shop_id, platform, store_url, credentials_sealed, credential_last4,
       webhook_secret_sealed, webhook_secret_last4, webhook_token, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
     ON CONFLICT (shop_id) DO UPDATE SET platform = EXCLUDED.platform, store_url = EXCLUDED.store_url,
       credentials_sealed = EXCLUDED.credentials_sealed, credential_last4 = EXCLUDED.credential_last4,
       webhook_secret_sealed = EXCLUDED.webhook_secret_sealed, webhook_secret_last4 = EXCLUDED.webhook_secret_last4,
       updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      who.accountId,
      shop.id,
      platform,
      storeUrl,
      box.seal(JSON.stringify(secrets)),
      mainSecret.slice(-4),
      box.seal(webhookSecret),
      webhookSecret.slice(-4),
      randomBytes(24).toString("base64url"),
      now,
    ],
  );
  return shape(ctx, shop.external_id, rows[0]!);
}

/** Removes the connector, its sealed credentials and its log; write-backs still pending are dropped with it. */
export async function deleteConnector(ctx: AppContext, who: Principal, shopExternalId: string): Promise<void> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const { rowCount } = await ctx.db.query("DELETE FROM store_connectors WHERE shop_id = $1 AND account_id = $2", [
    shop.id,
    who.accountId,
  ]);
  if (!rowCount) throw connectorNotFound(shopExternalId);
}

interface EventRow {
  id: string;
  seq: number;
  kind: ConnectorEvent["type"];
  status: ConnectorEvent["status"];
  reason: string | null;
  platform_order_id: string | null;
  call_id: string | null;
  resolution: string | null;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  detail: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

/** The connector's log, newest first: orders taken in, write-backs, refused webhooks, imports. */
export async function listConnectorEvents(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  page: PageInput,
): Promise<Page<ConnectorEvent>> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const row = await connectorRow(ctx.db, shop.id);
  if (!row) throw connectorNotFound(shopExternalId);
  const scope = `connector-events|${who.accountId}|${row.id}`;
  const after = ctx.paginator.start(scope, page.cursor);
  const { rows } = await ctx.db.query<EventRow>(
    `SELECT id, seq, kind, status, reason, platform_order_id, call_id, resolution, attempts, last_error, next_attempt_at, detail, created_at, updated_at
     FROM connector_events WHERE connector_id = $1 AND account_id = $2 AND ($3::bigint IS NULL OR seq < $3)
     ORDER BY seq DESC LIMIT $4`,
    [row.id, who.accountId, after, page.limit + 1],
  );
  return ctx.paginator.page(scope, rows, page.limit, toEvent);
}

function toEvent(r: EventRow): ConnectorEvent {
  return {
    id: r.id,
    type: r.kind,
    status: r.status,
    reason: r.reason,
    platform_order_id: r.platform_order_id,
    call_id: r.call_id,
    resolution: r.resolution,
    attempts: r.attempts,
    last_error: r.last_error,
    next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
    detail: r.detail,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sends a failed write-back again (issue 32.5), as webhooks have redelivery: the entry is `pending` again with its
 * attempts counted afresh, and its job runs the order's current resolution. 404 not_found for an entry that is not the
 * connector's write-back; 409 conflict for one that has not failed (pending, succeeded, skipped).
 */
export async function retryConnectorEvent(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  eventId: string,
): Promise<ConnectorEvent> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const row = await connectorRow(ctx.db, shop.id);
  if (!row) throw connectorNotFound(shopExternalId);
  const missing = () =>
    new ApiError(
      "not_found",
      `The connector of shop ${JSON.stringify(shopExternalId.slice(0, 100))} has no write-back ${eventId.slice(0, 64)}. List them with GET .../connector/events.`,
    );
  if (!EVENT_ID.test(eventId)) throw missing();
  const result = await ctx.db.tx((client) =>
    retryWriteBack(ctx, client, { eventId, connectorId: row.id, accountId: who.accountId }),
  );
  if (result === "not_found") throw missing();
  if (result !== "retried") {
    throw new ApiError("conflict", `Write-back ${eventId} is ${result}: only a failed write-back can be retried.`);
  }
  const { rows } = await ctx.db.query<EventRow>(
    `SELECT id, seq, kind, status, reason, platform_order_id, call_id, resolution, attempts, last_error, next_attempt_at, detail, created_at, updated_at
     FROM connector_events WHERE id = $1`,
    [eventId],
  );
  return toEvent(rows[0]!);
}

/** Appends one entry to a connector's log. */
export async function logConnectorEvent(
  db: Queryable,
  e: {
    connectorId: string;
    accountId: string;
    kind: ConnectorEvent["type"];
    status: ConnectorEvent["status"];
    reason?: string | null;
    platformOrderId?: string | null;
    detail?: Record<string, unknown> | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO connector_events (id, connector_id, account_id, kind, status, reason, platform_order_id, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      randomUUID(),
      e.connectorId,
      e.accountId,
      e.kind,
      e.status,
      e.reason ?? null,
      e.platformOrderId ?? null,
      e.detail ? JSON.stringify(e.detail) : null,
    ],
  );
}

/**
 * A variant's own name, or null when it has none: Shopify names a product's only variant "Default Title", and the
 * WooCommerce (simple product) and YouCan (`default` variant) adapters give it the product's title; the call would
 * otherwise read the product's name twice.
 */
function variantName(productTitle: string, variantTitle: string): string | null {
  const name = variantTitle.trim();
  return name === "" || name === "Default Title" || name === productTitle.trim() ? null : name.slice(0, 200);
}

/**
 * Imports the store's catalogue into the shop's: each platform product becomes the product whose external_id is the
 * platform's product id, each variant the variant whose variant_external_id is the platform's variant id (SKUs are
 * kept in the log only: an order line is matched by these ids first, by SKU second; see intake). Products the store
 * reports as not active are archived here; products the store no longer has are left alone (they may come from the
 * API). Variants of an imported product that the store no longer has are retired. One transaction.
 */
export async function syncConnectorCatalogue(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
): Promise<ConnectorSync> {
  const box = requireSecretBox(ctx);
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const { rows } = await ctx.db.query<{
    id: string;
    platform: StorePlatformName;
    store_url: string;
    credentials_sealed: string;
    webhook_secret_sealed: string;
  }>(
    "SELECT id, platform, store_url, credentials_sealed, webhook_secret_sealed FROM store_connectors WHERE shop_id = $1",
    [shop.id],
  );
  const c = rows[0];
  if (!c) throw connectorNotFound(shopExternalId);
  const adapter = adapterFor(ctx, c.platform);
  if (!adapter)
    throw new ApiError("service_unavailable", `Platform "${c.platform}" is not available on this installation.`);
  let products;
  try {
    products = await adapter.fetchCatalogue(
      openCredentials(box, c.platform, c.store_url, c.credentials_sealed, c.webhook_secret_sealed),
    );
  } catch (err) {
    if (!(err instanceof StoreApiError)) throw err;
    await logConnectorEvent(ctx.db, {
      connectorId: c.id,
      accountId: who.accountId,
      kind: "catalogue_sync",
      status: "failed",
      reason: err.transient ? "store_unavailable" : "store_refused",
      detail: { error: err.message },
    });
    throw new ApiError(
      "store_api_error",
      `The store refused or failed the catalogue request: ${err.message}`,
      err.retryAfterMs ? { retryAfterSeconds: Math.ceil(err.retryAfterMs / 1000) } : {},
    );
  }
  const now = new Date(ctx.now());
  const counts = await ctx.db.tx(async (client) => {
    let productCount = 0,
      variantCount = 0,
      archived = 0;
    for (const p of products) {
      const name = p.title.slice(0, 200) || p.id;
      if (!p.active || p.variants.length === 0) {
        const r = await client.query(
          "UPDATE products SET status = 'archived', archived_at = $3, updated_at = $3 WHERE shop_id = $1 AND external_id = $2 AND status = 'active'",
          [shop.id, p.id, now],
        );
        archived += r.rowCount ?? 0;
        continue;
      }
      const { rows: prod } = await client.query<{ id: string }>(
        `INSERT INTO products (id, shop_id, external_id, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (shop_id, external_id) DO UPDATE SET name = EXCLUDED.name, status = 'active', archived_at = NULL, updated_at = EXCLUDED.updated_at
         RETURNING id`,
        [randomUUID(), shop.id, p.id, name, now],
      );
      const productId = prod[0]!.id;
      productCount++;
      const ids = p.variants.map((v) => v.id);
      await client.query(
        `INSERT INTO product_variants (id, product_id, variant_external_id, name, price, position, created_at, updated_at)
         SELECT gen_random_uuid(), $1, v.id, v.name, v.price::numeric, v.pos, $5, $5
         FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS v(id, name, price, pos)
         ON CONFLICT (product_id, variant_external_id) DO UPDATE SET name = EXCLUDED.name, price = EXCLUDED.price,
           position = EXCLUDED.position, status = 'active', updated_at = EXCLUDED.updated_at`,
        [productId, ids, p.variants.map((v) => variantName(p.title, v.title)), p.variants.map((v) => v.price), now],
      );
      await client.query(
        "UPDATE product_variants SET status = 'retired', updated_at = $3 WHERE product_id = $1 AND status = 'active' AND NOT (variant_external_id = ANY($2::text[]))",
        [productId, ids, now],
      );
      variantCount += ids.length;
    }
    await client.query("UPDATE store_connectors SET last_sync_at = $2 WHERE id = $1", [c.id, now]);
    await logConnectorEvent(client, {
      connectorId: c.id,
      accountId: who.accountId,
      kind: "catalogue_sync",
      status: "succeeded",
      detail: { products: productCount, variants: variantCount, archived },
    });
    return { products: productCount, variants: variantCount, archived };
  });
  return { ...counts, synced_at: now.toISOString() };
}

/**
 * The shop's own order names (#1001) of calls, as the store platform gave them when the order came in through the
 * connector (issue 38.5): call id to name; calls without one are left out.
 */
export async function orderNamesOfCalls(
  ctx: AppContext,
  who: Principal,
  callIds: string[],
): Promise<Map<string, string>> {
  const ids = callIds.filter((id) => EVENT_ID.test(id));
  if (ids.length === 0) return new Map();
  const { rows } = await ctx.db.query<{ id: string; name: string }>(
    `SELECT c.id, e.detail->>'display_name' AS name FROM calls c
     JOIN connector_events e ON e.order_id = c.order_id AND e.kind = 'order' AND e.account_id = c.account_id
     WHERE c.account_id = $1 AND c.id = ANY($2::uuid[]) AND e.detail->>'display_name' IS NOT NULL`,
    [who.accountId, ids],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The same for orders, keyed by `shop external id/order external id`. */
export async function orderNamesOfOrders(
  ctx: AppContext,
  who: Principal,
  orders: { shop: string; order: string }[],
): Promise<Map<string, string>> {
  if (orders.length === 0) return new Map();
  const { rows } = await ctx.db.query<{ key: string; name: string }>(
    `SELECT s.external_id || '/' || o.external_id AS key, e.detail->>'display_name' AS name FROM orders o
     JOIN shops s ON s.id = o.shop_id
     JOIN connector_events e ON e.order_id = o.id AND e.kind = 'order' AND e.account_id = o.account_id
     WHERE o.account_id = $1 AND o.external_id = ANY($2::text[]) AND e.detail->>'display_name' IS NOT NULL`,
    [who.accountId, [...new Set(orders.map((o) => o.order))]],
  );
  return new Map(rows.map((r) => [r.key, r.name]));
}
