import { randomBytes, randomUUID } from "node:crypto";
import { hashApiKey } from "../auth/key-authenticator.ts";
import type { Principal, AppContext } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import { ApiError } from "../errors.ts";
import type { Page, PageInput } from "../pagination.ts";
import type { ApiKeyOut, CreatedApiKey, KeyEventOut } from "../schemas/keys.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const KEY_PREFIX = "wakha_sk_";

interface KeyRow {
  id: string;
  seq: number;
  name: string | null;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

function toKeyOut(row: KeyRow): ApiKeyOut {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    status: row.revoked_at ? "revoked" : "active",
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/** Validates a key id from a path: a strict UUID v4, else 400 invalid_key_id (not 404). */
export function parseKeyId(id: string): string {
  if (!UUID_V4.test(id))
    throw new ApiError("invalid_key_id", `"${id.slice(0, 64)}" is not a UUID v4 (8-4-4-4-12 hexadecimal, version 4).`);
  return id.toLowerCase();
}

/** Issues a new key for an account inside the caller's transaction; the secret leaves only in the result. */
export async function issueApiKey(
  client: Queryable,
  accountId: string,
  name: string | null,
  byKeyId: string | null,
): Promise<CreatedApiKey> {
  const secret = KEY_PREFIX + randomBytes(24).toString("base64url");
  const id = randomUUID();
  const prefix = secret.slice(0, KEY_PREFIX.length + 4);
  const { rows } = await client.query<KeyRow>(
    `INSERT INTO api_keys (id, account_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4, $5)
     RETURNING id, seq, name, prefix, created_at, last_used_at, revoked_at`,
    [id, accountId, name, prefix, hashApiKey(secret)],
  );
  await recordKeyEvent(client, id, "created", byKeyId ? { by_key_id: byKeyId } : { by: "cli" });
  const { last_used_at: _l, revoked_at: _r, ...out } = toKeyOut(rows[0]!);
  return { ...out, api_key: secret };
}

export async function recordKeyEvent(
  client: Queryable,
  keyId: string,
  type: string,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await client.query("INSERT INTO api_key_events (id, key_id, type, detail) VALUES ($1, $2, $3, $4)", [
    randomUUID(),
    keyId,
    type,
    detail,
  ]);
}

/** Creates a key on the caller's account. */
export async function createApiKey(
  ctx: AppContext,
  who: Principal,
  input: { name?: string | undefined },
): Promise<CreatedApiKey> {
  return ctx.db.tx((client) => issueApiKey(client, who.accountId, input.name ?? null, who.keyId));
}

/** Lists the account's keys, newest first; secrets are never readable again. */
export async function listApiKeys(ctx: AppContext, who: Principal, page: PageInput): Promise<Page<ApiKeyOut>> {
  const scope = `api-keys|${who.accountId}`;
  const after = ctx.paginator.start(scope, page.cursor);
  const { rows } = await ctx.db.query<KeyRow>(
    `SELECT id, seq, name, prefix, created_at, last_used_at, revoked_at FROM api_keys
     WHERE account_id = $1 AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3`,
    [who.accountId, after, page.limit + 1],
  );
  return ctx.paginator.page(scope, rows, page.limit, toKeyOut);
}

async function ownedKey(db: Queryable, who: Principal, rawId: string): Promise<KeyRow> {
  const id = parseKeyId(rawId);
  const { rows } = await db.query<KeyRow>(
    "SELECT id, seq, name, prefix, created_at, last_used_at, revoked_at FROM api_keys WHERE id = $1 AND account_id = $2",
    [id, who.accountId],
  );
  if (!rows[0]) throw new ApiError("api_key_not_found", `No API key ${id} on this account.`);
  return rows[0];
}

/** Revokes a key; revoking a revoked key changes nothing. Other nodes stop honouring it within the cache TTL. */
export async function revokeApiKey(ctx: AppContext, who: Principal, rawId: string): Promise<void> {
  const keyId = await ctx.db.tx(async (client) => {
    const key = await ownedKey(client, who, rawId);
    const { rowCount } = await client.query(
      "UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL",
      [key.id],
    );
    if (rowCount) await recordKeyEvent(client, key.id, "revoked", { by_key_id: who.keyId });
    return key.id;
  });
  ctx.keys.forget(keyId);
}

/** The audit events of one of the account's keys, newest first. */
export async function listKeyEvents(
  ctx: AppContext,
  who: Principal,
  rawId: string,
  page: PageInput,
): Promise<Page<KeyEventOut>> {
  const key = await ownedKey(ctx.db, who, rawId);
  const scope = `key-events|${who.accountId}|${key.id}`;
  const after = ctx.paginator.start(scope, page.cursor);
  const { rows } = await ctx.db.query<{
    seq: number;
    id: string;
    type: string;
    detail: Record<string, unknown>;
    created_at: Date;
  }>(
    `SELECT seq, id, type, detail, created_at FROM api_key_events
     WHERE key_id = $1 AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3`,
    [key.id, after, page.limit + 1],
  );
  return ctx.paginator.page(scope, rows, page.limit, (r) => ({
    id: r.id,
    type: r.type,
    detail: r.detail,
    created_at: r.created_at.toISOString(),
  }));
}
