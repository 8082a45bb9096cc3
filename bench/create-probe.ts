// Where a creation's tail comes from (issue 19): the bench's POST /v1/calls load (autocannon at 50 connections in this
// process, the baseline W and `wakha serve` in their own) with `wakha serve` preloaded with bench/create-trace.ts, in
// PROBE_ROUNDS rounds of W then create, as `npm run bench` interleaves them (ANALYZE after the first warm-up, a
// CHECKPOINT before each measurement). Per round: autocannon's p50/p99 against the server's own (request arrival to
// response finished), each stage of a creation at p50 / p99, what the slowest 1% spent in each stage against the
// median request, the batches (sizes, stages), the GC pauses and event-loop stalls, and PostgreSQL's wait events
// sampled every 20 ms.
//   node bench/create-probe.ts     PROBE_ROUNDS=3 PROBE_DURATION=10 PROBE_WAKHA_ENV='{"NAME":"value"}'
//   PROBE_WAKHA_ENV_B='{...}': a second Wakha measured after the first in each round (A/B in one run).
//   PROBE_TRACE_DIR: keep each round's raw trace (bench/create-trace.ts's JSON) there.
import { randomBytes } from "node:crypto";
import { copyFile, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import {
  ROOT,
  benchDatabase,
  createAccountCli,
  freePort,
  startNode,
  startWakha,
  waitForHttp,
  wakhaEnv,
} from "./processes.ts";
import type { Trace, TracedRequest } from "./create-trace.ts";

const SERVER_URL = process.env["DATABASE_URL"] || "postgresql://postgres@127.0.0.1:5432/postgres";
const ROUNDS = Number(process.env["PROBE_ROUNDS"] ?? 3);
const DURATION = Number(process.env["PROBE_DURATION"] ?? 10);
const WARMUP = 2;
const CONNECTIONS = 50;
const EXTRA = JSON.parse(process.env["PROBE_WAKHA_ENV"] ?? "{}") as Record<string, string>;
const EXTRA_B = process.env["PROBE_WAKHA_ENV_B"]
  ? (JSON.parse(process.env["PROBE_WAKHA_ENV_B"]) as Record<string, string>)
  : null;
const RUN_ID = randomBytes(4).toString("hex");
const log = (msg: string) => process.stderr.write(`probe: ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let seq = 0;
function creates(url: string, headers: Record<string, string>): autocannon.Options {
  return {
    url,
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    requests: [
      {
        setupRequest: (req) => {
          const n = ++seq;
          return {
            ...req,
            headers: { ...(req.headers as Record<string, string>), "idempotency-key": `probe-${RUN_ID}-${n}` },
            body: JSON.stringify({
              shop_external_id: "bench-shop",
              customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
              amount: "279.00",
              country: "MA",
              order: {
                external_id: `order-${RUN_ID}-${n}`,
                items: [
                  { product_external_id: "caftan", variant_external_id: "caftan-red-m", quantity: 1 },
                  { name: "Shipping", unit_price: "30.00" },
                ],
              },
            }),
          };
        },
      },
    ],
  };
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** The stages of one traced request, ms; null when it was not seen whole (a lone creation path, a request cut by the end). */
function stages(r: TracedRequest, t: Trace): Record<string, number> | null {
  if (r.submitted === undefined || r.batch === undefined || r.finished === undefined) return null;
  const [start, connected, snapped, planned, written] = t.batches[r.batch]!.marks;
  return {
    "arrival->submit": r.submitted - r.arrived,
    "queue wait": start! - r.submitted,
    "pool connect": connected! - start!,
    snapshot: snapped! - connected!,
    plan: planned! - snapped!,
    write: written! - planned!,
    "written->reply finished": r.finished - written!,
    total: r.finished - r.arrived,
  };
}

function analyse(
  t: Trace,
  label: string,
  client: { p50: number; p99: number; rps: number },
  waits: Map<string, number>,
  samples: number,
): string {
  const out: string[] = [];
  const seen = t.requests
    .map((r) => ({ r, s: stages(r, t) }))
    .filter((x): x is { r: TracedRequest; s: Record<string, number> } => x.s !== null);
  const totals = seen.map((x) => x.s["total"]!);
  out.push(
    `### ${label}: ${client.rps.toFixed(0)} req/s; autocannon p50 ${client.p50} / p99 ${client.p99} ms; server (arrival -> finished) p50 ${f1(pct(totals, 50))} / p99 ${f1(pct(totals, 99))} / max ${f1(Math.max(...totals))} ms (${seen.length} of ${t.requests.length} traced whole)`,
  );
  const p99 = pct(totals, 99);
  const slow = seen.filter((x) => x.s["total"]! >= p99);
  const p50 = pct(totals, 50);
  const mid = seen.filter((x) => Math.abs(x.s["total"]! - p50) <= 2);
  out.push(
    "",
    "| stage | p50 | p90 | p99 | max | mean of the slowest 1% | mean of the median requests |",
    "|---|---:|---:|---:|---:|---:|---:|",
  );
  for (const name of Object.keys(seen[0]?.s ?? {})) {
    const xs = seen.map((x) => x.s[name]!);
    out.push(
      `| ${name} | ${f1(pct(xs, 50))} | ${f1(pct(xs, 90))} | ${f1(pct(xs, 99))} | ${f1(Math.max(...xs))} | ${f1(mean(slow.map((x) => x.s[name]!)))} | ${f1(mean(mid.map((x) => x.s[name]!)))} |`,
    );
  }
  const sizes = t.batches.map((b) => b.size);
  const dur = (i: number, j: number) => t.batches.map((b) => b.marks[j]! - b.marks[i]!);
  out.push(
    "",
    `batches: ${t.batches.length}, size p50 ${pct(sizes, 50)} p90 ${pct(sizes, 90)} max ${Math.max(...sizes)} mean ${f1(mean(sizes))}; ` +
      `whole batch (start -> settled) p50 ${f1(pct(dur(0, 5), 50))} p99 ${f1(pct(dur(0, 5), 99))} max ${f1(Math.max(...dur(0, 5)))} ms; settle loop p99 ${f1(pct(dur(4, 5), 99))} ms`,
  );
  const buckets: [number, number][] = [
    [1, 4],
    [5, 12],
    [13, 24],
    [25, 32],
    [33, Infinity],
  ];
  out.push(
    `by batch size (count, share of requests; snapshot / write / whole batch ms, mean): ${buckets
      .map(([lo, hi]) => {
        const bs = t.batches.filter((b) => b.size >= lo && b.size <= hi);
        if (bs.length === 0) return null;
        const m = (i: number, j: number) => f1(mean(bs.map((b) => b.marks[j]! - b.marks[i]!)));
        return `${lo}-${hi === Infinity ? "" : hi}: ${bs.length}, ${(
          (100 * bs.reduce((a, b) => a + b.size, 0)) /
            Math.max(
              1,
              sizes.reduce((a, b) => a + b, 0),
            )
        ).toFixed(0)}%; ${m(1, 2)} / ${m(3, 4)} / ${m(0, 5)}`;
      })
      .filter(Boolean)
      .join("; ")}`,
  );
  out.push(
    `queued at submit: p50 ${pct(
      seen.map((x) => x.r.queued ?? 0),
      50,
    )} p99 ${pct(
      seen.map((x) => x.r.queued ?? 0),
      99,
    )}; slowest 1%: mean queued at submit ${f1(mean(slow.map((x) => x.r.queued ?? 0)))}, mean batch size ${f1(mean(slow.map((x) => t.batches[x.r.batch!]!.size)))}`,
  );
  const byKind = new Map<string, number[]>();
  for (const g of t.gc) byKind.set(g.kind, [...(byKind.get(g.kind) ?? []), g.ms]);
  out.push(
    `GC: ${[...byKind].map(([k, xs]) => `${k} ${xs.length}x, total ${f1(xs.reduce((a, b) => a + b, 0))} ms, max ${f1(Math.max(...xs))}`).join("; ") || "none"}`,
  );
  const st = t.stalls.map((s) => s.ms);
  out.push(
    `event loop: delay p50 ${f1(t.eld.p50)} p99 ${f1(t.eld.p99)} max ${f1(t.eld.max)} ms; stalls > 3 ms: ${st.length}, total ${f1(st.reduce((a, b) => a + b, 0))} ms, p50 ${f1(pct(st, 50))} max ${f1(Math.max(0, ...st))} ms`,
  );
  // The slowest requests: did a stall or a GC pause fall inside them?
  const overlapping = (r: TracedRequest, xs: { at: number; ms: number }[]) =>
    xs.filter((x) => x.at < r.finished! && x.at + x.ms > r.arrived).reduce((a, x) => a + x.ms, 0);
  out.push(
    `slowest 1%: stalls inside them ${f1(mean(slow.map((x) => overlapping(x.r, t.stalls))))} ms on average, GC inside them ${f1(mean(slow.map((x) => overlapping(x.r, t.gc))))} ms (median requests: ${f1(mean(mid.map((x) => overlapping(x.r, t.stalls))))} and ${f1(mean(mid.map((x) => overlapping(x.r, t.gc))))})`,
  );
  out.push(
    `PostgreSQL backends of the database, per 20 ms sample (${samples} samples): ${[...waits]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${(n / samples).toFixed(2)}`)
      .join(", ")}`,
  );
  return out.join("\n");
}

async function main(): Promise<void> {
  const bench = await benchDatabase(SERVER_URL, "cprobe");
  const url = bench.url;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const stops: (() => Promise<void>)[] = [];
  const files: string[] = [];
  try {
    await db.query(
      `CREATE TABLE bench_items (id uuid PRIMARY KEY, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
    );
    const account = await createAccountCli(url, 1_000_000_000);
    const bport = await freePort();
    const baseline = startNode(path.join(ROOT, "bench", "baseline.ts"), [], { DATABASE_URL: url, PORT: String(bport) });
    stops.push(() => baseline.stop());
    await waitForHttp(`http://127.0.0.1:${bport}/items/00000000-0000-0000-0000-000000000000`, baseline);
    const start = async (extra: Record<string, string>, tag: string) => {
      const file = path.join(os.tmpdir(), `create-trace-${RUN_ID}-${tag}.json`);
      files.push(file);
      const w = await startWakha(
        "serve",
        wakhaEnv(url, { WAKHA_ROLE: "api", WAKHA_RATE_LIMIT_SCALE: "100000", CREATE_TRACE_FILE: file, ...extra }),
        ["--import", path.join(ROOT, "bench", "create-trace.ts")],
      );
      stops.push(() => w.stop());
      return { ...w, file };
    };
    const sides = [{ label: "A", wakha: await start(EXTRA, "a") }];
    if (EXTRA_B) sides.push({ label: "B", wakha: await start({ ...EXTRA, ...EXTRA_B }, "b") });
    const auth = { authorization: `Bearer ${account.api_key}` };
    const api = async (p: string, body: unknown) => {
      const res = await fetch(`${sides[0]!.wakha.url}${p}`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    };
    await api("/v1/shops", { external_id: "bench-shop", merchant_external_id: "bench-merchant", name: "Bench shop" });
    await api("/v1/shops/bench-shop/products", {
      external_id: "caftan",
      name: "Caftan",
      variants: [{ variant_external_id: "caftan-red-m", price: "249.00", name: "Red, M" }],
    });
    const wOpts = creates(`http://127.0.0.1:${bport}/items`, {});
    const report: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await autocannon({ connections: CONNECTIONS, duration: WARMUP, ...wOpts });
      if (round === 1) await db.query("ANALYZE");
      await db.query("CHECKPOINT");
      const w = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...wOpts });
      report.push(
        `## round ${round} (load average ${os
          .loadavg()
          .map((x) => x.toFixed(2))
          .join(" ")}): W ${(w["2xx"] / w.duration).toFixed(0)} req/s, p50 ${w.latency.p50} p99 ${w.latency.p99} ms`,
      );
      log(report.at(-1)!);
      for (const { label, wakha } of sides) {
        const cOpts = creates(`${wakha.url}/v1/calls`, auth);
        await autocannon({ connections: CONNECTIONS, duration: WARMUP, ...cOpts });
        if (round === 1) await db.query("ANALYZE");
        await db.query("CHECKPOINT");
        const waits = new Map<string, number>();
        let samples = 0;
        let sampling = true;
        const sampler = (async () => {
          const s = new pg.Client({ connectionString: url });
          await s.connect();
          while (sampling) {
            const { rows } = await s.query<{ k: string; n: number }>(
              `SELECT coalesce(wait_event_type || ':' || wait_event, state) AS k, count(*)::int AS n FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'wakha' AND state <> 'idle' GROUP BY 1`,
            );
            samples++;
            for (const r of rows) waits.set(r.k, (waits.get(r.k) ?? 0) + r.n);
            await sleep(20);
          }
          await s.end();
        })();
        process.kill(wakha.pid, "SIGUSR2");
        await sleep(50);
        const c = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...cOpts });
        sampling = false;
        await sampler;
        process.kill(wakha.pid, "SIGWINCH");
        await sleep(1000);
        const t = JSON.parse(await readFile(wakha.file, "utf8")) as Trace;
        if (process.env["PROBE_TRACE_DIR"])
          await copyFile(
            wakha.file,
            path.join(process.env["PROBE_TRACE_DIR"], `trace-${RUN_ID}-${round}-${label}.json`),
          );
        report.push(
          analyse(
            t,
            `create ${label}${label === "B" ? ` ${JSON.stringify(EXTRA_B)}` : ""}: ratio ${(c["2xx"] / c.duration / (w["2xx"] / w.duration)).toFixed(2)}, p99 ${(c.latency.p99 / w.latency.p99).toFixed(2)}x W's`,
            { p50: c.latency.p50, p99: c.latency.p99, rps: c["2xx"] / c.duration },
            waits,
            samples,
          ),
          "",
        );
        log(report.at(-2)!);
      }
    }
    process.stdout.write(`${report.join("\n")}\n`);
  } finally {
    for (const s of stops.reverse()) await s().catch(() => {});
    await db.end();
    await bench.drop().catch(() => {});
    for (const f of files) await rm(f, { force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
