// The console's calls page with 100,000 calls in the account (issue 18: first page under 300 ms of server time), and
// its overview (issue 38.4, same target).
// In-process: the app is built on a database of its own and driven with inject(), so the figure is the server's
// own time (session lookup, services, rendering), without a network or a load generator in between.
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config/config.ts";
import { migrate } from "../src/db/migrate.ts";
import { createRoot } from "../src/root/root.ts";
import { createAccount } from "../src/services/accounts.ts";
import { benchDatabase } from "./processes.ts";
import type { SectionResult } from "./sections.ts";

const TARGET_MS = 300;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

type Measure = (path: string, mustContain: string) => Promise<number[]>;

export async function consoleSection(serverUrl: string, log: (m: string) => void): Promise<SectionResult> {
  const calls = Number(process.env["BENCH_CONSOLE_CALLS"] ?? 100_000);
  const samples = Number(process.env["BENCH_CONSOLE_SAMPLES"] ?? 50);
  const name = `console calls page, ${calls.toLocaleString("en")} calls in the account`;
  return withConsole(serverUrl, log, "console", calls, samples, 77, async (measure) => {
    const all = await measure("/console/calls", "data-call-id");
    const filtered = await measure("/console/calls?status=busy", "data-call-id");
    const verdict = percentile(all, 95) < TARGET_MS && percentile(filtered, 95) < TARGET_MS ? "met" : "missed";
    return {
      name,
      text: `${line("first page", all)}; ${line("status=busy", filtered)} (${samples} requests each, in-process); target < ${TARGET_MS} ms: ${verdict}`,
    };
  });
}

/** Issue 38.4: the overview (the console's home) with every one of the account's calls in its last 30 days, its worst case. */
export async function consoleOverviewSection(serverUrl: string, log: (m: string) => void): Promise<SectionResult> {
  const calls = Number(process.env["BENCH_CONSOLE_CALLS"] ?? 100_000);
  const samples = Number(process.env["BENCH_CONSOLE_SAMPLES"] ?? 50);
  const name = `console overview, ${calls.toLocaleString("en")} calls in the account's last 30 days`;
  return withConsole(serverUrl, log, "console_overview", calls, samples, 25, async (measure) => {
    const times = await measure("/console/overview", 'data-metric="placed"');
    return {
      name,
      text: `${line("overview", times)} (${samples} requests, in-process); target < ${TARGET_MS} ms: ${percentile(times, 95) < TARGET_MS ? "met" : "missed"}`,
    };
  });
}

const line = (label: string, t: number[]) =>
  `${label} p50 ${percentile(t, 50).toFixed(1)} ms, p95 ${percentile(t, 95).toFixed(1)} ms, max ${t.at(-1)!.toFixed(1)} ms`;

/** A database of its own with `calls` calls `spacing` seconds apart, a signed-in session, and a timer of pages. */
async function withConsole(
  serverUrl: string,
  log: (m: string) => void,
  dbName: string,
  calls: number,
  samples: number,
  spacing: number,
  run: (measure: Measure) => Promise<SectionResult>,
): Promise<SectionResult> {
  const db = await benchDatabase(serverUrl, dbName);
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
      cursorSecret: "bench-console-cursor-secret-0123456789abcdef",
    });
    const app = await buildApp(root);
    await app.ready();
    try {
      const account = await createAccount(root.db, { name: "bench console", balanceSeconds: 1_000_000 });
      const auth = { authorization: `Bearer ${account.api_key}` };
      const shop = await app.inject({
        method: "POST",
        url: "/v1/shops",
        headers: auth,
        payload: { external_id: "bench-shop", merchant_external_id: "m", name: "Bench shop" },
      });
      if (shop.statusCode !== 201) throw new Error(`shop: ${shop.statusCode} ${shop.body}`);
      const first = await app.inject({
        method: "POST",
        url: "/v1/calls",
        headers: { ...auth, "idempotency-key": "bench-console-0" },
        payload: {
          shop_external_id: "bench-shop",
          customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
          amount: "249.00",
          country: "MA",
          order: { external_id: "o-0", items: [{ name: "Caftan", unit_price: "249.00" }] },
        },
      });
      if (first.statusCode !== 201) throw new Error(`call: ${first.statusCode} ${first.body}`);
      const template = (first.json() as { id: string }).id;
      log(`console: inserting ${calls} calls`);
      // Copies of the first call, with the statuses and outcomes of a busy account, spread over the last 90 days.
      await root.db.query(
        `INSERT INTO calls (id, account_id, shop_id, order_id, order_external_id, previous_attempts, status, outcome, end_reason,
           customer_name, customer_phone, amount, currency, country, language, dialect, channel, items, created_at, updated_at,
           answered_at, ended_at, duration_seconds, billed_seconds)
         SELECT gen_random_uuid(), c.account_id, c.shop_id, c.order_id, c.order_external_id, g, s.status,
                CASE WHEN s.status = 'completed' THEN (ARRAY['confirmed','confirmed','declined','callback_requested'])[1 + g % 4] END, CASE WHEN s.status <> 'queued' THEN 'customer_hangup' END,
                c.customer_name || ' ' || g, c.customer_phone, c.amount, c.currency, c.country, c.language, c.dialect, c.channel, c.items,
                now() - ((($1::int - g) * $3::int) || ' seconds')::interval, now(),
                CASE WHEN s.status = 'completed' THEN now() END, CASE WHEN s.status <> 'queued' THEN now() END,
                CASE WHEN s.status = 'completed' THEN 42 ELSE 0 END, CASE WHEN s.status = 'completed' THEN 42 ELSE 0 END
         FROM calls c, generate_series(1, $1::int - 1) g,
              LATERAL (SELECT (ARRAY['completed','completed','completed','no_answer','busy','voicemail','failed'])[1 + g % 7] AS status) s
         WHERE c.id = $2`,
        [calls, template, spacing],
      );
      await root.db.query("ANALYZE calls");
      // Sign in as a browser would: the form's CSRF token, then the session cookie.
      const form = await app.inject({ method: "GET", url: "/console/sign-in" });
      const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
      const csrfCookie = form.cookies.find((c: { name: string }) => c.name === "wakha_csrf")!.value;
      const signIn = await app.inject({
        method: "POST",
        url: "/console/sign-in",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `wakha_csrf=${csrfCookie}` },
        payload: new URLSearchParams({ _csrf: csrf, api_key: account.api_key, next: "/console/calls" }).toString(),
      });
      const session = signIn.cookies.find((c: { name: string }) => c.name === "wakha_session")?.value;
      if (!session) throw new Error(`sign-in: ${signIn.statusCode}`);
      const cookie = `wakha_csrf=${csrfCookie}; wakha_session=${session}`;
      const measure: Measure = async (path, mustContain) => {
        for (let i = 0; i < 5; i++) await app.inject({ method: "GET", url: path, headers: { cookie } }); // warm-up
        const times: number[] = [];
        for (let i = 0; i < samples; i++) {
          const started = performance.now();
          const res = await app.inject({ method: "GET", url: path, headers: { cookie } });
          times.push(performance.now() - started);
          if (res.statusCode !== 200 || !res.body.includes(mustContain)) throw new Error(`${path}: ${res.statusCode}`);
        }
        return times.sort((a, b) => a - b);
      };
      return await run(measure);
    } finally {
      await app.close();
      await root.close();
    }
  } finally {
    await db.drop().catch(() => {});
  }
}
