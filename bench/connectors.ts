// Issue 17, store connectors: signed order webhooks of the three platforms (Shopify orders/create, WooCommerce
// order.created, YouCan order.create, in turn, one shop each) posted at BENCH_CONNECTOR_RATE (200) per second for
// BENCH_CONNECTOR_SECONDS (15) to one `wakha serve` (WAKHA_ROLE=api, its own process), the load generator in the bench
// process, open loop (each webhook sent at its scheduled time whatever the answers). Target: from the webhook received
// to the call's job enqueued, p99 under 50 ms. The place-call job is written in the transaction that creates the call,
// before the 2xx, so the HTTP response time bounds it from above (network and signature included); the database view
// (the intake row's first write to the job's created_on) is reported beside it.
import { createHmac, randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import pg from "pg";
import {
  benchDatabase,
  cpuSeconds,
  createAccountCli,
  postgresCpuByPid,
  postgresCpuDelta,
  startWakha,
  wakhaEnv,
} from "./processes.ts";
import type { SectionResult } from "./sections.ts";

const TARGET_MS = 50;
const SECRET = "bench-shopify-client-secret-0123456789";
const PLATFORMS = ["shopify", "woocommerce", "youcan"] as const;
type Platform = (typeof PLATFORMS)[number];

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** An orders/create body as Shopify sends it (the REST Order resource, the fields intake reads and more). */
function order(id: number): string {
  const phone = `06 1${id % 10} ${String(id % 100).padStart(2, "0")} ${String(Math.floor(id / 8) % 100).padStart(2, "0")} 01`;
  const address = {
    first_name: "Yassine",
    last_name: "Alaoui",
    name: "Yassine Alaoui",
    address1: "12 rue Ibn Battouta",
    city: "Casablanca",
    zip: "20000",
    country: "Morocco",
    country_code: "MA",
    phone,
  };
  return JSON.stringify({
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${id % 100000}`,
    currency: "MAD",
    total_price: "338.00",
    financial_status: "pending",
    payment_gateway_names: ["Cash on Delivery (COD)"],
    created_at: new Date().toISOString(),
    customer: { first_name: "Yassine", last_name: "Alaoui", phone: null },
    shipping_address: address,
    billing_address: address,
    line_items: [
      {
        id: id * 10 + 1,
        product_id: 7001,
        variant_id: 8001,
        sku: "TSHIRT-RED-M",
        title: "T-shirt",
        variant_title: "Rouge / M",
        price: "149.00",
        quantity: 2,
        total_discount: "0.00",
      },
      {
        id: id * 10 + 2,
        product_id: null,
        variant_id: null,
        sku: null,
        title: "Livraison",
        variant_title: null,
        price: "40.00",
        quantity: 1,
        total_discount: "0.00",
      },
    ],
  });
}

/** A WooCommerce order.created body (REST API v3 order, the fields intake reads) and its delivery headers. */
function wooDelivery(id: number, phone: string): { body: string; headers: Record<string, string> } {
  const address = { first_name: "Salma", last_name: "Bennani", city: "Casablanca", country: "MA", phone };
  const body = JSON.stringify({
    id,
    number: String(id),
    status: "processing",
    currency: "MAD",
    total: "338.00",
    payment_method: "cod",
    payment_method_title: "Paiement à la livraison",
    date_paid: null,
    date_created_gmt: new Date().toISOString().slice(0, 19),
    billing: address,
    shipping: { ...address, phone: "" },
    line_items: [
      {
        id: 1,
        name: "T-shirt - Rouge / M",
        product_id: 7001,
        variation_id: 8001,
        quantity: 2,
        sku: "TSHIRT-RED-M",
        price: 149,
        total: "298.00",
      },
      { id: 2, name: "Livraison", product_id: 0, variation_id: 0, quantity: 1, sku: "", price: 40, total: "40.00" },
    ],
  });
  return {
    body,
    headers: {
      "x-wc-webhook-topic": "order.created",
      "x-wc-webhook-resource": "order",
      "x-wc-webhook-event": "created",
      "x-wc-webhook-signature": createHmac("sha256", SECRET).update(body).digest("base64"),
    },
  };
}

/** A YouCan order.create body (the REST hook's payload) and its signature header. */
function youcanDelivery(id: number, phone: string): { body: string; headers: Record<string, string> } {
  const product = { id: "7001", name: "T-shirt" };
  const body = JSON.stringify({
    id: String(id),
    ref: String(id % 100000),
    total: 338,
    currency: "MAD",
    created_at: new Date().toISOString(),
    customer: { first_name: "Youssef", last_name: "El Amrani", phone },
    variants: [
      { price: 149, quantity: 2, variant: { id: "8001", sku: "TSHIRT-RED-M", values: ["Rouge", "M"], product } },
      {
        price: 40,
        quantity: 1,
        variant: { id: "8999", sku: null, values: ["default"], product: { id: "8999", name: "Livraison" } },
      },
    ],
    payment: {
      status: -1,
      status_text: "unpaid",
      gateway_type: 1,
      gateway_type_text: "Cash on Delivery",
      payload: { gateway: "cod" },
    },
    shipping: { address: { first_name: "Youssef", last_name: "El Amrani", phone, country_code: "MA", city: "Rabat" } },
  });
  return { body, headers: { "x-youcan-signature": createHmac("sha256", SECRET).update(body).digest("hex") } };
}

/** The delivery of order `id` as its platform (id mod 3) sends it. */
function delivery(id: number): { platform: Platform; body: string; headers: Record<string, string> } {
  const platform = PLATFORMS[id % 3]!;
  if (platform === "shopify") {
    const body = order(id);
    return {
      platform,
      body,
      headers: {
        "x-shopify-topic": "orders/create",
        "x-shopify-shop-domain": "bench.myshopify.com",
        "x-shopify-hmac-sha256": createHmac("sha256", SECRET).update(body).digest("base64"),
        "x-shopify-webhook-id": randomUUID(),
        "x-shopify-api-version": "2025-10",
      },
    };
  }
  const phone = `06 1${id % 10} ${String(id % 100).padStart(2, "0")} ${String(Math.floor(id / 8) % 100).padStart(2, "0")} 01`;
  return { platform, ...(platform === "woocommerce" ? wooDelivery(id, phone) : youcanDelivery(id, phone)) };
}

export async function connectorSection(serverUrl: string, log: (m: string) => void): Promise<SectionResult> {
  const rate = Number(process.env["BENCH_CONNECTOR_RATE"] ?? 200);
  const seconds = Number(process.env["BENCH_CONNECTOR_SECONDS"] ?? 15);
  const total = rate * seconds;
  const name = `store connector intake, Shopify, WooCommerce and YouCan webhooks at ${rate}/s`;
  const db = await benchDatabase(serverUrl, "conn");
  let api: Awaited<ReturnType<typeof startWakha>> | null = null;
  const check = new pg.Client({ connectionString: db.url });
  try {
    const account = await createAccountCli(db.url, 1_000_000_000);
    api = await startWakha("serve", wakhaEnv(db.url, { WAKHA_ROLE: "api", WAKHA_RATE_LIMIT_SCALE: "1000" }));
    const rest = async (method: string, url: string, body: unknown) => {
      const res = await fetch(`${api!.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${account.api_key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const credentials: Record<Platform, Record<string, string>> = {
      shopify: { store_url: "https://bench.myshopify.com", access_token: "shpat_00000000000000000000000000000000" },
      woocommerce: {
        store_url: "https://bench-woo.example.com",
        consumer_key: `ck_${"0".repeat(40)}`,
        consumer_secret: `cs_${"0".repeat(40)}`,
      },
      youcan: { access_token: "bench-youcan-oauth-token-0000000000" },
    };
    const targets = {} as Record<Platform, string>;
    for (const platform of PLATFORMS) {
      const shop = `bench-${platform}`;
      await rest("POST", "/v1/shops", {
        external_id: shop,
        merchant_external_id: "m",
        name: "Bench store",
        default_country: "MA",
      });
      await rest("POST", `/v1/shops/${shop}/products`, {
        external_id: "7001",
        name: "T-shirt",
        variants: [{ variant_external_id: "8001", price: "149.00", name: "Rouge / M" }],
      });
      const connector = await rest("PUT", `/v1/shops/${shop}/connector`, {
        platform,
        ...credentials[platform],
        webhook_secret: SECRET,
      });
      targets[platform] = new URL(String(connector["webhook_url"])).pathname;
    }
    // Keep-alive sockets, at most 64 (the server caps one client at 256): a webhook waiting for a socket counts in its time.
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const port = Number(new URL(api.url).port);
    const post = (id: number): Promise<{ ms: number; ok: boolean; platform: Platform }> =>
      new Promise((resolve) => {
        const { platform, body, headers } = delivery(id);
        const started = performance.now();
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path: targets[platform],
            method: "POST",
            agent,
            headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers },
          },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (c: string) => (text += c));
            res.on("end", () =>
              resolve({
                ms: performance.now() - started,
                ok: res.statusCode === 200 && text.includes("call_created"),
                platform,
              }),
            );
          },
        );
        req.on("error", () => resolve({ ms: performance.now() - started, ok: false, platform }));
        req.end(body);
      });
    // Warm-up: connections, prepared statements, JIT.
    const base = 5_000_000_000 + Math.floor(Math.random() * 1_000_000) * 10_000;
    for (let i = 0; i < 200; i += 20) await Promise.all(Array.from({ length: 20 }, (_, k) => post(base + i + k)));
    await check.connect();
    const [cpu0, pg0] = [await cpuSeconds(api.pid), await postgresCpuByPid(db.name)];
    log(`posting ${total} signed webhooks (Shopify, WooCommerce, YouCan in turn) at ${rate}/s`);
    const results: Promise<{ ms: number; ok: boolean; platform: Platform }>[] = [];
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      results.push(post(base + 1000 + i));
    }
    const done = await Promise.all(results);
    const elapsed = (performance.now() - started) / 1000;
    const [cpu1, pg1] = [await cpuSeconds(api.pid), await postgresCpuByPid(db.name)];
    const ms = done.map((d) => d.ms).sort((x, y) => x - y);
    const failed = done.filter((d) => !d.ok).length;
    // The database's view: the intake row's creation (its claim) to the job's creation, for the measured orders.
    const { rows } = await check.query<{ lag: number }>(
      `SELECT extract(epoch FROM j.created_on - e.created_at) * 1000 AS lag FROM connector_events e JOIN pgboss.job j ON j.id = e.call_id
       WHERE e.kind = 'order' AND e.status = 'call_created' AND e.platform_order_id::bigint >= $1 ORDER BY 1`,
      [base + 1000],
    );
    const lags = rows.map((r) => Number(r.lag));
    const perOrder = (s: number | null) => (s === null ? "n/a" : `${((s * 1000) / total).toFixed(2)} ms`);
    const p99 = percentile(ms, 99);
    const byPlatform = PLATFORMS.map(
      (p) =>
        `${p} ${percentile(
          done
            .filter((d) => d.platform === p)
            .map((d) => d.ms)
            .sort((x, y) => x - y),
          99,
        ).toFixed(1)} ms`,
    ).join(", ");
    return {
      name,
      text:
        `webhook received to the call's job enqueued (HTTP response time, the job written before the 2xx): **p99 ${p99.toFixed(1)} ms** ` +
        `(target < ${TARGET_MS} ms: ${p99 < TARGET_MS ? "met" : "NOT met"}), p50 ${percentile(ms, 50).toFixed(1)} ms, max ${ms.at(-1)!.toFixed(1)} ms; p99 by platform: ${byPlatform}; ` +
        `${total} orders in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)}/s achieved), ${failed} not answered call_created; ` +
        `in the database (intake claim to the job's created_on, ${lags.length} jobs): p50 ${percentile(lags, 50).toFixed(1)} ms, p99 ${percentile(lags, 99).toFixed(1)} ms; ` +
        `CPU per order: wakha serve ${perOrder(cpu0 === null || cpu1 === null ? null : cpu1 - cpu0)}, PostgreSQL ${perOrder(pg1.size ? postgresCpuDelta(pg0, pg1) : null)}`,
    };
  } finally {
    await api?.stop();
    await check.end().catch(() => {});
    await db.drop().catch(() => {});
  }
}
