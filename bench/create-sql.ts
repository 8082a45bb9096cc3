// PostgreSQL and Node CPU per call creation through the real service (createCall), without HTTP (issue 19): N creations
// at a given concurrency on a database of its own, CPU read from /proc for the database's backends and this process.
// BENCH_CREATE_SQL="statement;statement" runs DDL on the database first (to price an index or a constraint).
//   node bench/create-sql.ts [count] [concurrency]
import pg from "pg";
import { createCall } from "../src/calls/create.ts";
import { creationFixture } from "./creation-fixture.ts";
import { benchDatabase, postgresCpuByPid, postgresCpuDelta } from "./processes.ts";

const count = Number(process.argv[2] ?? 3000);
const concurrency = Number(process.argv[3] ?? 1);
const SERVER_URL = process.env["DATABASE_URL"] || "postgresql://postgres@127.0.0.1:5432/postgres";
const db = await benchDatabase(SERVER_URL, "create_sql");
try {
  const { ctx, who, body } = await creationFixture(db.url);
  let n = 0;
  const run = async (total: number) => {
    const worker = async () => {
      while (n < total) {
        const i = n++;
        await createCall(ctx, who, body(i), `key-${i}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  await run(500); // warm-up: JIT, prepared statements, caches
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  await admin.query("CHECKPOINT");
  const [p0, c0, t0] = [await postgresCpuByPid(db.name), process.cpuUsage(), performance.now()];
  await run(500 + count);
  const [p1, c1, t1] = [await postgresCpuByPid(db.name), process.cpuUsage(c0), performance.now()];
  // Calls written by one statement share its transaction id: how many creations each write carried (group commit).
  const {
    rows: [tx],
  } = await admin.query<{ calls: number; writes: number }>(
    "SELECT count(*)::int AS calls, count(DISTINCT xmin::text)::int AS writes FROM calls",
  );
  await admin.end();
  const pgMs = (postgresCpuDelta(p0, p1) * 1000) / count;
  const nodeMs = (c1.user + c1.system) / 1000 / count;
  process.stdout.write(
    `Node user ${(c1.user / 1000 / count).toFixed(3)} ms, system ${(c1.system / 1000 / count).toFixed(3)} ms per creation\n`,
  );
  process.stdout.write(
    `${count} creations at concurrency ${concurrency}: ${((count * 1000) / (t1 - t0)).toFixed(0)}/s; PostgreSQL ${pgMs.toFixed(3)} ms, Node ${nodeMs.toFixed(3)} ms of CPU per creation\n`,
  );
  process.stdout.write(
    `${tx!.calls} calls written by ${tx!.writes} write statements: ${(tx!.calls / tx!.writes).toFixed(1)} creations per commit\n`,
  );
  await ctx.close();
} finally {
  await db.drop();
}
