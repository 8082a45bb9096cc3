// The one composition root: picks each dependency's implementation from the configuration, builds it once and
// passes it down. Tests and benchmarks build their own root with their own providers (RootOptions).
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { KeyAuthenticator } from "../auth/key-authenticator.ts";
import type { Config } from "../config/config.ts";
import type { AppContext, NodeBatchers } from "../context.ts";
import { ShopifyPlatform } from "../connectors/platforms/shopify.ts";
import { createWooCommercePlatform } from "../connectors/platforms/woocommerce.ts";
import { createYouCanPlatform } from "../connectors/platforms/youcan.ts";
import type { StorePlatforms } from "../connectors/registry.ts";
import { SecretBox } from "../crypto/secret-box.ts";
import { startEmbeddedPostgres } from "../db/embedded.ts";
import { Database } from "../db/pool.ts";
import type { CallEngine } from "../calls/place.ts";
import type { IntentClassifier } from "../engine/dialogue/types.ts";
import { buildEngine, engineLog, intentClassifier } from "./engine.ts";

export { intentClassifier };
import { RecordingTransfers } from "../storage/recording-transfer.ts";
import { carrierInbound } from "./telephony.ts";
import { recordCarrierSeconds } from "../calls/carrier-seconds.ts";
import type { CarrierReports } from "../engine/telephony/inbound.ts";
import { type NodeLines, nodeLines } from "../engine/telephony/lines.ts";
import { createSimulatedCustomer } from "../engine/telephony/simulator/customer.ts";
import { JobQueue } from "../jobs/queue.ts";
import { GraphWhatsApp } from "../messaging/whatsapp.ts";
import { Paginator } from "../pagination.ts";
import { MemoryRateLimiter, type RateLimiter } from "../ratelimit/limiter.ts";
import { RedisRateLimiter } from "../ratelimit/redis.ts";
import { idempotencyPurge } from "../db/idempotency.ts";
import { LocalRecordingStore } from "../storage/local-recording-store.ts";
import type { RecordingStore } from "../storage/recording-store.ts";
import { S3RecordingStore } from "../storage/s3-recording-store.ts";

/** The database a node runs on, with the secrets that come with it. */
export interface ResolvedDatabase {
  url: string;
  cursorSecret: string | undefined;
  encryptionKey: string | undefined;
  stop: () => Promise<void>;
}

/** A random secret generated once and kept in the data dir (mode 0600); concurrent starts agree on one. */
async function keptSecret(dataDir: string, name: string): Promise<string> {
  const file = path.join(path.resolve(dataDir), name);
  return readFile(file, "utf8").then(
    (s) => s.trim(),
    async () => {
      const secret = randomBytes(32).toString("base64url");
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, secret, { mode: 0o600, flag: "wx" }).catch(() => {});
      return (await readFile(file, "utf8")).trim();
    },
  );
}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL in WAKHA_DATA_DIR, with its own cursor secret
 * and webhook-secret encryption key.
 */
export async function resolveDatabase(config: Config, log: (message: string) => void): Promise<ResolvedDatabase> {
  if (config.DATABASE_URL) {
    return {
      url: config.DATABASE_URL,
      cursorSecret: config.WAKHA_CURSOR_SECRET,
      encryptionKey: config.WAKHA_ENCRYPTION_KEY,
      stop: async () => {},
    };
  }
  const embedded = await startEmbeddedPostgres(config.WAKHA_DATA_DIR, log);
  const cursorSecret = config.WAKHA_CURSOR_SECRET ?? (await keptSecret(config.WAKHA_DATA_DIR, "cursor-secret"));
  const encryptionKey = config.WAKHA_ENCRYPTION_KEY ?? (await keptSecret(config.WAKHA_DATA_DIR, "encryption-key"));
  return { url: embedded.url, cursorSecret, encryptionKey, stop: embedded.stop };
}

export interface RootOptions {
  databaseUrl: string;
  /** Cursor signing secret; defaults to config.WAKHA_CURSOR_SECRET. */
  cursorSecret?: string | undefined;
  /** Webhook secret sealing key; defaults to config.WAKHA_ENCRYPTION_KEY. */
  encryptionKey?: string | undefined;
  now?: () => number;
  onError?: (err: unknown) => void;
  /**
   * Builds the call engine, on first use, on the node's carrier lines and with the node's intent classifier (the one
   * rehearsals use too); defaults to defaultEngine.
   */
  engine?: (config: Config, lines: NodeLines, classifier: IntentClassifier) => Promise<CallEngine>;
}

/**
 * The app context plus what only the workers need: the call engine. The context type stays free of the engine,
 * so services, webhooks and the engine itself sit above context.ts and below this file.
 */
export interface Root extends AppContext {
  /** The call engine, built on first use: an API-only node never builds one. */
  engine(): Promise<CallEngine>;
  /** The node's live carrier sessions, shared by the engine's providers and the carriers' inbound adapters. */
  lines: NodeLines;
  /** Stops the queue, the rate limiter, the database pool and the engine's providers. */
  close(): Promise<void>;
}

/** The engine of a node: the configured telephony, the node's intent classifier and simulated customers. */
export function defaultEngine(config: Config, lines: NodeLines, classifier: IntentClassifier): Promise<CallEngine> {
  return buildEngine(config, {
    classifier,
    customers: createSimulatedCustomer,
    lines,
  });
}

/**
 * Where recordings go: the bucket when WAKHA_RECORDINGS_BUCKET is set (server-side encryption AES256 by default on
 * AWS, off by default on other endpoints, which do not all accept the header), else files in the data dir.
 */
export function recordingStore(config: Config): RecordingStore {
  const bucket = config.WAKHA_RECORDINGS_BUCKET;
  if (!bucket) return new LocalRecordingStore(config.WAKHA_DATA_DIR);
  const endpoint = config.WAKHA_RECORDINGS_ENDPOINT;
  const keyId = config.WAKHA_RECORDINGS_ACCESS_KEY_ID;
  const secret = config.WAKHA_RECORDINGS_SECRET_ACCESS_KEY;
  return new S3RecordingStore({
    bucket,
    prefix: config.WAKHA_RECORDINGS_PREFIX,
    endpoint,
    region: config.WAKHA_RECORDINGS_REGION,
    credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
    forcePathStyle: config.WAKHA_RECORDINGS_FORCE_PATH_STYLE ?? false,
    sse: config.WAKHA_RECORDINGS_SSE ?? (endpoint ? "none" : "AES256"),
    kmsKeyId: config.WAKHA_RECORDINGS_SSE_KMS_KEY_ID,
  });
}

/** The store platforms' adapters (issue 17), by platform name: adding a platform is one line here. */
export function storePlatforms(config: Config): StorePlatforms {
  return {
    shopify: new ShopifyPlatform({ adminOrigin: config.WAKHA_SHOPIFY_ADMIN_URL }),
    youcan: createYouCanPlatform({ allowPrivate: config.WAKHA_WEBHOOK_ALLOW_PRIVATE }),
    woocommerce: createWooCommercePlatform({ allowPrivate: config.WAKHA_WEBHOOK_ALLOW_PRIVATE }),
  };
}

/** Builds every dependency once; starts the job queue. */
export async function createRoot(config: Config, options: RootOptions): Promise<Root> {
  const now = options.now ?? Date.now;
  const onError = options.onError ?? (() => {});
  const db = new Database(options.databaseUrl);
  const limiter: RateLimiter = config.REDIS_URL ? new RedisRateLimiter(config.REDIS_URL) : new MemoryRateLimiter();
  const queue = new JobQueue(options.databaseUrl, onError);
  const encryptionKey = options.encryptionKey ?? config.WAKHA_ENCRYPTION_KEY;
  const recordings = recordingStore(config);
  const recordingTransfers = new RecordingTransfers();
  try {
    await queue.start();
  } catch (err) {
    await Promise.allSettled([queue.stop(), limiter.close(), db.close()]);
    throw err;
  }
  const buildCallEngine = options.engine ?? defaultEngine;
  let engine: Promise<CallEngine> | null = null;
  // The carriers' live sessions, shared by the engine's providers and the inbound adapters the app serves.
  const lines = nodeLines();
  let classifier: IntentClassifier | null = null;
  const reports: CarrierReports = { carrierSeconds: (callId, seconds) => recordCarrierSeconds(root, callId, seconds) };
  const root: Root = {
    config,
    db,
    now,
    limiter,
    paginator: new Paginator(options.cursorSecret ?? config.WAKHA_CURSOR_SECRET, now),
    keys: new KeyAuthenticator(db, now, onError),
    queue,
    secretBox: encryptionKey ? new SecretBox(encryptionKey) : null,
    idempotencyPurge: idempotencyPurge(db),
    recordings,
    recordingTransfers,
    whatsapp: new GraphWhatsApp(config.WAKHA_WHATSAPP_GRAPH_URL, config.WAKHA_WHATSAPP_GRAPH_VERSION),
    stores: storePlatforms(config),
    lines,
    carriers: carrierInbound(config, lines, reports),
    // One classifier per node, shared by the call engine and rehearsals (POST /v1/simulations).
    classifier: () => (classifier ??= intentClassifier(config, engineLog(config))),
    // Filled just below, once the context they write through exists.
    batchers: {} as NodeBatchers,
    engine: () => (engine ??= buildCallEngine(config, lines, root.classifier())),
    async close() {
      await queue.stop();
      await limiter.close();
      await db.close();
      await recordingTransfers.close();
      recordings.close?.();
      await engine?.then(
        (built) => built.telephony.close(),
        () => {},
      );
    },
  };
  // Loaded here rather than at the top: the schemas keep the registration order, and so the OpenAPI document its bytes.
  const { callCreationBatchers } = await import("../calls/create.ts");
  const { callReadBatchers } = await import("../services/calls.ts");
  root.batchers = { ...callCreationBatchers(root), ...callReadBatchers(root) };
  return root;
}
