// The benchmark's sections beyond the HTTP comparison: classifier throughput, webhook deliveries per second,
// and the event-loop delay of 500 concurrent simulated calls. A section whose code has not landed (is not
// committed) prints "skipped: <why>"; BENCH_UNLANDED=1 runs it against the working tree anyway.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { ROOT, benchDatabase, createAccountCli, startWakha, wakhaEnv } from "./processes.ts";

export interface SectionResult {
  name: string;
  text: string;
}

const UNLANDED = process.env["BENCH_UNLANDED"] === "1";

/** Why the code a section needs has not landed, or null when it has (exists and is committed). */
function notLanded(files: string[], needles: [string, string][] = []): string | null {
  for (const f of files) {
    if (!existsSync(path.join(ROOT, f))) return `${f} does not exist yet`;
    if (UNLANDED) continue;
    try {
      execFileSync("git", ["ls-files", "--error-unmatch", f], { cwd: ROOT, stdio: "ignore" });
    } catch {
      // Outside a git checkout every existing file counts as landed.
      if (existsSync(path.join(ROOT, ".git"))) return `${f} is not committed yet`;
    }
  }
  for (const [file, needle] of needles) {
    const text = committedText(file);
    if (!text.includes(needle)) return `${file} does not use ${needle} yet`;
  }
  return null;
}

/** The committed text of a file (the working tree's outside git or with BENCH_UNLANDED=1). */
function committedText(file: string): string {
  if (!UNLANDED && existsSync(path.join(ROOT, ".git"))) {
    try {
      return execFileSync("git", ["show", `HEAD:${file}`], {
        cwd: ROOT,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      });
    } catch {
      return "";
    }
  }
  return existsSync(path.join(ROOT, file)) ? readFileSync(path.join(ROOT, file), "utf8") : "";
}

type Classify = (text: string, country: string) => unknown;

/** Finds the classifier in the module: a `classify` function, a factory, or a class with classify(). */
function findClassifier(mod: Record<string, unknown>): Classify | null {
  if (typeof mod["classify"] === "function") return mod["classify"] as Classify;
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value !== "function") continue;
    const fn = value as { prototype?: { classify?: unknown }; length: number };
    if (fn.prototype && typeof fn.prototype.classify === "function") {
      const instance = new (value as new () => { classify: Classify })();
      return (t, c) => instance.classify(t, c);
    }
    if (/^(create|make|new)\w*Classifier$/i.test(name) && fn.length === 0) {
      const made = (value as () => { classify?: Classify })();
      if (made && typeof made.classify === "function") return (t, c) => made.classify!(t, c);
    }
  }
  return null;
}

export async function classifierSection(): Promise<SectionResult> {
  const name = "classifier throughput";
  const fixture = "test/fixtures/intents-dev.jsonl";
  const why = notLanded(["src/engine/dialogue/classifier.ts", fixture]);
  if (why) return { name, text: `skipped: ${why}` };
  const mod = (await import(pathToFileURL(path.join(ROOT, "src/engine/dialogue/classifier.ts")).href)) as Record<
    string,
    unknown
  >;
  const classify = findClassifier(mod);
  if (!classify)
    return { name, text: "skipped: src/engine/dialogue/classifier.ts exports no classify function, factory or class" };
  const lines = (await readFile(path.join(ROOT, fixture), "utf8")).split("\n").filter((l) => l.trim());
  const inputs = lines.map((l) => JSON.parse(l) as { country: string; text: string });
  for (const u of inputs) await classify(u.text, u.country); // warm-up
  let n = 0;
  const started = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < 3) {
    for (const u of inputs) await classify(u.text, u.country);
    n += inputs.length;
    elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  }
  return {
    name,
    text: `${(n / elapsed).toFixed(0)} utterances/s (${inputs.length} utterances of ${fixture}, repeated for ${elapsed.toFixed(1)} s, one core)`,
  };
}

/** N events to a local receiver answering 200, delivered by one `wakha worker`: deliveries per second. */
export async function webhookSection(serverUrl: string, log: (m: string) => void): Promise<SectionResult> {
  const name = "webhook deliveries";
  const why = notLanded(
    ["src/webhooks/delivery.ts", "src/webhooks/sender.ts", "src/api/v1/webhooks.ts", "src/services/webhooks.ts"],
    [
      ["src/root/job-handlers.ts", "deliverWebhook"],
      ["src/app.ts", "webhookRoutes"],
    ],
  );
  if (why) return { name, text: `skipped: ${why}` };
  const events = Number(process.env["BENCH_WEBHOOK_EVENTS"] ?? 20000);
  const db = await benchDatabase(serverUrl, "wh");
  const seen = new Set<string>();
  let first = 0;
  let last = 0;
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["x-service-event-id"] ?? "");
      received++;
      if (!seen.has(id)) {
        seen.add(id);
        const now = performance.now();
        if (!first) first = now;
        last = now;
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  const receiverPort = (receiver.address() as { port: number }).port;
  const env = wakhaEnv(db.url, {
    WAKHA_ROLE: "api",
    WAKHA_WEBHOOK_ALLOW_PRIVATE: "true",
    WAKHA_RATE_LIMIT_SCALE: "1000",
  });
  let api: Awaited<ReturnType<typeof startWakha>> | null = null;
  let worker: Awaited<ReturnType<typeof startWakha>> | null = null;
  try {
    const account = await createAccountCli(db.url, 1_000_000);
    api = await startWakha("serve", env);
    const res = await fetch(`${api.url}/v1/me/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${account.api_key}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `http://127.0.0.1:${receiverPort}/hook` }),
    });
    if (res.status !== 201)
      return { name, text: `failed: POST /v1/me/webhooks answered ${res.status} ${await res.text()}` };
    await api.stop();
    api = null;

    // The events are written before the worker starts (as a backlog), through the real emitEvent.
    log(`emitting ${events} events`);
    const { loadConfig } = (await import(
      pathToFileURL(path.join(ROOT, "src/config/config.ts")).href
    )) as typeof import("../src/config/config.ts");
    const { createRoot } = (await import(
      pathToFileURL(path.join(ROOT, "src/root/root.ts")).href
    )) as typeof import("../src/root/root.ts");
    const { emitEvent } = (await import(
      pathToFileURL(path.join(ROOT, "src/webhooks/events.ts")).href
    )) as typeof import("../src/webhooks/events.ts");
    const ctx = await createRoot(loadConfig({ ...env, LOG_LEVEL: "silent" }), { databaseUrl: db.url });
    try {
      for (let i = 0; i < events; i += 250) {
        await ctx.db.tx(async (client) => {
          for (let j = i; j < Math.min(events, i + 250); j++) {
            await emitEvent(ctx, client, account.account_id, "webhook.test", { n: j, note: "bench" });
          }
        });
      }
    } finally {
      await ctx.close();
    }

    const started = performance.now();
    // BENCH_CPU_PROF=1 also profiles the worker here (bench/results/profiles/worker-webhooks-*.cpuprofile).
    const profileDir = path.join(ROOT, "bench", "results", "profiles");
    worker = await startWakha(
      "worker",
      wakhaEnv(db.url, { WAKHA_WEBHOOK_ALLOW_PRIVATE: "true" }),
      process.env["BENCH_CPU_PROF"] === "1"
        ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=worker-webhooks-${Date.now()}.cpuprofile`]
        : [],
    );
    const { cpuSeconds, postgresCpuByPid, postgresCpuDelta } = await import("./processes.ts");
    const dbName = new URL(db.url).pathname.slice(1);
    const [cpu0, pg0] = [await cpuSeconds(worker.pid), await postgresCpuByPid(dbName)];
    const deadline = Date.now() + 180_000;
    while (seen.size < events && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const done = performance.now();
    const [cpu1, pg1] = [await cpuSeconds(worker.pid), await postgresCpuByPid(dbName)];
    const perDelivery = (s: number | null) => (s === null ? "n/a" : `${((s * 1000) / events).toFixed(2)} ms`);
    const cpuText = `CPU per delivery: worker ${perDelivery(cpu0 === null || cpu1 === null ? null : cpu1 - cpu0)}, PostgreSQL ${perDelivery(pg1.size ? postgresCpuDelta(pg0, pg1) : null)}`;
    const rss = await import("./processes.ts").then((p) => p.peakRss(worker!.pid));
    await worker.stop();
    worker = null;
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    const { rows } = await check.query<{ status: string; n: number }>(
      "SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status ORDER BY status",
    );
    await check.end();
    if (seen.size < events) return { name, text: `failed: ${seen.size} of ${events} events delivered within 180 s` };
    const steady = (events - 1) / ((last - first) / 1000);
    return {
      name,
      text:
        `${steady.toFixed(0)} deliveries/s from the first to the last delivery (target >= 2000), ${(events / ((done - started) / 1000)).toFixed(0)}/s ` +
        `including the worker's start; ${events} events, ${received} POSTs received (${received - seen.size} duplicates), one \`wakha worker\`, ` +
        `receiver in the bench process; deliveries by status: ${rows.map((r) => `${r.status} ${r.n}`).join(", ")}; worker peak RSS ${rss ? `${(rss / 2 ** 20).toFixed(0)} MiB` : "n/a"}; ${cpuText}`,
    };
  } finally {
    await api?.stop();
    await worker?.stop();
    receiver.close();
    await db.drop().catch(() => {});
  }
}

/** 1,000 calls worked by one `wakha worker` with a fast simulator: the worker's event-loop delay p99 and peak RSS. */
export async function engineSection(serverUrl: string, log: (m: string) => void): Promise<SectionResult> {
  const calls = Number(process.env["BENCH_CALLS"] ?? 1000);
  const name = `${calls} concurrent simulated calls`;
  const why = notLanded(["src/calls/place.ts"], [["src/root/job-handlers.ts", "placeCall"]]);
  if (why) return { name, text: `skipped: ${why}` };
  // Real time by default: 1,000 calls of about a minute each are all on the line at once, as on a production node
  // (BENCH_SIMULATOR_SPEED=10 packs ten times the events into each second: a stress test, not the target's case).
  const speed = process.env["BENCH_SIMULATOR_SPEED"] ?? "1";
  const db = await benchDatabase(serverUrl, "engine");
  const eldFile = path.join(os.tmpdir(), `wakha-bench-eld-${randomBytes(4).toString("hex")}.json`);
  let api: Awaited<ReturnType<typeof startWakha>> | null = null;
  let worker: Awaited<ReturnType<typeof startWakha>> | null = null;
  const check = new pg.Client({ connectionString: db.url });
  try {
    const account = await createAccountCli(db.url, 1_000_000_000);
    api = await startWakha("serve", wakhaEnv(db.url, { WAKHA_ROLE: "api", WAKHA_RATE_LIMIT_SCALE: "1000" }));
    const post = async (url: string, body: unknown, extra: Record<string, string> = {}) => {
      const res = await fetch(`${api!.url}${url}`, {
        method: "POST",
        headers: { authorization: `Bearer ${account.api_key}`, "content-type": "application/json", ...extra },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
    };
    await post("/v1/shops", { external_id: "bench-shop", merchant_external_id: "m", name: "Bench shop" });
    log(`creating ${calls} calls`);
    const countries = ["MA", "DZ", "TN", "FR"] as const;
    const prefixes = { MA: "+2126123456", DZ: "+2135512345", TN: "+216201234", FR: "+336123456" };
    for (let i = 0; i < calls; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, calls - i) }, (_, k) => {
          const n = i + k;
          const country = countries[n % 4]!;
          const suffix = String((n % 12) + 1).padStart(2, "0");
          return post(
            "/v1/calls",
            {
              shop_external_id: "bench-shop",
              customer: { name: "Client", phone_number: `${prefixes[country]}${suffix}` },
              amount: "100.00",
              country,
              order: { external_id: `o-${n}`, items: [{ name: "Item", unit_price: "100.00" }] },
            },
            { "idempotency-key": `engine-${n}` },
          );
        }),
      );
    }
    await api.stop();
    api = null;
    await check.connect();
    const profile =
      process.env["BENCH_CPU_PROF"] === "1"
        ? [
            "--cpu-prof",
            `--cpu-prof-dir=${path.join(ROOT, "bench", "results", "profiles")}`,
            `--cpu-prof-name=worker-engine-${Date.now()}.cpuprofile`,
          ]
        : [];
    worker = await startWakha("worker", wakhaEnv(db.url, { WAKHA_SIMULATOR_SPEED: speed, BENCH_ELD_FILE: eldFile }), [
      "--import",
      path.join(ROOT, "bench", "eld-probe.ts"),
      ...profile,
    ]);
    // The delay histogram starts when the first call leaves `queued`, not during the worker's start.
    let reset = false;
    let maxLive = 0;
    const started = performance.now();
    const deadline = Date.now() + 300_000;
    let terminal = 0;
    while (Date.now() < deadline) {
      const { rows } = await check.query<{ live: number; terminal: number }>(
        `SELECT count(*) FILTER (WHERE status IN ('ringing', 'in_progress'))::int AS live,
                count(*) FILTER (WHERE status NOT IN ('queued', 'ringing', 'in_progress'))::int AS terminal FROM calls`,
      );
      const { live, terminal: t } = rows[0]!;
      terminal = t;
      if (!reset && live + t > 0) {
        worker.proc.kill("SIGUSR2");
        reset = true;
      }
      maxLive = Math.max(maxLive, live);
      if (t >= calls) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const drained = (performance.now() - started) / 1000;
    const rss = await import("./processes.ts").then((p) => p.peakRss(worker!.pid));
    await worker.stop();
    worker = null;
    const eld = JSON.parse(await readFile(eldFile, "utf8")) as { p50: number; p99: number; max: number; mean: number };
    if (terminal < calls)
      return {
        name,
        text: `failed: ${terminal} of ${calls} calls terminal within 300 s (event-loop delay p99 ${eld.p99.toFixed(1)} ms)`,
      };
    return {
      name,
      text:
        `event-loop delay p99 ${eld.p99.toFixed(1)} ms (p50 ${eld.p50.toFixed(1)}, max ${eld.max.toFixed(1)}) in one \`wakha worker\` with WAKHA_SIMULATOR_SPEED=${speed}; ` +
        `${calls} calls terminal in ${drained.toFixed(1)} s, at most ${maxLive} live at once; worker peak RSS ${rss ? `${(rss / 2 ** 20).toFixed(0)} MiB` : "n/a"}`,
    };
  } finally {
    await api?.stop();
    await worker?.stop();
    await check.end().catch(() => {});
    await rm(eldFile, { force: true });
    await db.drop().catch(() => {});
  }
}

/**
 * Issue 15, speed to call: BENCH_BURST_CALLS (10,000) calls created in a burst on one account capped at
 * BENCH_BURST_CAP (200) concurrent calls, in up to three scenarios (BENCH_BURST_SCENARIOS, all by default):
 * - `live`, the issue's: dialled by one `wakha worker` while they are being created (the creation rate can bound it);
 * - `released`: created with no worker running and the API stopped, then one `wakha worker` started: the dial rate is
 *   the scheduler's and the call ends' under the cap, and the PostgreSQL CPU is the worker's alone;
 * - `released-busy`: the same with busy customers (`…04`: each call ends at once, unbilled), which leaves the
 *   scheduler (fetch, claim, park, wake, end) as nearly all of the work.
 * Reports the time from creation to dialling of the first and the last call, the dial rate, the peak of live calls,
 * how often a call waited for a place, and the worker's and PostgreSQL's CPU per call (from the first dial until every
 * call has ended).
 */
export async function burstSection(serverUrl: string, log: (m: string) => void): Promise<SectionResult> {
  const calls = Number(process.env["BENCH_BURST_CALLS"] ?? 10_000);
  const cap = Number(process.env["BENCH_BURST_CAP"] ?? 200);
  const phone = process.env["BENCH_BURST_PHONE"] ?? "+212612345601";
  const scenarios = (process.env["BENCH_BURST_SCENARIOS"] ?? "live,released,released-busy")
    .split(",")
    .map((s) => s.trim());
  const name = `${calls} calls in a burst under a cap of ${cap}${process.env["BENCH_BURST_PHONE"] ? ` (customers ${phone})` : ""}`;
  const why = notLanded(["src/calls/policy/concurrency.ts"]);
  if (why) return { name, text: `skipped: ${why}` };
  const lines: string[] = [];
  for (const scenario of scenarios) {
    if (!["live", "released", "released-busy"].includes(scenario))
      throw new Error(`unknown burst scenario ${scenario}`);
    const line = await burstRun(serverUrl, log, {
      calls,
      cap,
      release: scenario !== "live",
      phone: scenario === "released-busy" ? "+212612345604" : phone,
    }).catch((err: unknown) => `failed: ${err instanceof Error ? err.message : String(err)}`);
    lines.push(`- ${scenario}: ${line}`);
  }
  return { name, text: lines.join("\n") };
}

async function burstRun(
  serverUrl: string,
  log: (m: string) => void,
  o: { calls: number; cap: number; release: boolean; phone: string },
): Promise<string> {
  const { calls, cap } = o;
  const speed = process.env["BENCH_BURST_SIMULATOR_SPEED"] ?? "100";
  const { cpuSeconds, postgresCpuByPid, postgresCpuDelta } = await import("./processes.ts");
  const db = await benchDatabase(serverUrl, "burst");
  let api: Awaited<ReturnType<typeof startWakha>> | null = null;
  let worker: Awaited<ReturnType<typeof startWakha>> | null = null;
  const check = new pg.Client({ connectionString: db.url });
  const startWorker = () => startWakha("worker", wakhaEnv(db.url, { WAKHA_SIMULATOR_SPEED: speed }));
  try {
    const account = await createAccountCli(db.url, 1_000_000_000);
    await check.connect();
    await check.query("UPDATE accounts SET max_concurrent_calls = $2 WHERE id = $1", [account.account_id, cap]);
    api = await startWakha("serve", wakhaEnv(db.url, { WAKHA_ROLE: "api", WAKHA_RATE_LIMIT_SCALE: "1000" }));
    if (!o.release) worker = await startWorker();
    const post = async (url: string, body: unknown, extra: Record<string, string> = {}) => {
      const res = await fetch(`${api!.url}${url}`, {
        method: "POST",
        headers: { authorization: `Bearer ${account.api_key}`, "content-type": "application/json", ...extra },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
    };
    await post("/v1/shops", { external_id: "burst-shop", merchant_external_id: "m", name: "Burst shop" });
    log(
      `creating ${calls} calls under a cap of ${cap} (customers ${o.phone}, ${o.release ? "released at once" : "dialled as they come"})`,
    );
    const createStarted = performance.now();
    for (let i = 0; i < calls; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, calls - i) }, (_, k) =>
          post(
            "/v1/calls",
            {
              shop_external_id: "burst-shop",
              customer: { name: "Client", phone_number: o.phone },
              amount: "100.00",
              country: "MA",
              order: { external_id: `o-${i + k}`, items: [{ name: "Item", unit_price: "100.00" }] },
            },
            { "idempotency-key": `burst-${i + k}` },
          ),
        ),
      );
    }
    const createSeconds = (performance.now() - createStarted) / 1000;
    if (o.release) {
      await api.stop();
      api = null;
      worker = await startWorker();
    }
    const w = worker!;
    // CPU from the first dial (the worker's start-up and the engine's loading left out) until every call has ended.
    let cpu0: [number | null, Map<number, number>] | null = null;
    let peak = 0;
    let dialedAll = false;
    const deadline = Date.now() + 900_000;
    for (;;) {
      const { rows } = await check.query<{ live: number; dialed: number; ended: number }>(
        `SELECT count(*) FILTER (WHERE ended_at IS NULL AND status <> 'queued')::int AS live, count(dialed_at)::int AS dialed,
           count(ended_at)::int AS ended FROM calls`,
      );
      const r = rows[0]!;
      if (!cpu0 && r.dialed > 0) cpu0 = [await cpuSeconds(w.pid), await postgresCpuByPid(db.name)];
      peak = Math.max(peak, r.live);
      dialedAll ||= r.dialed >= calls;
      if (r.ended >= calls || Date.now() > deadline) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    const [cpu1, pg1] = [await cpuSeconds(w.pid), await postgresCpuByPid(db.name)];
    const { rows } = await check.query<{
      dialed: number;
      first_lag: number;
      last_lag: number;
      span: number;
      deferrals: number;
      max_deferrals: number;
      billed: number;
    }>(
      `SELECT count(dialed_at)::int AS dialed,
         extract(epoch FROM (SELECT dialed_at - created_at FROM calls ORDER BY seq LIMIT 1))::float AS first_lag,
         extract(epoch FROM (SELECT dialed_at - created_at FROM calls ORDER BY seq DESC LIMIT 1))::float AS last_lag,
         extract(epoch FROM max(dialed_at) - min(dialed_at))::float AS span,
         sum(deferrals)::int AS deferrals, max(deferrals)::int AS max_deferrals, count(*) FILTER (WHERE billed_seconds > 0)::int AS billed
       FROM calls`,
    );
    const r = rows[0]!;
    if (!dialedAll || r.dialed < calls) return `failed: ${r.dialed} of ${calls} calls dialled within 900 s`;
    if (process.env["BENCH_BURST_STATS"] === "1") {
      // Where PostgreSQL's work went: tuples read by sequential scans and per index (a diagnostic for the log only).
      const { rows: tables } = await check.query(
        `SELECT schemaname || '.' || relname AS t, seq_scan, seq_tup_read, idx_scan, idx_tup_fetch, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_dead_tup
         FROM pg_stat_all_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') ORDER BY seq_tup_read + COALESCE(idx_tup_fetch, 0) DESC LIMIT 8`,
      );
      const { rows: indexes } = await check.query(
        `SELECT schemaname || '.' || indexrelname AS i, idx_scan, idx_tup_read, idx_tup_fetch FROM pg_stat_all_indexes
         WHERE schemaname NOT IN ('pg_catalog', 'pg_toast') ORDER BY idx_tup_read DESC LIMIT 12`,
      );
      log(`tables: ${JSON.stringify(tables)}`);
      log(`indexes: ${JSON.stringify(indexes)}`);
    }
    const workerMs = cpu0?.[0] == null || cpu1 === null ? null : ((cpu1 - cpu0[0]) * 1000) / calls;
    const pgMs = cpu0 ? (postgresCpuDelta(cpu0[1], pg1) * 1000) / calls : null;
    return (
      `created in ${createSeconds.toFixed(1)} s (one \`wakha serve\` WAKHA_ROLE=api${o.release ? ", stopped before the worker started" : ""}); ` +
      `dialled by one \`wakha worker\` (WAKHA_SIMULATOR_SPEED=${speed}, customers ${o.phone}): ` +
      `first call ${r.first_lag.toFixed(2)} s from creation to dial, last ${r.last_lag.toFixed(1)} s; **${(calls / Math.max(r.span, 0.001)).toFixed(0)} dials/s** ` +
      `over ${r.span.toFixed(1)} s; at most ${peak} live at once (cap ${cap}); ${r.billed} calls billed; ${(r.deferrals / calls).toFixed(2)} waits for a place per call ` +
      `(max ${r.max_deferrals}); per call, whole calls included: worker CPU ${workerMs === null ? "n/a" : `${workerMs.toFixed(2)} ms`}, ` +
      `PostgreSQL CPU ${pgMs === null ? "n/a" : `${pgMs.toFixed(2)} ms`}${o.release ? "" : " (the API's creations included)"}`
    );
  } finally {
    await api?.stop();
    await worker?.stop();
    await check.end().catch(() => {});
    await db.drop().catch(() => {});
  }
}
