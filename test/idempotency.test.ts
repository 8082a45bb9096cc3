import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditAccount } from "../src/services/accounts.ts";
import { callCreateSchema } from "../src/schemas/calls.ts";
import { purgeExpiredIdempotencyKeys, requestHash } from "../src/db/idempotency.ts";
import { newAccount, problem, startApp, testDatabaseUrl, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, countCalls, insertShop, postCall } from "./calls-fixtures.ts";

describe("Idempotency-Key on POST /v1/calls (spec 7.3, part 8; CONTRACT §10)", () => {
  let t: TestApp;
  let acct: TestAccount;
  let shop: string;
  beforeAll(async () => {
    t = await startApp();
    acct = await newAccount(t.ctx, 10_000);
    shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  });
  afterAll(() => t.close());

  const keyRows = async (accountId: string, key: string) =>
    (await t.ctx.db.query("SELECT call_id FROM idempotency_keys WHERE account_id = $1 AND key = $2", [accountId, key]))
      .rows;

  describe("header rules, checked before the body", () => {
    it("400 missing_idempotency_key without the header, even for an invalid or unparsable body", async () => {
      problem(await postCall(t, acct, callBody(shop), null), "missing_idempotency_key", 400);
      problem(await postCall(t, acct, { amount: 5 }, null), "missing_idempotency_key", 400);
      const raw = await t.app.inject({
        method: "POST",
        url: "/v1/calls",
        payload: "{oops",
        headers: { ...acct.headers, "content-type": "application/json" },
      });
      problem(raw, "missing_idempotency_key", 400);
    });

    it("400 idempotency_key_empty for an empty header", async () => {
      problem(await postCall(t, acct, callBody(shop), ""), "idempotency_key_empty", 400);
    });

    it("accepts 255 characters and refuses 256 with idempotency_key_too_long", async () => {
      expect((await postCall(t, acct, callBody(shop), `${"k".repeat(254)}1`)).statusCode).toBe(201);
      const body = problem(await postCall(t, acct, callBody(shop), "k".repeat(256)), "idempotency_key_too_long", 400);
      expect(body["detail"]).toContain("256");
      expect((await postCall(t, acct, callBody(shop), "1")).statusCode).toBe(201);
    });

    it("authenticates first: no key and no header is a 401", async () => {
      const res = await t.app.inject({ method: "POST", url: "/v1/calls", payload: callBody(shop) });
      problem(res, "invalid_api_key", 401);
    });
  });

  it("replays the stored 201 byte for byte, with the same Location and X-Idempotent-Replay: true", async () => {
    const key = randomUUID();
    const body = callBody(shop);
    const first = await postCall(t, acct, body, key);
    expect(first.statusCode).toBe(201);
    expect(first.headers["x-idempotent-replay"]).toBeUndefined();
    const before = await countCalls(t.ctx, acct.accountId);
    // The same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    for (const again of [body, reordered]) {
      const replay = await postCall(t, acct, again, key);
      expect(replay.statusCode).toBe(201);
      expect(replay.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(replay.headers["location"]).toBe(first.headers["location"]);
      expect(replay.headers["content-type"]).toBe(first.headers["content-type"]);
      expect(replay.headers["x-idempotent-replay"]).toBe("true");
    }
    expect(await countCalls(t.ctx, acct.accountId)).toBe(before);
  });

  it("replays the original even after the call moved on", async () => {
    const key = randomUUID();
    const body = callBody(shop);
    const first = await postCall(t, acct, body, key);
    const cancel = await t.app.inject({
      method: "POST",
      url: `/v1/calls/${first.json().id}/cancel`,
      headers: acct.headers,
    });
    expect(cancel.json().status).toBe("canceled");
    const replay = await postCall(t, acct, body, key);
    expect(replay.body).toBe(first.body);
    expect(replay.json().status).toBe("queued");
  });

  it("409 idempotency_key_conflict for another body with the same key, never showing the original", async () => {
    const key = randomUUID();
    const first = await postCall(
      t,
      acct,
      callBody(shop, { customer: { name: "Original Name", phone_number: "+212612345601" } }),
      key,
    );
    expect(first.statusCode).toBe(201);
    const before = await countCalls(t.ctx, acct.accountId);
    const res = await postCall(t, acct, callBody(shop, { amount: "1.00" }), key);
    problem(res, "idempotency_key_conflict", 409);
    expect(res.body).not.toContain("Original Name");
    expect(res.body).not.toContain(first.json().id);
    expect(res.headers["location"]).toBeUndefined();
    expect(await countCalls(t.ctx, acct.accountId)).toBe(before);
  });

  it("scopes keys to the account", async () => {
    const key = randomUUID();
    const other = await newAccount(t.ctx, 100);
    const otherShop = (await insertShop(t.ctx, other.accountId)).externalId;
    const mine = await postCall(t, acct, callBody(shop), key);
    const theirs = await postCall(t, other, callBody(otherShop), key);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers["x-idempotent-replay"]).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
  });

  it("stores nothing for a request that fails validation, so the key can be reused", async () => {
    const key = randomUUID();
    problem(await postCall(t, acct, callBody(shop, { amount: 12 }), key), "validation_error", 422);
    problem(await postCall(t, acct, callBody("no-such-shop"), key), "shop_not_found", 404);
    problem(
      await postCall(t, acct, callBody(shop, { country: "FR", language: "ar" }), key),
      "language_not_supported_for_country",
      422,
    );
    expect(await keyRows(acct.accountId, key)).toEqual([]);
    const ok = await postCall(t, acct, callBody(shop), key);
    expect(ok.statusCode).toBe(201);
    expect(ok.headers["x-idempotent-replay"]).toBeUndefined();
    expect(await keyRows(acct.accountId, key)).toEqual([{ call_id: ok.json().id }]);
  });

  it("stores nothing on 402, so the same key works once the account is credited", async () => {
    const poor = await newAccount(t.ctx, 5);
    const poorShop = (await insertShop(t.ctx, poor.accountId)).externalId;
    const body = callBody(poorShop);
    problem(await postCall(t, poor, body, "retry-me"), "insufficient_balance", 402);
    await creditAccount(t.ctx.db, poor.accountId, 100);
    const ok = await postCall(t, poor, body, "retry-me");
    expect(ok.statusCode).toBe(201);
    expect(ok.headers["x-idempotent-replay"]).toBeUndefined();
  });

  it("forgets a key after 24 hours, and the purge deletes only expired records", async () => {
    const key = randomUUID();
    const first = await postCall(t, acct, callBody(shop), key);
    const fresh = randomUUID();
    await postCall(t, acct, callBody(shop), fresh);
    await t.ctx.db.query(
      "UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 second' WHERE account_id = $1 AND key = $2",
      [acct.accountId, key],
    );
    const reuse = await postCall(t, acct, callBody(shop, { amount: "5" }), key);
    expect(reuse.statusCode).toBe(201);
    expect(reuse.json().id).not.toBe(first.json().id);
    expect(await keyRows(acct.accountId, key)).toEqual([{ call_id: reuse.json().id }]);

    await t.ctx.db.query(
      "UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE account_id = $1 AND key = $2",
      [acct.accountId, key],
    );
    expect(await purgeExpiredIdempotencyKeys(t.ctx.db)).toBeGreaterThanOrEqual(1);
    expect(await keyRows(acct.accountId, key)).toEqual([]);
    expect(await keyRows(acct.accountId, fresh)).toHaveLength(1);
  });

  it("20 identical requests at once create exactly one call; the others replay it or get 409 conflict, never a 5xx", async () => {
    const key = randomUUID();
    const body = callBody(shop);
    const responses = await Promise.all(Array.from({ length: 20 }, () => postCall(t, acct, body, key)));
    const created = responses.filter((r) => r.statusCode === 201);
    for (const r of responses) {
      if (r.statusCode === 409) {
        problem(r, "conflict", 409);
        expect(Number(r.headers["retry-after"])).toBeGreaterThan(0);
      } else {
        expect(r.statusCode, r.body).toBe(201);
      }
    }
    expect(created.filter((r) => r.headers["x-idempotent-replay"] === undefined)).toHaveLength(1);
    expect(new Set(created.map((r) => r.body)).size).toBe(1);
    const { rows } = await t.ctx.db.query(
      "SELECT count(*)::int AS n FROM calls WHERE account_id = $1 AND order_external_id = $2",
      [acct.accountId, (body["order"] as { external_id: string }).external_id],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it("concurrent different bodies on one key: one call, the others 409 idempotency_key_conflict", async () => {
    const key = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => postCall(t, acct, callBody(shop, { amount: `${i + 1}.00` }), key)),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const r of responses.filter((x) => x.statusCode !== 201)) problem(r, "idempotency_key_conflict", 409);
    expect(await keyRows(acct.accountId, key)).toHaveLength(1);
  });

  it("answers 409 conflict with Retry-After when the first request holds the key for too long", async () => {
    const key = randomUUID();
    const holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    try {
      // Stands for a first request still in its write: its record of the key is written, not yet committed.
      await holder.query("BEGIN");
      await holder.query(
        "INSERT INTO idempotency_keys (account_id, key, request_hash, call_id, response_status, response_body) VALUES ($1, $2, '\\x00', $3, 201, '{}')",
        [acct.accountId, key, randomUUID()],
      );
      const before = await countCalls(t.ctx, acct.accountId);
      const started = Date.now();
      const res = await postCall(t, acct, callBody(shop), key);
      problem(res, "conflict", 409);
      expect(res.headers["retry-after"]).toBe("1");
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
      expect(await keyRows(acct.accountId, key)).toEqual([]);
      // Nothing of the waiting request was written: no order, no call, no job.
      expect(await countCalls(t.ctx, acct.accountId)).toBe(before);
    } finally {
      await holder.end();
    }
    expect((await postCall(t, acct, callBody(shop), key)).statusCode).toBe(201);
  });

  it("a duplicate that reaches its write while the first is still in its own waits for it, then replays what it stored", async () => {
    const key = randomUUID();
    const body = callBody(shop);
    // A CallOut's JSON stands for the one the first request stores.
    const stored = (await postCall(t, acct, callBody(shop), randomUUID())).body;
    const holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(
        "INSERT INTO idempotency_keys (account_id, key, request_hash, call_id, response_status, response_body) VALUES ($1, $2, $3, $4, 201, $5)",
        [acct.accountId, key, requestHash("POST /v1/calls", callCreateSchema.parse(body)), randomUUID(), stored],
      );
      const before = await countCalls(t.ctx, acct.accountId);
      const pending = postCall(t, acct, body, key);
      await new Promise((r) => setTimeout(r, 1_000));
      await holder.query("COMMIT");
      const res = await pending;
      expect(res.statusCode).toBe(201);
      expect(res.headers["x-idempotent-replay"]).toBe("true");
      expect(res.body).toBe(stored);
      expect(await countCalls(t.ctx, acct.accountId)).toBe(before);
    } finally {
      await holder.end();
    }
  });
});
