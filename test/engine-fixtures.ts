// The engine tests' harness: a real app with the engine's workers running in-process (the root's handler map
// through the worker runtime), the simulator at a high speed, and a count of what was dialled. Each engine test file gets its
// own database on the run's server, so its place-call workers never dial the calls of other test files.
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppContext } from "../src/context.ts";
import type { CallEngine } from "../src/calls/place.ts";
import { LexiconIntentClassifier } from "../src/engine/dialogue/classifier.ts";
import { buildEngine, type EngineParts } from "../src/root/engine.ts";
import { createSimulatedCustomer } from "../src/engine/telephony/simulator/customer.ts";
import { createWorkers } from "../src/root/job-handlers.ts";
import type { JobName } from "../src/jobs/catalogue.ts";
import type { Workers } from "../src/jobs/runtime.ts";
import type { Root } from "../src/root/root.ts";
import type { CallOut } from "../src/schemas/calls.ts";
import { createEngineDatabase, startAppOn } from "./engine-db.ts";
import { ENCRYPTION_KEY, type TestAccount, type TestApp } from "./helpers.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

export { createEngineDatabase } from "./engine-db.ts";

/** The engine's workers (place-call, sweep-calls); webhook deliveries are another suite's business. */
const ENGINE_JOBS: JobName[] = ["placeCall", "sweepCalls"];

export interface EngineApp extends TestApp {
  /** Call ids in the order they were dialled (originate), across this app's workers. */
  dialled: string[];
  /** The caller number each call was dialled from (`from`, issue 15's lines), null when the dialer picked none. */
  dialledFrom: Map<string, string | null>;
  /** Errors logged by the engine or the workers: a passing test expects none. */
  errors: string[];
  startWorkers(): Promise<Workers<Root>>;
  dataDir: string;
}

export interface EngineAppOptions {
  /** The database (createEngineDatabase); the app's own node. */
  databaseUrl: string;
  speed?: number;
  /** Replaces parts of the default engine (simulated customers, classifier, speech). */
  parts?: Partial<EngineParts>;
  env?: Record<string, string>;
  /** The app's clock (a fake one); the database's stays the real one. */
  now?: () => number;
}

/** Wraps the engine's telephony so every originate is counted. */
function counting(engine: CallEngine, dialled: string[], dialledFrom: Map<string, string | null>): CallEngine {
  return {
    ...engine,
    telephony: {
      close: () => engine.telephony.close(),
      forChannel(channel) {
        const provider = engine.telephony.forChannel(channel);
        return {
          name: provider.name,
          close: () => provider.close(),
          originate(request) {
            dialled.push(request.callId);
            dialledFrom.set(request.callId, request.from ?? null);
            return provider.originate(request);
          },
        };
      },
    },
  };
}

/** An app whose engine runs the real dialogue, classifier and simulated customers (tones for recordings by default). */
export async function startEngineApp(options: EngineAppOptions): Promise<EngineApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "wakha-engine-"));
  await chmod(dataDir, 0o755);
  const dialled: string[] = [];
  const dialledFrom = new Map<string, string | null>();
  const errors: string[] = [];
  const log = (message: string, err?: unknown) =>
    errors.push(`${message}${err ? `: ${err instanceof Error ? err.stack : String(err)}` : ""}`);
  const t = await startAppOn(
    options.databaseUrl,
    {
      WAKHA_DATA_DIR: dataDir,
      WAKHA_SIMULATOR_SPEED: String(options.speed ?? 200),
      WAKHA_RATE_LIMIT_SCALE: "1000",
      ...options.env,
    },
    async (config, lines) =>
      counting(
        await buildEngine(config, {
          classifier: new LexiconIntentClassifier(),
          customers: createSimulatedCustomer,
          speech: null,
          log,
          ...options.parts,
          lines,
        }),
        dialled,
        dialledFrom,
      ),
    options.now,
  );
  await t.ctx.engine();
  const started: Workers<Root>[] = [];
  return {
    ...t,
    dialled,
    dialledFrom,
    errors,
    dataDir,
    async startWorkers() {
      const workers = createWorkers(t.ctx, log);
      await workers.start(ENGINE_JOBS);
      started.push(workers);
      return workers;
    },
    async close() {
      for (const w of started) await w.stop();
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Another node on the same database and queue, sharing `dialled` with the first. */
export async function startSecondNode(
  first: EngineApp,
  databaseUrl: string,
  speed = 200,
  more: { env?: Record<string, string>; now?: () => number } = {},
): Promise<EngineApp> {
  const t = await startAppOn(
    databaseUrl,
    {
      WAKHA_DATA_DIR: first.dataDir,
      WAKHA_SIMULATOR_SPEED: String(speed),
      WAKHA_RATE_LIMIT_SCALE: "1000",
      ...more.env,
    },
    async (config, lines) =>
      counting(
        await buildEngine(config, {
          classifier: new LexiconIntentClassifier(),
          customers: createSimulatedCustomer,
          speech: null,
          log: (m) => first.errors.push(m),
          lines,
        }),
        first.dialled,
        first.dialledFrom,
      ),
    more.now,
  );
  await t.ctx.engine();
  const started: Workers<Root>[] = [];
  return {
    ...t,
    dialled: first.dialled,
    dialledFrom: first.dialledFrom,
    errors: first.errors,
    dataDir: first.dataDir,
    async startWorkers() {
      const workers = createWorkers(t.ctx, (m) => first.errors.push(m));
      await workers.start(ENGINE_JOBS);
      started.push(workers);
      return workers;
    },
    async close() {
      for (const w of started) await w.stop();
      await t.close();
    },
  };
}

export async function getCallOut(t: TestApp, acct: TestAccount, id: string): Promise<CallOut> {
  const res = await t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: acct.headers });
  if (res.statusCode !== 200) throw new Error(`GET /v1/calls/${id}: ${res.statusCode} ${res.body}`);
  return res.json() as CallOut;
}

/** Waits (reading the row) until the call has ended and, when it was answered, its recording is stored (unless declined, issue 36); returns its CallOut. */
export async function waitForEnd(t: TestApp, acct: TestAccount, id: string, timeoutMs = 25_000): Promise<CallOut> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await t.ctx.db.query<{ done: boolean }>(
      "SELECT ended_at IS NOT NULL AND (answered_at IS NULL OR recording_path IS NOT NULL OR recording_declined) AS done FROM calls WHERE id = $1",
      [id],
    );
    if (rows[0]?.done) return getCallOut(t, acct, id);
    if (Date.now() > deadline)
      throw new Error(`call ${id} did not end in ${timeoutMs} ms: ${JSON.stringify(await getCallOut(t, acct, id))}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function waitForStatus(
  t: TestApp,
  id: string,
  status: CallOut["status"],
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await t.ctx.db.query<{ status: string }>("SELECT status FROM calls WHERE id = $1", [id]);
    if (rows[0]?.status === status) return;
    if (Date.now() > deadline) throw new Error(`call ${id} never reached ${status} (${rows[0]?.status})`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function balanceOf(ctx: AppContext, accountId: string): Promise<number> {
  const { rows } = await ctx.db.query<{ balance_seconds: number }>(
    "SELECT balance_seconds FROM accounts WHERE id = $1",
    [accountId],
  );
  return rows[0]!.balance_seconds;
}

export async function debitsOf(
  ctx: AppContext,
  accountId: string,
): Promise<Map<string, { seconds: number; balance_after: number }>> {
  const { rows } = await ctx.db.query<{ call_id: string; seconds: number; balance_after: number }>(
    "SELECT call_id, seconds, balance_after FROM transactions WHERE account_id = $1 AND type = 'debit'",
    [accountId],
  );
  return new Map(rows.map((r) => [r.call_id, { seconds: -r.seconds, balance_after: r.balance_after }]));
}

/** Events the engine wrote for the account (needs an active webhook row: see addWebhook). */
export async function eventsOf(ctx: AppContext, accountId: string): Promise<{ type: string; payload: CallOut }[]> {
  const { rows } = await ctx.db.query<{ type: string; payload: CallOut }>(
    "SELECT type, payload FROM webhook_events WHERE account_id = $1 ORDER BY created_at, id",
    [accountId],
  );
  return rows;
}

/**
 * An engine app on a database of its own with its call workers and a webhook delivery worker running, and a local
 * receiver for its webhooks: for tests that watch a call's events reach the account's webhook, signed.
 */
export async function startEngineWithReceiver(): Promise<{
  t: EngineApp;
  receiver: Receiver;
  close: () => Promise<void>;
}> {
  const db = await createEngineDatabase();
  const t = await startEngineApp({
    databaseUrl: db.url,
    speed: 200,
    env: { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on", WAKHA_ENCRYPTION_KEY: ENCRYPTION_KEY },
  });
  await t.startWorkers();
  const delivery = createWorkers(t.ctx, (m) => t.errors.push(m));
  await delivery.start(["deliverWebhook"]);
  const receiver = await startReceiver();
  return {
    t,
    receiver,
    close: async () => {
      await delivery.stop();
      await receiver.close();
      await t.close();
      await db.drop();
    },
  };
}
