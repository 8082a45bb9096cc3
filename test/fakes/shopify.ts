// A local Shopify store for tests, at the protocol boundary Shopify documents:
// - the Admin GraphQL API: POST /admin/api/{version}/graphql.json with X-Shopify-Access-Token (401
//   `{"errors": "[API] Invalid API key or access token ..."}` for an unknown or revoked token), answering `data`,
//   `errors` and `extensions.cost {requestedQueryCost, actualQueryCost, throttleStatus {maximumAvailable,
//   currentlyAvailable, restoreRate}}`; a leaky bucket per store, and a throttled request answers
//   `errors: [{message: "Throttled", extensions: {code: "THROTTLED"}}]` (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits);
//   the root fields Wakha uses: products (nodes, pageInfo), product(id).variants, order(id) {id note tags},
//   tagsAdd, tagsRemove, orderUpdate(input: {id, note}) with userErrors
//   (https://shopify.dev/docs/api/admin-graphql/latest/mutations/tagsAdd, .../input-objects/OrderInput);
// - webhooks as Shopify delivers them: the REST Order resource as the orders/create body, signed with
//   X-Shopify-Hmac-Sha256 (base64 HMAC-SHA256 of the raw body, the app's client secret), with X-Shopify-Topic,
//   X-Shopify-Shop-Domain, X-Shopify-API-Version, X-Shopify-Webhook-Id, X-Shopify-Event-Id, X-Shopify-Triggered-At
//   (https://shopify.dev/docs/apps/build/webhooks/delivery-structure).
// A test can force throttling (`throttleNext`) or HTTP 429 with Retry-After (`http429Next`).
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { closeServer, listenOnLoopback } from "./loopback.ts";

export interface FakeOrder {
  id: string;
  note: string | null;
  tags: string[];
}

export interface FakeProduct {
  id: string;
  title: string;
  status: "ACTIVE" | "ARCHIVED" | "DRAFT";
  variants: { id: string; sku: string | null; title: string; price: string }[];
}

export interface GraphqlRequest {
  token: string;
  query: string;
  variables: Record<string, unknown>;
  /** What the fake answered: ok, throttled, 429, 401. */
  outcome: string;
}

const INVALID_TOKEN = "[API] Invalid API key or access token (unrecognized login or wrong password)";

export class FakeShopify {
  readonly shopDomain: string;
  readonly tokens = new Set<string>();
  readonly orders = new Map<string, FakeOrder>();
  readonly products: FakeProduct[] = [];
  readonly requests: GraphqlRequest[] = [];
  /** Requests to answer THROTTLED (bucket shown empty) before answering normally again. */
  throttleNext = 0;
  /** Requests to answer HTTP 429 with `Retry-After: 1` before answering normally again. */
  http429Next = 0;
  /** The leaky bucket (Standard plan figures by default). */
  maximumAvailable = 2000;
  restoreRate = 100;
  #available = 2000;
  #lastLeak = Date.now();
  #server: Server | null = null;
  url = "";

  constructor(shopDomain = "wakha-test.myshopify.com") {
    this.shopDomain = shopDomain;
  }

  async start(): Promise<this> {
    this.#server = createServer((req, res) => {
      void this.#handle(req).then(({ status, body, headers }) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(body));
      });
    });
    this.url = await listenOnLoopback(this.#server);
    return this;
  }

  async close(): Promise<void> {
    await closeServer(this.#server);
  }

  /** Each order's custom attributes (note_attributes), by order id. */
  readonly attributes = new Map<string, { key: string; value: string }[]>();

  addOrder(id: string, note: string | null = null, tags: string[] = []): FakeOrder {
    const order = { id, note, tags };
    this.orders.set(id, order);
    return order;
  }

  #cost(requested: number): Record<string, unknown> {
    return {
      requestedQueryCost: requested,
      actualQueryCost: requested,
      throttleStatus: {
        maximumAvailable: this.maximumAvailable,
        currentlyAvailable: Math.floor(this.#available),
        restoreRate: this.restoreRate,
      },
    };
  }

  async #handle(req: IncomingMessage): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== "POST" || !/^\/admin\/api\/\d{4}-\d{2}\/graphql\.json$/.test(req.url ?? ""))
      return { status: 404, body: { errors: "Not Found" } };
    const token = String(req.headers["x-shopify-access-token"] ?? "");
    let parsed: { query?: unknown; variables?: unknown };
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof parsed;
    } catch {
      return { status: 400, body: { errors: "Bad Request" } };
    }
    const query = typeof parsed.query === "string" ? parsed.query : "";
    const variables = (parsed.variables ?? {}) as Record<string, unknown>;
    const record = (outcome: string) => this.requests.push({ token, query, variables, outcome });
    if (!this.tokens.has(token)) {
      record("401");
      return { status: 401, body: { errors: INVALID_TOKEN } };
    }
    if (this.http429Next > 0) {
      this.http429Next--;
      record("429");
      return {
        status: 429,
        body: {
          errors: "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.",
        },
        headers: { "retry-after": "1" },
      };
    }
    const requested = /\bproducts\s*\(/.test(query)
      ? 932
      : /\bproduct\s*\(/.test(query)
        ? 102
        : /\bmutation\b/.test(query)
          ? 30
          : 1;
    const now = Date.now();
    this.#available = Math.min(
      this.maximumAvailable,
      this.#available + ((now - this.#lastLeak) / 1000) * this.restoreRate,
    );
    this.#lastLeak = now;
    if (this.throttleNext > 0 || this.#available < requested) {
      if (this.throttleNext > 0) {
        this.throttleNext--;
        this.#available = 0;
      }
      record("throttled");
      return {
        status: 200,
        body: {
          errors: [
            {
              message: "Throttled",
              extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
            },
          ],
          extensions: { cost: { ...this.#cost(requested), actualQueryCost: null } },
        },
      };
    }
    this.#available -= requested;
    record("ok");
    return {
      status: 200,
      body: { data: this.#execute(query, variables), extensions: { cost: this.#cost(requested) } },
    };
  }

  #orderOf(gid: unknown): FakeOrder | null {
    const m = typeof gid === "string" ? /^gid:\/\/shopify\/Order\/(\d+)$/.exec(gid) : null;
    return m ? (this.orders.get(m[1]!) ?? null) : null;
  }

  #execute(query: string, v: Record<string, unknown>): Record<string, unknown> {
    const data: Record<string, unknown> = {};
    const variantPage = (p: FakeProduct, first: number, after: unknown) => {
      const start = typeof after === "string" ? Number(after) : 0;
      const slice = p.variants.slice(start, start + first);
      return {
        pageInfo: { hasNextPage: start + first < p.variants.length, endCursor: String(start + slice.length) },
        nodes: slice.map((x) => ({
          id: `gid://shopify/ProductVariant/${x.id}`,
          legacyResourceId: x.id,
          sku: x.sku,
          title: x.title,
          price: x.price,
        })),
      };
    };
    const firstOf = (re: RegExp, fallback: number) => Number(re.exec(query)?.[1] ?? fallback);
    if (/\bproducts\s*\(/.test(query)) {
      const first = firstOf(/products\s*\(\s*first:\s*(\d+)/, 10);
      const variantsFirst = firstOf(/variants\s*\(\s*first:\s*(\d+)/, 10);
      const start = typeof v["after"] === "string" ? Number(v["after"]) : 0;
      const slice = this.products.slice(start, start + first);
      data["products"] = {
        pageInfo: { hasNextPage: start + first < this.products.length, endCursor: String(start + slice.length) },
        nodes: slice.map((p) => ({
          id: `gid://shopify/Product/${p.id}`,
          legacyResourceId: p.id,
          title: p.title,
          status: p.status,
          variants: variantPage(p, variantsFirst, null),
        })),
      };
    } else if (/\bproduct\s*\(/.test(query)) {
      const m = typeof v["id"] === "string" ? /^gid:\/\/shopify\/Product\/(\d+)$/.exec(v["id"]) : null;
      const p = m ? this.products.find((x) => x.id === m[1]) : undefined;
      data["product"] = p
        ? { variants: variantPage(p, firstOf(/variants\s*\(\s*first:\s*(\d+)/, 10), v["after"]) }
        : null;
    }
    if (/\border\s*\(\s*id:/.test(query)) {
      const o = this.#orderOf(v["id"]);
      data["order"] = o
        ? {
            id: `gid://shopify/Order/${o.id}`,
            note: o.note,
            tags: [...o.tags],
            customAttributes: [...(this.attributes.get(o.id) ?? [])],
          }
        : null;
    }
    const missing = [{ field: ["id"], message: "Order does not exist" }];
    const tagList = (x: unknown) =>
      (Array.isArray(x) ? x.map(String) : typeof x === "string" ? x.split(",").map((t) => t.trim()) : []).filter(
        Boolean,
      );
    if (/\btagsRemove\s*\(/.test(query)) {
      const o = this.#orderOf(v["id"]);
      if (o) o.tags = o.tags.filter((t) => !tagList(v["remove"]).includes(t));
      data["tagsRemove"] = { node: o ? { id: `gid://shopify/Order/${o.id}` } : null, userErrors: o ? [] : missing };
    }
    if (/\btagsAdd\s*\(/.test(query)) {
      const o = this.#orderOf(v["id"]);
      if (o) for (const t of tagList(v["add"])) if (!o.tags.includes(t)) o.tags.push(t);
      data["tagsAdd"] = { node: o ? { id: `gid://shopify/Order/${o.id}` } : null, userErrors: o ? [] : missing };
    }
    if (/\borderUpdate\s*\(/.test(query)) {
      const o = this.#orderOf(v["id"]);
      if (o && typeof v["note"] === "string") o.note = v["note"];
      // OrderInput.customAttributes: a new list that overwrites the order's (issue 35).
      if (o && Array.isArray(v["attributes"]))
        this.attributes.set(
          o.id,
          (v["attributes"] as { key: string; value: string }[]).map((a) => ({ key: a.key, value: a.value })),
        );
      data["orderUpdate"] = { order: o ? { id: `gid://shopify/Order/${o.id}` } : null, userErrors: o ? [] : missing };
    }
    return data;
  }

  /** The headers Shopify sends with a webhook delivery, signed with the app's client secret. */
  deliveryHeaders(
    rawBody: string,
    secret: string,
    topic = "orders/create",
    webhookId: string = randomUUID(),
  ): Record<string, string> {
    return {
      "content-type": "application/json",
      "x-shopify-topic": topic,
      "x-shopify-hmac-sha256": createHmac("sha256", secret).update(rawBody).digest("base64"),
      "x-shopify-shop-domain": this.shopDomain,
      "x-shopify-api-version": "2025-10",
      "x-shopify-webhook-id": webhookId,
      "x-shopify-event-id": randomUUID(),
      "x-shopify-triggered-at": new Date().toISOString(),
    };
  }
}

export interface OrderLine {
  product_id: number | null;
  variant_id: number | null;
  sku?: string | null;
  title: string;
  variant_title?: string | null;
  price: string;
  quantity: number;
  total_discount?: string;
}

/** An orders/create body: the REST Order resource, with the fields Shopify sends for a cash-on-delivery checkout. */
export function shopifyOrder(o: {
  id: number;
  phone: string;
  country?: string;
  currency?: string;
  total?: string;
  lines?: OrderLine[];
  financialStatus?: string;
  gateways?: string[];
  name?: string;
}): Record<string, unknown> {
  const country = o.country ?? "MA";
  const address = {
    first_name: "Yassine",
    last_name: "Alaoui",
    name: "Yassine Alaoui",
    address1: "12 rue Ibn Battouta",
    address2: null,
    city: "Casablanca",
    zip: "20000",
    province: null,
    country: country === "MA" ? "Morocco" : country,
    country_code: country,
    phone: o.phone,
    company: null,
    latitude: null,
    longitude: null,
    province_code: null,
  };
  const lines = o.lines ?? [
    {
      product_id: 7001,
      variant_id: 8001,
      sku: "TSHIRT-RED-M",
      title: "T-shirt",
      variant_title: "Rouge / M",
      price: "149.00",
      quantity: 2,
    },
  ];
  return {
    id: o.id,
    admin_graphql_api_id: `gid://shopify/Order/${o.id}`,
    name: o.name ?? `#${1000 + (o.id % 1000)}`,
    order_number: 1000 + (o.id % 1000),
    email: "",
    phone: null,
    created_at: "2026-11-24T10:00:00+01:00",
    currency: o.currency ?? "MAD",
    presentment_currency: o.currency ?? "MAD",
    total_price: o.total ?? "298.00",
    subtotal_price: o.total ?? "298.00",
    total_discounts: "0.00",
    total_outstanding: o.total ?? "298.00",
    financial_status: o.financialStatus ?? "pending",
    fulfillment_status: null,
    gateway: (o.gateways ?? ["Cash on Delivery (COD)"])[0] ?? "",
    payment_gateway_names: o.gateways ?? ["Cash on Delivery (COD)"],
    tags: "",
    note: null,
    customer: { id: 115310627314723954, first_name: "Yassine", last_name: "Alaoui", phone: null, email: null },
    billing_address: address,
    shipping_address: address,
    line_items: lines.map((l, i) => ({
      id: 866550311766439000 + i,
      admin_graphql_api_id: `gid://shopify/LineItem/${866550311766439000 + i}`,
      product_id: l.product_id,
      variant_id: l.variant_id,
      sku: l.sku ?? null,
      title: l.title,
      variant_title: l.variant_title ?? null,
      name: `${l.title}${l.variant_title ? ` - ${l.variant_title}` : ""}`,
      price: l.price,
      quantity: l.quantity,
      total_discount: l.total_discount ?? "0.00",
      requires_shipping: true,
      taxable: true,
      gift_card: false,
      fulfillable_quantity: l.quantity,
    })),
    shipping_lines: [],
  };
}
