// The setup bench/create-sql.ts and bench/create-statements.ts share (issue 19): the app's root on a migrated bench
// database, an account with a large balance, a shop with one product of one variant, optional DDL to price a schema
// change, and the CallCreate body both scripts create (a catalogue line and an ad-hoc line).
import { randomUUID } from "node:crypto";
import { loadConfig } from "../src/config/config.ts";
import { migrate } from "../src/db/migrate.ts";
import type { Principal } from "../src/context.ts";
import { createRoot, type Root } from "../src/root/root.ts";
import { createBatchEnv } from "./processes.ts";
import { createAccount } from "../src/services/accounts.ts";
import { type CallCreate, callCreateSchema } from "../src/schemas/calls.ts";

export interface CreationFixture {
  ctx: Root;
  who: Principal;
  /** The body of creation `n` (its own order external id). */
  body(n: number | string): CallCreate;
}

/** Migrates `databaseUrl`, runs BENCH_CREATE_SQL's statements (";"-separated) on it, and seeds the catalogue. */
export async function creationFixture(databaseUrl: string): Promise<CreationFixture> {
  await migrate(databaseUrl);
  const ctx = await createRoot(
    loadConfig({
      LOG_LEVEL: "silent",
      DATABASE_URL: databaseUrl,
      WAKHA_CALLING_HOURS: "off",
      WAKHA_NUMBER_DAILY_LIMIT: "0",
      ...createBatchEnv(),
    }),
    { databaseUrl },
  );
  const account = await createAccount(ctx.db, { name: "bench", balanceSeconds: 1_000_000_000 });
  const shopId = randomUUID();
  await ctx.db.query(
    "INSERT INTO shops (id, account_id, external_id, merchant_external_id, name, status) VALUES ($1, $2, 'bench-shop', 'm', 'Bench', 'active')",
    [shopId, account.account_id],
  );
  const productId = randomUUID();
  await ctx.db.query(
    "INSERT INTO products (id, shop_id, external_id, name, status) VALUES ($1, $2, 'caftan', 'Caftan', 'active')",
    [productId, shopId],
  );
  await ctx.db.query(
    "INSERT INTO product_variants (id, product_id, variant_external_id, name, price, position, status) VALUES ($1, $2, 'caftan-red-m', 'Red, M', '249.00', 0, 'active')",
    [randomUUID(), productId],
  );
  for (const ddl of (process.env["BENCH_CREATE_SQL"] ?? "").split(";").filter((s) => s.trim())) await ctx.db.query(ddl);
  return {
    ctx,
    who: { accountId: account.account_id, keyId: account.key_id },
    body: (n) =>
      callCreateSchema.parse({
        shop_external_id: "bench-shop",
        customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
        amount: "279.00",
        country: "MA",
        order: {
          external_id: `order-${n}`,
          items: [
            { product_external_id: "caftan", variant_external_id: "caftan-red-m", quantity: 1 },
            { name: "Shipping", unit_price: "30.00" },
          ],
        },
      }),
  };
}
