// POST /v1/calls writes the call and its place-call job in one statement, pg-boss's own INSERT embedded as a CTE
// (services/calls.ts writeBatch, issue 29). This fails first if a pg-boss upgrade changes that INSERT's shape: the
// creation would then fall back to pg-boss's send() in a transaction, correct but a round trip slower.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOBS } from "../src/jobs/catalogue.ts";
import { callBody, countCalls, insertShop, postCall, type ShopFixture } from "./calls-fixtures.ts";
import { newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";

describe("pg-boss's INSERT of place-call jobs, as the creation embeds it", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("is one plain INSERT into pg-boss's job table with one JSON parameter, the same text for one job and for many", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const one = await t.ctx.queue.insertStatement(JOBS.placeCall, { call_id: a }, { id: a });
    expect(one).not.toBeNull();
    expect(one!.text).toMatch(/^\s*INSERT\s+INTO\s+\S*job\w*\b/i);
    expect(one!.text).toMatch(/\$1(?!\d)/);
    expect(one!.text).not.toMatch(/\$2(?!\d)/);
    const many = await t.ctx.queue.insertManyStatement(JOBS.placeCall, [
      { payload: { call_id: a }, options: { id: a } },
      { payload: { call_id: b }, options: { id: b, startAfter: new Date(Date.now() + 60_000) } },
    ]);
    expect(many?.text).toBe(one!.text);
    const jobs = JSON.parse(many!.param) as { id: string }[];
    expect(jobs.map((j) => j.id)).toEqual([a, b]);
  });
});

describe("POST /v1/calls without group commit (WAKHA_CREATE_BATCH_SIZE=0): the same writer, a batch of one", () => {
  let t: TestApp;
  let acct: TestAccount;
  let shop: ShopFixture;
  beforeAll(async () => {
    t = await startApp({ env: { WAKHA_CREATE_BATCH_SIZE: "0" } });
    acct = await newAccount(t.ctx, 1000);
    shop = await insertShop(t.ctx, acct.accountId);
  });
  afterAll(() => t.close());

  it("creates the call with its job, replays it under its key, and refuses the order's attempt a second time", async () => {
    const body = callBody(shop.externalId);
    const key = randomUUID();
    const first = await postCall(t, acct, body, key);
    expect(first.statusCode).toBe(201);
    const id = (first.json() as { id: string }).id;
    const { rows } = await t.ctx.db.query("SELECT 1 FROM pgboss.job WHERE id = $1 AND name = $2", [
      id,
      JOBS.placeCall.name,
    ]);
    expect(rows).toHaveLength(1);
    const again = await postCall(t, acct, body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers["x-idempotent-replay"]).toBe("true");
    expect(again.body).toBe(first.body);
    const other = await postCall(t, acct, body, randomUUID());
    expect(other.statusCode).toBe(409);
    expect((other.json() as { type: string }).type).toMatch(/order_external_id_already_exists$/);
    expect(await countCalls(t.ctx, acct.accountId)).toBe(1);
  });
});
