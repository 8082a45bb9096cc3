import type { Config } from "./config.ts";
import type { Database } from "./db/pool.ts";
import type { JobQueue } from "./engine/queue.ts";
import type { Paginator } from "./pagination.ts";
import type { RateLimiter } from "./ratelimit/limiter.ts";
import type { KeyAuthenticator } from "./services/api-keys.ts";
import type { SecretBox } from "./webhooks/secret-box.ts";

/** What services and routes are given: built once in the composition root (app.ts / main.ts). */
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
  /** The clock: tests replace it to move time. */
  now: () => number;
}

/** The caller every service acts for: the account behind an API key. */
export interface Principal {
  accountId: string;
  keyId: string;
}
