import { randomUUID } from "node:crypto";
import type { AppContext, Principal } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import {
  EXTERNAL_ID_MAX,
  isExternalId,
  type RecordStatus,
  STATUS_FILTERS,
  type StatusFilter,
} from "../domain/catalogue.ts";
import type { Country } from "../domain/locale.ts";
import { ApiError } from "../errors.ts";
import type { Page, PageInput } from "../pagination.ts";
import type { ShopCreateInput, ShopOut, ShopUpdateInput } from "../schemas/shops.ts";

/** An active shop with its database id, for the services that hang records under it (products, calls). */
export interface ActiveShop extends ShopOut {
  id: string;
}

interface ShopRow {
  id: string;
  seq: number;
  external_id: string;
  merchant_external_id: string;
  name: string;
  contact_phone: string | null;
  default_country: Country | null;
  status: RecordStatus;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

const COLUMNS =
  "id, seq, external_id, merchant_external_id, name, contact_phone, default_country, status, created_at, updated_at, archived_at";
// Columns a PATCH may set, in a fixed order: the SQL text never comes from the request.
const UPDATABLE = ["merchant_external_id", "name", "contact_phone", "default_country"] as const;

function toShopOut(row: ShopRow): ShopOut {
  return {
    external_id: row.external_id,
    merchant_external_id: row.merchant_external_id,
    name: row.name,
    contact_phone: row.contact_phone,
    default_country: row.default_country,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    archived_at: row.archived_at?.toISOString() ?? null,
  };
}

/** True for a PostgreSQL unique violation on the named constraint. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: unknown; constraint?: unknown } | null;
  return e?.code === "23505" && e.constraint === constraint;
}

/** Validates a list's `status` filter: absent means `active`; anything unknown is 400 invalid_status_filter. */
export function parseStatusFilter(value: string | undefined): StatusFilter {
  if (value === undefined) return "active";
  if ((STATUS_FILTERS as readonly string[]).includes(value)) return value as StatusFilter;
  throw new ApiError(
    "invalid_status_filter",
    `Unknown status filter "${value.slice(0, 64)}". Accepted values: active (the default), archived, all.`,
  );
}

export function shopNotFound(externalId: string): ApiError {
  return new ApiError(
    "shop_not_found",
    `No active shop with external id ${JSON.stringify(externalId.slice(0, EXTERNAL_ID_MAX))} on this account.`,
  );
}

async function activeShopRow(
  db: Queryable,
  accountId: string,
  externalId: string,
  lock: "" | "FOR SHARE",
): Promise<ShopRow> {
  // An id no shop can have (a NUL byte would even make PostgreSQL fail) is simply not found.
  if (!isExternalId(externalId)) throw shopNotFound(externalId);
  const { rows } = await db.query<ShopRow>(
    `SELECT ${COLUMNS} FROM shops WHERE account_id = $1 AND external_id = $2 AND status = 'active' ${lock}`,
    [accountId, externalId],
  );
  if (!rows[0]) throw shopNotFound(externalId);
  return rows[0];
}

/**
 * The account's active shop with this external id, or 404 shop_not_found (missing, archived and foreign shops
 * answer alike). With `lock`, inside a transaction, the shop cannot be archived until that transaction ends.
 */
export async function findActiveShop(
  db: Queryable,
  accountId: string,
  externalId: string,
  options: { lock?: boolean } = {},
): Promise<ActiveShop> {
  const row = await activeShopRow(db, accountId, externalId, options.lock ? "FOR SHARE" : "");
  return { id: row.id, ...toShopOut(row) };
}

/** Creates a shop; an external id already used on the account (even archived) is 409, never an update. */
export async function createShop(ctx: AppContext, who: Principal, input: ShopCreateInput): Promise<ShopOut> {
  try {
    const { rows } = await ctx.db.query<ShopRow>(
      `INSERT INTO shops (id, account_id, external_id, merchant_external_id, name, contact_phone, default_country)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [
        randomUUID(),
        who.accountId,
        input.external_id,
        input.merchant_external_id,
        input.name,
        input.contact_phone ?? null,
        input.default_country ?? null,
      ],
    );
    return toShopOut(rows[0]!);
  } catch (err) {
    if (isUniqueViolation(err, "shops_account_id_external_id_key")) {
      throw new ApiError(
        "shop_external_id_already_exists",
        `A shop with external id "${input.external_id}" already exists on this account (perhaps archived). Update it instead (PATCH /v1/shops/{external_id}, or the update_shop tool).`,
      );
    }
    throw err;
  }
}

/** Lists the account's shops, newest first, filtered by status. */
export async function listShops(
  ctx: AppContext,
  who: Principal,
  filter: { status?: string | undefined },
  page: PageInput,
): Promise<Page<ShopOut>> {
  const status = parseStatusFilter(filter.status);
  const scope = `shops|${who.accountId}|${status}`;
  const after = ctx.paginator.start(scope, page.cursor);
  const { rows } = await ctx.db.query<ShopRow>(
    `SELECT ${COLUMNS} FROM shops
     WHERE account_id = $1 AND ($2 = 'all' OR status = $2) AND ($3::bigint IS NULL OR seq < $3)
     ORDER BY seq DESC LIMIT $4`,
    [who.accountId, status, after, page.limit + 1],
  );
  return ctx.paginator.page(scope, rows, page.limit, toShopOut);
}

/** Reads one active shop. */
export async function getShop(ctx: AppContext, who: Principal, externalId: string): Promise<ShopOut> {
  return toShopOut(await activeShopRow(ctx.db, who.accountId, externalId, ""));
}

/** Updates the fields given; an empty body changes nothing. */
export async function updateShop(
  ctx: AppContext,
  who: Principal,
  externalId: string,
  input: ShopUpdateInput,
): Promise<ShopOut> {
  const sets: string[] = [];
  const values: unknown[] = [who.accountId, externalId];
  for (const column of UPDATABLE) {
    if (input[column] === undefined) continue;
    values.push(input[column]);
    sets.push(`${column} = $${values.length}`);
  }
  if (sets.length === 0) return getShop(ctx, who, externalId);
  if (!isExternalId(externalId)) throw shopNotFound(externalId);
  const { rows } = await ctx.db.query<ShopRow>(
    `UPDATE shops SET ${sets.join(", ")}, updated_at = now()
     WHERE account_id = $1 AND external_id = $2 AND status = 'active' RETURNING ${COLUMNS}`,
    values,
  );
  if (!rows[0]) throw shopNotFound(externalId);
  return toShopOut(rows[0]);
}

/** Archives an active shop and returns it; its external id stays reserved and its products stay as they are. */
export async function archiveShop(ctx: AppContext, who: Principal, externalId: string): Promise<ShopOut> {
  if (!isExternalId(externalId)) throw shopNotFound(externalId);
  const { rows } = await ctx.db.query<ShopRow>(
    `UPDATE shops SET status = 'archived', archived_at = now(), updated_at = now()
     WHERE account_id = $1 AND external_id = $2 AND status = 'active' RETURNING ${COLUMNS}`,
    [who.accountId, externalId],
  );
  if (!rows[0]) throw shopNotFound(externalId);
  return toShopOut(rows[0]);
}
