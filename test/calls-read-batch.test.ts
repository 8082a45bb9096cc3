import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";

// Batched reads (issue 19): the GET /v1/calls/{id} that arrive while a read statement runs are answered together by
// the next one. One statement in flight here, so reads sent at once leave in at most a few statements; each must still
// get exactly its own answer: its account's call byte for byte as read alone, and call_not_found for a foreign, a
// missing or a malformed id, whatever else shares its statement.
describe("GET /v1/calls/{id}, concurrent reads answered together (batched)", () => {
  let t: TestApp;
  let alone: TestApp;
  let acct: TestAccount;
  let stranger: TestAccount;
  const mine: string[] = [];
  const theirs: string[] = [];

  beforeAll(async () => {
    t = await startApp({
      env: { WAKHA_READ_BATCHES: "1", WAKHA_READ_BATCH_SIZE: "64", WAKHA_RATE_LIMIT_SCALE: "100" },
    });
    // The same database read one call per statement, as before batching.
    alone = await startApp({ env: { WAKHA_READ_BATCH_SIZE: "0", WAKHA_RATE_LIMIT_SCALE: "100" } });
    acct = await newAccount(t.ctx, 10_000);
    stranger = await newAccount(t.ctx, 10_000);
    const shop = await insertShop(t.ctx, acct.accountId);
    const strangerShop = await insertShop(t.ctx, stranger.accountId, { externalId: shop.externalId });
    for (let i = 0; i < 6; i++) {
      const a = await postCall(t, acct, callBody(shop.externalId));
      expect(a.statusCode).toBe(201);
      mine.push(a.json().id);
      const b = await postCall(t, stranger, callBody(strangerShop.externalId));
      expect(b.statusCode).toBe(201);
      theirs.push(b.json().id);
    }
    await t.ctx.db.query(
      "UPDATE calls SET status = 'completed', outcome = 'confirmed', outcome_details = '{\"transcript_excerpt\": \"wakha\"}', answered_at = now(), ended_at = now() WHERE id = $1",
      [mine[2]],
    );
  });
  afterAll(async () => {
    await t?.close();
    await alone?.close();
  });

  /** Counts the read statements the app sends from now on (the pool's query, passed through unchanged). */
  function countReadStatements(): { count: () => number; stop: () => void } {
    const pool = t.ctx.db.pool;
    const original = pool.query;
    let n = 0;
    pool.query = function (this: typeof pool, ...args: unknown[]) {
      const config = args[0] as { name?: string } | string;
      if (typeof config === "object" && config?.name === "wakha_read_calls") n++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pool.query;
    return { count: () => n, stop: () => void (pool.query = original) };
  }

  it("answers many reads sent at once, each with its own answer, in fewer statements than reads", async () => {
    type Ask = { who: TestAccount; id: string; want: string | null };
    const asks: Ask[] = [];
    for (let round = 0; round < 3; round++) {
      for (const id of mine) asks.push({ who: acct, id, want: id });
      for (const id of mine) asks.push({ who: acct, id: id.toUpperCase(), want: id });
      for (const id of theirs) asks.push({ who: acct, id, want: null }); // another account's call
      for (const id of theirs) asks.push({ who: stranger, id, want: id });
      for (const id of mine) asks.push({ who: stranger, id, want: null });
      asks.push({ who: acct, id: randomUUID(), want: null }, { who: acct, id: "not-a-uuid", want: null });
    }
    // Both keys in the authenticator's cache first, so that every read reaches the batcher in the same few turns.
    for (const who of [acct, stranger])
      await t.app.inject({ method: "GET", url: `/v1/calls/${randomUUID()}`, headers: who.headers });
    const counter = countReadStatements();
    let responses;
    try {
      responses = await Promise.all(
        asks.map((a) => t.app.inject({ method: "GET", url: `/v1/calls/${a.id}`, headers: a.who.headers })),
      );
    } finally {
      counter.stop();
    }
    const readable = asks.filter((a) => /^[0-9a-f-]{36}$/i.test(a.id)).length;
    expect(counter.count()).toBeGreaterThan(0);
    expect(counter.count()).toBeLessThan(readable / 4);

    for (const [i, a] of asks.entries()) {
      const res = responses[i]!;
      if (a.want === null) {
        const body = problem(res, "call_not_found", 404);
        expect(body.instance).toBe(`/v1/calls/${a.id}`);
        continue;
      }
      expect(res.statusCode).toBe(200);
      // Byte for byte what the same key reads alone, headers of the contract included.
      const single = await alone.app.inject({ method: "GET", url: `/v1/calls/${a.want}`, headers: a.who.headers });
      expect(single.statusCode).toBe(200);
      expect(res.body).toBe(single.body);
      expect(res.json().id).toBe(a.want);
      expect(res.headers["content-type"]).toBe(single.headers["content-type"]);
      for (const h of [
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "x-request-id",
        "x-api-version",
      ]) {
        expect(res.headers[h], h).toBeDefined();
      }
    }
    expect(responses.filter((r) => r.statusCode === 200).map((r) => r.json().outcome)).toContain("confirmed");
  });

  it("sees a change committed before the read was sent", async () => {
    const id = mine[0]!;
    await t.ctx.db.query("UPDATE calls SET status = 'canceled', ended_at = now() WHERE id = $1", [id]);
    const [a, b] = await Promise.all([
      t.app.inject({ method: "GET", url: `/v1/calls/${mine[1]}`, headers: acct.headers }),
      t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: acct.headers }),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toMatchObject({ id, status: "canceled" });
  });

  it("a failed statement fails only the reads it carried, as a 500 problem; the next reads work", async () => {
    const pool = t.ctx.db.pool;
    const original = pool.query;
    // The statement itself fails in PostgreSQL (a cast of a non-uuid), not a stand-in error.
    pool.query = function (this: typeof pool, ...args: unknown[]) {
      const config = args[0] as { name?: string; values?: unknown[] } | string;
      if (typeof config === "object" && config?.name === "wakha_read_calls") {
        return (original as (...a: unknown[]) => unknown).call(this, { text: "SELECT 'x'::uuid", values: [] });
      }
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pool.query;
    let failed;
    try {
      failed = await t.app.inject({ method: "GET", url: `/v1/calls/${mine[1]}`, headers: acct.headers });
    } finally {
      pool.query = original;
    }
    expect(failed.statusCode).toBe(500);
    const ok = await t.app.inject({ method: "GET", url: `/v1/calls/${mine[1]}`, headers: acct.headers });
    expect(ok.statusCode).toBe(200);
  });
});
