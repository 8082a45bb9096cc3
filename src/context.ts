// Below services, webhooks and the engine: it imports only the low modules whose instances it carries.
import type { KeyAuthenticator } from "./auth/key-authenticator.ts";
import type { Config } from "./config/config.ts";
import type { SecretBox } from "./crypto/secret-box.ts";
import type { StorePlatforms } from "./connectors/registry.ts";
import type { Database } from "./db/pool.ts";
import type { IntentClassifier } from "./engine/dialogue/types.ts";
import type { CarrierInbound } from "./engine/telephony/inbound.ts";
import type { JobQueue } from "./jobs/queue.ts";
import type { WhatsAppSender } from "./messaging/whatsapp.ts";
import type { Paginator } from "./pagination.ts";
import type { RateLimiter } from "./ratelimit/limiter.ts";
import type { RecordingStore } from "./storage/recording-store.ts";
import type { RecordingTransfers } from "./storage/recording-transfer.ts";
import type { Throttle } from "./throttle.ts";

export type { Principal } from "./auth/key-authenticator.ts";

/**
 * The group commits a node runs, one instance each, built by the composition root (root.ts) on its context: the
 * services that use one declare its field here (TypeScript's interface merging), so this file names no service.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the services through interface merging.
export interface NodeBatchers {}

/** What services and routes are given: built once in the composition root (root.ts). */
export interface AppContext {
  config: Config;
  db: Database;
  paginator: Paginator;
  limiter: RateLimiter;
  keys: KeyAuthenticator;
  /** pg-boss: enqueue jobs inside a transaction with queue.enqueue(client, JOBS.x, payload). */
  queue: JobQueue;
  /** Seals and opens webhook secrets; null without WAKHA_ENCRYPTION_KEY (webhook creation then answers 503). */
  secretBox: SecretBox | null;
  /** Deletes expired idempotency records at most once a minute, off the request path (createCall pokes it). */
  idempotencyPurge: Throttle;
  /** Where call recordings are kept: local files or an S3-compatible bucket (storage/recording-store.ts). */
  recordings: RecordingStore;
  /** The node's recording-transfer threads (storage/recording-transfer.ts), closed with the root. */
  recordingTransfers: RecordingTransfers;
  /** The WhatsApp Cloud API (messaging/whatsapp.ts): the order fallback's templates and replies (issue 16). */
  whatsapp: WhatsAppSender;
  /** The store platforms' adapters (connectors/registry.ts, issue 17): webhooks in, catalogue, write-backs. */
  stores: StorePlatforms;
  /** The inbound adapters of the carriers this node's channels use (root/telephony.ts carrierInbound), served under /carriers. */
  carriers: CarrierInbound[];
  /** The node's group commits (calls/create.ts callCreationBatchers, services/calls.ts callReadBatchers), built once by the root. */
  batchers: NodeBatchers;
  /** The node's intent classifier (the local model, with the language model when configured), built on first use. */
  classifier(): IntentClassifier;
  /** The clock: tests replace it to move time. */
  now: () => number;
}
