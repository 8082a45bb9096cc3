import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildApp, closeContext, createContext } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { Database } from "./db/pool.ts";
import { startEmbeddedPostgres } from "./db/embedded.ts";
import { migrate } from "./db/migrate.ts";
import { WORKER_SPECS } from "./engine/handlers.ts";
import { Workers } from "./engine/workers.ts";
import { runClassify } from "./engine/dialogue/classify-cli.ts";
import { createAccount, creditAccount } from "./services/accounts.ts";

const USAGE = `wakha: order-confirmation voice calls

Usage:
  wakha serve                                   serve the REST API, docs and MCP, and run the workers (npm start)
  wakha worker                                  run only the engine's workers (scale-out nodes)
  wakha migrate                                 apply pending database migrations
  wakha accounts create --name NAME [--balance-seconds N] [--json]
  wakha accounts credit ACCOUNT_ID --seconds N [--json]
  wakha classify --country MA|DZ|TN|FR          classify one utterance per stdin line, print one JSON line each
  wakha classify --json-input                   each stdin line is {"country", "text"}

Configuration is read from the environment; see README.md.`;

interface ResolvedDatabase {
  url: string;
  cursorSecret: string | undefined;
  encryptionKey: string | undefined;
  stop: () => Promise<void>;
}

const log = (msg: string) => process.stderr.write(`wakha: ${msg}\n`);

/** A random secret generated once and kept in the data dir (mode 0600); concurrent starts agree on one. */
async function keptSecret(dataDir: string, name: string): Promise<string> {
  const file = path.join(path.resolve(dataDir), name);
  return readFile(file, "utf8").then((s) => s.trim(), async () => {
    const secret = randomBytes(32).toString("base64url");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, secret, { mode: 0o600, flag: "wx" }).catch(() => {});
    return (await readFile(file, "utf8")).trim();
  });
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL in WAKHA_DATA_DIR, with its own cursor secret
 * and webhook-secret encryption key.
 */
async function resolveDatabase(config: Config): Promise<ResolvedDatabase> {
  if (config.DATABASE_URL) {
    return { url: config.DATABASE_URL, cursorSecret: config.WAKHA_CURSOR_SECRET, encryptionKey: config.WAKHA_ENCRYPTION_KEY, stop: async () => {} };
  }
  const embedded = await startEmbeddedPostgres(config.WAKHA_DATA_DIR, log);
  const cursorSecret = config.WAKHA_CURSOR_SECRET ?? (await keptSecret(config.WAKHA_DATA_DIR, "cursor-secret"));
  const encryptionKey = config.WAKHA_ENCRYPTION_KEY ?? (await keptSecret(config.WAKHA_DATA_DIR, "encryption-key"));
  return { url: embedded.url, cursorSecret, encryptionKey, stop: embedded.stop };
}

/** Runs what WAKHA_ROLE asks for: the HTTP API (`api`), the workers (`worker`), or both (`all`). */
async function serve(config: Config, role: Config["WAKHA_ROLE"]): Promise<void> {
  const database = await resolveDatabase(config);
  await migrate(database.url);
  const ctx = await createContext(config, {
    databaseUrl: database.url,
    cursorSecret: database.cursorSecret,
    encryptionKey: database.encryptionKey,
    onError: (err) => log(String(err)),
  });
  const app = role === "worker" ? null : await buildApp(ctx);
  const workers = role === "api" ? null : new Workers(ctx, (msg, err) => log(`${msg}: ${err instanceof Error ? err.message : String(err)}`));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    await app?.close();
    await workers?.stop();
    await closeContext(ctx);
    await database.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  if (config.WAKHA_WEBHOOK_ALLOW_PRIVATE) log("warning: WAKHA_WEBHOOK_ALLOW_PRIVATE is on: webhooks may target http and private addresses; never use this in production");
  if (workers) {
    await workers.start(WORKER_SPECS);
    log(`workers running (${WORKER_SPECS.map((w) => w.job.name).join(", ") || "no job types"})`);
  }
  if (app) {
    if (!database.cursorSecret) app.log.warn("WAKHA_CURSOR_SECRET is not set: every paginated endpoint answers 503 until it is");
    if (!database.encryptionKey) app.log.warn("WAKHA_ENCRYPTION_KEY is not set: webhook creation and tests answer 503 until it is");
    await app.listen({ port: config.PORT, host: config.HOST });
  }
}

async function withDatabase<T>(config: Config, fn: (db: Database) => Promise<T>): Promise<T> {
  const database = await resolveDatabase(config);
  try {
    await migrate(database.url);
    const db = new Database(database.url, 2);
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  } finally {
    await database.stop();
  }
}

async function accounts(config: Config, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      "balance-seconds": { type: "string", default: "0" },
      seconds: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (sub === "create") {
    if (!values.name) throw new UsageError("accounts create needs --name NAME");
    const created = await withDatabase(config, (db) => createAccount(db, { name: values.name!, balanceSeconds: Number(values["balance-seconds"]) }));
    process.stdout.write(values.json ? `${JSON.stringify(created)}\n` : `account ${created.account_id}\nkey ${created.key_id}\napi key (shown once): ${created.api_key}\n`);
    return;
  }
  if (sub === "credit") {
    const accountId = positionals[0];
    if (!accountId || values.seconds === undefined) throw new UsageError("accounts credit needs ACCOUNT_ID and --seconds N");
    const credited = await withDatabase(config, (db) => creditAccount(db, accountId, Number(values.seconds)));
    process.stdout.write(values.json ? `${JSON.stringify(credited)}\n` : `balance of ${accountId}: ${credited.balance_seconds} s\n`);
    return;
  }
  throw new UsageError(`unknown accounts command "${sub ?? ""}"`);
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === "classify") {
    // Needs no database nor configuration: the classifier is local.
    process.exitCode = await runClassify(args, process.stdin, process.stdout);
    return;
  }
  const config = loadConfig();
  switch (command) {
    case "serve":
      return serve(config, config.WAKHA_ROLE);
    case "worker":
      return serve(config, "worker");
    case "migrate": {
      await withDatabase(config, async () => {});
      log("migrations applied");
      return;
    }
    case "accounts":
      return accounts(config, args);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) log(err.message);
  else if (err instanceof UsageError) log(`${err.message}\n\n${USAGE}`);
  else log(err instanceof Error ? err.message : String(err));
  process.exit(err instanceof UsageError ? 2 : 1);
});
