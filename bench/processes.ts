// Child processes for the benchmark and the reliability suite: Wakha (`bin/wakha.js`) and the baselines,
// each on a port of its own, stopped by pid only.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const WAKHA_BIN = path.join(ROOT, "bin", "wakha.js");

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  server.close();
  await once(server, "close");
  return port;
}

export interface Child {
  proc: ChildProcess;
  pid: number;
  /** The last 64 KiB of stdout and stderr, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL now (kill -9), resolves once the process has exited. */
  kill9(): Promise<void>;
  exited: Promise<number | null>;
}

/** Spawns `node [nodeArgs] script args` with the running Node (24), keeping a tail of its output. */
export function startNode(script: string, args: string[], env: Record<string, string>, nodeArgs: string[] = []): Child {
  const proc = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-65_536);
  };
  proc.stdout!.on("data", keep);
  proc.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const pid = proc.pid;
  if (pid === undefined) throw new Error(`could not start ${script}`);
  const waitExit = async (graceMs: number) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const timer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return {
    proc,
    pid,
    exited,
    output: () => tail,
    async stop(graceMs = 10_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill("SIGTERM");
      await waitExit(graceMs);
    },
    async kill9() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill("SIGKILL");
      await exited;
    },
  };
}

/** Waits until `url` answers (any status) or the child exits. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void child.exited.then((c) => (exitCode = c));
  while (Date.now() < deadline) {
    if (exitCode !== undefined)
      throw new Error(`process ${child.pid} exited (${exitCode}) before ${url} answered:\n${child.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${child.output()}`);
}

/** The environment every Wakha child gets; callers add PORT, REDIS_URL, WAKHA_ROLE and so on. */
export function wakhaEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    WAKHA_CURSOR_SECRET: "bench-cursor-secret-0123456789abcdef0123456789",
    WAKHA_ENCRYPTION_KEY: "bench-encryption-key-0123456789abcdef0123456789",
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    // Calls ring at any hour of the run (issue 15's calling hours would hold them at night), and one account's
    // hundreds of concurrent calls are not held by the default concurrency cap (200).
    WAKHA_CALLING_HOURS: "off",
    WAKHA_NUMBER_DAILY_LIMIT: "0",
    WAKHA_MAX_CONCURRENT_CALLS: "100000",
    ...createBatchEnv(),
    ...extra,
  };
}

/** The group commit's settings of call creations and of reads (issue 19), when the bench's own environment sets them: before/after runs. */
export function createBatchEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [
    "WAKHA_CREATE_BATCH_SIZE",
    "WAKHA_CREATE_BATCHES",
    "WAKHA_READ_BATCH_SIZE",
    "WAKHA_READ_BATCHES",
  ]) {
    const value = process.env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Starts `wakha <command>` on a free port and waits until it serves /openapi.json (unless it is a worker). */
export async function startWakha(
  command: "serve" | "worker",
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<Child & { port: number; url: string }> {
  const port = Number(env["PORT"] ?? (await freePort()));
  // A worker refuses to start without the public API address (issue 32.3); the bench reads no URL its webhooks carry.
  if (command === "worker" && !env["WAKHA_BASE_URL"]) env = { ...env, WAKHA_BASE_URL: "http://127.0.0.1:8080" };
  const child = startNode(WAKHA_BIN, [command], { ...env, PORT: String(port) }, nodeArgs);
  const url = `http://127.0.0.1:${port}`;
  if (command === "serve" && env["WAKHA_ROLE"] !== "worker") {
    try {
      await waitForHttp(`${url}/openapi.json`, child);
    } catch (err) {
      await child.stop(1_000);
      throw err;
    }
  }
  return { ...child, port, url };
}

/** Runs `wakha accounts create --json` against the database; returns its JSON. */
export async function createAccountCli(
  databaseUrl: string,
  balanceSeconds: number,
  name = "bench",
): Promise<{ account_id: string; key_id: string; api_key: string }> {
  const child = startNode(
    WAKHA_BIN,
    ["accounts", "create", "--name", name, "--balance-seconds", String(balanceSeconds), "--json"],
    wakhaEnv(databaseUrl),
  );
  let stdout = "";
  child.proc.stdout!.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  const code = await child.exited;
  if (code !== 0) throw new Error(`wakha accounts create exited ${code}:\n${child.output()}`);
  return JSON.parse(stdout.trim().split("\n").pop()!) as { account_id: string; key_id: string; api_key: string };
}

/** Peak resident set size of a Linux process in bytes (VmHWM), or null when /proc is unavailable. */
export async function peakRss(pid: number): Promise<number | null> {
  const { readFile } = await import("node:fs/promises");
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) used so far by a process, or null. */
export async function cpuSeconds(pid: number): Promise<number | null> {
  const { readFile } = await import("node:fs/promises");
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/** CPU seconds used so far by each PostgreSQL backend serving `database` (its process title names it). */
export async function postgresCpuByPid(database: string): Promise<Map<number, number>> {
  const { readdir, readFile } = await import("node:fs/promises");
  const out = new Map<number, number>();
  for (const entry of await readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (!cmdline.startsWith("postgres:") || !cmdline.includes(` ${database} `)) continue;
    const cpu = await cpuSeconds(Number(entry));
    if (cpu !== null) out.set(Number(entry), cpu);
  }
  return out;
}

/**
 * CPU seconds the database's backends used between two postgresCpuByPid readings: backends that started in
 * between count whole; those that ended in between are lost (they were idle ones closed by a pool).
 */
export function postgresCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, cpu] of after) total += cpu - (before.get(pid) ?? 0);
  return total;
}

/** A database of its own for a bench section on `serverUrl` (`wakha_bench_<suffix>_...`), and how to drop it. */
export async function benchDatabase(
  serverUrl: string,
  suffix: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `wakha_bench_${suffix}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
