// YouCan (issue 17), from developer.youcan.shop and github.com/youcan-shop/youcan-api-doc:
// - REST Hooks (store-admin/resthooks): POST https://api.youcan.shop/resthooks/subscribe {event: "order.create",
//   target_url}; each event carries `x-youcan-signature`, the hex HMAC-SHA256 of the JSON payload keyed with the
//   OAuth client secret of the app that subscribed (their PHP example: hash_hmac('sha256', json_encode($payload),
//   $secret)). The order.create example payload: id, ref, total, currency, status, payment_status, created_at,
//   customer {first_name, last_name, email, phone}, variants [{id, price, quantity, variant {sku, product {name}}}],
//   payment {status, status_text, ...}.
// - Orders (store-admin/orders/get, create): payment {status_text, payload.gateway "cod" | gateway_type 1
//   "Cash on Delivery"}, shipping.address {first_name, last_name, phone, country_code, city}, variants[].variant
//   {id, sku, values, product {id, name}}.
// - Products (store-admin/products/index, misc/query-filters): GET /products?include=variants&page=N, paginated by
//   meta.pagination {current_page, total_pages}; visibility, deleted_at.
// - Update Order Status (store-admin/orders/update_status): PUT /orders/{id}/status {status: slug}, general slugs
//   open, closed, processed, canceled-by-seller.
// - Auth (store-admin/oauth): `Authorization: Bearer <access token>`; errors {status, detail, meta}.
// What those pages do not say is assumed in YOUCAN_ASSUMPTIONS below, and only there.
import { createHmac, timingSafeEqual } from "node:crypto";
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
  storeAddress,
} from "../platform.ts";
import { parseJson, type StoreHttpOptions, type StoreResponse, storeError, storeRequest } from "./store-http.ts";

/**
 * Everything the YouCan documentation held by the search tool does not state, decided here (docs/connectors.md):
 * - `signedBody`: the signature is checked over the raw body bytes. The docs sign `json_encode($payload)`; PHP's
 *   default json_encode is what Laravel/Guzzle send as the body, so the raw bytes are that string.
 * - `unpaidWithoutGatewayIsCod`: the order.create example shows no gateway field (its payment object is cut at
 *   `status_text`). An order that is unpaid or pending and names no gateway at all is taken as cash on delivery,
 *   YouCan's checkout default in Morocco; an order naming another gateway is `other`.
 * - `nonOrderBodyIsIgnored`: deliveries carry no event name (no topic header or field is documented). A JSON
 *   object without `ref` and `variants` is another event (inventory.low, upsell.accept) and is ignored.
 * - `rateLimit`: rate limits are not documented; a 429 is read as transient with its Retry-After (Laravel's
 *   throttle sends one), like a 5xx.
 * - `noteIsNotWritten`: no documented endpoint adds a note or comment to an existing order, so the note stays in
 *   Wakha's connector log; only the status is written, and resolutions without a status mapping write nothing.
 */
export const YOUCAN_ASSUMPTIONS = {
  signedBody: "raw",
  unpaidWithoutGatewayIsCod: true,
  nonOrderBodyIsIgnored: true,
  rateLimit: "429 with Retry-After, transient",
  noteIsNotWritten: true,
} as const;

/**
 * The general order status each resolution sets (the documented slugs). Confirmed orders become `processed` (in
 * progress, to ship); refusals `canceled-by-seller`; every other answer leaves the order `open` for the merchant.
 */
export const YOUCAN_STATUS_BY_RESOLUTION: Record<OrderResolution, "processed" | "canceled-by-seller" | null> = {
  confirmed: "processed",
  declined: "canceled-by-seller",
  rescheduled: null,
  callback_requested: null,
  change_requested: null,
  wrong_number: null,
  unresolved: null,
};

export const YOUCAN_API = "https://api.youcan.shop";
// A catalogue deeper than this many pages is refused rather than followed forever.
const MAX_PAGES = 2000;

type YouCanCredentials = Extract<StoreCredentials, { platform: "youcan" }>;

// ---- the order.create payload ----

const amount = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, "a decimal")]);
const addressSchema = z.looseObject({
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  phone: z.string().nullish(),
  country_code: z.string().nullish(),
  city: z.string().nullish(),
});
// YouCan sends an empty address as [] (PHP's empty array).
const maybeAddress = z.union([addressSchema, z.array(z.unknown())]).nullish();

const lineSchema = z.looseObject({
  price: amount,
  quantity: z.number().int().positive(),
  variant: z.looseObject({
    id: z.string().nullish(),
    sku: z.string().nullish(),
    values: z.array(z.unknown()).nullish(),
    product: z.looseObject({ id: z.string().nullish(), name: z.string() }),
  }),
});

const orderSchema = z.looseObject({
  id: z.string().min(1),
  ref: z.union([z.string(), z.number()]).nullish(),
  total: amount,
  currency: z.string().min(3).nullish(),
  // A currency object in the Get Order example, a code in the Order entity's table: either is read.
  customer_currency: z.union([z.string(), z.looseObject({ code: z.string().nullish() })]).nullish(),
  payment_status_new: z.string().nullish(),
  created_at: z.string().nullish(),
  customer: z
    .looseObject({ first_name: z.string().nullish(), last_name: z.string().nullish(), phone: z.string().nullish() })
    .nullish(),
  variants: z.array(lineSchema),
  payment: z
    .looseObject({
      status_text: z.string().nullish(),
      gateway_type: z.union([z.number(), z.string()]).nullish(),
      gateway_type_text: z.string().nullish(),
      payload: z.union([z.looseObject({ gateway: z.string().nullish() }), z.array(z.unknown())]).nullish(),
      address: maybeAddress,
    })
    .nullish(),
  shipping: z.looseObject({ address: maybeAddress }).nullish(),
});

type YouCanOrder = z.infer<typeof orderSchema>;
type Address = z.infer<typeof addressSchema>;

const text = (s: string | null | undefined): string | null => (s?.trim() ? s.trim() : null);
const asAddress = (a: unknown): Address => (a && typeof a === "object" && !Array.isArray(a) ? (a as Address) : {});
const decimal = (v: number | string): string => (typeof v === "number" ? v.toFixed(4).replace(/\.?0+$/, "") : v.trim());

const PAID = new Set(["paid", "captured"]);
const AWAITING = new Set(["unpaid", "pending", ""]);

function paymentOf(order: YouCanOrder): StoreOrder["payment"] {
  const p = order.payment ?? {};
  const statusText = (p.status_text ?? order.payment_status_new ?? "").toLowerCase();
  if (PAID.has(statusText)) return "paid";
  const gateway = p.payload && !Array.isArray(p.payload) ? text(p.payload.gateway)?.toLowerCase() : undefined;
  const gatewayText = text(p.gateway_type_text)?.toLowerCase();
  const gatewayType = p.gateway_type === null || p.gateway_type === undefined ? null : Number(p.gateway_type);
  if (gateway === "cod" || gatewayText === "cash on delivery" || (gatewayType === 1 && !gatewayText)) return "cod";
  if (!gateway && !gatewayText && gatewayType === null && AWAITING.has(statusText)) {
    return YOUCAN_ASSUMPTIONS.unpaidWithoutGatewayIsCod ? "cod" : "other";
  }
  return "other";
}

function toStoreOrder(order: YouCanOrder): StoreOrder {
  const shipping = asAddress(order.shipping?.address);
  const billing = asAddress(order.payment?.address);
  const customer = order.customer ?? {};
  const name = [
    text(shipping.first_name) ?? text(customer.first_name),
    text(shipping.last_name) ?? text(customer.last_name),
  ]
    .filter(Boolean)
    .join(" ");
  const currency =
    text(order.currency) ??
    (typeof order.customer_currency === "string" ? text(order.customer_currency) : text(order.customer_currency?.code));
  if (!currency) throw new Error("YouCan order.create: no currency in the order");
  const p = order.payment ?? {};
  return {
    platformOrderId: order.id,
    displayName: order.ref !== null && order.ref !== undefined && String(order.ref) !== "" ? `#${order.ref}` : null,
    payment: paymentOf(order),
    paymentDescription: [
      p.gateway_type_text ?? (p.payload && !Array.isArray(p.payload) ? p.payload.gateway : null) ?? "no gateway named",
      `payment ${p.status_text ?? order.payment_status_new ?? "status unknown"}`,
    ]
      .filter(Boolean)
      .join(", "),
    total: decimal(order.total),
    currency: currency.toUpperCase(),
    customerName: name || null,
    // The delivery address's phone is the one the courier calls; the customer's is the fallback.
    phone: text(shipping.phone) ?? text(customer.phone) ?? text(billing.phone),
    countryCode: (text(shipping.country_code) ?? text(billing.country_code))?.toUpperCase() ?? null,
    city: text(shipping.city) ?? text(billing.city),
    // The address fields YouCan documents are the city's only (no street line in its published payloads).
    address: storeAddress({
      line1: null,
      line2: null,
      city: text(shipping.city) ?? text(billing.city),
      region: null,
      postalCode: null,
    }),
    lines: order.variants.map((line) => {
      const values = (line.variant.values ?? []).filter((v): v is string => typeof v === "string" && v !== "default");
      return {
        productId: text(line.variant.product.id),
        variantId: text(line.variant.id),
        sku: text(line.variant.sku),
        title: line.variant.product.name,
        variantTitle: values.length ? values.join(" / ") : null,
        unitPrice: decimal(line.price),
        quantity: line.quantity,
      };
    }),
    createdAt: text(order.created_at),
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
    .join("; ");
}

// ---- the catalogue ----

const variantSchema = z.looseObject({
  id: z.string(),
  sku: z.string().nullish(),
  price: amount.nullish(),
  values: z.array(z.unknown()).nullish(),
});
const productSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  price: amount.nullish(),
  visibility: z.union([z.boolean(), z.number()]).nullish(),
  deleted_at: z.union([z.string(), z.boolean()]).nullish(),
  // An included relation comes as an array, or wrapped in {data: [...]} by some serialisers.
  variants: z.union([z.array(variantSchema), z.looseObject({ data: z.array(variantSchema) })]).nullish(),
});
const pageSchema = z.looseObject({
  data: z.array(z.unknown()),
  meta: z.looseObject({ pagination: z.looseObject({ current_page: z.number(), total_pages: z.number() }) }).nullish(),
});

function toStoreProduct(p: z.infer<typeof productSchema>): StoreProduct {
  const variants = Array.isArray(p.variants) ? p.variants : (p.variants?.data ?? []);
  return {
    id: p.id,
    title: p.name,
    active: Boolean(p.visibility ?? true) && !p.deleted_at,
    variants: variants.map((v) => {
      const values = (v.values ?? []).filter((x): x is string => typeof x === "string" && x !== "default");
      return {
        id: v.id,
        sku: text(v.sku),
        title: values.length ? values.join(" / ") : p.name,
        price: decimal(v.price ?? p.price ?? 0),
      };
    }),
  };
}

// ---- the adapter ----

function credentialsOf(credentials: StoreCredentials): YouCanCredentials {
  if (credentials.platform !== "youcan")
    throw new StoreApiError(`YouCan adapter given ${credentials.platform} credentials`, {
      status: null,
      transient: false,
    });
  return credentials;
}

/** YouCan's error body: `{status, detail, meta}`. */
function errorDetail(response: StoreResponse): string | null {
  const json = parseJson(response.body) as { detail?: unknown } | null;
  return json && typeof json.detail === "string" ? json.detail : null;
}

export class YouCanPlatform implements StorePlatform {
  readonly name = "youcan" as const;
  readonly #http: StoreHttpOptions;

  constructor(options: StoreHttpOptions) {
    this.#http = options;
  }

  verifyWebhook(webhookSecret: string, request: InboundStoreWebhook): WebhookVerdict {
    const signature = request.headers["x-youcan-signature"];
    if (!signature) return { ok: false, reason: "missing x-youcan-signature" };
    const given = Buffer.from(signature.trim().toLowerCase(), "utf8");
    const expected = Buffer.from(createHmac("sha256", webhookSecret).update(request.rawBody).digest("hex"), "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected)
      ? { ok: true }
      : { ok: false, reason: "x-youcan-signature does not match the body" };
  }

  parseWebhook(request: InboundStoreWebhook): StoreWebhookEvent {
    const json = parseJson(request.rawBody.toString("utf8"));
    if (json === null || typeof json !== "object" || Array.isArray(json))
      throw new Error("YouCan webhook: the body is not a JSON object");
    const body = json as Record<string, unknown>;
    if (!("ref" in body) && !("variants" in body))
      return { kind: "ignored", topic: typeof body["event"] === "string" ? body["event"] : "not an order" };
    const parsed = orderSchema.safeParse(body);
    if (!parsed.success) throw new Error(`YouCan order.create: not an order: ${describeIssues(parsed.error)}`);
    return { kind: "order_created", order: toStoreOrder(parsed.data) };
  }

  async fetchCatalogue(credentials: StoreCredentials): Promise<StoreProduct[]> {
    const creds = credentialsOf(credentials);
    const products: StoreProduct[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const response = await this.#call(creds, "GET", `/products?include=variants&page=${page}`, null, "products");
      const parsed = pageSchema.safeParse(parseJson(response.body));
      if (!parsed.success)
        throw new StoreApiError(`YouCan products: unexpected answer: ${describeIssues(parsed.error)}`, {
          status: response.status,
          transient: false,
        });
      for (const raw of parsed.data.data) {
        const product = productSchema.safeParse(raw);
        if (!product.success)
          throw new StoreApiError(`YouCan products: unexpected product: ${describeIssues(product.error)}`, {
            status: response.status,
            transient: false,
          });
        products.push(toStoreProduct(product.data));
      }
      const pagination = parsed.data.meta?.pagination;
      if (!pagination || pagination.current_page >= pagination.total_pages || parsed.data.data.length === 0)
        return products;
    }
    throw new StoreApiError(`YouCan products: more than ${MAX_PAGES} pages`, { status: null, transient: false });
  }

  async writeBack(credentials: StoreCredentials, writeBack: StoreWriteBack): Promise<StoreWriteBackResult> {
    const creds = credentialsOf(credentials);
    const status = YOUCAN_STATUS_BY_RESOLUTION[writeBack.resolution];
    // No status says this answer and no API takes a note (YOUCAN_ASSUMPTIONS.noteIsNotWritten): the order is left
    // open, and the caller logs that nothing was written rather than a success.
    if (status === null)
      return {
        written: false,
        reason: `YouCan has no order status for ${writeBack.resolution} and no API for order notes: the order is left open; the note is in Wakha's connector log`,
      };
    await this.#call(
      creds,
      "PUT",
      `/orders/${encodeURIComponent(writeBack.platformOrderId)}/status`,
      { status },
      "order status",
    );
    return { written: true };
  }

  /** Subscribes `targetUrl` to order.create (POST /resthooks/subscribe); returns the subscription id. */
  async subscribeOrderCreate(credentials: StoreCredentials, targetUrl: string): Promise<string> {
    const response = await this.#call(
      credentialsOf(credentials),
      "POST",
      "/resthooks/subscribe",
      { event: "order.create", target_url: targetUrl },
      "subscription",
    );
    const id = (parseJson(response.body) as { id?: unknown } | null)?.id;
    if (typeof id !== "string")
      throw new StoreApiError("YouCan subscription: no id in the answer", {
        status: response.status,
        transient: false,
      });
    return id;
  }

  async #call(
    creds: YouCanCredentials,
    method: string,
    path: string,
    body: unknown,
    what: string,
  ): Promise<StoreResponse> {
    const base = (creds.storeUrl || YOUCAN_API).replace(/\/+$/, "");
    const headers: Record<string, string> = {
      authorization: `Bearer ${creds.accessToken}`,
      ...(body !== null ? { "content-type": "application/json" } : {}),
    };
    const response = await storeRequest(
      method,
      `${base}${path}`,
      headers,
      body === null ? null : JSON.stringify(body),
      this.#http,
    );
    if (response.status < 200 || response.status >= 300)
      throw storeError("YouCan", what, response, errorDetail(response));
    return response;
  }
}

/** The adapter the registry uses; `allowPrivate` from WAKHA_WEBHOOK_ALLOW_PRIVATE. */
export function createYouCanPlatform(options: StoreHttpOptions): YouCanPlatform {
  return new YouCanPlatform(options);
}
