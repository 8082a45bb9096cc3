// Reliability across real processes (issue 8): `wakha serve` children on the run's PostgreSQL (and Redis),
// driven over HTTP. Only the pids started here are stopped.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Child, createAccountCli, startWakha, wakhaEnv } from "../../bench/processes.ts";

const databaseUrl = inject("databaseUrl");
const redisUrl = inject("redisUrl");
const started: Child[] = [];

async function serve(extra: Record<string, string> = {}) {
  const child = await startWakha("serve", wakhaEnv(databaseUrl, { WAKHA_ROLE: "api", ...extra }));
  started.push(child);
  return child;
}

async function request(
  base: string,
  key: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});

afterAll(async () => {
  for (const child of started) await child.stop();
  await db.end();
});

describe("50 concurrent identical POST /v1/calls on a `wakha serve` process", () => {
  it("create exactly one call, replay it to the others, and never answer 5xx", async () => {
    const node = await serve({ WAKHA_RATE_LIMIT_SCALE: "100" });
    const account = await createAccountCli(databaseUrl, 10_000, "reliability-dup");
    const shop = await request(node.url, account.api_key, "POST", "/v1/shops", {
      external_id: "dup-shop",
      merchant_external_id: "m",
      name: "Dup shop",
    });
    expect(shop.status).toBe(201);
    const key = randomUUID();
    const body = {
      shop_external_id: "dup-shop",
      customer: { name: "Fatima", phone_number: "+212612345601" },
      amount: "249.00",
      country: "MA",
      order: { external_id: "order-dup", items: [{ name: "Caftan", unit_price: "249.00" }] },
    };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        request(node.url, account.api_key, "POST", "/v1/calls", body, { "idempotency-key": key }),
      ),
    );

    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Duplicates wait for the first and replay it; one that cannot within the lock wait gets 409 conflict.
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const created = answers.filter((a) => a.status === 201);
    expect(created.filter((a) => a.headers.get("x-idempotent-replay") !== "true")).toHaveLength(1);
    expect(new Set(created.map((a) => a.text)).size).toBe(1);
    expect(new Set(created.map((a) => a.headers.get("location"))).size).toBe(1);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.headers.get("content-type")).toMatch(/^application\/problem\+json/);

    const { rows } = await db.query<{ calls: number; orders: number; jobs: number }>(
      `SELECT (SELECT count(*) FROM calls WHERE account_id = $1)::int AS calls,
              (SELECT count(*) FROM orders WHERE account_id = $1)::int AS orders,
              (SELECT count(*) FROM pgboss.job WHERE name = 'place-call' AND data->>'call_id' IN (SELECT id::text FROM calls WHERE account_id = $1))::int AS jobs`,
      [account.account_id],
    );
    expect(rows[0]).toEqual({ calls: 1, orders: 1, jobs: 1 });
  });
});

describe("two `wakha serve` processes (WAKHA_ROLE=api) on one PostgreSQL and one Redis", () => {
  it.skipIf(!redisUrl)("hold each per-key rate limit across both nodes (REDIS_URL must be set)", async () => {
    // read: 600 per minute x 0.05 = 30; calls_create: 60 x 0.05 = 3.
    const env = { REDIS_URL: redisUrl!, WAKHA_RATE_LIMIT_SCALE: "0.05" };
    const [a, b] = await Promise.all([serve(env), serve(env)]);
    const account = await createAccountCli(databaseUrl, 10_000, "reliability-rl");
    // Stay clear of a minute boundary, where the sliding window carries part of the previous minute.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 61_000 - intoMinute));

    // 40 in turn (node A, node B, ...): the first 30 pass, 15 on each node, then both nodes refuse.
    const reads = [];
    for (let i = 0; i < 40; i++) reads.push(await request(i % 2 ? b!.url : a!.url, account.api_key, "GET", "/v1/me"));
    expect(reads.map((r) => r.status)).toEqual([...Array<number>(30).fill(200), ...Array<number>(10).fill(429)]);
    // Then 40 at once, spread over both: all refused.
    reads.push(
      ...(await Promise.all(
        Array.from({ length: 40 }, (_, i) => request(i % 2 ? b!.url : a!.url, account.api_key, "GET", "/v1/me")),
      )),
    );
    const limited = reads.filter((r) => r.status === 429);
    expect(reads.filter((r) => r.status === 200)).toHaveLength(30);
    expect(
      limited,
      `statuses ${JSON.stringify(reads.map((r) => r.status))}: ${reads
        .filter((r) => r.status !== 200 && r.status !== 429)
        .map((r) => r.text)
        .join(" | ")}`,
    ).toHaveLength(50);
    for (const r of limited) {
      expect(r.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }

    // A second class keeps its own bucket: calls_create allows 3 across both nodes.
    const shop = await request(a!.url, account.api_key, "POST", "/v1/shops", {
      external_id: "rl-shop",
      merchant_external_id: "m",
      name: "RL shop",
    });
    expect(shop.status).toBe(201);
    const creates = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        request(
          i % 2 ? a!.url : b!.url,
          account.api_key,
          "POST",
          "/v1/calls",
          {
            shop_external_id: "rl-shop",
            customer: { name: "Amine", phone_number: "+212612345602" },
            amount: "100.00",
            country: "MA",
            order: { external_id: `rl-order-${i}`, items: [{ name: "Item", unit_price: "100.00" }] },
          },
          { "idempotency-key": randomUUID() },
        ),
      ),
    );
    expect(creates.filter((r) => r.status === 201)).toHaveLength(3);
    expect(creates.filter((r) => r.status === 429)).toHaveLength(5);
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM calls WHERE account_id = $1", [
      account.account_id,
    ]);
    expect(rows[0]!.n).toBe(3);
  });
});
