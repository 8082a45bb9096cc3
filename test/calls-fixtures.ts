// Fixtures for the calls tests: shops and products are inserted by SQL into the 002 tables.
import { randomBytes, randomUUID } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import type { AppContext } from "../src/context.ts";
import type { TestAccount, TestApp } from "./helpers.ts";

export const uid = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;

export interface ShopFixture {
  id: string;
  externalId: string;
  merchantExternalId: string;
}

export async function insertShop(
  ctx: AppContext,
  accountId: string,
  options: { status?: "active" | "archived"; merchant?: string; externalId?: string } = {},
): Promise<ShopFixture> {
  const shop = {
    id: randomUUID(),
    externalId: options.externalId ?? uid("shop"),
    merchantExternalId: options.merchant ?? uid("merchant"),
  };
  await ctx.db.query(
    `INSERT INTO shops (id, account_id, external_id, merchant_external_id, name, status, archived_at)
     VALUES ($1, $2, $3, $4, 'Test shop', $5, CASE WHEN $5 = 'archived' THEN now() END)`,
    [shop.id, accountId, shop.externalId, shop.merchantExternalId, options.status ?? "active"],
  );
  return shop;
}

export interface VariantSpec {
  id: string;
  price: string;
  name?: string;
  status?: "active" | "retired";
}

export async function insertProduct(
  ctx: AppContext,
  shopId: string,
  externalId: string,
  variants: VariantSpec[],
  options: { name?: string; status?: "active" | "archived" } = {},
): Promise<void> {
  const productId = randomUUID();
  await ctx.db.query("INSERT INTO products (id, shop_id, external_id, name, status) VALUES ($1, $2, $3, $4, $5)", [
    productId,
    shopId,
    externalId,
    options.name ?? `Product ${externalId}`,
    options.status ?? "active",
  ]);
  for (const [position, v] of variants.entries()) {
    await ctx.db.query(
      "INSERT INTO product_variants (id, product_id, variant_external_id, name, price, position, status) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [randomUUID(), productId, v.id, v.name ?? null, v.price, position, v.status ?? "active"],
    );
  }
}

/** A valid CallCreate for `shop` with one ad-hoc line; override any field. */
export function callBody(shop: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    shop_external_id: shop,
    customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
    amount: "249.00",
    country: "MA",
    order: { external_id: uid("order"), items: [{ name: "Caftan", unit_price: "249.00" }] },
    ...overrides,
  };
}

export function postCall(
  t: TestApp,
  acct: TestAccount,
  body: unknown,
  key: string | null = randomUUID(),
  extra: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...acct.headers, ...extra };
  if (key !== null) headers["idempotency-key"] = key;
  return t.app.inject({ method: "POST", url: "/v1/calls", headers, payload: body as object });
}

/** The validation entries of a 422, as [loc joined by dots, type]. */
export function entries(res: LightMyRequestResponse): [string, string][] {
  const body = res.json() as { errors?: { loc: (string | number)[]; type: string }[] };
  return (body.errors ?? []).map((e) => [e.loc.join("."), e.type]);
}

export async function countCalls(ctx: AppContext, accountId: string): Promise<number> {
  const { rows } = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM calls WHERE account_id = $1", [
    accountId,
  ]);
  return rows[0]!.n;
}
