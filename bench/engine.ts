// 500 concurrent simulated calls on one node (issue 5): prints the event-loop delay percentiles while they
// run, the peak number of live calls, and how the calls ended. Run: node bench/engine.ts
// Environment: DATABASE_URL (else an embedded PostgreSQL in a temp dir), BENCH_CALLS (500),
// WAKHA_SIMULATOR_SPEED (1, real time: the load a node really carries).
import { randomBytes, randomUUID } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { loadConfig } from "../src/config/config.ts";
import { migrate } from "../src/db/migrate.ts";
import { startEmbeddedPostgres } from "../src/db/embedded.ts";
import { createWorkers } from "../src/root/job-handlers.ts";
import { createRoot } from "../src/root/root.ts";
import { createAccount } from "../src/services/accounts.ts";
import { callCreateSchema } from "../src/schemas/calls.ts";
import { createCall } from "../src/calls/create.ts";

const CALLS = Number(process.env["BENCH_CALLS"] ?? 500);
const SPEED = process.env["WAKHA_SIMULATOR_SPEED"] ?? "1";
const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;

async function main(): Promise<void> {
  const workDir = await mkdtemp(path.join(tmpdir(), "wakha-bench-engine-"));
  await chmod(workDir, 0o755);
  let serverUrl = process.env["DATABASE_URL"];
  let stopServer = async () => {};
  if (!serverUrl) {
    const embedded = await startEmbeddedPostgres(path.join(workDir, "pg"));
    serverUrl = embedded.url;
    stopServer = embedded.stop;
  }
  const name = `wakha_bench_engine_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  await migrate(databaseUrl);

  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    WAKHA_DATA_DIR: path.join(workDir, "data"),
    WAKHA_SIMULATOR_SPEED: SPEED,
    LOG_LEVEL: "warn",
    WAKHA_CALLING_HOURS: "off",
    WAKHA_NUMBER_DAILY_LIMIT: "0",
    WAKHA_MAX_CONCURRENT_CALLS: "100000",
  });
  const ctx = await createRoot(config, { databaseUrl });
  const account = await createAccount(ctx.db, { name: "bench", balanceSeconds: 10_000_000 });
  const who = { accountId: account.account_id, keyId: account.key_id };
  await ctx.db.query(
    "INSERT INTO shops (id, account_id, external_id, merchant_external_id, name, status) VALUES ($1, $2, 'bench-shop', 'bench-merchant', 'Bench Shop', 'active')",
    [randomUUID(), who.accountId],
  );
  const countries = ["MA", "DZ", "TN", "FR"] as const;
  const prefixes = { MA: "+2126123456", DZ: "+2135512345", TN: "+216201234", FR: "+336123456" };
  for (let i = 0; i < CALLS; i++) {
    const country = countries[i % 4]!;
    const suffix = String((i % 12) + 1).padStart(2, "0");
    const input = callCreateSchema.parse({
      shop_external_id: "bench-shop",
      country,
      amount: "249.00",
      customer: { name: "Fatima Zahra", phone_number: `${prefixes[country]}${suffix}` },
      order: { external_id: `bench-${i}`, items: [{ name: "Caftan", unit_price: "249.00", quantity: 1 }] },
    });
    await createCall(ctx, who, input, null);
  }
  await ctx.engine(); // built before the clock starts (espeak-ng probe)

  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const workers = createWorkers(ctx, (msg, err) => process.stderr.write(`${msg}: ${String(err)}\n`));
  const started = performance.now();
  histogram.enable();
  await workers.start(["placeCall"]);
  let peak = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const { rows } = await ctx.db.query<{ live: number; open: number }>(
      `SELECT count(*) FILTER (WHERE status IN ('ringing', 'in_progress'))::int AS live,
              count(*) FILTER (WHERE ended_at IS NULL OR (answered_at IS NOT NULL AND recording_path IS NULL))::int AS open
       FROM calls WHERE account_id = $1`,
      [who.accountId],
    );
    peak = Math.max(peak, rows[0]!.live);
    if (rows[0]!.open === 0) break;
  }
  histogram.disable();
  const wall = (performance.now() - started) / 1000;
  const { rows: statuses } = await ctx.db.query<{ status: string; n: number; billed: number }>(
    "SELECT status, count(*)::int AS n, sum(billed_seconds)::int AS billed FROM calls WHERE account_id = $1 GROUP BY status ORDER BY status",
    [who.accountId],
  );
  const report = {
    calls: CALLS,
    speed: Number(SPEED),
    peak_live_calls: peak,
    wall_seconds: Math.round(wall * 10) / 10,
    event_loop_delay_ms: {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
    },
    statuses: Object.fromEntries(statuses.map((s) => [s.status, { calls: s.n, billed_seconds: s.billed }])),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);

  await workers.stop();
  await ctx.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  await stopServer();
  await rm(workDir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
