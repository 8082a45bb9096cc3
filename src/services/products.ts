import { randomUUID } from "node:crypto";
import type { AppContext, Principal } from "../context.ts";
import type { Queryable } from "../db/pool.ts";
import { EXTERNAL_ID_MAX, isExternalId, type RecordStatus } from "../domain/catalogue.ts";
import { ApiError, type InputIssue } from "../errors.ts";
import type { Page, PageInput } from "../pagination.ts";
import type { ProductCreateInput, ProductOut, ProductUpdateInput, VariantOut } from "../schemas/products.ts";
import { type ActiveShop, findActiveShop, isUniqueViolation, parseStatusFilter } from "./shops.ts";

/** An active product with its active variants and their database ids, for resolving order lines. */
export interface ActiveProduct {
  id: string;
  external_id: string;
  name: string;
  variants: (VariantOut & { id: string })[];
}

interface ProductRow {
  id: string;
  seq: number;
  external_id: string;
  name: string;
  description: string | null;
  status: RecordStatus;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

interface VariantRow {
  id: string;
  product_id: string;
  variant_external_id: string;
  name: string | null;
  price: string;
  position: number;
  status: "active" | "retired";
}

const COLUMNS = "id, seq, external_id, name, description, status, created_at, updated_at, archived_at";
const VARIANT_COLUMNS = "id, product_id, variant_external_id, name, price::text AS price, position, status";

function productNotFound(externalId: string): ApiError {
  return new ApiError(
    "product_not_found",
    `No active product with external id ${JSON.stringify(externalId.slice(0, EXTERNAL_ID_MAX))} in this shop.`,
  );
}

function invalid(issues: InputIssue[]): ApiError {
  return new ApiError(
    "validation_error",
    "The request does not match the product's current state; see `errors`. Nothing was written.",
    { issues },
  );
}

/** Active variants of the given products, grouped by product id, in position order. */
async function activeVariants(db: Queryable, productIds: string[]): Promise<Map<string, VariantRow[]>> {
  const byProduct = new Map<string, VariantRow[]>();
  if (productIds.length === 0) return byProduct;
  const { rows } = await db.query<VariantRow>(
    `SELECT ${VARIANT_COLUMNS} FROM product_variants WHERE product_id = ANY($1::uuid[]) AND status = 'active' ORDER BY position`,
    [productIds],
  );
  for (const row of rows) byProduct.set(row.product_id, [...(byProduct.get(row.product_id) ?? []), row]);
  return byProduct;
}

function toProductOut(shop: ActiveShop, row: ProductRow, variants: VariantRow[]): ProductOut {
  return {
    external_id: row.external_id,
    shop_external_id: shop.external_id,
    name: row.name,
    description: row.description,
    status: row.status,
    variants: variants.map((v) => ({ variant_external_id: v.variant_external_id, name: v.name, price: v.price })),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    archived_at: row.archived_at?.toISOString() ?? null,
  };
}

async function withVariants(db: Queryable, shop: ActiveShop, row: ProductRow): Promise<ProductOut> {
  return toProductOut(shop, row, (await activeVariants(db, [row.id])).get(row.id) ?? []);
}

async function activeProductRow(db: Queryable, shopId: string, externalId: string, lock: boolean): Promise<ProductRow> {
  if (!isExternalId(externalId)) throw productNotFound(externalId);
  const { rows } = await db.query<ProductRow>(
    `SELECT ${COLUMNS} FROM products WHERE shop_id = $1 AND external_id = $2 AND status = 'active' ${lock ? "FOR UPDATE" : ""}`,
    [shopId, externalId],
  );
  if (!rows[0]) throw productNotFound(externalId);
  return rows[0];
}

/** Active products of a shop by external id, each with its active variants; unknown or archived ids are absent. */
export async function findActiveProducts(
  db: Queryable,
  shopId: string,
  externalIds: string[],
): Promise<Map<string, ActiveProduct>> {
  const found = new Map<string, ActiveProduct>();
  externalIds = externalIds.filter(isExternalId);
  if (externalIds.length === 0) return found;
  const { rows } = await db.query<ProductRow>(
    `SELECT ${COLUMNS} FROM products WHERE shop_id = $1 AND external_id = ANY($2::text[]) AND status = 'active'`,
    [shopId, externalIds],
  );
  const variants = await activeVariants(
    db,
    rows.map((r) => r.id),
  );
  for (const row of rows) {
    found.set(row.external_id, {
      id: row.id,
      external_id: row.external_id,
      name: row.name,
      variants: (variants.get(row.id) ?? []).map((v) => ({
        id: v.id,
        variant_external_id: v.variant_external_id,
        name: v.name,
        price: v.price,
      })),
    });
  }
  return found;
}

/** Creates a product and its variants in one transaction; an external id already used in the shop is 409. */
export async function createProduct(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  input: ProductCreateInput,
): Promise<ProductOut> {
  return ctx.db.tx(async (client) => {
    const shop = await findActiveShop(client, who.accountId, shopExternalId, { lock: true });
    let row: ProductRow;
    try {
      const { rows } = await client.query<ProductRow>(
        `INSERT INTO products (id, shop_id, external_id, name, description) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [randomUUID(), shop.id, input.external_id, input.name, input.description ?? null],
      );
      row = rows[0]!;
    } catch (err) {
      if (isUniqueViolation(err, "products_shop_id_external_id_key")) {
        throw new ApiError(
          "product_external_id_already_exists",
          `The shop already has a product with external id "${input.external_id}" (perhaps archived). Update it instead (PATCH /v1/shops/{shop_external_id}/products/{product_external_id}, or the update_product tool).`,
        );
      }
      throw err;
    }
    const vs = input.variants;
    await client.query(
      `INSERT INTO product_variants (id, product_id, variant_external_id, name, price, position)
       SELECT id, $1, vid, name, price, position FROM unnest($2::uuid[], $3::text[], $4::text[], $5::numeric[], $6::int[]) AS v(id, vid, name, price, position)`,
      [
        row.id,
        vs.map(() => randomUUID()),
        vs.map((v) => v.variant_external_id),
        vs.map((v) => v.name ?? null),
        vs.map((v) => v.price),
        vs.map((_v, i) => i),
      ],
    );
    return withVariants(client, shop, row);
  });
}

/** Lists a shop's products with their active variants, newest first, filtered by status. */
export async function listProducts(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  filter: { status?: string | undefined },
  page: PageInput,
): Promise<Page<ProductOut>> {
  const status = parseStatusFilter(filter.status);
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  const scope = `products|${who.accountId}|${shop.id}|${status}`;
  const after = ctx.paginator.start(scope, page.cursor);
  const { rows } = await ctx.db.query<ProductRow>(
    `SELECT ${COLUMNS} FROM products
     WHERE shop_id = $1 AND ($2 = 'all' OR status = $2) AND ($3::bigint IS NULL OR seq < $3)
     ORDER BY seq DESC LIMIT $4`,
    [shop.id, status, after, page.limit + 1],
  );
  const variants = await activeVariants(
    ctx.db,
    rows.slice(0, page.limit).map((r) => r.id),
  );
  return ctx.paginator.page(scope, rows, page.limit, (row) => toProductOut(shop, row, variants.get(row.id) ?? []));
}

/** Reads one active product with all its active variants and prices. */
export async function getProduct(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  externalId: string,
): Promise<ProductOut> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  return withVariants(ctx.db, shop, await activeProductRow(ctx.db, shop.id, externalId, false));
}

/**
 * Renames, describes, reprices, adds and retires variants in one transaction. Checks against the stored
 * variants (a new variant needs a price, a retired id must exist, one active variant must remain) answer 422
 * before anything is written.
 */
export async function updateProduct(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  externalId: string,
  input: ProductUpdateInput,
): Promise<ProductOut> {
  return ctx.db.tx(async (client) => {
    const shop = await findActiveShop(client, who.accountId, shopExternalId, { lock: true });
    // The row lock serialises concurrent PATCHes, so the one-active-variant rule holds.
    const product = await activeProductRow(client, shop.id, externalId, true);
    const { rows: stored } = await client.query<VariantRow>(
      `SELECT ${VARIANT_COLUMNS} FROM product_variants WHERE product_id = $1`,
      [product.id],
    );
    const byId = new Map(stored.map((v) => [v.variant_external_id, v]));
    const upserts = input.variants ?? [];
    const retire = input.retire_variants ?? [];

    const errors: InputIssue[] = [];
    upserts.forEach((v, i) => {
      if (v.price === undefined && byId.get(v.variant_external_id)?.status !== "active") {
        errors.push({
          path: ["variants", i, "price"],
          msg: `Field required: "${v.variant_external_id}" is not an active variant, so it needs a price`,
          type: "missing",
        });
      }
    });
    retire.forEach((id, i) => {
      if (!byId.has(id))
        errors.push({
          path: ["retire_variants", i],
          msg: `Value error, the product has no variant "${id}"`,
          type: "value_error",
        });
    });
    const active = new Set(stored.filter((v) => v.status === "active").map((v) => v.variant_external_id));
    for (const v of upserts) active.add(v.variant_external_id);
    for (const id of retire) active.delete(id);
    if (errors.length === 0 && active.size === 0) {
      errors.push({
        path: ["retire_variants"],
        msg: "Value error, a product must keep at least one active variant",
        type: "value_error",
      });
    }
    if (errors.length > 0) throw invalid(errors);

    let position = Math.max(-1, ...stored.map((v) => v.position));
    for (const v of upserts) {
      const existing = byId.get(v.variant_external_id);
      if (existing) {
        await client.query(
          `UPDATE product_variants SET price = COALESCE($2::numeric, price), name = CASE WHEN $3 THEN $4 ELSE name END,
             status = 'active', updated_at = now() WHERE id = $1`,
          [existing.id, v.price ?? null, v.name !== undefined, v.name ?? null],
        );
      } else {
        position += 1;
        await client.query(
          "INSERT INTO product_variants (id, product_id, variant_external_id, name, price, position) VALUES ($1, $2, $3, $4, $5, $6)",
          [randomUUID(), product.id, v.variant_external_id, v.name ?? null, v.price, position],
        );
      }
    }
    if (retire.length > 0) {
      await client.query(
        "UPDATE product_variants SET status = 'retired', updated_at = now() WHERE product_id = $1 AND variant_external_id = ANY($2::text[]) AND status = 'active'",
        [product.id, retire],
      );
    }

    const touched =
      input.name !== undefined || input.description !== undefined || upserts.length > 0 || retire.length > 0;
    if (!touched) return withVariants(client, shop, product);
    const { rows } = await client.query<ProductRow>(
      `UPDATE products SET name = COALESCE($2, name), description = CASE WHEN $3 THEN $4 ELSE description END, updated_at = now()
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [product.id, input.name ?? null, input.description !== undefined, input.description ?? null],
    );
    return withVariants(client, shop, rows[0]!);
  });
}

/** Archives an active product and returns it; its external id stays reserved in the shop. */
export async function archiveProduct(
  ctx: AppContext,
  who: Principal,
  shopExternalId: string,
  externalId: string,
): Promise<ProductOut> {
  const shop = await findActiveShop(ctx.db, who.accountId, shopExternalId);
  if (!isExternalId(externalId)) throw productNotFound(externalId);
  const { rows } = await ctx.db.query<ProductRow>(
    `UPDATE products SET status = 'archived', archived_at = now(), updated_at = now()
     WHERE shop_id = $1 AND external_id = $2 AND status = 'active' RETURNING ${COLUMNS}`,
    [shop.id, externalId],
  );
  if (!rows[0]) throw productNotFound(externalId);
  return withVariants(ctx.db, shop, rows[0]);
}
