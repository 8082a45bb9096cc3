// PostgreSQL and Node CPU per call creation through the real service (createCall), without HTTP (issue 19): N creations
// at a given concurrency on a database of its own, CPU read from /proc for the database's backends and this process.
// BENCH_CREATE_SQL="statement;statement" runs DDL on the database first (to price an index or a constraint).
//   node bench/create-sql.ts [count] [concurrency]
import { randomUUID } from "node:crypto";
import pg from "pg";
import { loadConfig } from "../src/config.ts";
import { migrate } from "../src/db/migrate.ts";
import { createRoot } from "../src/root.ts";
import { createAccount } from "../src/services/accounts.ts";
import { createCall } from "../src/services/calls.ts";
import { callCreateSchema } from "../src/schemas/calls.ts";
import { benchDatabase, postgresCpuByPid, postgresCpuDelta } from "./processes.ts";

const count = Number(process.argv[2] ?? 3000);
const concurrency = Number(process.argv[3] ?? 1);
const SERVER_URL = process.env["DATABASE_URL"] || "postgresql://postgres@127.0.0.1:5432/postgres";
const db = await benchDatabase(SERVER_URL, "create_sql");
try {
  await migrate(db.url);
  const ctx = await createRoot(loadConfig({ LOG_LEVEL: "silent", DATABASE_URL: db.url, WAKHA_CALLING_HOURS: "off" }), { databaseUrl: db.url });
  const account = await createAccount(ctx.db, { name: "bench", balanceSeconds: 1_000_000_000 });
  const shopId = randomUUID();
  await ctx.db.query("INSERT INTO shops (id, account_id, external_id, merchant_external_id, name, status) VALUES ($1, $2, 'bench-shop', 'm', 'Bench', 'active')", [shopId, account.account_id]);
  const productId = randomUUID();
  await ctx.db.query("INSERT INTO products (id, shop_id, external_id, name, status) VALUES ($1, $2, 'caftan', 'Caftan', 'active')", [productId, shopId]);
  await ctx.db.query("INSERT INTO product_variants (id, product_id, variant_external_id, name, price, position, status) VALUES ($1, $2, 'caftan-red-m', 'Red, M', '249.00', 0, 'active')", [randomUUID(), productId]);
  for (const ddl of (process.env["BENCH_CREATE_SQL"] ?? "").split(";").filter((s) => s.trim())) await ctx.db.query(ddl);
  const who = { accountId: account.account_id, keyId: account.key_id };
  const body = (n: number) => callCreateSchema.parse({
    shop_external_id: "bench-shop", customer: { name: "Fatima Zahra", phone_number: "+212612345601" }, amount: "279.00", country: "MA",
    order: { external_id: `order-${n}`, items: [{ product_external_id: "caftan", variant_external_id: "caftan-red-m", quantity: 1 }, { name: "Shipping", unit_price: "30.00" }] },
  });
  let n = 0;
  const run = async (total: number) => {
    const worker = async () => { while (n < total) { const i = n++; await createCall(ctx, who, body(i), `key-${i}`); } };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  await run(500); // warm-up: JIT, prepared statements, caches
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query("CHECKPOINT");
  const [p0, c0, t0] = [await postgresCpuByPid(db.name), process.cpuUsage(), performance.now()];
  await run(500 + count);
  const [p1, c1, t1] = [await postgresCpuByPid(db.name), process.cpuUsage(c0), performance.now()];
  await admin.end();
  const pgMs = (postgresCpuDelta(p0, p1) * 1000) / count;
  const nodeMs = (c1.user + c1.system) / 1000 / count;
  process.stdout.write(`Node user ${(c1.user / 1000 / count).toFixed(3)} ms, system ${(c1.system / 1000 / count).toFixed(3)} ms per creation\n`);
  process.stdout.write(`${count} creations at concurrency ${concurrency}: ${((count * 1000) / (t1 - t0)).toFixed(0)}/s; PostgreSQL ${pgMs.toFixed(3)} ms, Node ${nodeMs.toFixed(3)} ms of CPU per creation\n`);
  await ctx.close();
} finally {
  await db.drop();
}
