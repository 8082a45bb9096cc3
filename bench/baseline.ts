// The baselines Wakha is measured against (issue 8): bare Fastify + `pg`, no auth, no validation, no
// idempotency. Started as a child process by bench/run.ts so that, like Wakha, it has an event loop of its
// own and does not share one with the load generator.
//   POST /items       one INSERT in a transaction (BEGIN, INSERT, COMMIT): baseline W
//   GET  /items/:id   one indexed SELECT by primary key: baseline R
import { randomUUID } from "node:crypto";
import Fastify from "fastify";
import pg from "pg";

const databaseUrl = process.env["DATABASE_URL"];
const port = Number(process.env["PORT"]);
if (!databaseUrl || !port) throw new Error("bench/baseline.ts needs DATABASE_URL and PORT");

// The same pool size as Wakha's Database (src/db/pool.ts), so both sides have the same number of connections.
const pool = new pg.Pool({ connectionString: databaseUrl, max: 20, application_name: "bench-baseline" });
pool.on("error", () => {});

const app = Fastify({ logger: false });

app.post("/items", async (req, reply) => {
  const id = randomUUID();
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("INSERT INTO bench_items (id, payload) VALUES ($1, $2)", [id, JSON.stringify(req.body)]);
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  return reply.code(201).send({ id });
});

app.get<{ Params: { id: string } }>("/items/:id", async (req, reply) => {
  const { rows } = await pool.query("SELECT id, payload, created_at FROM bench_items WHERE id = $1", [req.params.id]);
  if (!rows[0]) return reply.code(404).send({ detail: "not found" });
  return rows[0];
});

await app.listen({ port, host: "127.0.0.1" });
process.stdout.write("ready\n");
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
