import { randomUUID } from "node:crypto";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queuedCreations } from "../src/calls/create.ts";
import { newAccount, problem, startApp, testDatabaseUrl, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, insertShop, postCall, uid } from "./calls-fixtures.ts";

// Group commit of creations (issue 19): the creations that arrive while a batch is being written leave together in
// the next one, one snapshot statement and one write statement for all. One batch in flight here, so what forms a
// batch is decided by the test: a first request is held at its write by an uncommitted idempotency record of its key
// (another connection's transaction), the others are sent and queue behind it, then the hold is rolled back.
describe("POST /v1/calls, concurrent creations written together (group commit)", () => {
  let t: TestApp;
  let acct: TestAccount;
  let shop: string;
  let shopId: string;
  beforeAll(async () => {
    t = await startApp({
      env: { WAKHA_CREATE_BATCHES: "1", WAKHA_CREATE_BATCH_SIZE: "64", WAKHA_RATE_LIMIT_SCALE: "100" },
    });
    acct = await newAccount(t.ctx, 100_000);
    const fixture = await insertShop(t.ctx, acct.accountId);
    shop = fixture.externalId;
    shopId = fixture.id;
  });
  afterAll(() => t.close());

  async function until(what: string, probe: () => Promise<boolean> | boolean): Promise<void> {
    for (let i = 0; i < 2_000; i++) {
      if (await probe()) return;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`never: ${what}`);
  }

  /** The app's connections waiting for a lock. */
  async function lockWaits(client: pg.Client): Promise<number> {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND application_name = 'wakha'",
    );
    return rows[0]!.n;
  }

  /** Sends `requests` while a first creation holds the only batch slot, so they all leave in one batch after it. */
  async function inOneBatch<T>(requests: () => Promise<T>[]): Promise<T[]> {
    const holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    try {
      const key = uid("hold");
      await holder.query("BEGIN");
      await holder.query(
        "INSERT INTO idempotency_keys (account_id, key, request_hash, call_id, response_status, response_body) VALUES ($1, $2, '\\x00', $3, 201, '{}')",
        [acct.accountId, key, randomUUID()],
      );
      const first = postCall(t, acct, callBody(shop), key);
      await until("the first creation waits on the held key", async () => (await lockWaits(holder)) === 1);
      const pending = requests();
      await until("the others queue", () => queuedCreations(t.ctx) >= pending.length);
      await holder.query("ROLLBACK");
      expect((await first).statusCode).toBe(201);
      return await Promise.all(pending);
    } finally {
      await holder.end();
    }
  }

  /** The transaction that wrote each call: calls written by one batch share it. */
  async function writers(ids: string[]): Promise<Set<string>> {
    const { rows } = await t.ctx.db.query<{ xmin: string }>("SELECT xmin::text FROM calls WHERE id = ANY($1)", [ids]);
    expect(rows).toHaveLength(ids.length);
    return new Set(rows.map((r) => r.xmin));
  }

  it("200 creations at once: each created exactly once, with its job and its key, in far fewer transactions", async () => {
    const keys = Array.from({ length: 200 }, () => uid("many"));
    const responses = await Promise.all(keys.map((key) => postCall(t, acct, callBody(shop), key)));
    for (const r of responses) expect(r.statusCode, r.body).toBe(201);
    const ids = responses.map((r) => r.json().id as string);
    expect(new Set(ids).size).toBe(200);
    const { rows } = await t.ctx.db.query(
      `SELECT (SELECT count(*) FROM calls WHERE id = ANY($1))::int AS calls,
              (SELECT count(*) FROM pgboss.job WHERE name = 'place-call' AND id = ANY($1) AND data->>'call_id' = id::text)::int AS jobs,
              (SELECT count(*) FROM idempotency_keys k WHERE k.account_id = $2 AND k.key = ANY($3)
                 AND k.call_id = ANY($1))::int AS keys`,
      [ids, acct.accountId, keys],
    );
    expect(rows[0]).toEqual({ calls: 200, jobs: 200, keys: 200 });
    // Each key's record is its own call's response.
    problem(await postCall(t, acct, callBody(shop), keys[7]!), "idempotency_key_conflict", 409);
    expect((await writers(ids)).size).toBeLessThan(200);
  });

  it("in one batch: the good ones are created together; a repeated key replays or conflicts; a repeated order attempt is 409; a listed number and a poor account are refused alone", async () => {
    const poor = await newAccount(t.ctx, 0);
    const poorShop = (await insertShop(t.ctx, poor.accountId)).externalId;
    const listed = "+212612340077";
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/v1/me/do-not-call",
          headers: acct.headers,
          payload: { phone_number: listed },
        })
      ).statusCode,
    ).toBe(201);
    const same = callBody(shop);
    const sameKey = uid("same");
    const otherKey = uid("other");
    const order = { external_id: uid("order"), items: [{ name: "Caftan", unit_price: "249.00" }] };
    const goods = Array.from({ length: 5 }, () => callBody(shop));
    const groups = await inOneBatch(() => [
      Promise.all(goods.map((b) => postCall(t, acct, b))),
      Promise.all([postCall(t, acct, same, sameKey), postCall(t, acct, same, sameKey)]),
      Promise.all([
        postCall(t, acct, callBody(shop), otherKey),
        postCall(t, acct, callBody(shop, { amount: "1.00" }), otherKey),
      ]),
      Promise.all([postCall(t, acct, callBody(shop, { order })), postCall(t, acct, callBody(shop, { order }))]),
      Promise.all([postCall(t, acct, callBody(shop, { customer: { name: "Amal", phone_number: listed } }))]),
      Promise.all([postCall(t, poor, callBody(poorShop))]),
    ]);
    type R = Awaited<ReturnType<typeof postCall>>;
    const [good, [dupA, dupB], [confA, confB], [ordA, ordB], [dnc], [broke]] = groups as [
      R[],
      [R, R],
      [R, R],
      [R, R],
      [R],
      [R],
    ];
    for (const r of good) expect(r.statusCode, r.body).toBe(201);
    // The same key and body twice: one creation, one byte-for-byte replay.
    expect([dupA.statusCode, dupB.statusCode]).toEqual([201, 201]);
    expect(dupB.body).toBe(dupA.body);
    expect([dupA.headers["x-idempotent-replay"], dupB.headers["x-idempotent-replay"]].sort()).toEqual(
      ["true", undefined].sort(),
    );
    // The same key with another body: the first created, the second 409.
    expect(confA.statusCode).toBe(201);
    problem(confB, "idempotency_key_conflict", 409);
    // The same order and attempt under two keys: one call, one 409.
    expect([ordA.statusCode, ordB.statusCode].sort()).toEqual([201, 409]);
    problem(ordA.statusCode === 409 ? ordA : ordB, "order_external_id_already_exists", 409);
    problem(dnc, "number_do_not_call", 422);
    problem(broke, "insufficient_balance", 402);
    // The good ones and the first of each pair left in one batch: one transaction.
    const firsts = [
      ...good,
      dupA.headers["x-idempotent-replay"] ? dupB : dupA,
      confA,
      ordA.statusCode === 201 ? ordA : ordB,
    ];
    expect((await writers(firsts.map((r) => r.json().id as string))).size).toBe(1);
    const { rows } = await t.ctx.db.query(
      `SELECT (SELECT count(*) FROM calls WHERE account_id = $1 AND order_external_id = $2)::int AS order_calls,
              (SELECT count(*) FROM calls WHERE account_id = $1 AND customer_phone = $3)::int AS listed_calls,
              (SELECT count(*) FROM calls WHERE account_id = $4)::int AS poor_calls,
              (SELECT count(*) FROM idempotency_keys WHERE account_id = $1 AND key = ANY($5))::int AS keys`,
      [acct.accountId, order.external_id, listed, poor.accountId, [sameKey, otherKey]],
    );
    expect(rows[0]).toEqual({ order_calls: 1, listed_calls: 0, poor_calls: 0, keys: 2 });
  });

  it("an order another node takes while the batch writes: that creation alone is refused, the others are written", async () => {
    const other = new pg.Client({ connectionString: testDatabaseUrl() });
    await other.connect();
    try {
      const order = { external_id: uid("order"), items: [{ name: "Caftan", unit_price: "249.00" }] };
      // Another node's creation of the same order, not committed yet: the batch's snapshot does not see it, its
      // upsert waits on it, then finds the attempt taken and writes nothing for that row.
      await other.query("BEGIN");
      await other.query(
        "INSERT INTO orders (id, account_id, shop_id, external_id, last_attempt) VALUES ($1, $2, $3, $4, 0)",
        [randomUUID(), acct.accountId, shopId, order.external_id],
      );
      const keys = [uid("taken"), uid("free"), uid("free")];
      const batch = inOneBatch(() => [
        postCall(t, acct, callBody(shop, { order }), keys[0]!),
        postCall(t, acct, callBody(shop), keys[1]!),
        postCall(t, acct, callBody(shop), keys[2]!),
      ]);
      await until(
        "the batch waits on the other node's order",
        async () => queuedCreations(t.ctx) === 0 && (await lockWaits(other)) === 1,
      );
      await other.query("COMMIT");
      const [taken, freeA, freeB] = await batch;
      const body = problem(taken!, "order_external_id_already_exists", 409);
      expect(body["detail"]).toContain("previous_attempts 0");
      expect([freeA!.statusCode, freeB!.statusCode]).toEqual([201, 201]);
      expect((await writers([freeA!.json().id, freeB!.json().id])).size).toBe(1);
      const { rows } = await t.ctx.db.query(
        `SELECT (SELECT count(*) FROM calls WHERE account_id = $1 AND order_external_id = $2)::int AS calls,
                (SELECT count(*) FROM idempotency_keys WHERE account_id = $1 AND key = ANY($3))::int AS keys`,
        [acct.accountId, order.external_id, keys],
      );
      expect(rows[0]).toEqual({ calls: 0, keys: 2 });
    } finally {
      await other.end();
    }
  });

  it("publishes each creation's submission and its batch's stages on the wakha:create-call channel (bench/create-trace.ts)", async () => {
    const events: {
      kind: string;
      key?: string | null;
      keys?: (string | null)[];
      marks?: number[];
      written?: number;
    }[] = [];
    const listener = (m: unknown) => void events.push(m as (typeof events)[number]);
    subscribe("wakha:create-call", listener);
    try {
      const key = uid("traced");
      expect((await postCall(t, acct, callBody(shop), key)).statusCode).toBe(201);
      expect(events.filter((e) => e.kind === "submit").map((e) => e.key)).toEqual([key]);
      const [batch] = events.filter((e) => e.kind === "batch");
      expect(batch!.keys).toEqual([key]);
      expect(batch!.written).toBe(1);
      // start, connected, snapshots read, planned, written, settled: in that order.
      expect(batch!.marks).toHaveLength(6);
      expect([...batch!.marks!].sort((a, b) => a - b)).toEqual(batch!.marks);
    } finally {
      unsubscribe("wakha:create-call", listener);
    }
  });
});
