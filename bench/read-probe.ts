// GET /v1/calls/{id} against the bare indexed SELECT (baseline R), without the rest of `npm run bench`: one
// database, the baseline and one `wakha serve` as in bench/run.ts, the calls created over HTTP as the bench does
// (POST /v1/calls at 50 connections for PROBE_CREATE_SECONDS), then PROBE_PAIRS interleaved pairs of reads
// (R, get, R, get...), each with the CPU per request of the server, of PostgreSQL and of the load generator.
//   node bench/read-probe.ts            PROBE_PAIRS=3 PROBE_CREATE_SECONDS=10 PROBE_PROF=1 (--cpu-prof of Wakha)
// Environment passed to Wakha as in the bench; PROBE_WAKHA_ENV='{"NAME":"value"}' adds to it (A/B of a setting).
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import {
  ROOT,
  benchDatabase,
  cpuSeconds,
  createAccountCli,
  freePort,
  postgresCpuByPid,
  postgresCpuDelta,
  startNode,
  startWakha,
  waitForHttp,
  wakhaEnv,
} from "./processes.ts";

const SERVER_URL = process.env["DATABASE_URL"] || "postgresql://postgres@127.0.0.1:5432/postgres";
const PAIRS = Number(process.env["PROBE_PAIRS"] ?? 3);
const DURATION = Number(process.env["PROBE_DURATION"] ?? 10);
const CREATE_SECONDS = Number(process.env["PROBE_CREATE_SECONDS"] ?? 10);
const CONNECTIONS = 50;
const PROF = process.env["PROBE_PROF"] === "1";
const EXTRA = JSON.parse(process.env["PROBE_WAKHA_ENV"] ?? "{}") as Record<string, string>;
// A second Wakha with these settings added, measured after the first in each round (A/B in one run).
const EXTRA_B = process.env["PROBE_WAKHA_ENV_B"]
  ? (JSON.parse(process.env["PROBE_WAKHA_ENV_B"]) as Record<string, string>)
  : null;
const NODE_ARGS = (process.env["PROBE_NODE_ARGS"] ?? "").split(" ").filter(Boolean);
const RUN_ID = randomBytes(4).toString("hex");
const log = (msg: string) => process.stderr.write(`probe: ${msg}\n`);

interface M {
  rps: number;
  server: number;
  pg: number;
  client: number;
  p99: number;
  non2xx: number;
}

async function load(opts: autocannon.Options, seconds: number, pid: number, db: string): Promise<M> {
  const [s0, p0, c0] = [await cpuSeconds(pid), await postgresCpuByPid(db), process.cpuUsage()];
  const r = await autocannon({ connections: CONNECTIONS, duration: seconds, ...opts });
  const c = process.cpuUsage(c0);
  const [s1, p1] = [await cpuSeconds(pid), await postgresCpuByPid(db)];
  const ok = r["2xx"];
  return {
    rps: ok / r.duration,
    server: ((s1! - s0!) * 1000) / ok,
    pg: (postgresCpuDelta(p0, p1) * 1000) / ok,
    client: (c.user + c.system) / 1000 / ok,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors,
  };
}

function reads(base: string, prefix: string, ids: string[], headers: Record<string, string>): autocannon.Options {
  let i = 0;
  return {
    url: base,
    method: "GET",
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, method: "GET", path: `${prefix}${ids[i++ % ids.length]!}` }) }],
  };
}

let seq = 0;
function creates(url: string, headers: Record<string, string>, idem: boolean): autocannon.Options {
  return {
    url,
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    requests: [
      {
        setupRequest: (req) => {
          const n = ++seq;
          const h: Record<string, string> = { ...(req.headers as Record<string, string>) };
          if (idem) h["idempotency-key"] = `probe-${RUN_ID}-${n}`;
          return {
            ...req,
            headers: h,
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

async function main(): Promise<void> {
  const bench = await benchDatabase(SERVER_URL, "probe");
  const { name: dbName, url } = bench;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const stops: (() => Promise<void>)[] = [];
  try {
    await db.query(
      `CREATE TABLE bench_items (id uuid PRIMARY KEY, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
    );
    const account = await createAccountCli(url, 1_000_000_000);
    const bport = await freePort();
    const baseline = startNode(
      path.join(ROOT, "bench", "baseline.ts"),
      [],
      { DATABASE_URL: url, PORT: String(bport) },
      NODE_ARGS,
    );
    stops.push(() => baseline.stop());
    await waitForHttp(`http://127.0.0.1:${bport}/items/00000000-0000-0000-0000-000000000000`, baseline);
    const profDir = path.join(ROOT, "bench", "results", "profiles");
    if (PROF) await mkdir(profDir, { recursive: true });
    const wakha = await startWakha(
      "serve",
      wakhaEnv(url, { WAKHA_ROLE: "api", WAKHA_RATE_LIMIT_SCALE: "100000", ...EXTRA }),
      [
        ...NODE_ARGS,
        ...(PROF ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=probe-${RUN_ID}.cpuprofile`] : []),
      ],
    );
    stops.push(() => wakha.stop());
    log(`wakha pid ${wakha.pid}, baseline pid ${baseline.pid}`);
    const auth = { authorization: `Bearer ${account.api_key}` };
    const api = async (p: string, body: unknown) => {
      const res = await fetch(`${wakha.url}${p}`, {
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
    await load(creates(`http://127.0.0.1:${bport}/items`, {}, false), CREATE_SECONDS, baseline.pid, dbName);
    const c = await load(creates(`${wakha.url}/v1/calls`, auth, true), CREATE_SECONDS, wakha.pid, dbName);
    log(`created calls at ${c.rps.toFixed(0)}/s (non-2xx ${c.non2xx})`);
    const itemIds = (
      await db.query<{ id: string }>("SELECT id FROM bench_items ORDER BY random() LIMIT 10000")
    ).rows.map((x) => x.id);
    const callIds = (await db.query<{ id: string }>("SELECT id FROM calls ORDER BY random() LIMIT 10000")).rows.map(
      (x) => x.id,
    );
    const rOpts = reads(`http://127.0.0.1:${bport}`, "/items/", itemIds, {});
    const gOpts = reads(wakha.url, "/v1/calls/", callIds, auth);
    const wakhaB = EXTRA_B
      ? await startWakha(
          "serve",
          wakhaEnv(url, { WAKHA_ROLE: "api", WAKHA_RATE_LIMIT_SCALE: "100000", ...EXTRA, ...EXTRA_B }),
          NODE_ARGS,
        )
      : null;
    if (wakhaB) stops.push(() => wakhaB.stop());
    const bOpts = wakhaB ? reads(wakhaB.url, "/v1/calls/", callIds, auth) : null;
    await load(rOpts, 2, baseline.pid, dbName);
    await load(gOpts, 2, wakha.pid, dbName);
    if (wakhaB) await load(bOpts!, 2, wakhaB.pid, dbName);
    const row = (name: string, m: M) =>
      `| ${name} | ${m.rps.toFixed(0)} | ${m.p99} | ${m.server.toFixed(3)} | ${m.pg.toFixed(3)} | ${m.client.toFixed(3)} | ${m.non2xx} |`;
    const out = [
      "| run | req/s | p99 ms | server CPU ms/req | PostgreSQL | load generator | non-2xx |",
      "|---|---:|---:|---:|---:|---:|---:|",
    ];
    for (let i = 0; i < PAIRS; i++) {
      await db.query("CHECKPOINT");
      const r = await load(rOpts, DURATION, baseline.pid, dbName);
      await db.query("CHECKPOINT");
      const g = await load(gOpts, DURATION, wakha.pid, dbName);
      out.push(row(`R ${i + 1}`, r), row(`get ${i + 1} (ratio ${(g.rps / r.rps).toFixed(2)})`, g));
      if (wakhaB) {
        await db.query("CHECKPOINT");
        const b = await load(bOpts!, DURATION, wakhaB.pid, dbName);
        out.push(row(`get B ${i + 1} (ratio ${(b.rps / r.rps).toFixed(2)})`, b));
      }
      log(out.slice(-3).join("\n"));
    }
    process.stdout.write(`${out.join("\n")}\n`);
  } finally {
    for (const s of stops.reverse()) await s().catch(() => {});
    await db.end();
    if (process.env["PROBE_KEEP"] === "1") log(`kept database ${dbName}`);
    else await bench.drop().catch(() => {});
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
