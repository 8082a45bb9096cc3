import { createHmac, timingSafeEqual } from "node:crypto";
import { ApiError } from "./errors.ts";

export const CURSOR_LIFETIME_MS = 24 * 3600 * 1000;

export interface PageInput {
  limit: number;
  cursor?: string | undefined;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

interface CursorPayload {
  /** Which list, account and filters the cursor was issued for, as a keyed digest: the cursor shows none of them. */
  s: string;
  /** The last row's position (its sequence number). */
  p: number;
  /** Issued at, Unix milliseconds. */
  t: number;
}

/** True when `text` is exactly what base64url-encoding its decoded bytes gives back (no padding, no stray bits). */
function isCanonicalBase64Url(text: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(text) && Buffer.from(text, "base64url").toString("base64url") === text;
}

/**
 * Opaque, HMAC-SHA256-signed keyset cursors. A cursor carries a scope (list name, account, filters), so it
 * cannot be replayed against another list, filter or account; rotating the secret invalidates all cursors.
 * With no secret configured, every list answers 503 rather than emit unsigned cursors.
 */
export class Paginator {
  readonly #secret: Buffer | null;
  readonly #now: () => number;

  constructor(secret: string | undefined, now: () => number = Date.now) {
    this.#secret = secret ? Buffer.from(secret, "utf8") : null;
    this.#now = now;
  }

  #key(): Buffer {
    if (!this.#secret) {
      throw new ApiError(
        "service_unavailable",
        "Lists are unavailable: no cursor signing secret is configured (WAKHA_CURSOR_SECRET).",
      );
    }
    return this.#secret;
  }

  #sign(body: string): Buffer {
    return createHmac("sha256", this.#key()).update(body).digest();
  }

  /** The scope as it travels: 128 bits of HMAC, so neither the account id nor the filters can be read off a cursor. */
  #scopeDigest(scope: string): string {
    return createHmac("sha256", this.#key()).update(`scope\n${scope}`).digest().subarray(0, 16).toString("base64url");
  }

  encode(scope: string, position: number): string {
    const body = Buffer.from(
      JSON.stringify({ s: this.#scopeDigest(scope), p: position, t: this.#now() } satisfies CursorPayload),
    ).toString("base64url");
    return `${body}.${this.#sign(body).toString("base64url")}`;
  }

  /** The position after which the page starts, or null for the first page. */
  start(scope: string, cursor: string | undefined): number | null {
    this.#key();
    if (cursor === undefined) return null;
    const invalid = () =>
      new ApiError(
        "invalid_cursor",
        "The cursor is malformed, tampered with, signed with a rotated key, or belongs to another list or filter. Restart the listing without `cursor`.",
      );
    const [body, signature, extra] = cursor.split(".");
    if (!body || !signature || extra !== undefined) throw invalid();
    // Canonical base64url only: a lenient decoder reads several spellings (padding bits, "=", "+/") as the same bytes.
    if (!isCanonicalBase64Url(body) || !isCanonicalBase64Url(signature)) throw invalid();
    const given = Buffer.from(signature, "base64url");
    const expected = this.#sign(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    let payload: CursorPayload;
    try {
      payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as CursorPayload;
    } catch {
      throw invalid();
    }
    if (
      typeof payload !== "object" ||
      payload === null ||
      payload.s !== this.#scopeDigest(scope) ||
      !Number.isSafeInteger(payload.p) ||
      !Number.isFinite(payload.t)
    )
      throw invalid();
    if (this.#now() - payload.t > CURSOR_LIFETIME_MS) {
      throw new ApiError("cursor_expired", "The cursor is older than 24 hours. Restart the listing without `cursor`.");
    }
    return payload.p;
  }

  /** Builds the page from rows fetched with `limit + 1`, newest first. */
  page<R extends { seq: number }, T>(scope: string, rows: R[], limit: number, toItem: (row: R) => T): Page<T> {
    const hasMore = rows.length > limit;
    const kept = hasMore ? rows.slice(0, limit) : rows;
    const last = kept.at(-1);
    return {
      data: kept.map(toItem),
      has_more: hasMore,
      next_cursor: hasMore && last ? this.encode(scope, last.seq) : null,
    };
  }
}
