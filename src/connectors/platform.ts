// Store connectors (issue 17): the one interface each store platform's adapter implements. An adapter speaks its
// platform's wire format only (webhook signatures and payloads, the Admin/REST API for the catalogue and for
// write-backs); what an order becomes (a call under the calling policy, a rejection with a reason) and when a
// write-back is retried are decided outside it (src/connectors/*). Adapters are chosen in src/connectors/registry.ts.
import type { DeliveryEventStatus } from "../domain/delivery.ts";
import type { OrderResolution } from "../domain/orders.ts";

export const STORE_PLATFORMS = ["shopify", "youcan", "woocommerce"] as const;
export type StorePlatformName = (typeof STORE_PLATFORMS)[number];

/**
 * A connector's credentials, decrypted. `storeUrl` is the store's base address as the platform knows it (Shopify:
 * https://{shop}.myshopify.com; WooCommerce: the WordPress site's root; YouCan: its API base, https://api.youcan.shop
 * unless configured). `webhookSecret` verifies the platform's webhooks.
 */
export type StoreCredentials =
  | { platform: "shopify"; storeUrl: string; accessToken: string; webhookSecret: string }
  | { platform: "youcan"; storeUrl: string; accessToken: string; webhookSecret: string }
  | { platform: "woocommerce"; storeUrl: string; consumerKey: string; consumerSecret: string; webhookSecret: string };

/** An inbound webhook request as received: header names lower-cased, the body exactly as its bytes arrived. */
export interface InboundStoreWebhook {
  headers: Readonly<Record<string, string | undefined>>;
  rawBody: Buffer;
}

/** The verdict on a webhook's signature; `reason` is logged, never shown to the sender. */
export type WebhookVerdict = { ok: true } | { ok: false; reason: string };

/** One line of a store order, as the platform describes it. Prices are decimal strings in the order's currency. */
export interface StoreOrderLine {
  /** The platform's product id, as a string; null for a custom line. */
  productId: string | null;
  /** The platform's variant id, as a string; null when the product has no variants or on a custom line. */
  variantId: string | null;
  sku: string | null;
  title: string;
  variantTitle: string | null;
  /** Unit price after line discounts where the platform gives them. */
  unitPrice: string;
  quantity: number;
}

/** A delivery address as a store gives it (any field may be missing but the city). */
export interface StoreAddress {
  line1: string | null;
  line2: string | null;
  city: string;
  region: string | null;
  postalCode: string | null;
}

/** A store address from its parts; null without a city, the one part the agent must read back. */
export function storeAddress(parts: {
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
}): StoreAddress | null {
  return parts.city ? { ...parts, city: parts.city } : null;
}

/** A store order in one shape, whatever platform sent it. */
export interface StoreOrder {
  /** The platform's own order id (the idempotency key of the connector's intake). */
  platformOrderId: string;
  /** The number or name the merchant sees ("#1001"); null when the platform has none. */
  displayName: string | null;
  /** Cash on delivery by the platform's own payment fields; `paid` when the platform says it is already paid. */
  payment: "cod" | "paid" | "other";
  /** The platform's words for the payment (gateway names, status), kept for the connector's log. */
  paymentDescription: string;
  /** Total to collect, decimal string, and its ISO 4217 currency as the platform gives it. */
  total: string;
  currency: string;
  customerName: string | null;
  /** The phone as typed in the store (billing or shipping, the platform's best one), not normalised. */
  phone: string | null;
  /** ISO 3166-1 alpha-2 of the shipping (else billing) address; null when absent. */
  countryCode: string | null;
  city: string | null;
  /** Issue 35: the shipping address (else billing) as the platform documents it; null without a city. */
  address: StoreAddress | null;
  lines: StoreOrderLine[];
  /** When the platform says the order was created (ISO 8601), null when absent. */
  createdAt: string | null;
}

/** What a webhook delivery is about: an order to take in, or a topic the connector acknowledges and ignores. */
export type StoreWebhookEvent =
  | { kind: "order_created"; order: StoreOrder }
  /** A parcel's news (issue 35): a fulfilment event or a status the merchant set after the courier's verdict. */
  | {
      kind: "delivery";
      platformOrderId: string;
      event: { eventId: string; status: DeliveryEventStatus; occurredAt: string; reason: string | null };
    }
  | { kind: "ignored"; topic: string };

/** One product of a store's catalogue with its variants, as the catalogue import maps them onto the shop's. */
export interface StoreProduct {
  id: string;
  title: string;
  /** Archived/draft products come with active false. */
  active: boolean;
  variants: { id: string; sku: string | null; title: string; price: string }[];
}

/** A resolution to write back to the store: the adapter decides how its platform shows it (tags, status, note). */
export interface StoreWriteBack {
  platformOrderId: string;
  resolution: OrderResolution;
  /** Tags for platforms that have them (`wakha:confirmed`, ...). */
  tags: string[];
  /** A human note in the merchant's language (details: changes asked, the new day, the callback time). */
  note: string;
  /** Order attributes for platforms that have them (Shopify's note_attributes): the address read back (issue 35). */
  attributes?: { key: string; value: string }[];
}

/**
 * What a write-back changed on the store. `written: false` when the platform has no way to show this resolution (no
 * status for it and no note API: YouCan's open answers); `reason` says so in the connector's log, which keeps the note.
 */
export type StoreWriteBackResult = { written: true } | { written: false; reason: string };

/** A refused or failed platform API call. `retryAfterMs` from Retry-After (or the platform's throttle signal). */
export class StoreApiError extends Error {
  readonly status: number | null;
  readonly transient: boolean;
  readonly retryAfterMs: number | null;

  constructor(message: string, options: { status: number | null; transient: boolean; retryAfterMs?: number | null }) {
    super(message);
    this.name = "StoreApiError";
    this.status = options.status;
    this.transient = options.transient;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

/** Each platform's adapter, one file per platform under src/connectors/platforms/. */
export interface StorePlatform {
  readonly name: StorePlatformName;
  /** Checks the platform's documented signature over the raw body with the connector's webhook secret. */
  verifyWebhook(webhookSecret: string, request: InboundStoreWebhook): WebhookVerdict;
  /** Reads a verified delivery; throws an Error with a plain message when the body is not what the platform sends. */
  parseWebhook(request: InboundStoreWebhook): StoreWebhookEvent;
  /** The whole catalogue, following the platform's pagination. Throws StoreApiError. */
  fetchCatalogue(credentials: StoreCredentials): Promise<StoreProduct[]>;
  /** Writes one resolution back. Throws StoreApiError (transient ones are retried by the caller with backoff). */
  writeBack(credentials: StoreCredentials, writeBack: StoreWriteBack): Promise<StoreWriteBackResult>;
}
