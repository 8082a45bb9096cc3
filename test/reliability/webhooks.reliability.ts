// Webhook delivery under failure (issue 8), across real processes: receivers that are down for a while or
// for good. The kill -9 in the middle of deliveries is in engine.reliability.ts, together with calls.
import { once } from "node:events";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Child, createAccountCli, startWakha, wakhaEnv } from "../../bench/processes.ts";
import { type TestApp, startApp } from "../helpers.ts";

const databaseUrl = inject("databaseUrl");
const started: Child[] = [];
const servers: Server[] = [];
let db: pg.Client;
let t: TestApp;

interface Received {
  at: number;
  eventId: string;
  body: string;
}

/** A receiver on a free port; `answer` chooses the status of the n-th POST (0-based). */
async function receiver(answer: (n: number) => number, delayMs = 0): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const n = received.length;
      received.push({
        at: Date.now(),
        eventId: String(req.headers["x-service-event-id"]),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      setTimeout(() => res.writeHead(answer(n), { "content-type": "text/plain" }).end("ok"), delayMs);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, received };
}

const ENV = {
  WAKHA_WEBHOOK_ALLOW_PRIVATE: "true",
  WAKHA_WEBHOOK_RETRY_SCHEDULE: "1s,1s,2s",
  WAKHA_RATE_LIMIT_SCALE: "100",
};

async function node(role: "all" | "api" = "all") {
  const child = await startWakha("serve", wakhaEnv(databaseUrl, { ...ENV, WAKHA_ROLE: role }));
  started.push(child);
  return child;
}

async function api(base: string, key: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function delivery(id: string) {
  const { rows } = await db.query<{ status: string; attempts: number; event_id: string }>(
    "SELECT status, attempts, event_id FROM webhook_deliveries WHERE id = $1",
    [id],
  );
  return rows[0];
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  t = await startApp();
});

afterAll(async () => {
  for (const child of started) await child.stop();
  for (const s of servers) s.close();
  await t.close();
  await db.end();
});

describe("retries on WAKHA_WEBHOOK_RETRY_SCHEDULE=1s,1s,2s", () => {
  it("deliver to a receiver that is down for the first two attempts, with the same event id and body each time", async () => {
    const server = await node();
    const hook = await receiver((n) => (n < 2 ? 503 : 200));
    const account = await createAccountCli(databaseUrl, 0, "reliability-retry");
    expect((await api(server.url, account.api_key, "POST", "/v1/me/webhooks", { url: hook.url })).status).toBe(201);
    const test = await api(server.url, account.api_key, "POST", "/v1/me/webhooks/test");
    expect(test.status).toBe(200);
    expect(test.json).toMatchObject({ status: "pending", attempts: 1, last_status_code: 503 });

    const done = await until(
      "delivered",
      async () => {
        const d = await delivery(String(test.json!["id"]));
        return d?.status === "delivered" ? d : null;
      },
      30_000,
    );
    expect(done.attempts).toBe(3);
    expect(hook.received).toHaveLength(3);
    expect(new Set(hook.received.map((r) => r.eventId))).toEqual(new Set([done.event_id]));
    expect(new Set(hook.received.map((r) => r.body)).size).toBe(1);
    // Each retry waits its delay (1 s, then 1 s), give or take the worker's polling.
    const gaps = hook.received.slice(1).map((r, i) => r.at - hook.received[i]!.at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(900);
    await server.stop();
  });

  it("fail a delivery whose receiver never recovers, after 1 + 3 attempts, into the dead-letter list", async () => {
    const server = await node();
    const hook = await receiver(() => 500);
    const account = await createAccountCli(databaseUrl, 0, "reliability-dead");
    expect((await api(server.url, account.api_key, "POST", "/v1/me/webhooks", { url: hook.url })).status).toBe(201);
    const test = await api(server.url, account.api_key, "POST", "/v1/me/webhooks/test");
    expect(test.status).toBe(200);

    const done = await until(
      "failed",
      async () => {
        const d = await delivery(String(test.json!["id"]));
        return d?.status === "failed" ? d : null;
      },
      40_000,
    );
    expect(done.attempts).toBe(4);
    expect(hook.received).toHaveLength(4);
    const dead = await api(server.url, account.api_key, "GET", "/v1/me/webhooks/deliveries?status=failed");
    expect(dead.status).toBe(200);
    expect((dead.json!["data"] as { id: string; event_id: string }[]).map((d) => [d.id, d.event_id])).toEqual([
      [test.json!["id"], done.event_id],
    ]);
    await server.stop();
  });
});
