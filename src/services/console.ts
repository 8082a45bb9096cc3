// The reseller console's own use cases (issue 18): sessions opened with an API key, the account's console
// preferences, the live statuses of the calls on a page and the usage per day. Everything else the console shows
// comes from the same services as /v1, with the same principal.
import { createHash, randomBytes } from "node:crypto";
import type { AppContext, Principal } from "../context.ts";
import type { CallStatus } from "../domain/calls.ts";
import { ApiError } from "../errors.ts";

/** A session ends after this long without a request (idle expiry)... */
export const SESSION_IDLE_MS = 30 * 60_000;
/** ...and in any case this long after sign-in (absolute expiry). */
export const SESSION_MAX_MS = 12 * 3600_000;
/** last_seen_at is written at most this often per session. */
const TOUCH_EVERY_MS = 60_000;

const CALL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ConsoleSession {
  principal: Principal;
  /** Hex SHA-256 of the cookie value: binds CSRF tokens to this session without revealing it. */
  idHash: string;
  createdAt: Date;
  expiresAt: Date;
}

function hashToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/**
 * Exchanges an API key for a session. The key is checked like a Bearer key (exactly as given) and is not kept:
 * only the hash of the new session's random id is stored. Returns the id, for the cookie.
 */
export async function openConsoleSession(
  ctx: AppContext,
  apiKey: string,
): Promise<{ token: string; session: ConsoleSession }> {
  const principal = apiKey ? await ctx.keys.authenticate(apiKey) : null;
  if (!principal)
    throw new ApiError(
      "invalid_api_key",
      "This API key is unknown or revoked. Paste the whole key, exactly as it was issued (it starts with wakha_sk_).",
    );
  const token = randomBytes(32).toString("base64url");
  const hash = hashToken(token);
  const now = new Date(ctx.now());
  const expiresAt = new Date(now.getTime() + SESSION_MAX_MS);
  await ctx.db.query(
    `INSERT INTO console_sessions (id_hash, account_id, key_id, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $4, $5)`,
    [hash, principal.accountId, principal.keyId, now, expiresAt],
  );
  // Dead sessions are cleared as new ones open (past their absolute expiry anywhere, idle ones of this account):
  // the table holds the live sessions and a few stale ones, which the lookup refuses anyway.
  await ctx.db.query("DELETE FROM console_sessions WHERE expires_at <= $1", [now]);
  await ctx.db.query("DELETE FROM console_sessions WHERE account_id = $1 AND last_seen_at <= $2", [
    principal.accountId,
    new Date(now.getTime() - SESSION_IDLE_MS),
  ]);
  return { token, session: { principal, idHash: hash.toString("hex"), createdAt: now, expiresAt } };
}

/**
 * The live session behind a cookie value, or null: unknown, idle for SESSION_IDLE_MS, past its absolute expiry,
 * or opened with a key that has since been revoked (a revoked key ends its sessions at once, on every node).
 */
export async function findConsoleSession(ctx: AppContext, token: string | undefined): Promise<ConsoleSession | null> {
  if (!token || token.length > 100) return null;
  const hash = hashToken(token);
  const now = ctx.now();
  const { rows } = await ctx.db.query<{
    account_id: string;
    key_id: string;
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
  }>(
    `SELECT s.account_id, s.key_id, s.created_at, s.last_seen_at, s.expires_at FROM console_sessions s
     JOIN api_keys k ON k.id = s.key_id AND k.revoked_at IS NULL
     WHERE s.id_hash = $1 AND s.expires_at > $2 AND s.last_seen_at > $3`,
    [hash, new Date(now), new Date(now - SESSION_IDLE_MS)],
  );
  const row = rows[0];
  if (!row) return null;
  if (now - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
    await ctx.db.query("UPDATE console_sessions SET last_seen_at = $2 WHERE id_hash = $1", [hash, new Date(now)]);
  }
  return {
    principal: { accountId: row.account_id, keyId: row.key_id },
    idHash: hash.toString("hex"),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** Sign-out: the session is deleted, so its cookie opens nothing any more. */
export async function closeConsoleSession(ctx: AppContext, token: string | undefined): Promise<void> {
  if (!token || token.length > 100) return;
  await ctx.db.query("DELETE FROM console_sessions WHERE id_hash = $1", [hashToken(token)]);
}

/** The zones Intl knows (IANA names), plus UTC. */
export function isTimeZone(value: string): boolean {
  return value === "UTC" || Intl.supportedValuesOf("timeZone").includes(value);
}

export const DEFAULT_TIME_ZONE = "UTC";

/** The time zone the console shows the account's times in (UTC until one is chosen). */
export async function getConsoleTimeZone(ctx: AppContext, who: Principal): Promise<string> {
  const { rows } = await ctx.db.query<{ time_zone: string }>(
    "SELECT time_zone FROM console_preferences WHERE account_id = $1",
    [who.accountId],
  );
  return rows[0]?.time_zone ?? DEFAULT_TIME_ZONE;
}

export async function setConsoleTimeZone(ctx: AppContext, who: Principal, timeZone: string): Promise<string> {
  if (!isTimeZone(timeZone)) {
    throw new ApiError(
      "validation_error",
      `"${timeZone.slice(0, 64)}" is not a time zone: use an IANA name such as Africa/Casablanca or Europe/Paris.`,
      {
        issues: [{ path: ["time_zone"], msg: "Value is not an IANA time zone", type: "value_error" }],
      },
    );
  }
  await ctx.db.query(
    `INSERT INTO console_preferences (account_id, time_zone) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET time_zone = EXCLUDED.time_zone`,
    [who.accountId, timeZone],
  );
  return timeZone;
}

export interface CallStatusOut {
  id: string;
  status: CallStatus;
  outcome: string | null;
}

/** The current status of some of the account's calls, in one read: the live updates of a page of calls. */
export async function getCallStatuses(ctx: AppContext, who: Principal, ids: string[]): Promise<CallStatusOut[]> {
  const valid = [...new Set(ids.filter((id) => CALL_ID.test(id)).map((id) => id.toLowerCase()))].slice(0, 100);
  if (valid.length === 0) return [];
  const { rows } = await ctx.db.query<CallStatusOut>(
    "SELECT id, status, outcome FROM calls WHERE account_id = $1 AND id = ANY($2::uuid[])",
    [who.accountId, valid],
  );
  return rows;
}

export interface DailyUsage {
  /** YYYY-MM-DD in the time zone asked for. */
  day: string;
  billedSeconds: number;
  calls: number;
}

/** Seconds billed per day over the last `days` days (today included), in the given time zone; days without calls are 0. */
export async function getDailyUsage(
  ctx: AppContext,
  who: Principal,
  days: number,
  timeZone: string,
): Promise<DailyUsage[]> {
  const zone = isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const { rows } = await ctx.db.query<{ day: string; billed: number; calls: number }>(
    `WITH span AS (SELECT (($1::timestamptz AT TIME ZONE $2)::date - ($3::int - 1)) AS first, ($1::timestamptz AT TIME ZONE $2)::date AS last)
     SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
            COALESCE(-SUM(t.seconds), 0)::int AS billed, COUNT(t.seq)::int AS calls
     FROM span, generate_series(span.first, span.last, interval '1 day') AS d(day)
     LEFT JOIN transactions t ON t.account_id = $4 AND t.type = 'debit'
       AND t.created_at >= (d.day::timestamp AT TIME ZONE $2) AND t.created_at < ((d.day + interval '1 day')::timestamp AT TIME ZONE $2)
     GROUP BY d.day ORDER BY d.day`,
    [new Date(ctx.now()), zone, days, who.accountId],
  );
  return rows.map((r) => ({ day: r.day, billedSeconds: r.billed, calls: r.calls }));
}

/** The installation's CSRF signing key: made once by whichever node starts first, then read by all. */
export async function consoleSigningKey(ctx: AppContext): Promise<Buffer> {
  await ctx.db.query(
    "INSERT INTO console_secret (singleton, key) VALUES (true, $1) ON CONFLICT (singleton) DO NOTHING",
    [randomBytes(32)],
  );
  const { rows } = await ctx.db.query<{ key: Buffer }>("SELECT key FROM console_secret WHERE singleton");
  return rows[0]!.key;
}
