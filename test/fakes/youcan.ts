// A local YouCan Store Admin API (api.youcan.shop) at its documented boundary (developer.youcan.shop, store-admin;
// github.com/youcan-shop/youcan-api-doc):
// - `Authorization: Bearer <token>`; an unknown or revoked token is 401 {"status":401,"detail":"Unauthenticated","meta":[]}.
// - GET /products?include=variants&page=N&limit=M: {data, meta: {pagination: {total, count, per_page,
//   current_page, total_pages, links}}} (misc/query-filters), 10 per page unless `limit`.
// - GET /orders/{id}; PUT /orders/{id}/status, /status/shipping, /status/payment {status: slug}: 200
//   {"status":200,"detail":"Status is successfully updated","meta":[]}, 404 {"status":404,"detail":"order not found"}.
// - POST /resthooks/subscribe {event, target_url} -> {id}; GET /resthooks/list.
// - 429 on demand with Retry-After. The docs do not describe API rate limits: the body is Laravel's throttle
//   answer in YouCan's error shape (an assumption, as in src/connectors/platforms/youcan.ts).
// - order.create deliveries: the payload of the resthooks/subscribe example (id, ref, total, currency, status,
//   payment_status, created_at, customer, variants[{id, price, quantity, variant {sku, product}}], payment
//   {status, status_text}), completed with the order fields the Get Order page documents (variant and product ids,
//   payment gateway, shipping address), body = PHP json_encode, `x-youcan-signature` = hex HMAC-SHA256 keyed with
//   the OAuth client secret.
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { closeServer, listenOnLoopback } from "./loopback.ts";
import { phpJsonEncode } from "./php-json.ts";

export interface YouCanVariantInput {
  sku: string;
  price: number;
  values?: string[];
}
export interface YouCanStoredOrder {
  order: Record<string, unknown>;
  statusHistory: { context: "status" | "shipping" | "payment"; slug: string }[];
}

const iso = (d = new Date()) => d.toISOString().replace(/\.\d{3}Z$/, "+00:00");

export class FakeYouCan {
  readonly products: Record<string, unknown>[] = [];
  readonly orders = new Map<string, YouCanStoredOrder>();
  readonly subscriptions: { id: string; event: string; target_url: string }[] = [];
  readonly requests: { method: string; path: string; query: Record<string, string>; status: number }[] = [];
  /** The seller revoked the token (Settings > Developer Settings) or uninstalled the app. */
  revoked = false;
  /** Statuses (429, 500, ...) to answer, in order, before answering normally again. */
  readonly failNext: { status: number; retryAfter?: string }[] = [];
  url = "";
  readonly #token: string;
  readonly #clientSecret: string;
  #server: Server | null = null;

  constructor(options: { accessToken: string; clientSecret: string }) {
    this.#token = options.accessToken;
    this.#clientSecret = options.clientSecret;
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

  throttle(count: number, retryAfter = "30"): void {
    for (let i = 0; i < count; i++) this.failNext.push({ status: 429, retryAfter });
  }

  /** A product; without variants YouCan keeps one `default` variant (entities/product). */
  addProduct(
    name: string,
    variants: YouCanVariantInput[],
    options: { visible?: boolean; deleted?: boolean } = {},
  ): { id: string; variantIds: string[] } {
    const id = randomUUID();
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const list = variants.map((v) => ({
      id: randomUUID(),
      variations: v.values ? Object.fromEntries(v.values.map((x, i) => [`option${i + 1}`, x])) : { default: "default" },
      options: v.values ? v.values.map((_, i) => `option${i + 1}`) : ["default"],
      values: v.values ?? ["default"],
      price: v.price,
      compare_at_price: null,
      weight: 0,
      sku: v.sku,
      barcode: null,
      inventory: 20,
      is_selected: false,
      is_default: !v.values,
      image: { name: null, url: null },
      created_at: iso(),
      updated_at: iso(),
    }));
    this.products.push({
      id,
      name,
      slug,
      public_url: `https://ma-boutique.youcan.shop/products/${slug}`,
      thumbnail: null,
      description: `<p>${name}</p>`,
      price: variants[0]?.price ?? 0,
      compare_at_price: null,
      cost_price: null,
      visibility: options.visible ?? true,
      has_variants: variants.some((v) => v.values),
      variants_count: list.length,
      variant_options: [],
      inventory: 20,
      track_inventory: false,
      you_save_amount: 0,
      meta: { title: name, description: name, images: [] },
      created_at: iso(),
      updated_at: iso(),
      deleted_at: options.deleted ? iso() : false,
      images: [],
      _variants: list,
    });
    return { id, variantIds: list.map((v) => v.id) };
  }

  /** The variant objects of a product, as an order line embeds them. */
  variantOf(productId: string, index = 0): { product: Record<string, unknown>; variant: Record<string, unknown> } {
    const product = this.products.find((p) => p["id"] === productId)!;
    return { product, variant: (product["_variants"] as Record<string, unknown>[])[index]! };
  }

  addOrder(order: Record<string, unknown>): void {
    this.orders.set(String(order["id"]), { order, statusHistory: [] });
  }

  statusOf(id: string): string | undefined {
    return (this.orders.get(id)?.order["status_object"] as { slug?: string } | undefined)?.slug;
  }

  // ---- HTTP ----

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", this.url);
    const log = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: 0,
    };
    this.requests.push(log);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      log.status = status;
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
    };
    const problem = (status: number, detail: string, meta: unknown = []) => send(status, { status, detail, meta });

    const failure = this.failNext.shift();
    if (failure) {
      const headers: Record<string, string> = failure.retryAfter
        ? { "retry-after": failure.retryAfter, "x-ratelimit-limit": "60", "x-ratelimit-remaining": "0" }
        : {};
      return send(
        failure.status,
        failure.status === 429
          ? { status: 429, detail: "Too Many Attempts.", meta: [] }
          : { status: failure.status, detail: "internal error" },
        headers,
      );
    }
    if (this.revoked || req.headers.authorization !== `Bearer ${this.#token}`) return problem(401, "Unauthenticated");
    const method = req.method ?? "GET";

    if (method === "GET" && url.pathname === "/products") {
      const perPage = Number(url.searchParams.get("limit") ?? 10);
      const page = Number(url.searchParams.get("page") ?? 1);
      const includes = (url.searchParams.get("include") ?? "").split(",");
      const totalPages = Math.max(1, Math.ceil(this.products.length / perPage));
      const data = this.products
        .slice((page - 1) * perPage, page * perPage)
        .map(({ _variants, ...p }) => (includes.includes("variants") ? { ...p, variants: _variants } : p));
      const next = page < totalPages ? { next: `${this.url}/products?page=${page + 1}` } : {};
      return send(200, {
        data,
        meta: {
          pagination: {
            total: this.products.length,
            count: data.length,
            per_page: perPage,
            current_page: page,
            total_pages: totalPages,
            links: next,
          },
        },
      });
    }
    const order = /^\/orders\/([^/]+)$/.exec(url.pathname);
    if (method === "GET" && order) {
      const stored = this.orders.get(order[1]!);
      return stored ? send(200, stored.order) : problem(404, "order not found");
    }
    const status = /^\/orders\/([^/]+)\/status(?:\/(shipping|payment))?$/.exec(url.pathname);
    if (method === "PUT" && status) {
      const stored = this.orders.get(status[1]!);
      if (!stored) return send(404, { status: 0, detail: "order not found", meta: [] });
      const body = JSON.parse(raw || "{}") as { status?: unknown };
      if (typeof body.status !== "string" || body.status === "")
        return problem(422, "The given data was invalid.", { fields: { status: ["The status field is required."] } });
      const context = (status[2] ?? "status") as "status" | "shipping" | "payment";
      stored.statusHistory.push({ context, slug: body.status });
      // An unknown slug is kept as its own label (store-admin/orders/update_status).
      if (context === "status")
        stored.order["status_object"] = { slug: body.status, name: body.status, color: "#8A9CA0FF" };
      return send(200, { status: 200, detail: "Status is successfully updated", meta: [] });
    }
    if (method === "POST" && url.pathname === "/resthooks/subscribe") {
      const body = JSON.parse(raw || "{}") as { event?: unknown; target_url?: unknown };
      if (
        !["order.create", "inventory.low", "upsell.accept"].includes(String(body.event)) ||
        typeof body.target_url !== "string"
      ) {
        return problem(422, "The given data was invalid.", { fields: { event: ["The selected event is invalid."] } });
      }
      const id = randomUUID();
      this.subscriptions.push({ id, event: String(body.event), target_url: body.target_url });
      return send(200, { id });
    }
    if (method === "GET" && url.pathname === "/resthooks/list") return send(200, this.subscriptions);
    return problem(404, `The route ${url.pathname.slice(1)} could not be found.`);
  }

  // ---- webhooks ----

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

  /** An order.create delivery: the payload, PHP-encoded, signed with the OAuth client secret. */
  orderCreate(order: Record<string, unknown>): { headers: Record<string, string>; rawBody: Buffer } {
    const body = phpJsonEncode(order);
    return {
      rawBody: Buffer.from(body, "utf8"),
      headers: {
        "content-type": "application/json",
        "x-youcan-signature": createHmac("sha256", this.#clientSecret).update(body).digest("hex"),
      },
    };
  }
}

export interface YouCanOrderInput {
  /** cod: the Cash on Delivery gateway; paid: a card payment already captured; unnamed: the subscribe example's
   * unpaid payment object with no gateway; other: an online gateway not yet paid. */
  payment: "cod" | "paid" | "unnamed" | "other";
  phone: string | null;
  countryCode: string | null;
  city?: string;
  customerPhone?: string;
  lines: { product: Record<string, unknown>; variant: Record<string, unknown>; quantity: number; price?: number }[];
  currency?: string;
  ref?: string;
}

/** An order as the order.create event carries it. */
export function youcanOrder(input: YouCanOrderInput): Record<string, unknown> {
  const lines = input.lines.map((l) => ({
    id: randomUUID(),
    price: l.price ?? (l.variant["price"] as number),
    quantity: l.quantity,
    created_at: Math.floor(Date.now() / 1000),
    extra_fields: [],
    variant: {
      ...l.variant,
      product: { id: l.product["id"], name: l.product["name"], slug: l.product["slug"], price: l.product["price"] },
    },
  }));
  const total = lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
  const payment: Record<string, unknown> = {
    cod: {
      status: -1,
      status_text: "unpaid",
      gateway_type: 1,
      gateway_type_text: "Cash on Delivery",
      payload: { gateway: "cod" },
      address: [],
    },
    paid: {
      status: 1,
      status_text: "paid",
      gateway_type: 2,
      gateway_type_text: "YouCan Pay",
      payload: { gateway: "youcanpay" },
      address: [],
    },
    unnamed: { status: -1, status_text: "unpaid" },
    other: {
      status: -1,
      status_text: "unpaid",
      gateway_type: 3,
      gateway_type_text: "Bank Transfer",
      payload: { gateway: "bank_transfer" },
      address: [],
    },
  }[input.payment]!;
  return {
    id: randomUUID(),
    ref: input.ref ?? "025",
    total,
    currency: input.currency ?? "MAD",
    status: 1,
    payment_status: input.payment === "paid" ? 1 : 2,
    created_at: iso(new Date(Date.now() - 3000)),
    customer: {
      id: randomUUID(),
      first_name: "Youssef",
      last_name: "El Amrani",
      email: "youssef@example.ma",
      phone: input.customerPhone ?? input.phone,
    },
    variants: lines,
    payment,
    shipping: {
      status_text: "unfulfilled",
      status: 2,
      price: 0,
      is_free: true,
      tracking_number: null,
      address:
        input.phone === null && input.countryCode === null
          ? []
          : {
              id: randomUUID(),
              first_name: "Youssef",
              last_name: "El Amrani",
              full_name: "Youssef El Amrani",
              first_line: "Hay Riad, rue 7",
              second_line: "",
              company: "",
              phone: input.phone,
              country_code: input.countryCode,
              country_name: "Morocco",
              state: null,
              region: "Rabat-Salé-Kénitra",
              city: input.city ?? "Rabat",
              zip_code: "10100",
              default: false,
            },
    },
  };
}
