// A shop's store connector (issue 17): the platform, the store's address, the credentials the platform documents
// (sealed, never shown again) and the webhook signing secret; its log of orders and write-backs.
import { z } from "zod";
import { pageQuery, safeString, timestamp } from "./common.ts";

export const CONNECTOR_EVENT_TYPES = ["order", "write_back", "webhook_refused", "catalogue_sync"] as const;
export const CONNECTOR_EVENT_STATUSES = [
  "received",
  "call_created",
  "skipped",
  "rejected",
  "pending",
  "succeeded",
  "failed",
  "refused",
] as const;

const secret = (what: string) =>
  safeString().min(16).max(512).regex(/^\S+$/, "String should not contain spaces").describe(what);

const shopifyConnector = z
  .strictObject({
    platform: z.literal("shopify"),
    store_url: safeString()
      .max(200)
      .regex(
        /^(https:\/\/)?[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com\/?$/,
        "String should be the store's myshopify.com address, for example https://my-store.myshopify.com",
      )
      .describe("The store's `myshopify.com` address (https://my-store.myshopify.com), not its custom domain."),
    access_token: safeString()
      .regex(/^shp[a-z]{2}_[A-Za-z0-9]{16,128}$/, "String should be a Shopify Admin API access token (shpat_...)")
      .describe(
        "The custom app's Admin API access token (`shpat_...`), with the scopes read_orders, write_orders and read_products. Sealed; never shown again.",
      ),
    webhook_secret: secret(
      "The app's client secret (API secret key): Shopify signs webhooks with it (X-Shopify-Hmac-Sha256). Sealed; never shown again.",
    ),
  })
  .meta({ id: "ShopifyConnectorWrite" });

const youcanConnector = z
  .strictObject({
    platform: z.literal("youcan"),
    store_url: z
      .url({ protocol: /^https?$/ })
      .max(200)
      .optional()
      .describe(
        "YouCan's API base (default https://api.youcan.shop). https only (http for local development with WAKHA_WEBHOOK_ALLOW_PRIVATE); no private or loopback address.",
      ),
    access_token: safeString()
      .min(20)
      .max(4096)
      .regex(/^\S+$/, "String should not contain spaces")
      .describe("The OAuth access token of the store (Bearer). Sealed; never shown again."),
    webhook_secret: secret(
      "The client secret of the OAuth app the access token belongs to: YouCan signs its REST hooks with it (x-youcan-signature). Sealed; never shown again.",
    ),
  })
  .meta({ id: "YouCanConnectorWrite" });

const woocommerceConnector = z
  .strictObject({
    platform: z.literal("woocommerce"),
    store_url: z
      .url({ protocol: /^https?$/ })
      .max(200)
      .describe(
        "The WordPress site's root address (https://shop.example.com). https only (http for local development with WAKHA_WEBHOOK_ALLOW_PRIVATE); no private or loopback address.",
      ),
    consumer_key: safeString()
      .regex(/^ck_[0-9a-f]{40}$/, "String should be a WooCommerce consumer key (ck_ and 40 hex digits)")
      .describe("REST API consumer key (`ck_...`), read/write. Sealed."),
    consumer_secret: safeString()
      .regex(/^cs_[0-9a-f]{40}$/, "String should be a WooCommerce consumer secret (cs_ and 40 hex digits)")
      .describe("REST API consumer secret (`cs_...`). Sealed; never shown again."),
    webhook_secret: secret(
      "The secret set on the WooCommerce webhook (X-WC-Webhook-Signature). Sealed; never shown again.",
    ),
  })
  .meta({ id: "WooCommerceConnectorWrite" });

export const connectorInputSchema = z
  .discriminatedUnion("platform", [shopifyConnector, youcanConnector, woocommerceConnector])
  .meta({
    id: "ConnectorWrite",
    description:
      "What PUT /v1/shops/{shop_external_id}/connector replaces the shop's connector with; the fields depend on `platform`.",
  });

export const connectorSchema = z
  .object({
    shop_external_id: z.string(),
    platform: z.enum(["shopify", "youcan", "woocommerce"]),
    store_url: z.string(),
    credential_last4: z
      .string()
      .describe(
        "The last 4 characters of the access token (WooCommerce: of the consumer secret); the credentials are never returned.",
      ),
    webhook_secret_last4: z.string().describe("The last 4 characters of the webhook signing secret."),
    webhook_url: z
      .string()
      .describe(
        "Where the platform must send its order-created webhooks: an opaque address of this connector. Keep it private.",
      ),
    last_sync_at: timestamp
      .nullable()
      .describe("When the catalogue was last imported (POST .../connector/sync), or null."),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Connector", description: "A shop's store connector (issue 17)." });

export const connectorEventSchema = z
  .object({
    id: z.string(),
    type: z
      .enum(CONNECTOR_EVENT_TYPES)
      .describe(
        "`order`: a webhook's order taken in; `write_back`: a resolution written to the store; `webhook_refused`: a request whose signature failed; `catalogue_sync`: an import.",
      ),
    status: z
      .enum(CONNECTOR_EVENT_STATUSES)
      .describe(
        "order: `received` (being taken in), `call_created`, `skipped`, `rejected`; write_back: `pending`, `succeeded`, `failed`, `skipped` (the platform has no way to show this resolution: nothing written); webhook_refused: `refused`; catalogue_sync: `succeeded`, `failed`.",
      ),
    reason: z
      .string()
      .nullable()
      .describe(
        "Why it was skipped, rejected, refused or failed: `paid`, `not_cod`, `phone_not_normalisable`, `currency_mismatch`, `country_not_served`, `bad_signature`, `nothing_to_write`, `credentials_refused`, `rate_limited`, an error slug such as `insufficient_balance`...",
      ),
    platform_order_id: z.string().nullable().describe("The platform's order id; the call's `order.external_id`."),
    call_id: z.string().nullable(),
    resolution: z.string().nullable().describe("write_back: the order's resolution written back."),
    attempts: z.int().describe("write_back: attempts made so far."),
    last_error: z.string().nullable().describe("write_back: the platform's last refusal."),
    next_attempt_at: timestamp.nullable().describe("write_back: when the next attempt is due, while pending."),
    detail: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe(
        "More for the merchant: the phone as typed, the payment words, counts of an import, a write-back's `note`.",
      ),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "ConnectorEvent" });

export const connectorSyncSchema = z
  .object({
    products: z.int().describe("Products imported or updated."),
    variants: z.int().describe("Variants imported or updated."),
    archived: z.int().describe("Products the store reports as not active, archived here."),
    synced_at: timestamp,
  })
  .meta({ id: "ConnectorSync" });

export type ConnectorInput = z.output<typeof connectorInputSchema>;
export type Connector = z.output<typeof connectorSchema>;
export type ConnectorEvent = z.output<typeof connectorEventSchema>;
export type ConnectorSync = z.output<typeof connectorSyncSchema>;

export const connectorParams = z.object({
  shop_external_id: z.string().describe("The shop's external id (percent-encoded)."),
});
export const connectorEventsQuery = z.object({ ...pageQuery });
