// A local WooCommerce store at its documented protocol boundary (https://woocommerce.github.io/woocommerce-rest-api-docs/
// and the WooCommerce source it quotes):
// - REST API v3 under /wp-json/wc/v3: GET products and products/{id}/variations (page, per_page 1..100,
//   X-WP-Total, X-WP-TotalPages, Link; a page past the last is 400 rest_post_invalid_page_number), PUT/POST/PATCH
//   orders/{id} {status}, POST orders/{id}/notes {note, customer_note}; errors as WP_Error JSON
//   {code, message, data: {status}}.
// - Authentication as WC_REST_Authentication does it: with `ssl` (is_ssl() true), HTTP Basic or consumer_key /
//   consumer_secret in the query; otherwise OAuth 1.0a one-legged only (HMAC-SHA1 or -SHA256 over the sorted,
//   twice-encoded parameters, keyed `secret&`, 15-minute timestamp window, nonces not reusable). Revoked keys and
//   read-only keys answer as WooCommerce does.
// - 429 on demand, with Retry-After: WooCommerce core does not rate-limit its admin API; hosts and security plugins
//   in front of it do, so the body here is theirs, not WooCommerce's.
// - Webhook deliveries built as WC_Webhook::deliver sends them (body = PHP json_encode of the REST order, headers
//   X-WC-Webhook-*, base64 HMAC-SHA256 signature) and the unsigned activation ping (`webhook_id=N`).
import { createHash, createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { closeServer, listenOnLoopback } from "./loopback.ts";
import { phpJsonEncode } from "./php-json.ts";

export interface FakeWooOptions {
  consumerKey: string;
  consumerSecret: string;
  /** The webhook's secret (WooCommerce > Settings > Advanced > Webhooks). */
  webhookSecret: string;
  /** The key's permissions (WooCommerce > Settings > Advanced > REST API). */
  permissions?: "read" | "write" | "read_write";
  /** is_ssl(): true accepts Basic and query-string keys (a TLS-terminating proxy in front of this http server). */
  ssl?: boolean;
}

export interface WooNote {
  id: number;
  note: string;
  customer_note: boolean;
  date_created_gmt: string;
}
export interface WooStoredOrder {
  order: Record<string, unknown>;
  statusHistory: string[];
  notes: WooNote[];
}
export interface WooRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  auth: "basic" | "query" | "oauth" | "none";
  status: number;
}

const ORDER_STATUSES = ["pending", "processing", "on-hold", "completed", "cancelled", "refunded", "failed", "trash"];
const rawurlencode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const wcNow = (d = new Date()) => d.toISOString().slice(0, 19);

export class FakeWooCommerce {
  readonly products: Record<string, unknown>[] = [];
  readonly variations = new Map<number, Record<string, unknown>[]>();
  readonly orders = new Map<number, WooStoredOrder>();
  readonly requests: WooRequest[] = [];
  /** The key was revoked in WooCommerce: every call is refused as an unknown consumer key. */
  revoked = false;
  /** Statuses (429, 503, ...) to answer, in order, before answering normally again. */
  readonly failNext: { status: number; retryAfter?: string }[] = [];
  /** Raw answers to give, in order, before anything else: what a host, a cache or a redirect puts in front of WordPress. */
  readonly rawNext: { status: number; headers?: Record<string, string>; body: string }[] = [];
  url = "";
  readonly #o: Required<FakeWooOptions>;
  readonly #nonces = new Set<string>();
  #server: Server | null = null;
  #nextId = 100;

  constructor(options: FakeWooOptions) {
    this.#o = { permissions: "read_write", ssl: false, ...options };
  }

  async start(): Promise<this> {
    this.#server = createServer(
      (req, res) => void this.#handle(req, res).catch((err) => res.writeHead(500).end(String(err))),
    );
    this.url = await listenOnLoopback(this.#server);
    return this;
  }

  async close(): Promise<void> {
    await closeServer(this.#server, true);
  }

  /** The next `count` calls get 429 with Retry-After: `retryAfter` (seconds or an HTTP-date). */
  throttle(count: number, retryAfter = "7"): void {
    for (let i = 0; i < count; i++) this.failNext.push({ status: 429, retryAfter });
  }

  // ---- catalogue and orders ----

  addSimpleProduct(name: string, sku: string, price: string, status = "publish"): number {
    const id = this.#nextId++;
    this.products.push(this.#product(id, name, "simple", sku, price, status));
    return id;
  }

  /** A variable product with one variation per option of one attribute ("Size": ["S", "M"]). */
  addVariableProduct(
    name: string,
    attribute: string,
    options: { option: string; sku: string; price: string }[],
  ): { id: number; variationIds: number[] } {
    const id = this.#nextId++;
    const low = options.map((o) => o.price).sort((a, b) => Number(a) - Number(b))[0] ?? "";
    this.products.push({
      ...this.#product(id, name, "variable", "", low, "publish"),
      attributes: [
        { id: 0, name: attribute, position: 0, visible: true, variation: true, options: options.map((o) => o.option) },
      ],
    });
    const variationIds = options.map(() => this.#nextId++);
    this.variations.set(
      id,
      options.map((o, i) => ({
        id: variationIds[i],
        date_created: wcNow(),
        description: "",
        permalink: `${this.url}/?product=${id}&attribute_${attribute.toLowerCase()}=${o.option}`,
        sku: o.sku,
        price: o.price,
        regular_price: o.price,
        sale_price: "",
        on_sale: false,
        status: "publish",
        purchasable: true,
        virtual: false,
        stock_status: "instock",
        attributes: [{ id: 0, name: attribute, option: o.option }],
        menu_order: i,
        meta_data: [],
      })),
    );
    return { id, variationIds };
  }

  #product(
    id: number,
    name: string,
    type: string,
    sku: string,
    price: string,
    status: string,
  ): Record<string, unknown> {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    return {
      id,
      name,
      slug,
      permalink: `${this.url}/product/${slug}/`,
      date_created: wcNow(),
      date_created_gmt: wcNow(),
      type,
      status,
      featured: false,
      catalog_visibility: "visible",
      description: `<p>${name}</p>`,
      short_description: "",
      sku,
      price,
      regular_price: price,
      sale_price: "",
      on_sale: false,
      purchasable: true,
      total_sales: 0,
      virtual: false,
      downloadable: false,
      tax_status: "taxable",
      manage_stock: false,
      stock_quantity: null,
      stock_status: "instock",
      categories: [],
      tags: [],
      images: [],
      attributes: [],
      variations: [],
      meta_data: [],
      _links: {
        self: [{ href: `${this.url}/wp-json/wc/v3/products/${id}` }],
        collection: [{ href: `${this.url}/wp-json/wc/v3/products` }],
      },
    };
  }

  /** Stores an order as the REST API returns it (the order webhook's payload). */
  addOrder(order: Record<string, unknown>): void {
    this.orders.set(Number(order["id"]), { order, statusHistory: [String(order["status"])], notes: [] });
  }

  statusOf(id: number): string | undefined {
    return this.orders.get(id)?.order["status"] as string | undefined;
  }

  // ---- HTTP ----

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", this.url);
    const query = Object.fromEntries(url.searchParams);
    const method = req.method ?? "GET";
    const log: WooRequest = { method, path: url.pathname, query, auth: "none", status: 0 };
    this.requests.push(log);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      log.status = status;
      res
        .writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers })
        .end(JSON.stringify(body));
    };
    const wpError = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
      send(status, { code, message, data: { status, ...extra } });

    const rawAnswer = this.rawNext.shift();
    if (rawAnswer) {
      log.status = rawAnswer.status;
      return void res
        .writeHead(rawAnswer.status, { "content-type": "text/html; charset=UTF-8", ...rawAnswer.headers })
        .end(rawAnswer.body);
    }
    const failure = this.failNext.shift();
    if (failure) {
      return send(
        failure.status,
        failure.status === 429
          ? { code: "too_many_requests", message: "Too Many Requests", data: { status: 429 } }
          : { code: "internal_server_error", message: "Service Unavailable", data: { status: failure.status } },
        failure.retryAfter ? { "retry-after": failure.retryAfter } : {},
      );
    }
    if (!url.pathname.startsWith("/wp-json/wc/v3/"))
      return wpError(404, "rest_no_route", "No route was found matching the URL and request method.");
    const auth = this.#authenticate(req, method, url, query);
    log.auth = auth.method;
    if (!auth.ok) return wpError(401, auth.code, auth.message);

    const path = url.pathname.slice("/wp-json/wc/v3".length);
    if (method === "GET" && path === "/products")
      return this.#list(this.products, query, `${this.url}${url.pathname}`, send, wpError);
    const variations = /^\/products\/(\d+)\/variations$/.exec(path);
    if (method === "GET" && variations)
      return this.#list(
        this.variations.get(Number(variations[1])) ?? [],
        query,
        `${this.url}${url.pathname}`,
        send,
        wpError,
      );
    const order = /^\/orders\/(\d+)$/.exec(path);
    if (order && ["PUT", "POST", "PATCH"].includes(method)) {
      const stored = this.orders.get(Number(order[1]));
      if (!stored) return wpError(400, "woocommerce_rest_shop_order_invalid_id", "Invalid ID.");
      const body = JSON.parse(raw || "{}") as { status?: unknown };
      if (body.status !== undefined) {
        if (typeof body.status !== "string" || !ORDER_STATUSES.includes(body.status)) {
          return wpError(400, "rest_invalid_param", "Invalid parameter(s): status", {
            params: { status: `status is not one of ${ORDER_STATUSES.join(", ")}.` },
          });
        }
        stored.order["status"] = body.status;
        stored.statusHistory.push(body.status);
      }
      return send(200, stored.order);
    }
    const notes = /^\/orders\/(\d+)\/notes$/.exec(path);
    if (notes && method === "POST") {
      const stored = this.orders.get(Number(notes[1]));
      if (!stored) return wpError(400, "woocommerce_rest_order_invalid_id", "Invalid order ID.");
      const body = JSON.parse(raw || "{}") as { note?: unknown; customer_note?: unknown };
      if (typeof body.note !== "string" || body.note === "")
        return wpError(400, "rest_missing_callback_param", "Missing parameter(s): note", { params: ["note"] });
      const note: WooNote = {
        id: this.#nextId++,
        note: body.note,
        customer_note: body.customer_note === true,
        date_created_gmt: wcNow(),
      };
      stored.notes.push(note);
      return send(201, {
        id: note.id,
        author: "WooCommerce",
        date_created: note.date_created_gmt,
        date_created_gmt: note.date_created_gmt,
        note: note.note,
        customer_note: note.customer_note,
      });
    }
    return wpError(404, "rest_no_route", "No route was found matching the URL and request method.");
  }

  #list(
    items: Record<string, unknown>[],
    query: Record<string, string>,
    base: string,
    send: (s: number, b: unknown, h?: Record<string, string>) => void,
    wpError: (s: number, c: string, m: string, e?: Record<string, unknown>) => void,
  ): void {
    const perPage = query["per_page"] === undefined ? 10 : Number(query["per_page"]);
    const page = query["page"] === undefined ? 1 : Number(query["page"]);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
      return wpError(400, "rest_invalid_param", "Invalid parameter(s): per_page", {
        params: { per_page: "per_page must be between 1 (inclusive) and 100 (inclusive)" },
      });
    if (!Number.isInteger(page) || page < 1)
      return wpError(400, "rest_invalid_param", "Invalid parameter(s): page", {
        params: { page: "page must be greater than or equal to 1" },
      });
    const totalPages = Math.ceil(items.length / perPage);
    if (items.length > 0 && page > totalPages)
      return wpError(
        400,
        "rest_post_invalid_page_number",
        "The page number requested is larger than the number of pages available.",
      );
    const links = [
      page > 1 ? `<${base}?page=${page - 1}&per_page=${perPage}>; rel="prev"` : null,
      page < totalPages ? `<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"` : null,
    ].filter(Boolean);
    send(200, items.slice((page - 1) * perPage, page * perPage), {
      "x-wp-total": String(items.length),
      "x-wp-totalpages": String(totalPages),
      ...(links.length ? { link: links.join(", ") } : {}),
    });
  }

  #authenticate(
    req: IncomingMessage,
    method: string,
    url: URL,
    query: Record<string, string>,
  ):
    | { ok: true; method: WooRequest["auth"] }
    | { ok: false; method: WooRequest["auth"]; code: string; message: string } {
    const o = this.#o;
    const keyKnown = (key: string) => !this.revoked && key === o.consumerKey;
    const permitted = (): string | null => {
      if (method === "GET" || method === "HEAD")
        return o.permissions === "write" ? "The API key provided does not have read permissions." : null;
      return o.permissions === "read" ? "The API key provided does not have write permissions." : null;
    };
    const verdict = (m: WooRequest["auth"]) => {
      const refused = permitted();
      return refused
        ? { ok: false as const, method: m, code: "woocommerce_rest_authentication_error", message: refused }
        : { ok: true as const, method: m };
    };
    if (o.ssl) {
      let key = query["consumer_key"] ?? "";
      let secret = query["consumer_secret"] ?? "";
      let m: WooRequest["auth"] = "query";
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
      if (!key && basic) {
        const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
        key = decoded.slice(0, decoded.indexOf(":"));
        secret = decoded.slice(decoded.indexOf(":") + 1);
        m = "basic";
      }
      if (key && secret && keyKnown(key)) {
        if (secret !== o.consumerSecret)
          return {
            ok: false,
            method: m,
            code: "woocommerce_rest_authentication_error",
            message: "Consumer secret is invalid.",
          };
        return verdict(m);
      }
    }
    // OAuth 1.0a, as WC_REST_Authentication::perform_oauth_authentication.
    const names = ["oauth_consumer_key", "oauth_timestamp", "oauth_nonce", "oauth_signature", "oauth_signature_method"];
    const present = names.filter((n) => query[n]);
    if (present.length === 0) {
      return {
        ok: false,
        method: "none",
        code: method === "GET" ? "woocommerce_rest_cannot_view" : "woocommerce_rest_cannot_edit",
        message:
          method === "GET" ? "Sorry, you cannot list resources." : "Sorry, you are not allowed to edit this resource.",
      };
    }
    if (present.length < names.length)
      return {
        ok: false,
        method: "oauth",
        code: "woocommerce_rest_authentication_missing_parameter",
        message: `Missing OAuth parameters ${names.filter((n) => !query[n]).join(", ")}`,
      };
    if (!keyKnown(query["oauth_consumer_key"]!))
      return {
        ok: false,
        method: "oauth",
        code: "woocommerce_rest_authentication_error",
        message: "Consumer key is invalid.",
      };
    const params = { ...query };
    const given = params["oauth_signature"]!.replaceAll(" ", "+");
    delete params["oauth_signature"];
    const keys = Object.keys(params).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const queryString = keys.map((k) => rawurlencode(`${rawurlencode(k)}=${rawurlencode(params[k]!)}`)).join("%26");
    const toSign = `${method.toUpperCase()}&${rawurlencode(`${this.url}${url.pathname}`)}&${queryString}`;
    const algorithm = params["oauth_signature_method"];
    if (algorithm !== "HMAC-SHA1" && algorithm !== "HMAC-SHA256")
      return {
        ok: false,
        method: "oauth",
        code: "woocommerce_rest_authentication_error",
        message: "Invalid signature - signature method is invalid.",
      };
    const expected = createHmac(algorithm === "HMAC-SHA1" ? "sha1" : "sha256", `${o.consumerSecret}&`)
      .update(toSign)
      .digest("base64");
    if (expected !== given)
      return {
        ok: false,
        method: "oauth",
        code: "woocommerce_rest_authentication_error",
        message: "Invalid signature - provided signature does not match.",
      };
    const timestamp = Number(params["oauth_timestamp"]);
    if (!(Math.abs(timestamp - Date.now() / 1000) <= 15 * 60))
      return {
        ok: false,
        method: "oauth",
        code: "woocommerce_rest_authentication_error",
        message: "Invalid timestamp.",
      };
    if (this.#nonces.has(params["oauth_nonce"]!))
      return {
        ok: false,
        method: "oauth",
        code: "woocommerce_rest_authentication_error",
        message: "Invalid nonce - nonce has already been used.",
      };
    this.#nonces.add(params["oauth_nonce"]!);
    return verdict("oauth");
  }

  // ---- webhooks ----

  /** An order.created delivery as WC_Webhook::deliver sends it (header names lower-cased, as Node reads them). */
  orderCreated(order: Record<string, unknown>, webhookId = 7): { headers: Record<string, string>; rawBody: Buffer } {
    const body = phpJsonEncode(order).trim();
    return {
      rawBody: Buffer.from(body, "utf8"),
      headers: {
        "content-type": "application/json",
        "user-agent": "WooCommerce/9.4.2 Hookshot (WordPress/6.7.1)",
        "x-wc-webhook-source": `${this.url}/`,
        "x-wc-webhook-topic": "order.created",
        "x-wc-webhook-resource": "order",
        "x-wc-webhook-event": "created",
        "x-wc-webhook-signature": createHmac("sha256", this.#o.webhookSecret).update(body).digest("base64"),
        "x-wc-webhook-id": String(webhookId),
        "x-wc-webhook-delivery-id": createHash("md5")
          .update(`${webhookId}${Date.now()}${randomBytes(4).toString("hex")}`)
          .digest("hex"),
      },
    };
  }

  /** POSTs a delivery built here to `targetUrl` (Wakha's /connectors/{platform}/{shop_id}), as the platform would. */
  async deliverTo(
    targetUrl: string,
    delivery: { headers: Record<string, string>; rawBody: Buffer },
  ): Promise<{ status: number; body: string }> {
    const res = await fetch(targetUrl, {
      method: "POST",
      headers: delivery.headers,
      body: new Uint8Array(delivery.rawBody),
      redirect: "manual",
    });
    return { status: res.status, body: await res.text() };
  }

  /** The activation ping WC_Webhook::deliver_ping sends: unsigned, `webhook_id=N`, form-encoded by WP_Http. */
  ping(webhookId = 7): { headers: Record<string, string>; rawBody: Buffer } {
    return {
      rawBody: Buffer.from(`webhook_id=${webhookId}`, "utf8"),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "user-agent": "WooCommerce/9.4.2 Hookshot (WordPress/6.7.1)",
      },
    };
  }
}

export interface WooOrderInput {
  id: number;
  payment: "cod" | "card" | "bacs";
  phone: string;
  country: string;
  city?: string;
  firstName?: string;
  lastName?: string;
  currency?: string;
  lines: { productId: number; variationId?: number; sku: string; name: string; quantity: number; price: number }[];
  shippingTotal?: string;
}

/** An order as the REST API v3 returns it and order.created carries it, after the checkout of `input.payment`. */
export function wooOrder(input: WooOrderInput, siteUrl = "https://shop.example"): Record<string, unknown> {
  const shippingTotal = input.shippingTotal ?? "30.00";
  const itemsTotal = input.lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
  const created = new Date(Date.now() - 5_000);
  // WooCommerce's COD gateway puts the order in processing, and maybe_set_date_paid then stamps date_paid anyway;
  // a card order is processing and paid; a bank transfer waits on-hold, unpaid.
  const status = input.payment === "bacs" ? "on-hold" : "processing";
  const datePaid = status === "processing" ? wcNow() : null;
  const method = {
    cod: ["cod", "Paiement à la livraison"],
    card: ["stripe", "Credit Card (Stripe)"],
    bacs: ["bacs", "Direct bank transfer"],
  }[input.payment];
  const address = {
    first_name: input.firstName ?? "Salma",
    last_name: input.lastName ?? "Bennani",
    company: "",
    address_1: "12 Rue des Orangers",
    address_2: "",
    city: input.city ?? "Casablanca",
    state: "",
    postcode: "20000",
    country: input.country,
  };
  return {
    id: input.id,
    parent_id: 0,
    status,
    currency: input.currency ?? "MAD",
    version: "9.4.2",
    prices_include_tax: false,
    date_created: wcNow(created),
    date_modified: wcNow(),
    discount_total: "0.00",
    discount_tax: "0.00",
    shipping_total: shippingTotal,
    shipping_tax: "0.00",
    cart_tax: "0.00",
    total: (itemsTotal + Number(shippingTotal)).toFixed(2),
    total_tax: "0.00",
    customer_id: 0,
    order_key: `wc_order_${randomBytes(6).toString("hex")}`,
    billing: { ...address, email: "salma@example.ma", phone: input.phone },
    shipping: { ...address, phone: "" },
    payment_method: method[0],
    payment_method_title: method[1],
    transaction_id: input.payment === "card" ? `ch_${randomBytes(8).toString("hex")}` : "",
    customer_ip_address: "105.158.12.4",
    customer_user_agent: "Mozilla/5.0 (Linux; Android 14)",
    created_via: "checkout",
    customer_note: "",
    date_completed: null,
    date_paid: datePaid,
    cart_hash: randomBytes(16).toString("hex"),
    number: String(input.id),
    meta_data: [],
    line_items: input.lines.map((l, i) => ({
      id: 900 + i,
      name: l.name,
      product_id: l.productId,
      variation_id: l.variationId ?? 0,
      quantity: l.quantity,
      tax_class: "",
      subtotal: (l.price * l.quantity).toFixed(2),
      subtotal_tax: "0.00",
      total: (l.price * l.quantity).toFixed(2),
      total_tax: "0.00",
      taxes: [],
      meta_data: [],
      sku: l.sku,
      price: l.price,
      image: { id: "", src: "" },
      parent_name: null,
    })),
    tax_lines: [],
    shipping_lines: [
      {
        id: 950,
        method_title: "Livraison",
        method_id: "flat_rate",
        instance_id: "1",
        total: shippingTotal,
        total_tax: "0.00",
        taxes: [],
        meta_data: [],
      },
    ],
    fee_lines: [],
    coupon_lines: [],
    refunds: [],
    payment_url: `${siteUrl}/checkout/order-pay/${input.id}/`,
    is_editable: false,
    needs_payment: false,
    needs_processing: true,
    date_created_gmt: wcNow(created),
    date_modified_gmt: wcNow(),
    date_completed_gmt: null,
    date_paid_gmt: datePaid,
    currency_symbol: "&#x62f;.&#x645;.",
    _links: {
      self: [{ href: `${siteUrl}/wp-json/wc/v3/orders/${input.id}` }],
      collection: [{ href: `${siteUrl}/wp-json/wc/v3/orders` }],
    },
  };
}
