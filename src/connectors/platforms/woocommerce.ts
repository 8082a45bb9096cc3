// WooCommerce (issue 17), read from its documentation and source:
// - Webhooks: WC_Webhook::deliver, generate_signature and deliver_ping (woocommerce/includes/class-wc-webhook.php);
//   https://woocommerce.com/document/webhooks/. The body is `trim(wp_json_encode($payload))`, signed with
//   X-WC-Webhook-Signature = base64(HMAC-SHA256(wp_specialchars_decode(secret), body)); headers X-WC-Webhook-Source,
//   -Topic, -Resource, -Event, -ID, -Delivery-ID. On creation WooCommerce sends an unsigned ping, body
//   `webhook_id=N` form-encoded, and refuses to activate the webhook unless the answer is exactly 200.
// - REST API v3 (https://woocommerce.github.io/woocommerce-rest-api-docs/): Authentication, Pagination (page,
//   per_page <= 100, X-WP-Total, X-WP-TotalPages), Orders (the order object), Order notes, Products, Product
//   variations; WC_REST_Authentication for the OAuth 1.0a signature over plain http.
// The official JS client (@woocommerce/woocommerce-rest-api, on axios) is not used: every call must go through the
// address guard (src/net/address-guard.ts) and never follow a redirect, which store-http.ts does in one place.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { OrderResolution } from "../../domain/orders.ts";
import {
  type InboundStoreWebhook,
  type StoreCredentials,
  type StoreOrder,
  type StorePlatform,
  type StoreProduct,
  type StoreWebhookEvent,
  type StoreWriteBack,
  type StoreWriteBackResult,
  type WebhookVerdict,
  StoreApiError,
  type StoreAddress,
  storeAddress,
} from "../platform.ts";
import { wooStatusEvent } from "./delivery-topics.ts";
import { parseJson, type StoreHttpOptions, type StoreResponse, storeError, storeRequest } from "./store-http.ts";

/**
 * The order status each resolution leaves a WooCommerce order in (docs/connectors.md). A COD order is created
 * `processing` by WooCommerce's own COD gateway; only a confirmed order should stay ready to ship, so every open or
 * unclear answer puts it on hold for the merchant, and a refusal cancels it (WooCommerce restocks the items).
 */
export const WOOCOMMERCE_STATUS_BY_RESOLUTION: Record<OrderResolution, "processing" | "cancelled" | "on-hold"> = {
  confirmed: "processing",
  declined: "cancelled",
  rescheduled: "on-hold",
  callback_requested: "on-hold",
  change_requested: "on-hold",
  wrong_number: "on-hold",
  unresolved: "on-hold",
};

const API = "/wp-json/wc/v3";
/** Each order note Wakha adds starts with this, so the merchant knows who wrote it. */
export const NOTE_PREFIX = "Wakha: ";
const PER_PAGE = 100;
// A catalogue deeper than this many pages (100 000 products) is refused rather than followed forever.
const MAX_PAGES = 1000;

type WooCredentials = Extract<StoreCredentials, { platform: "woocommerce" }>;

// ---- webhooks ----

const header = (request: InboundStoreWebhook, name: string): string | undefined => request.headers[name];

/** The activation ping: no topic header, body `webhook_id=N` (WC_Webhook::deliver_ping). */
function isPing(request: InboundStoreWebhook): boolean {
  return (
    header(request, "x-wc-webhook-topic") === undefined &&
    /^webhook_id=\d+$/.test(request.rawBody.toString("utf8").trim())
  );
}

// WooCommerce keys its HMAC with wp_specialchars_decode($secret, ENT_QUOTES): a secret holding entities signs
// with their decoded form.
function specialcharsDecode(s: string): string {
  return s
    .replace(/&(?:#0*39|#x0*27);/gi, "'")
    .replace(/&(?:quot|#0*34|#x0*22);/gi, '"')
    .replace(/&(?:lt|#0*60);/gi, "<")
    .replace(/&(?:gt|#0*62);/gi, ">")
    .replace(/&(?:amp|#0*38|#x0*26);/gi, "&");
}

function sameSignature(given: string, secret: string, body: Buffer): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(createHmac("sha256", secret).update(body).digest("base64"), "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

// ---- the order payload (REST API v3 order object; only what an order becomes needs) ----

const address = z.looseObject({
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  phone: z.string().nullish(),
  country: z.string().nullish(),
  city: z.string().nullish(),
  address_1: z.string().nullish(),
  address_2: z.string().nullish(),
  state: z.string().nullish(),
  postcode: z.string().nullish(),
});

const lineItem = z.looseObject({
  product_id: z.number().int().nonnegative(),
  variation_id: z.number().int().nonnegative().nullish(),
  sku: z.string().nullish(),
  name: z.string(),
  quantity: z.number().int().positive(),
  price: z.union([z.number(), z.string()]),
  total: z.string().nullish(),
});

const orderSchema = z.looseObject({
  id: z.number().int().positive(),
  number: z.union([z.string(), z.number()]).nullish(),
  status: z.string(),
  currency: z.string().min(3),
  total: z.string().regex(/^-?\d+(\.\d+)?$/, "a decimal string"),
  payment_method: z.string().nullish(),
  payment_method_title: z.string().nullish(),
  date_paid: z.string().nullish(),
  date_created: z.string().nullish(),
  date_created_gmt: z.string().nullish(),
  billing: address.nullish(),
  shipping: address.nullish(),
  line_items: z.array(lineItem),
});

type WooOrder = z.infer<typeof orderSchema>;

/** The order's shipping (or billing) address: address_1, address_2, city, state, postcode. */
function addressOf(a: z.infer<typeof address>): StoreAddress | null {
  return storeAddress({
    line1: text(a.address_1),
    line2: text(a.address_2),
    city: text(a.city),
    region: text(a.state),
    postalCode: text(a.postcode),
  });
}

/** A float as a decimal string (line `price` is total / quantity, a float); at most 4 places, no exponent. */
function decimal(value: number | string): string {
  if (typeof value === "string") {
    if (!/^-?\d+(\.\d+)?$/.test(value.trim())) throw new Error(`WooCommerce order: price "${value}" is not a decimal`);
    return value.trim();
  }
  if (!Number.isFinite(value)) throw new Error("WooCommerce order: a line price is not a number");
  return value.toFixed(4).replace(/\.?0+$/, "");
}

const text = (s: string | null | undefined): string | null => (s?.trim() ? s.trim() : null);

/**
 * COD by `payment_method` ("cod", WooCommerce's Cash on delivery gateway), first: WooCommerce stamps `date_paid`
 * on any order reaching `processing`, COD included (WC_Order::maybe_set_date_paid), so for COD it means nothing.
 * Another gateway is `paid` once it has a date_paid or reached processing/completed, else `other` (bacs waiting).
 */
function paymentOf(order: WooOrder): StoreOrder["payment"] {
  if (order.payment_method === "cod") return "cod";
  if (order.date_paid || order.status === "processing" || order.status === "completed") return "paid";
  return "other";
}

function toStoreOrder(order: WooOrder): StoreOrder {
  const billing = order.billing ?? {};
  const shipping = order.shipping ?? {};
  const name = [
    text(billing.first_name) ?? text(shipping.first_name),
    text(billing.last_name) ?? text(shipping.last_name),
  ]
    .filter(Boolean)
    .join(" ");
  return {
    platformOrderId: String(order.id),
    displayName:
      order.number !== null && order.number !== undefined && String(order.number) !== "" ? `#${order.number}` : null,
    payment: paymentOf(order),
    paymentDescription: [
      `${order.payment_method_title || "no payment method title"} (${order.payment_method || "none"})`,
      `status ${order.status}`,
      order.date_paid ? `date_paid ${order.date_paid}` : null,
    ]
      .filter(Boolean)
      .join(", "),
    total: order.total,
    currency: order.currency.toUpperCase(),
    customerName: name || null,
    // Billing carries the phone WooCommerce's checkout asks for; shipping.phone exists since 5.6 and is optional.
    phone: text(billing.phone) ?? text(shipping.phone),
    countryCode: (text(shipping.country) ?? text(billing.country))?.toUpperCase() ?? null,
    city: text(shipping.city) ?? text(billing.city),
    address: addressOf(text(shipping.city) ? shipping : billing),
    lines: order.line_items.map((line) => ({
      // product_id 0 is a line whose product was deleted: a custom line.
      productId: line.product_id > 0 ? String(line.product_id) : null,
      variantId: line.variation_id ? String(line.variation_id) : null,
      sku: text(line.sku),
      title: line.name,
      variantTitle: null,
      unitPrice: decimal(line.price),
      quantity: line.quantity,
    })),
    createdAt: order.date_created_gmt ? `${order.date_created_gmt.replace(/Z$/, "")}Z` : (order.date_created ?? null),
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
    .join("; ");
}

// ---- authentication ----

/** RFC 3986 percent-encoding as PHP's rawurlencode (wc_rest_urlencode_rfc3986). */
const rfc3986 = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The signature WC_REST_Authentication::check_oauth_signature expects: every query parameter and the oauth_* ones,
 * sorted by key (strcmp), key and value encoded, `key=value` encoded again and joined with %26; signed with
 * HMAC-SHA256 keyed `consumer_secret&` over METHOD&encoded(base URL)&that string.
 */
export function oauthSignature(
  method: string,
  url: URL,
  params: Record<string, string>,
  consumerSecret: string,
): string {
  const sorted = Object.keys(params).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const query = sorted.map((k) => rfc3986(`${rfc3986(k)}=${rfc3986(params[k]!)}`)).join("%26");
  const base = `${method.toUpperCase()}&${rfc3986(`${url.origin}${url.pathname}`)}&${query}`;
  return createHmac("sha256", `${consumerSecret}&`).update(base).digest("base64");
}

/**
 * Over https, HTTP Basic with the consumer key and secret (the documented way). Over http WooCommerce refuses
 * Basic and query-string keys (it checks is_ssl()) and requires OAuth 1.0a one-legged, parameters in the query
 * string: the secret then never crosses the wire. Plain http only reaches a store when WAKHA_WEBHOOK_ALLOW_PRIVATE
 * allows it (development and tests).
 */
export function authorize(
  method: string,
  url: URL,
  credentials: WooCredentials,
  now = Date.now(),
  nonce = randomBytes(16).toString("hex"),
): { url: URL; headers: Record<string, string> } {
  if (url.protocol === "https:") {
    const basic = Buffer.from(`${credentials.consumerKey}:${credentials.consumerSecret}`, "utf8").toString("base64");
    return { url, headers: { authorization: `Basic ${basic}` } };
  }
  const signed = new URL(url);
  const params: Record<string, string> = Object.fromEntries(signed.searchParams);
  Object.assign(params, {
    oauth_consumer_key: credentials.consumerKey,
    oauth_timestamp: String(Math.floor(now / 1000)),
    oauth_nonce: nonce,
    oauth_signature_method: "HMAC-SHA256",
  });
  const signature = oauthSignature(method, signed, params, credentials.consumerSecret);
  for (const [k, v] of Object.entries({ ...params, oauth_signature: signature })) signed.searchParams.set(k, v);
  return { url: signed, headers: {} };
}

// ---- the REST API ----

/** WooCommerce's error body: `{code, message, data: {status}}`. */
function errorDetail(response: StoreResponse): string | null {
  const json = parseJson(response.body) as { code?: unknown; message?: unknown } | null;
  if (json && typeof json.message === "string")
    return typeof json.code === "string" ? `${json.code}: ${json.message}` : json.message;
  return null;
}

function credentialsOf(credentials: StoreCredentials): WooCredentials {
  if (credentials.platform !== "woocommerce")
    throw new StoreApiError(`WooCommerce adapter given ${credentials.platform} credentials`, {
      status: null,
      transient: false,
    });
  return credentials;
}

const productSchema = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  status: z.string(),
  sku: z.string().nullish(),
  price: z.string().nullish(),
});
const variationSchema = z.looseObject({
  id: z.number().int(),
  sku: z.string().nullish(),
  price: z.string().nullish(),
  status: z.string().nullish(),
  attributes: z.array(z.looseObject({ name: z.string().nullish(), option: z.string().nullish() })).nullish(),
});

export class WooCommercePlatform implements StorePlatform {
  readonly name = "woocommerce" as const;
  readonly #http: StoreHttpOptions;

  constructor(options: StoreHttpOptions) {
    this.#http = options;
  }

  verifyWebhook(webhookSecret: string, request: InboundStoreWebhook): WebhookVerdict {
    const signature = header(request, "x-wc-webhook-signature");
    if (signature === undefined || signature === "") {
      // The ping is unsigned by design and carries nothing but the webhook's id; parseWebhook ignores it.
      if (isPing(request)) return { ok: true };
      return { ok: false, reason: "missing X-WC-Webhook-Signature" };
    }
    const decoded = specialcharsDecode(webhookSecret);
    const ok =
      sameSignature(signature, webhookSecret, request.rawBody) ||
      (decoded !== webhookSecret && sameSignature(signature, decoded, request.rawBody));
    return ok ? { ok: true } : { ok: false, reason: "X-WC-Webhook-Signature does not match the body" };
  }

  parseWebhook(request: InboundStoreWebhook): StoreWebhookEvent {
    if (isPing(request)) return { kind: "ignored", topic: "ping" };
    const topic = header(request, "x-wc-webhook-topic");
    if (!topic) throw new Error("Not a WooCommerce webhook: no X-WC-Webhook-Topic header");
    if (topic !== "order.created" && topic !== "order.updated") return { kind: "ignored", topic };
    const json = parseJson(request.rawBody.toString("utf8"));
    if (topic === "order.updated" && json !== null && typeof json === "object" && !Array.isArray(json))
      return wooStatusEvent(json as Record<string, unknown>);
    if (json === null || typeof json !== "object" || Array.isArray(json))
      throw new Error("WooCommerce order.created: the body is not a JSON object");
    // A webhook left on the legacy API version wraps the order as {"order": {...}} in another shape.
    if ("order" in json && !("line_items" in json))
      throw new Error(
        "WooCommerce order.created: a legacy API payload; set the webhook's API version to WP REST API Integration v3",
      );
    const parsed = orderSchema.safeParse(json);
    if (!parsed.success) throw new Error(`WooCommerce order.created: not an order: ${describeIssues(parsed.error)}`);
    return { kind: "order_created", order: toStoreOrder(parsed.data) };
  }

  async fetchCatalogue(credentials: StoreCredentials): Promise<StoreProduct[]> {
    const creds = credentialsOf(credentials);
    const products: StoreProduct[] = [];
    for await (const raw of this.#pages(creds, `${API}/products`, "products")) {
      const product = productSchema.safeParse(raw);
      if (!product.success)
        throw new StoreApiError(`WooCommerce products: unexpected product: ${describeIssues(product.error)}`, {
          status: 200,
          transient: false,
        });
      const p = product.data;
      const variants: StoreProduct["variants"] = [];
      if (p.type === "variable") {
        for await (const rawVariation of this.#pages(creds, `${API}/products/${p.id}/variations`, "variations")) {
          const v = variationSchema.safeParse(rawVariation);
          if (!v.success)
            throw new StoreApiError(`WooCommerce variations: unexpected variation: ${describeIssues(v.error)}`, {
              status: 200,
              transient: false,
            });
          const title = (v.data.attributes ?? [])
            .map((a) => a.option)
            .filter((o): o is string => Boolean(o))
            .join(" / ");
          variants.push({
            id: String(v.data.id),
            sku: text(v.data.sku),
            title: title || p.name,
            price: v.data.price || "0",
          });
        }
      } else {
        // A simple product is its own only variant: orders name it by product_id with variation_id 0.
        variants.push({ id: String(p.id), sku: text(p.sku), title: p.name, price: p.price || "0" });
      }
      products.push({ id: String(p.id), title: p.name, active: p.status === "publish", variants });
    }
    return products;
  }

  async writeBack(credentials: StoreCredentials, writeBack: StoreWriteBack): Promise<StoreWriteBackResult> {
    const creds = credentialsOf(credentials);
    if (!/^\d+$/.test(writeBack.platformOrderId))
      throw new StoreApiError(`WooCommerce order id "${writeBack.platformOrderId}" is not a number`, {
        status: null,
        transient: false,
      });
    const order = `${API}/orders/${writeBack.platformOrderId}`;
    const status = WOOCOMMERCE_STATUS_BY_RESOLUTION[writeBack.resolution];
    const updated = await this.#call(creds, "PUT", order, { status }, "order update");
    // A cache or a site without the REST API can answer 200 with a page: only the order itself is an answer.
    const echoed = parseJson(updated.body) as { id?: unknown; status?: unknown } | null;
    if (echoed?.id !== Number(writeBack.platformOrderId) || echoed.status !== status) {
      throw new StoreApiError(
        "WooCommerce order update: the answer is not the updated order (is the REST API reachable under /wp-json/?)",
        { status: updated.status, transient: false },
      );
    }
    // A private note (customer_note false): the merchant reads it, the customer is not e-mailed. A note added with an
    // API key shows as written by "WooCommerce" (system), so it says who wrote it, as Shopify's note line does.
    if (writeBack.note.trim())
      await this.#call(
        creds,
        "POST",
        `${order}/notes`,
        { note: `${NOTE_PREFIX}${writeBack.note.trim()}`, customer_note: false },
        "order note",
      );
    return { written: true };
  }

  async #call(
    creds: WooCredentials,
    method: string,
    path: string,
    body: unknown,
    what: string,
  ): Promise<StoreResponse> {
    const { url, headers } = authorize(method, new URL(`${creds.storeUrl.replace(/\/+$/, "")}${path}`), creds);
    const response = await storeRequest(
      method,
      url.toString(),
      { ...headers, ...(body !== null ? { "content-type": "application/json" } : {}) },
      body === null ? null : JSON.stringify(body),
      this.#http,
    );
    if (response.status < 200 || response.status >= 300)
      throw storeError("WooCommerce", what, response, errorDetail(response));
    return response;
  }

  /** Every item of a paginated list, page by page until X-WP-TotalPages (or a short page when it is absent). */
  async *#pages(creds: WooCredentials, path: string, what: string): AsyncGenerator<unknown> {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const response = await this.#call(creds, "GET", `${path}?per_page=${PER_PAGE}&page=${page}`, null, what);
      const items = parseJson(response.body);
      if (!Array.isArray(items))
        throw new StoreApiError(`WooCommerce ${what}: the answer is not a JSON array`, {
          status: response.status,
          transient: false,
        });
      yield* items;
      const total = Number(response.headers["x-wp-totalpages"]);
      if (Number.isFinite(total) && total > 0 ? page >= total : items.length < PER_PAGE) return;
    }
    throw new StoreApiError(`WooCommerce ${what}: more than ${MAX_PAGES} pages`, { status: null, transient: false });
  }
}

/** The adapter the registry uses; `allowPrivate` from WAKHA_WEBHOOK_ALLOW_PRIVATE. */
export function createWooCommercePlatform(options: StoreHttpOptions): WooCommercePlatform {
  return new WooCommercePlatform(options);
}
