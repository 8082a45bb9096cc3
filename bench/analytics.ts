// GET /v1/analytics/orders over 1,000,000 calls in one account (issue 35: p95 under 300 ms of server time).
// In-process on a database of its own, driven with inject(); the dataset is written by generate_series in SQL: a year
// of orders over 20 shops and 50 products, a third of them with a retry, resolutions and delivery statuses mixed.
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config/config.ts";
import { migrate } from "../src/db/migrate.ts";
import { createRoot } from "../src/root/root.ts";
import { createAccount } from "../src/services/accounts.ts";
import { foldAllAnalytics, rebuildAnalytics } from "../src/services/analytics-rollups.ts";
import { benchDatabase } from "./processes.ts";
import type { SectionResult } from "./sections.ts";

const TARGET_MS = 300;
const GROUPS = ["day", "week", "shop", "country", "product", "hour_called", "attempts"] as const;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Orders first (ids from generate_series), then each order's first call, then a retry for every third order. */
const SEED = `
WITH shop_ids AS (SELECT array_agg(id ORDER BY external_id) AS ids FROM shops WHERE account_id = $1)
INSERT INTO orders (id, account_id, shop_id, external_id, created_at, updated_at, resolution, resolution_channel, resolved_at, delivery_status, delivery_updated_at)
SELECT gen_random_uuid(), $1, (SELECT ids FROM shop_ids)[1 + g % 20], 'o-' || g, ts.t, ts.t, r.resolution,
       CASE WHEN r.resolution <> 'unresolved' THEN 'voice' END, CASE WHEN r.resolution <> 'unresolved' THEN ts.t + interval '30 minutes' END,
       d.status, CASE WHEN d.status IS NOT NULL THEN ts.t + interval '3 days' END
FROM generate_series(1, $2::int) g
CROSS JOIN LATERAL (SELECT now() - (g::float8 / $2::int * 364.9) * interval '1 day' AS t) ts
CROSS JOIN LATERAL (SELECT (ARRAY['confirmed','confirmed','confirmed','declined','unresolved','callback_requested','rescheduled'])[1 + g % 7] AS resolution) r
CROSS JOIN LATERAL (SELECT CASE WHEN r.resolution = 'confirmed' THEN (ARRAY['delivered','delivered','delivered','refused','returned','in_transit', NULL])[1 + (g / 7) % 7] END AS status) d`;

const CALLS = (retry: boolean) => `
INSERT INTO calls (id, account_id, shop_id, order_id, order_external_id, previous_attempts, status, outcome, customer_name, customer_phone,
  amount, currency, country, language, dialect, channel, items, created_at, updated_at, dialed_at, answered_at, ended_at, duration_seconds, billed_seconds)
SELECT gen_random_uuid(), o.account_id, o.shop_id, o.id, o.external_id, ${retry ? 1 : 0},
       CASE WHEN ${retry ? "true" : "o.seq % 3 <> 0"} AND o.resolution <> 'unresolved' THEN 'completed' ELSE 'no_answer' END, NULL,
       'Customer', '+212612345601', 249, 'MAD', 'MA', 'ar', 'ma', 'gsm',
       jsonb_build_array(jsonb_build_object('product_external_id', 'p-' || (o.seq % 50), 'variant_external_id', 'v', 'name', 'P',
                                            'variant_name', null, 'unit_price', '249.00', 'quantity', 1)),
       o.created_at + interval '${retry ? 2 : 0} hours', o.created_at, o.created_at + interval '${retry ? 2 : 0} hours' + (o.seq % 40) * interval '1 minute',
       NULL, o.created_at + interval '3 hours', 40, CASE WHEN o.seq % 3 = 0 AND NOT ${retry} THEN 0 ELSE 40 END
FROM orders o WHERE o.account_id = $1 ${retry ? "AND o.seq % 3 = 0" : ""}`;

export async function analyticsSection(serverUrl: string, log: (m: string) => void): Promise<SectionResult> {
  const calls = Number(process.env["BENCH_ANALYTICS_CALLS"] ?? 1_000_000);
  const samples = Number(process.env["BENCH_ANALYTICS_SAMPLES"] ?? 20);
  // One order in three has a retry: orders * 4/3 = calls.
  const orders = Math.round((calls * 3) / 4);
  const name = `GET /v1/analytics/orders, ${calls.toLocaleString("en")} calls (${orders.toLocaleString("en")} orders) over a year in the account`;
  const db = await benchDatabase(serverUrl, "analytics");
  try {
    await migrate(db.url);
    const config = loadConfig({
      DATABASE_URL: db.url,
      LOG_LEVEL: "silent",
      WAKHA_CALLING_HOURS: "off",
      WAKHA_NUMBER_DAILY_LIMIT: "0",
      WAKHA_RATE_LIMIT_SCALE: "1000",
    });
    const root = await createRoot(config, {
      databaseUrl: db.url,
      cursorSecret: "bench-analytics-cursor-secret-0123456789abcdef",
    });
    const app = await buildApp(root);
    await app.ready();
    try {
      const account = await createAccount(root.db, { name: "bench analytics", balanceSeconds: 1_000_000 });
      const auth = { authorization: `Bearer ${account.api_key}` };
      for (let i = 0; i < 20; i++) {
        await root.db.query(
          "INSERT INTO shops (id, account_id, external_id, merchant_external_id, name) VALUES (gen_random_uuid(), $1, $2, 'm', 'Shop')",
          [account.account_id, `shop-${String(i).padStart(2, "0")}`],
        );
      }
      const started = performance.now();
      log(`analytics: inserting ${orders} orders and ${calls} calls`);
      await root.db.query(SEED, [account.account_id, orders]);
      await root.db.query(CALLS(false), [account.account_id]);
      await root.db.query(CALLS(true), [account.account_id]);
      await root.db.query("ANALYZE orders");
      await root.db.query("ANALYZE calls");
      const counted = (
        await root.db.query<{ n: string }>("SELECT count(*) AS n FROM calls WHERE account_id = $1", [
          account.account_id,
        ])
      ).rows[0]!.n;
      log(`analytics: seeded ${counted} calls in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      // The seed's INSERTs marked every order (migration 130's trigger); the rebuild folds them set-based, as a
      // backfill would, instead of the fold job's batches.
      const rebuildStarted = performance.now();
      await rebuildAnalytics(root.db, account.account_id);
      await root.db.query("ANALYZE analytics_orders");
      await root.db.query("ANALYZE analytics_counts");
      await root.db.query("ANALYZE analytics_minutes");
      const rebuildSeconds = (performance.now() - rebuildStarted) / 1000;
      log(`analytics: rollups rebuilt in ${rebuildSeconds.toFixed(1)} s`);
      const to = new Date(Date.now() + 60_000);
      const from = new Date(to.getTime() - 365 * 86_400_000);
      const measure = async (group: string): Promise<number[]> => {
        const url = `/v1/analytics/orders?from=${from.toISOString()}&to=${to.toISOString()}&group_by=${group}&limit=100`;
        for (let i = 0; i < 2; i++) await app.inject({ method: "GET", url, headers: auth }); // warm-up
        const times: number[] = [];
        for (let i = 0; i < samples; i++) {
          const t0 = performance.now();
          const res = await app.inject({ method: "GET", url, headers: auth });
          times.push(performance.now() - t0);
          if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          const total = (res.json() as { data: { orders: number }[] }).data.reduce((n, r) => n + r.orders, 0);
          if (group !== "product" && group !== "shop" && total !== orders)
            throw new Error(`${group}: counted ${total} orders, seeded ${orders}`);
        }
        return times;
      };
      const all: number[] = [];
      const parts: string[] = [];
      for (const group of GROUPS) {
        const times = (await measure(group)).sort((a, b) => a - b);
        all.push(...times);
        parts.push(`${group} p50 ${percentile(times, 50).toFixed(0)} / p95 ${percentile(times, 95).toFixed(0)} ms`);
        log(`analytics: ${parts.at(-1)}`);
      }
      all.sort((a, b) => a - b);
      // The same with orders marked and not folded yet (a few seconds of writes at 2,000 creations a second): the
      // query counts them live; then the fold of those markers.
      const PENDING = Number(process.env["BENCH_ANALYTICS_PENDING"] ?? 10_000);
      await root.db.query(
        "INSERT INTO analytics_dirty (account_id, order_id) SELECT account_id, id FROM orders WHERE account_id = $1 ORDER BY seq DESC LIMIT $2",
        [account.account_id, PENDING],
      );
      const pending: string[] = [];
      for (const group of ["day", "product"]) {
        const times = (await measure(group)).sort((a, b) => a - b);
        pending.push(`${group} p50 ${percentile(times, 50).toFixed(0)} / p95 ${percentile(times, 95).toFixed(0)} ms`);
      }
      const foldStarted = performance.now();
      const folded = await foldAllAnalytics(root.db);
      const foldMs = performance.now() - foldStarted;
      const verdict = percentile(all, 95) < TARGET_MS ? "met" : "missed";
      return {
        name,
        text: `whole year, all groupings: p50 ${percentile(all, 50).toFixed(0)} ms, p95 ${percentile(all, 95).toFixed(0)} ms (${samples} requests per grouping, in-process); ${parts.join("; ")}; target p95 < ${TARGET_MS} ms: ${verdict}. Rollups rebuilt in ${rebuildSeconds.toFixed(1)} s; with ${PENDING.toLocaleString("en")} orders marked and not folded: ${pending.join("; ")}; their fold (${folded.toLocaleString("en")} orders) ${foldMs.toFixed(0)} ms`,
      };
    } finally {
      await app.close();
      await root.close();
    }
  } finally {
    await db.drop().catch(() => {});
  }
}
