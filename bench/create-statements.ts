// PostgreSQL CPU per statement of a call creation (issue 19), on one dedicated backend whose CPU is read from /proc:
// 300 creations through the real service capture the snapshot's and the write's statements and values, then each is
// run N times alone (the write with fresh ids), next to the bare insert of baseline W. BENCH_CREATE_SQL="...;..." prices a schema
// change (an index or a constraint dropped) on the run's own database.
//   node bench/create-statements.ts [N]
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { createCall } from "../src/calls/create.ts";
import { creationFixture } from "./creation-fixture.ts";
import { benchDatabase } from "./processes.ts";

const N = Number(process.argv[2] ?? 2000);
const db = await benchDatabase(process.env["DATABASE_URL"] || "postgresql://postgres@127.0.0.1:5432/postgres", "stmts");
const captured: Record<string, { name: string; text: string; values: unknown[] }> = {};
const orig = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function (config: any, ...rest: any[]) {
  if (
    config &&
    typeof config === "object" &&
    typeof config.name === "string" &&
    config.name.startsWith("wakha_create_call")
  )
    captured[config.name.includes("snapshot") ? "snapshot" : "write"] = config;
  return (orig as any).call(this, config, ...rest);
};
const cpu = async (pid: number) => {
  const s = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  return (Number(s[11]) + Number(s[12])) / 100;
};
try {
  const { ctx, who, body: create } = await creationFixture(db.url);
  for (let i = 0; i < 300; i++) await createCall(ctx, who, create(`w${i}`), `key-w${i}`);
  (pg.Client.prototype as any).query = orig;
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  const pid = (await c.query("SELECT pg_backend_pid() AS p")).rows[0].p as number;
  await c.query(
    "CREATE TABLE bench_items (id uuid PRIMARY KEY, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())",
  );
  const measure = async (label: string, fn: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await fn(-i - 1);
    const c0 = await cpu(pid);
    const t0 = performance.now();
    const n0 = process.cpuUsage();
    for (let i = 0; i < N; i++) await fn(i);
    const c1 = await cpu(pid);
    const n1 = process.cpuUsage(n0);
    console.log(
      `${label}: backend ${(((c1 - c0) * 1000) / N).toFixed(3)} ms CPU, Node user ${(n1.user / 1000 / N).toFixed(3)} sys ${(n1.system / 1000 / N).toFixed(3)} ms, ${((performance.now() - t0) / N).toFixed(3)} ms wall`,
    );
  };
  const snap = captured["snapshot"]!;
  const write = captured["write"]!;
  let k = 0;
  const writeValues = () => {
    const v = [...write.values];
    k++;
    const callId = randomUUID();
    v[0] = randomUUID();
    v[3] = `o-${k}-${Math.random()}`;
    v[6] = callId;
    v[16] = `k-${k}-${Math.random()}`;
    if (v.length > 21)
      v[21] = JSON.stringify([{ ...JSON.parse(v[21] as string)[0], id: callId, data: { call_id: callId } }]);
    return v;
  };
  const body = JSON.stringify({ a: 1 });
  await measure("W: BEGIN, INSERT, COMMIT", async () => {
    await c.query("BEGIN");
    await c.query({
      name: "w",
      text: "INSERT INTO bench_items (id, payload) VALUES ($1, $2)",
      values: [randomUUID(), body],
    });
    await c.query("COMMIT");
  });
  await measure("W: one INSERT (autocommit)", async () => {
    await c.query({
      name: "w",
      text: "INSERT INTO bench_items (id, payload) VALUES ($1, $2)",
      values: [randomUUID(), body],
    });
  });
  await measure("snapshot", async () => c.query({ name: snap.name, text: snap.text, values: snap.values }));
  await measure("write (autocommit)", async () =>
    c.query({ name: write.name, text: write.text, values: writeValues() }),
  );
  const noJob = write.text
    .replace(/, j AS \([\s\S]*?RETURNING id\n\s*\)\n\s*/, "\n       ")
    .replace(/ AND wakha_check\(\(SELECT count\(\*\) FROM j\)[^)]*\)/, "");
  await measure("write without the job", async () =>
    c.query({ name: "nojob", text: noJob, values: writeValues().slice(0, 21) }),
  );
  await measure("write in BEGIN/COMMIT", async () => {
    await c.query("BEGIN");
    await c.query({ name: write.name, text: write.text, values: writeValues() });
    await c.query("COMMIT");
  });
  await measure("SELECT 1", async () => c.query({ name: "one", text: "SELECT 1", values: [] }));
  await c.end();
  await ctx.close();
} finally {
  await db.drop();
}
