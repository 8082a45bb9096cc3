// Calls through the Twilio ConversationRelay fake (issue 12): one `wakha serve` node (API, workers and the carrier
// endpoints) in its own process with WAKHA_CHANNELS=gsm=twilio, and the fake (test/fakes/twilio.ts, through
// bench/carrier-fake.ts) in another, playing Twilio: it dials, opens each ConversationRelay socket and answers as
// the simulator's customers.
// Two lines:
// - the time from a final transcript (`prompt` with last: true, as the fake sends it) to our first `text` token
//   back, p50/p99, with BENCH_CARRIER_LATENCY_CALLS (200) calls at once;
// - the node's event-loop delay p99 with BENCH_CARRIER_CALLS (500) calls at once.
// The carriers' clock runs at BENCH_CARRIER_SPEED (default 2) so that every call is on the line at the same time.
import { randomBytes } from "node:crypto";
import { mkdir, rm, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { spawn } from "node:child_process";
import { benchDatabase, createAccountCli, freePort, ROOT, startWakha, wakhaEnv } from "./processes.ts";
import type { SectionResult } from "./sections.ts";

const ACCOUNT_SID = `AC${"0b".repeat(16)}`;
const AUTH_TOKEN = "bench-twilio-auth-token-000000";

/**
 * A thread's scheduler figures (/proc/PID/schedstat: ns on a CPU, ns runnable but waiting for one, time slices):
 * the main thread's, which runs the event loop. Waiting for a CPU is time the event loop could not run.
 */
async function schedstat(pid: number): Promise<{ cpu: number; wait: number; slices: number } | null> {
  const text = await readFile(`/proc/${pid}/schedstat`, "utf8").catch(() => null);
  if (!text) return null;
  const [cpu = 0, wait = 0, slices = 0] = text.trim().split(/\s+/).map(Number);
  return { cpu: cpu / 1e9, wait: wait / 1e9, slices };
}

/** The machine's CPU seconds (all cores): busy and total, from /proc/stat. */
async function machineCpu(): Promise<{ busy: number; total: number } | null> {
  const text = await readFile("/proc/stat", "utf8").catch(() => null);
  const fields = text?.split("\n")[0]?.trim().split(/\s+/).slice(1).map(Number);
  if (!fields || fields.length < 5) return null;
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const hz = 100;
  return { busy: (total - idle) / hz, total: total / hz };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface LoadResult {
  calls: number;
  ended: number;
  maxLive: number;
  tokenP50: number;
  tokenP99: number;
  tokenMax: number;
  turns: number;
  eld: { p50: number; p99: number; max: number };
  seconds: number;
}

async function load(
  serverUrl: string,
  calls: number,
  speed: number,
  log: (m: string) => void,
  playbackSpeed = 1,
): Promise<LoadResult> {
  // BENCH_CPU_PROF=1: a .cpuprofile of the node (and of the fake) per run, in bench/results/profiles/ (profile-summary.ts).
  const profileDir = path.join(ROOT, "bench", "results", "profiles");
  const tag = `${calls}-${randomBytes(3).toString("hex")}`;
  const prof = (who: string) =>
    process.env["BENCH_CPU_PROF"] === "1"
      ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=carriers-${who}-${tag}.cpuprofile`]
      : [];
  if (process.env["BENCH_CPU_PROF"] === "1") await mkdir(profileDir, { recursive: true });
  const db = await benchDatabase(serverUrl, "carriers");
  const fakeProc = spawn(
    process.execPath,
    [
      ...prof("fake"),
      path.join(ROOT, "bench", "carrier-fake.ts"),
      ACCOUNT_SID,
      AUTH_TOKEN,
      String(speed),
      String(playbackSpeed),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const fakeUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    fakeProc.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      if (out.includes("\n")) resolve(out.trim());
    });
    fakeProc.on("exit", () => reject(new Error("the Twilio fake exited")));
  });
  const eldFile = path.join(os.tmpdir(), `wakha-bench-carrier-eld-${randomBytes(4).toString("hex")}.json`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let node: Awaited<ReturnType<typeof startWakha>> | null = null;
  const check = new pg.Client({ connectionString: db.url });
  try {
    const account = await createAccountCli(db.url, 1_000_000_000);
    node = await startWakha(
      "serve",
      wakhaEnv(db.url, {
        PORT: String(port),
        WAKHA_PUBLIC_URL: url,
        WAKHA_RATE_LIMIT_SCALE: "1000",
        WAKHA_CHANNELS: "gsm=twilio",
        WAKHA_TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        WAKHA_TWILIO_CALLER_IDS: "+33100000000",
        WAKHA_TWILIO_API_URL: fakeUrl,
        WAKHA_CARRIER_TIME_SCALE: String(speed),
        BENCH_ELD_FILE: eldFile,
      }),
      [
        "--import",
        path.join(ROOT, "bench", "eld-probe.ts"),
        ...prof("node"),
        ...(process.env["BENCH_CARRIER_NODE_ARGS"]?.split(" ").filter(Boolean) ?? []),
      ],
    );
    const post = async (p: string, body: unknown, extra: Record<string, string> = {}) => {
      const res = await fetch(`${url}${p}`, {
        method: "POST",
        headers: { authorization: `Bearer ${account.api_key}`, "content-type": "application/json", ...extra },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`POST ${p}: ${res.status} ${await res.text()}`);
    };
    await post("/v1/shops", { external_id: "bench-shop", merchant_external_id: "m", name: "Bench shop" });
    await check.connect();
    log(`carriers: ${calls} calls through the ConversationRelay fake`);
    const countries = ["MA", "DZ", "TN", "FR"] as const;
    const prefixes = { MA: "+2126123456", DZ: "+2135512345", TN: "+216201234", FR: "+336123456" };
    // Conversations only (01 confirms, 06 reschedules, 08 asks then confirms, 09 asks a change, 10 a callback).
    const suffixes = ["01", "06", "08", "09", "10"];
    // BENCH_CARRIER_PRIORITY (a nice value, e.g. -10; root only): the node's and the fake's main threads ahead of the
    // machine's other processes, to tell what the code costs from what sharing the machine's CPUs costs.
    const priority = process.env["BENCH_CARRIER_PRIORITY"];
    if (priority) for (const pid of [node.pid, fakeProc.pid!]) os.setPriority(pid, Number(priority));
    node.proc.kill("SIGUSR2");
    const started = performance.now();
    const schedBefore = {
      node: await schedstat(node.pid),
      fake: await schedstat(fakeProc.pid!),
      machine: await machineCpu(),
      load: os.loadavg()[0]!,
    };
    for (let i = 0; i < calls; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, calls - i) }, (_, k) => {
          const n = i + k;
          const country = countries[n % 4]!;
          return post(
            "/v1/calls",
            {
              shop_external_id: "bench-shop",
              customer: { name: "Client", phone_number: `${prefixes[country]}${suffixes[n % suffixes.length]}` },
              amount: "100.00",
              country,
              order: { external_id: `o-${n}`, items: [{ name: "Item", unit_price: "100.00" }] },
            },
            { "idempotency-key": `carrier-${n}` },
          );
        }),
      );
    }
    let maxLive = 0;
    let ended = 0;
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      const { rows } = await check.query<{ live: number; ended: number }>(
        `SELECT count(*) FILTER (WHERE status IN ('ringing', 'in_progress'))::int AS live, count(*) FILTER (WHERE ended_at IS NOT NULL)::int AS ended FROM calls`,
      );
      maxLive = Math.max(maxLive, rows[0]!.live);
      ended = rows[0]!.ended;
      if (ended >= calls) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const seconds = (performance.now() - started) / 1000;
    const schedAfter = {
      node: await schedstat(node.pid),
      fake: await schedstat(fakeProc.pid!),
      machine: await machineCpu(),
      load: os.loadavg()[0]!,
    };
    type Sched = { cpu: number; wait: number; slices: number } | null;
    const sched = (a: Sched, b: Sched) =>
      a && b
        ? `${(b.cpu - a.cpu).toFixed(1)} s on a CPU, ${(b.wait - a.wait).toFixed(1)} s runnable waiting for one ` +
          `(${b.slices - a.slices} waits, ${((1000 * (b.wait - a.wait)) / Math.max(1, b.slices - a.slices)).toFixed(2)} ms each on average)`
        : "n/a";
    const m =
      schedBefore.machine && schedAfter.machine
        ? `${((100 * (schedAfter.machine.busy - schedBefore.machine.busy)) / (schedAfter.machine.total - schedBefore.machine.total)).toFixed(0)}% busy`
        : "n/a";
    log(
      `carriers: ${calls} calls in ${seconds.toFixed(1)} s: node main thread ${sched(schedBefore.node, schedAfter.node)}; fake ${sched(schedBefore.fake, schedAfter.fake)}; ` +
        `machine (${os.cpus().length} CPUs) ${m}, load ${schedBefore.load.toFixed(1)} then ${schedAfter.load.toFixed(1)}`,
    );
    // The probe writes its histogram every 500 ms and at exit: wait for one write covering the whole run,
    // then stop the node (its final write, if it gets one, only adds the shutdown).
    await new Promise((r) => setTimeout(r, 600));
    const eld = await readFile(eldFile, "utf8").then(
      (t) => JSON.parse(t) as { p50: number; p99: number; max: number; gc: unknown; heapMiB: number },
    );
    log(
      `carriers: ${calls} calls: event-loop delay ${JSON.stringify({ p50: eld.p50, p99: eld.p99, max: eld.max })}; GC pauses ${JSON.stringify(eld.gc)}; heap ${eld.heapMiB} MiB`,
    );
    await node.stop();
    if (process.env["BENCH_CARRIER_NODE_OUTPUT"] === "1") log(node.output());
    node = null;
    const latencies = (await (await fetch(`${fakeUrl}/__fake/latencies`)).json()) as number[];
    if (process.env["BENCH_CPU_PROF"] === "1") {
      // Each turn's prompt time on the monotonic clock of the profiles, for bench/slow-turns.ts.
      await writeFile(
        path.join(profileDir, `carriers-turns-${tag}.json`),
        await (await fetch(`${fakeUrl}/__fake/turns`)).text(),
      );
    }
    return {
      calls,
      ended,
      maxLive,
      tokenP50: percentile(latencies, 50),
      tokenP99: percentile(latencies, 99),
      tokenMax: latencies.length ? Math.max(...latencies) : NaN,
      turns: latencies.length,
      eld,
      seconds,
    };
  } finally {
    await node?.stop();
    await check.end().catch(() => {});
    fakeProc.kill("SIGTERM");
    await rm(eldFile, { force: true });
    await rm(`${eldFile}.tmp`, { force: true });
    await db.drop().catch(() => {});
  }
}

export async function carrierSection(serverUrl: string, log: (m: string) => void): Promise<SectionResult> {
  const name = "calls through the ConversationRelay fake";
  const speed = Number(process.env["BENCH_CARRIER_SPEED"] ?? 2);
  const latencyCalls = Number(process.env["BENCH_CARRIER_LATENCY_CALLS"] ?? 200);
  const loadCalls = Number(process.env["BENCH_CARRIER_CALLS"] ?? 500);
  const a = await load(serverUrl, latencyCalls, speed, log);
  const f = (n: number) => n.toFixed(1);
  const first = `final transcript to first text token p99 ${f(a.tokenP99)} ms (p50 ${f(a.tokenP50)}, max ${f(a.tokenMax)}, ${a.turns} turns) with ${a.calls} calls, at most ${a.maxLive} live (goal p99 < 5 ms); `;
  // BENCH_CARRIER_CALLS=0 skips the 500-call run (profiling the latency run alone).
  if (loadCalls <= 0) return { name, text: `${first}carrier clock x${speed}` };
  const b = await load(serverUrl, loadCalls, speed, log);
  return {
    name,
    text:
      first +
      `node event-loop delay p99 ${f(b.eld.p99)} ms (p50 ${f(b.eld.p50)}, max ${f(b.eld.max)}) with ${b.calls} calls, at most ${b.maxLive} live, ${b.ended} ended in ${f(b.seconds)} s ` +
      `(goal p99 < 50 ms; token p99 there ${f(b.tokenP99)} ms); carrier clock x${speed}, the fake and the node each in a process of their own`,
  };
}

/**
 * Issue 30.7: ConversationRelay turn latency whatever speed the carrier's speech plays at. BENCH_RELAY_CALLS (200)
 * calls at once through the fake, from each final `prompt` to our first `text` token back, p50/p99, with the fake's
 * text-to-speech at 1x and at 4x the pace Wakha budgets (at 4x the callee answers long before Wakha's estimate of
 * its line's playback has run out: the answer must not wait for that estimate). Goal: p99 < 50 ms at both.
 */
export async function relayLatencySection(serverUrl: string, log: (m: string) => void): Promise<SectionResult> {
  const calls = Number(process.env["BENCH_RELAY_CALLS"] ?? 200);
  const speed = Number(process.env["BENCH_CARRIER_SPEED"] ?? 2);
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");
  const parts: string[] = [];
  for (const playback of [1, 4]) {
    const r = await load(serverUrl, calls, speed, log, playback);
    parts.push(
      `fake speech x${playback}: prompt to first text token p50 ${f(r.tokenP50)} ms, p99 ${f(r.tokenP99)} ms (max ${f(r.tokenMax)}, ${r.turns} turns, ${r.ended}/${r.calls} calls ended, at most ${r.maxLive} live)`,
    );
  }
  return {
    name: "relay-latency",
    text: `${parts.join("; ")}; ${calls} calls, carrier clock x${speed} (goal p99 < 50 ms at both speeds)`,
  };
}
