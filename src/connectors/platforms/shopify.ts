// The Shopify adapter (issue 17): orders/create webhooks in, tags and a note back through the Admin GraphQL API.
//
// Read from Shopify's documentation:
// - Webhook deliveries and their headers (X-Shopify-Topic, X-Shopify-Hmac-Sha256 = base64 HMAC-SHA256 of the raw body
//   keyed with the app's client secret, X-Shopify-Shop-Domain, X-Shopify-Webhook-Id, X-Shopify-Event-Id):
//   https://shopify.dev/docs/apps/build/webhooks/delivery-structure and
//   https://shopify.dev/docs/apps/build/webhooks/verify-deliveries
// - The orders/create payload is the REST Order resource (id, admin_graphql_api_id, name, financial_status,
//   payment_gateway_names, total_price, currency, phone, customer, shipping_address, billing_address, line_items[]
//   with product_id, variant_id, sku, title, variant_title, price, quantity, total_discount):
//   https://shopify.dev/docs/api/webhooks?reference=toml#list-of-topics-orders/create and
//   https://shopify.dev/docs/api/admin-rest/latest/resources/order
// - Admin GraphQL endpoint https://{shop}.myshopify.com/admin/api/{version}/graphql.json, header X-Shopify-Access-Token:
//   https://shopify.dev/docs/api/admin-graphql (the tagsAdd reference's curl example)
// - tagsAdd / tagsRemove (add to / remove from existing tags) and orderUpdate (OrderInput.note overwrites the note):
//   https://shopify.dev/docs/api/admin-graphql/latest/mutations/tagsAdd,
//   https://shopify.dev/docs/api/admin-graphql/latest/input-objects/OrderInput
// - Throttling: calculated query cost, `extensions.cost.throttleStatus {maximumAvailable, currentlyAvailable, restoreRate}`,
//   a throttled request answers `errors[{message: "Throttled", extensions: {code: "THROTTLED"}}]`; REST answers 429 with
//   Retry-After: https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits and
//   https://shopify.dev/docs/api/admin-rest/usage/rate-limits
import { createHmac, timingSafeEqual } from "node:crypto";
import {
  type InboundStoreWebhook,
  type StoreCredentials,
  type StoreOrder,
  type StoreOrderLine,
  type StorePlatform,
  type StoreProduct,
  type StoreWebhookEvent,
  type StoreWriteBack,
  type StoreWriteBackResult,
  StoreApiError,
  type WebhookVerdict,
  type StoreAddress,
  storeAddress,
} from "../platform.ts";
import { parseJsonExact } from "../exact-json.ts";
import { shopifyFulfillmentEvent } from "./delivery-topics.ts";

/** The Admin API version Wakha speaks (a stable quarterly version; Shopify supports each for at least 12 months). */
export const SHOPIFY_API_VERSION = "2025-10";

/** A store's admin address as Shopify names it: https://{shop}.myshopify.com. */
export const SHOPIFY_STORE_URL = /^https:\/\/[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/;

export interface ShopifyOptions {
  /** Sends Admin API calls here instead of the store's own address (a test fake, a proxy). */
  adminOrigin?: string | undefined;
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
}

/** Gateway names that mean cash on delivery, in the spellings Maghreb and French stores use. */
const COD_GATEWAY =
  /cash\s*on\s*delivery|\bcod\b|contre[\s-]*remboursement|paiement\s+(à|a)\s+la\s+livraison|الدفع\s*عند\s*الاستلام/i;
/** financial_status values that mean money was (at least partly) taken already. */
const PAID_STATUSES = new Set(["paid", "partially_paid", "partially_refunded", "refunded"]);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null;
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
/**
 * Shopify ids are 64-bit: a JSON number below 2^53, or the exact digits of a larger one (parseJsonExact keeps those
 * as strings), or a string in some apps' payloads. A rounded number past 2^53 is never taken as an id.
 */
const id = (v: unknown): string | null =>
  typeof v === "number" && Number.isSafeInteger(v) && v > 0
    ? String(v)
    : typeof v === "string" && /^[1-9]\d{0,19}$/.test(v)
      ? v
      : null;
const DECIMAL = /^-?\d{1,12}(\.\d{1,6})?$/;

/** price - discount / quantity, in exact decimal arithmetic (millionths), floored at 0, as a string with 2+ decimals. */
function unitAfterDiscount(price: string, lineDiscount: string | null, quantity: number): string {
  const scale = 1_000_000n;
  const toMicros = (s: string) => {
    const [int, frac = ""] = s.split(".");
    const sign = int!.startsWith("-") ? -1n : 1n;
    return sign * (BigInt(int!.replace("-", "")) * scale + BigInt(frac.padEnd(6, "0")));
  };
  let micros = toMicros(price);
  if (lineDiscount && DECIMAL.test(lineDiscount)) micros -= toMicros(lineDiscount) / BigInt(quantity);
  if (micros < 0n) micros = 0n;
  const cents = (micros + 5_000n) / 10_000n; // rounded to the cent
  return `${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;
}

function personName(a: Json | null): string | null {
  if (!a) return null;
  return str(a["name"]) ?? str([a["first_name"], a["last_name"]].filter((x) => typeof x === "string").join(" "));
}

/** Reads an orders/create body (the REST Order resource). Throws with a plain message on anything else. */
export function parseShopifyOrder(body: unknown): StoreOrder {
  const o = obj(body);
  if (!o) throw new Error("the body is not a JSON object");
  const gid = str(o["admin_graphql_api_id"]);
  const orderId = id(o["id"]) ?? gid?.match(/^gid:\/\/shopify\/Order\/(\d+)$/)?.[1] ?? null;
  if (!orderId) throw new Error("the order has no numeric `id`");
  const total = str(o["total_price"]) ?? str(o["current_total_price"]);
  if (!total || !DECIMAL.test(total)) throw new Error("the order has no decimal `total_price`");
  const currency = str(o["currency"]) ?? str(o["presentment_currency"]);
  if (!currency || !/^[A-Z]{3}$/.test(currency)) throw new Error("the order has no ISO 4217 `currency`");
  const items = o["line_items"];
  if (!Array.isArray(items)) throw new Error("the order has no `line_items` array");

  const lines: StoreOrderLine[] = items.map((raw, i) => {
    const l = obj(raw);
    const price = l ? str(l["price"]) : null;
    const quantity = l?.["quantity"];
    if (
      !l ||
      !price ||
      !DECIMAL.test(price) ||
      typeof quantity !== "number" ||
      !Number.isInteger(quantity) ||
      quantity < 1
    ) {
      throw new Error(`line_items[${i}] has no decimal \`price\` or positive integer \`quantity\``);
    }
    return {
      productId: id(l["product_id"]),
      variantId: id(l["variant_id"]),
      sku: str(l["sku"]),
      title: str(l["title"]) ?? str(l["name"]) ?? `Article ${i + 1}`,
      variantTitle: str(l["variant_title"]),
      unitPrice: unitAfterDiscount(price, str(l["total_discount"]), quantity),
      quantity,
    };
  });

  const shipping = obj(o["shipping_address"]);
  const billing = obj(o["billing_address"]);
  const customer = obj(o["customer"]);
  const gateways = Array.isArray(o["payment_gateway_names"])
    ? o["payment_gateway_names"].filter((g): g is string => typeof g === "string")
    : [];
  const financial = str(o["financial_status"]) ?? "";
  const payment = PAID_STATUSES.has(financial)
    ? "paid"
    : (financial === "pending" || financial === "") && gateways.some((g) => COD_GATEWAY.test(g))
      ? "cod"
      : "other";
  const country = str(shipping?.["country_code"]) ?? str(billing?.["country_code"]);
  return {
    platformOrderId: orderId,
    displayName: str(o["name"]),
    payment,
    paymentDescription: `financial_status=${financial || "none"}; gateways=${gateways.join(", ") || "none"}`.slice(
      0,
      500,
    ),
    total,
    currency,
    customerName: personName(shipping) ?? personName(billing) ?? personName(customer),
    phone: str(shipping?.["phone"]) ?? str(billing?.["phone"]) ?? str(o["phone"]) ?? str(customer?.["phone"]),
    countryCode: country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null,
    city: str(shipping?.["city"]) ?? str(billing?.["city"]),
    address: addressOf(str(shipping?.["city"]) ? shipping : billing),
    lines,
    createdAt: str(o["created_at"]),
  };
}

/** The order's shipping_address (or billing_address): address1, address2, city, province, zip. */
function addressOf(a: Json | null): StoreAddress | null {
  if (!a) return null;
  return storeAddress({
    line1: str(a["address1"]),
    line2: str(a["address2"]),
    city: str(a["city"]),
    region: str(a["province"]),
    postalCode: str(a["zip"]),
  });
}

/** The GraphQL Admin API's answer to one request. */
interface GraphqlResponse {
  data?: Json | null;
  errors?: { message?: string; extensions?: { code?: string } }[] | string;
  extensions?: {
    cost?: { requestedQueryCost?: number; throttleStatus?: { currentlyAvailable?: number; restoreRate?: number } };
  };
}

// A single query may cost at most 1,000 points: 10 products of 90 variants each cost about 2 + 10 x (1 + 2 + 90) = 932.
// A product with more variants has them read on with PRODUCT_VARIANTS_QUERY.
const PRODUCTS_QUERY = `query WakhaProducts($after: String) {
  products(first: 10, after: $after) {
    pageInfo { hasNextPage endCursor }
    nodes { id legacyResourceId title status variants(first: 90) { pageInfo { hasNextPage endCursor } nodes { legacyResourceId sku title price } } }
  }
}`;

const PRODUCT_VARIANTS_QUERY = `query WakhaProductVariants($id: ID!, $after: String) {
  product(id: $id) { variants(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { legacyResourceId sku title price } } }
}`;

type StoreVariant = StoreProduct["variants"][number];

function variantsOf(connection: unknown): { variants: StoreVariant[]; next: string | null } {
  const conn = obj(connection);
  const nodes = Array.isArray(conn?.["nodes"]) ? (conn["nodes"] as unknown[]) : [];
  const variants = nodes.flatMap((rv) => {
    const v = obj(rv);
    const vid = id(v?.["legacyResourceId"]);
    const price = str(v?.["price"]);
    return v && vid && price && DECIMAL.test(price)
      ? [{ id: vid, sku: str(v["sku"]), title: str(v["title"]) ?? "Default Title", price }]
      : [];
  });
  const info = obj(conn?.["pageInfo"]);
  return { variants, next: info?.["hasNextPage"] === true ? str(info["endCursor"]) : null };
}

const ORDER_QUERY = `query WakhaOrder($id: ID!) { order(id: $id) { id note tags customAttributes { key value } } }`;

// OrderInput.customAttributes overwrites the list (shopify.dev/docs/api/admin-graphql/latest/input-objects/OrderInput):
// the merchant's attributes are read first and sent back with Wakha's (`wakha_` keys) replaced.
const WRITE_BACK_MUTATION = `mutation WakhaWriteBack($id: ID!, $add: [String!]!, $remove: [String!]!, $note: String, $attributes: [AttributeInput!]) {
  tagsRemove(id: $id, tags: $remove) { userErrors { field message } }
  tagsAdd(id: $id, tags: $add) { userErrors { field message } }
  orderUpdate(input: {id: $id, note: $note, customAttributes: $attributes}) { order { id } userErrors { field message } }
}`;

/** The order's custom attributes with Wakha's (`wakha_` keys) replaced by `ours`. */
function mergeAttributes(current: unknown, ours: { key: string; value: string }[]): { key: string; value: string }[] {
  const kept = (Array.isArray(current) ? current : [])
    .map((a) => obj(a))
    .filter((a): a is Json => a !== null)
    .map((a) => ({ key: String(a["key"] ?? ""), value: String(a["value"] ?? "") }))
    .filter((a) => a.key !== "" && !a.key.startsWith("wakha_"));
  return [...kept, ...ours];
}

/** The line Wakha keeps in an order's note: replaced at each write-back, the merchant's own lines kept. */
export const NOTE_PREFIX = "Wakha: ";

/** The merchant's note with Wakha's line replaced by `line`. */
export function mergeNote(current: string | null, line: string): string {
  const kept = (current ?? "").split("\n").filter((l) => !l.startsWith(NOTE_PREFIX) && l.trim() !== "");
  return [...kept, `${NOTE_PREFIX}${line}`].join("\n").slice(0, 5000);
}

export class ShopifyPlatform implements StorePlatform {
  readonly name = "shopify" as const;
  readonly #adminOrigin: string | undefined;
  readonly #timeoutMs: number;

  constructor(options: ShopifyOptions = {}) {
    this.#adminOrigin = options.adminOrigin?.replace(/\/+$/, "");
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  verifyWebhook(webhookSecret: string, request: InboundStoreWebhook): WebhookVerdict {
    const header = request.headers["x-shopify-hmac-sha256"];
    if (!header) return { ok: false, reason: "missing X-Shopify-Hmac-Sha256" };
    if (!/^[A-Za-z0-9+/]{43}=$/.test(header))
      return { ok: false, reason: "X-Shopify-Hmac-Sha256 is not a base64 SHA-256 digest" };
    const expected = createHmac("sha256", webhookSecret).update(request.rawBody).digest();
    return timingSafeEqual(Buffer.from(header, "base64"), expected)
      ? { ok: true }
      : { ok: false, reason: "X-Shopify-Hmac-Sha256 does not match the body" };
  }

  parseWebhook(request: InboundStoreWebhook): StoreWebhookEvent {
    const topic = request.headers["x-shopify-topic"] ?? "";
    if (topic === "fulfillment_events/create") return shopifyFulfillmentEvent(request.rawBody);
    if (topic !== "orders/create") return { kind: "ignored", topic: topic.slice(0, 100) || "(none)" };
    let body: unknown;
    try {
      body = parseJsonExact(request.rawBody.toString("utf8"));
    } catch {
      throw new Error("the body is not valid JSON");
    }
    return { kind: "order_created", order: parseShopifyOrder(body) };
  }

  async fetchCatalogue(credentials: StoreCredentials): Promise<StoreProduct[]> {
    const products: StoreProduct[] = [];
    let after: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const data = await this.#graphql(credentials, PRODUCTS_QUERY, { after });
      const conn = obj(obj(data)?.["products"]);
      const nodes = Array.isArray(conn?.["nodes"]) ? conn["nodes"] : [];
      for (const raw of nodes) {
        const p = obj(raw);
        const pid = id(p?.["legacyResourceId"]);
        if (!p || !pid) continue;
        let { variants, next } = variantsOf(p["variants"]);
        for (let more = 0; next && more < 100; more++) {
          const rest = variantsOf(
            obj(
              obj(
                await this.#graphql(credentials, PRODUCT_VARIANTS_QUERY, {
                  id: `gid://shopify/Product/${pid}`,
                  after: next,
                }),
              )?.["product"],
            )?.["variants"],
          );
          variants = [...variants, ...rest.variants];
          next = rest.next;
        }
        products.push({ id: pid, title: str(p["title"]) ?? pid, active: p["status"] === "ACTIVE", variants });
      }
      const info = obj(conn?.["pageInfo"]);
      after = info?.["hasNextPage"] === true ? str(info["endCursor"]) : null;
      if (!after) break;
    }
    return products;
  }

  async writeBack(credentials: StoreCredentials, writeBack: StoreWriteBack): Promise<StoreWriteBackResult> {
    const gid = `gid://shopify/Order/${writeBack.platformOrderId}`;
    const data = await this.#graphql(credentials, ORDER_QUERY, { id: gid });
    const order = obj(obj(data)?.["order"]);
    if (!order)
      throw new StoreApiError(`Shopify has no order ${writeBack.platformOrderId} (deleted, or another store)`, {
        status: 404,
        transient: false,
      });
    const existing = Array.isArray(order["tags"])
      ? order["tags"].filter((t): t is string => typeof t === "string")
      : [];
    const remove = existing.filter((t) => t.startsWith("wakha:") && !writeBack.tags.includes(t));
    const result = obj(
      await this.#graphql(credentials, WRITE_BACK_MUTATION, {
        id: gid,
        add: writeBack.tags,
        remove,
        note: mergeNote(str(order["note"]), writeBack.note),
        attributes: mergeAttributes(order["customAttributes"], writeBack.attributes ?? []),
      }),
    );
    const userErrors = ["tagsRemove", "tagsAdd", "orderUpdate"].flatMap((field) => {
      const errors = obj(result?.[field])?.["userErrors"];
      return Array.isArray(errors) ? errors.map((e) => `${field}: ${String(obj(e)?.["message"] ?? "error")}`) : [];
    });
    if (userErrors.length > 0)
      throw new StoreApiError(`Shopify refused the write-back: ${userErrors.join("; ")}`.slice(0, 500), {
        status: 200,
        transient: false,
      });
    return { written: true };
  }

  /** One Admin GraphQL request; returns `data` or throws StoreApiError (transient on throttling, 429, 5xx and network errors). */
  async #graphql(credentials: StoreCredentials, query: string, variables: Json): Promise<unknown> {
    if (credentials.platform !== "shopify")
      throw new Error(`Shopify adapter given ${credentials.platform} credentials`);
    const url = `${this.#adminOrigin ?? credentials.storeUrl}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "x-shopify-access-token": credentials.accessToken,
        },
        body: JSON.stringify({ query, variables }),
        redirect: "manual",
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (err) {
      throw new StoreApiError(`Shopify unreachable: ${(err as Error).message}`.slice(0, 300), {
        status: null,
        transient: true,
      });
    }
    const text = await res.text().catch(() => "");
    if (res.status === 429) {
      const seconds = Number(res.headers.get("retry-after"));
      throw new StoreApiError("Shopify rate limit (429)", {
        status: 429,
        transient: true,
        retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null,
      });
    }
    if (res.status === 401 || res.status === 403) {
      throw new StoreApiError(
        `Shopify refused the access token (${res.status}): revoked, or missing a scope (read_products, write_orders)`,
        { status: res.status, transient: false },
      );
    }
    if (res.status >= 500)
      throw new StoreApiError(`Shopify answered ${res.status}`, { status: res.status, transient: true });
    if (res.status !== 200)
      throw new StoreApiError(`Shopify answered ${res.status}: ${text.slice(0, 200)}`, {
        status: res.status,
        transient: false,
      });
    let body: GraphqlResponse;
    try {
      body = JSON.parse(text) as GraphqlResponse;
    } catch {
      throw new StoreApiError("Shopify answered a body that is not JSON", { status: 200, transient: true });
    }
    if (typeof body.errors === "string")
      throw new StoreApiError(`Shopify: ${body.errors}`.slice(0, 300), { status: 200, transient: false });
    if (Array.isArray(body.errors) && body.errors.length > 0) {
      if (body.errors.some((e) => e.extensions?.code === "THROTTLED")) {
        // The bucket refills at restoreRate points a second: wait until the query's cost is available again.
        const cost = body.extensions?.cost;
        const missing = (cost?.requestedQueryCost ?? 0) - (cost?.throttleStatus?.currentlyAvailable ?? 0);
        const rate = cost?.throttleStatus?.restoreRate ?? 0;
        const waitMs = rate > 0 ? Math.ceil((Math.max(missing, 1) / rate) * 1000) : null;
        throw new StoreApiError("Shopify throttled the request (THROTTLED)", {
          status: 200,
          transient: true,
          retryAfterMs: waitMs,
        });
      }
      throw new StoreApiError(`Shopify: ${body.errors.map((e) => e.message ?? "error").join("; ")}`.slice(0, 500), {
        status: 200,
        transient: false,
      });
    }
    return body.data ?? null;
  }
}
