// Only what parsing the command line and reporting its errors needs is loaded up front: --help, --version and a
// usage error answer in a fraction of the time the server's modules take to load. Each command loads its own.
import { type Parsed, parseCommandLine, parseSeconds, UsageError, usageOf } from "./cli-args.ts";
import { type Config, ConfigError, loadConfig, roleProblems } from "./config/config.ts";
import type { Database } from "./db/pool.ts";
import { redactSecrets } from "./http/secrets.ts";
import { VERSION } from "./version.ts";

// Worker and engine messages go to stderr through here: masked by the secrets' shapes like the HTTP logs.
const log = (msg: string) => process.stderr.write(`wakha: ${redactSecrets(msg)}\n`);

/** Runs what WAKHA_ROLE asks for: the HTTP API (`api`), the workers (`worker`), or both (`all`). */
async function serve(config: Config, role: Config["WAKHA_ROLE"]): Promise<void> {
  const [{ buildApp }, { migrate }, { createWorkers, jobsForRole }, { JOBS }, { createRoot, resolveDatabase }] =
    await Promise.all([
      import("./app.ts"),
      import("./db/migrate.ts"),
      import("./root/job-handlers.ts"),
      import("./jobs/catalogue.ts"),
      import("./root/root.ts"),
    ]);
  // Ctrl-C reaches the embedded PostgreSQL too (same process group): once stopping, the connection errors that
  // its shutdown causes are expected, not news, and are not printed.
  let stopping = false;
  const report = (msg: string) => {
    if (stopping) return;
    // The database's own shutdown can reach us before Node runs the SIGINT handler: give that a moment first.
    if (/terminating connection due to administrator command/.test(msg)) {
      setTimeout(() => void (stopping || log(msg)), 500).unref();
      return;
    }
    log(msg);
  };
  // Issue 32.3: a worker without the public API address would send webhooks with this machine's address in them.
  const problems = roleProblems(role, process.env);
  if (problems.length)
    throw new ConfigError(`invalid configuration for a ${role} node:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  // A node that dials over an audio carrier cannot talk without its speech service: refuse to start (issue 30.8).
  if (role !== "api") {
    const { speechPreflight } = await import("./doctor/carriers.ts");
    const refused = await speechPreflight(config);
    if (refused) throw new Error(refused);
  }
  const database = await resolveDatabase(config, log);
  // Issue 32.2: a start that fails past this point (a taken port, a bad database) stops what it started, the embedded
  // PostgreSQL included, so no orphan is left behind; the error says what to do.
  const started: (() => Promise<unknown>)[] = [() => database.stop()];
  try {
    await startServing(started);
  } catch (err) {
    stopping = true;
    for (const step of started.reverse()) await step().catch(() => {});
    throw startError(err, config);
  }

  async function startServing(started: (() => Promise<unknown>)[]): Promise<void> {
    await migrate(database.url);
    const root = await createRoot(config, {
      databaseUrl: database.url,
      cursorSecret: database.cursorSecret,
      encryptionKey: database.encryptionKey,
      onError: (err) => report(String(err)),
    });
    started.push(() => root.close());
    // A worker that places calls through a real carrier serves the carriers' routes itself: a call's session lives in
    // the memory of the node that dialled it, and each call tells the carrier this node's WAKHA_PUBLIC_URL
    // (docs/scaling.md). A worker without real carriers serves nothing.
    const realCarriers = [...config.telephony.values()].some((provider) => provider !== "simulator");
    const app =
      role !== "worker" ? await buildApp(root) : realCarriers ? await buildApp(root, { carriersOnly: true }) : null;
    const jobs = jobsForRole(role);
    if (app) started.push(() => app.close());
    const workers =
      jobs.length === 0
        ? null
        : createWorkers(root, (msg, err) => report(`${msg}: ${err instanceof Error ? err.message : String(err)}`));
    if (workers) started.push(() => workers.stop());
    const stop = async (signal: string) => {
      if (stopping) return;
      log(`${signal}: shutting down`);
      stopping = true;
      // Whatever fails while closing (a database already gone) does not change the outcome: the process stops.
      const quietly = async (step: (() => Promise<unknown>) | undefined) => {
        try {
          await step?.();
        } catch {
          // stopping anyway
        }
      };
      await quietly(app ? () => app.close() : undefined);
      await quietly(workers ? () => workers.stop() : undefined);
      await quietly(() => root.close());
      await quietly(() => database.stop());
      process.exit(0);
    };
    process.on("SIGINT", () => void stop("SIGINT"));
    process.on("SIGTERM", () => void stop("SIGTERM"));
    if (config.WAKHA_WEBHOOK_ALLOW_PRIVATE)
      log(
        "warning: WAKHA_WEBHOOK_ALLOW_PRIVATE is on: webhooks may target http and private addresses; never use this in production",
      );
    if (workers) {
      await workers.start(jobs);
      log(`workers running (${jobs.map((name) => JOBS[name].name).join(", ") || "no job types"})`);
    }
    if (app) {
      if (role !== "worker" && !database.cursorSecret)
        app.log.warn("WAKHA_CURSOR_SECRET is not set: every paginated endpoint answers 503 until it is");
      if (role !== "worker" && !database.encryptionKey)
        app.log.warn("WAKHA_ENCRYPTION_KEY is not set: webhook creation and tests answer 503 until it is");
      await app.listen({ port: config.PORT, host: config.HOST });
    }
  }
}

/** A failed start's message: a taken port says which variable to set (issue 32.2). */
function startError(err: unknown, config: Config): unknown {
  if ((err as { code?: unknown } | null)?.code !== "EADDRINUSE") return err;
  const other = config.PORT >= 65535 ? 8081 : config.PORT + 1;
  return new Error(
    `port ${config.PORT} on ${config.HOST} is already in use (another wakha server, or another program). ` +
      `Start on a free port: PORT=${other} npm start (or stop what holds ${config.PORT}). Nothing was left running.`,
  );
}

async function withDatabase<T>(config: Config, fn: (db: Database) => Promise<T>): Promise<T> {
  const [{ Database }, { migrate }, { resolveDatabase }] = await Promise.all([
    import("./db/pool.ts"),
    import("./db/migrate.ts"),
    import("./root/root.ts"),
  ]);
  const database = await resolveDatabase(config, log);
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

async function accounts(config: Config, run: Extract<Parsed, { kind: "run" }>): Promise<void> {
  const usage = usageOf(run.command);
  const json = run.values["json"] === true;
  if (run.command === "accounts create") {
    const name = run.values["name"];
    if (typeof name !== "string" || name.length === 0) throw new UsageError("accounts create needs --name NAME", usage);
    const balanceSeconds =
      parseSeconds(run.values["balance-seconds"] as string | undefined, "--balance-seconds", usage) ?? 0;
    const { createAccount } = await import("./services/accounts.ts");
    const created = await withDatabase(config, (db) => createAccount(db, { name, balanceSeconds }));
    process.stdout.write(
      json
        ? `${JSON.stringify(created)}\n`
        : `account ${created.account_id}\nkey ${created.key_id}\napi key (shown once): ${created.api_key}\n`,
    );
    return;
  }
  const accountId = run.positionals[0]!;
  if (run.command === "accounts set") {
    const raw = run.values["max-concurrent-calls"];
    const allow = run.values["allow-any-number"];
    if (typeof allow === "string") {
      // Issue 31.5: the account's number policy.
      if (allow !== "on" && allow !== "off")
        throw new UsageError(`--allow-any-number must be on or off, got "${allow.slice(0, 32)}"`, usage);
      const { setAllowAnyNumber } = await import("./services/accounts.ts");
      const set = await withDatabase(config, (db) => setAllowAnyNumber(db, accountId, allow === "on"));
      process.stdout.write(
        json
          ? `${JSON.stringify(set)}\n`
          : `any valid number for ${accountId}: ${set.allow_any_number ? "on" : "off (mobile and fixed-line numbers of the call's country)"}\n`,
      );
      if (typeof raw !== "string") return;
    }
    if (typeof raw !== "string")
      throw new UsageError(
        "accounts set needs --max-concurrent-calls N (or default) or --allow-any-number on|off",
        usage,
      );
    if (raw !== "default" && !/^\d{1,6}$/.test(raw))
      throw new UsageError(
        `--max-concurrent-calls must be a whole number from 1 to 100000 or "default", got "${raw.slice(0, 32)}"`,
        usage,
      );
    const cap = raw === "default" ? null : Number(raw);
    if (cap !== null && (cap < 1 || cap > 100_000))
      throw new UsageError(`--max-concurrent-calls must be from 1 to 100000, got ${cap}`, usage);
    const { setConcurrencyCap } = await import("./calls/policy/concurrency.ts");
    const set = await withDatabase(config, (db) => setConcurrencyCap(db, accountId, cap));
    process.stdout.write(
      json
        ? `${JSON.stringify(set)}\n`
        : `max concurrent calls of ${accountId}: ${set.max_concurrent_calls ?? `default (${config.WAKHA_MAX_CONCURRENT_CALLS})`}\n`,
    );
    return;
  }
  const seconds = parseSeconds(run.values["seconds"] as string | undefined, "--seconds", usage);
  if (seconds === undefined) throw new UsageError("accounts credit needs --seconds N", usage);
  const { creditAccount } = await import("./services/accounts.ts");
  const credited = await withDatabase(config, (db) => creditAccount(db, accountId, seconds));
  process.stdout.write(
    json ? `${JSON.stringify(credited)}\n` : `balance of ${accountId}: ${credited.balance_seconds} s\n`,
  );
}

async function main(argv: string[]): Promise<void> {
  // Parsed in full before anything runs: --help and --version never start, migrate or touch anything.
  const parsed = parseCommandLine(argv);
  if (parsed.kind === "help") {
    process.stdout.write(`${parsed.text}\n`);
    return;
  }
  if (parsed.kind === "version") {
    process.stdout.write(`wakha ${VERSION}\n`);
    return;
  }
  if (parsed.command === "classify") {
    // Needs no database nor configuration: the classifier is local.
    const { runClassify } = await import("./engine/dialogue/classify-cli.ts");
    process.exitCode = await runClassify(parsed.rest, process.stdin, process.stdout);
    return;
  }
  if (parsed.command === "doctor") {
    // Reads the environment itself, to report every problem rather than stop at the first.
    const [{ runDoctor }, { infrastructureChecks }] = await Promise.all([
      import("./doctor/carriers.ts"),
      import("./doctor/node.ts"),
    ]);
    process.exitCode = await runDoctor({
      env: process.env,
      online: parsed.values["online"] === true,
      write: (line) => process.stdout.write(`${line}\n`),
      infrastructure: infrastructureChecks,
    });
    return;
  }
  const config = loadConfig();
  switch (parsed.command) {
    case "serve":
      return serve(config, config.WAKHA_ROLE);
    case "worker":
      return serve(config, "worker");
    case "migrate": {
      await withDatabase(config, async () => {});
      log("migrations applied");
      return;
    }
    default:
      return accounts(config, parsed);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) log(err.message);
  else if (err instanceof UsageError) log(`${err.message}\n\n${err.usage}`);
  else log(err instanceof Error ? err.message : String(err));
  process.exit(err instanceof UsageError ? 2 : 1);
});
