// API key authentication, below the services and the context that carries it: resolves a Bearer secret to
// the principal it acts for.
import { createHash } from "node:crypto";
import type { Database } from "../db/pool.ts";

/** The caller every service acts for: the account behind an API key. */
export interface Principal {
  accountId: string;
  keyId: string;
}

/** The key is hashed exactly as received: no trimming, no case folding (spec 5.2). */
export function hashApiKey(secret: string): Buffer {
  return createHash("sha256").update(secret, "utf8").digest();
}

interface CachedKey {
  principal: Principal | null;
  expires: number;
}

const CACHE_TTL_MS = 5_000;
const TOUCH_EVERY_MS = 60_000;
const CACHE_MAX = 10_000;

/**
 * Resolves Bearer secrets to principals. Lookups are cached for a few seconds to keep the hot path to one
 * round trip; a revocation is honoured at once on the node that revoked and within 5 s everywhere else.
 */
export class KeyAuthenticator {
  readonly #db: Database;
  readonly #cache = new Map<string, CachedKey>();
  readonly #touched = new Map<string, number>();
  readonly #now: () => number;
  readonly #onError: (err: unknown) => void;

  constructor(db: Database, now: () => number, onError: (err: unknown) => void) {
    this.#db = db;
    this.#now = now;
    this.#onError = onError;
  }

  async authenticate(secret: string): Promise<Principal | null> {
    const hash = hashApiKey(secret);
    const cacheKey = hash.toString("base64");
    const now = this.#now();
    const hit = this.#cache.get(cacheKey);
    let principal: Principal | null;
    if (hit && hit.expires > now) {
      principal = hit.principal;
    } else {
      const { rows } = await this.#db.query<{ id: string; account_id: string }>(
        "SELECT id, account_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL",
        [hash],
      );
      principal = rows[0] ? { keyId: rows[0].id, accountId: rows[0].account_id } : null;
      if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
      this.#cache.set(cacheKey, { principal, expires: now + CACHE_TTL_MS });
    }
    if (principal) this.#touch(principal.keyId, now);
    return principal;
  }

  /** Drops a key from the cache (after revocation). */
  forget(keyId: string): void {
    for (const [k, v] of this.#cache) if (v.principal?.keyId === keyId) this.#cache.delete(k);
  }

  // last_used_at is written at most once a minute per key, off the request's path.
  #touch(keyId: string, now: number): void {
    if ((this.#touched.get(keyId) ?? 0) > now - TOUCH_EVERY_MS) return;
    if (this.#touched.size >= CACHE_MAX) this.#touched.clear();
    this.#touched.set(keyId, now);
    this.#db.query("UPDATE api_keys SET last_used_at = now() WHERE id = $1", [keyId]).catch(this.#onError);
  }
}
