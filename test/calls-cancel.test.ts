import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";

describe("POST /v1/calls/{id}/cancel (CONTRACT §4, §10)", () => {
  let t: TestApp;
  let acct: TestAccount;
  let shop: string;
  beforeAll(async () => {
    t = await startApp();
    acct = await newAccount(t.ctx, 1000);
    shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  });
  afterAll(() => t.close());

  const create = async () => (await postCall(t, acct, callBody(shop))).json() as { id: string };
  const cancel = (id: string, who: TestAccount = acct) =>
    t.app.inject({ method: "POST", url: `/v1/calls/${id}/cancel`, headers: who.headers });
  const row = async (id: string) => (await t.ctx.db.query("SELECT * FROM calls WHERE id = $1", [id])).rows[0]!;

  it("cancels a queued call: 200 CallOut already canceled, ended, nothing billed, its job cancelled", async () => {
    const { id } = await create();
    const res = await cancel(id);
    expect(res.statusCode).toBe(200);
    const call = res.json();
    expect(call).toMatchObject({
      id,
      status: "canceled",
      end_reason: "canceled",
      outcome: null,
      billed_seconds: 0,
      duration_seconds: 0,
      answered_at: null,
    });
    expect(call.ended_at).not.toBeNull();
    expect(res.headers["x-ratelimit-limit"]).toBe("120");
    const stored = await row(id);
    expect(stored.cancel_requested_at).not.toBeNull();
    const { rows: jobs } = await t.ctx.db.query("SELECT state FROM pgboss.job WHERE id = $1", [id]);
    expect(jobs).toEqual([{ state: "cancelled" }]);
    const read = await t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: acct.headers });
    expect(read.body).toBe(res.body);
  });

  it.each([["ringing"], ["in_progress"]])(
    "cancels a %s call and leaves the line's end to the engine",
    async (status) => {
      const { id } = await create();
      await t.ctx.db.query(
        "UPDATE calls SET status = $2, answered_at = CASE WHEN $2 = 'in_progress' THEN now() END WHERE id = $1",
        [id, status],
      );
      const res = await cancel(id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        status: "canceled",
        ended_at: null,
        billed_seconds: null,
        duration_seconds: null,
      });
      const stored = await row(id);
      expect(stored.cancel_requested_at).not.toBeNull();
      // The job is the engine's to settle once dialing started; cancel leaves it alone.
      const { rows: jobs } = await t.ctx.db.query("SELECT state FROM pgboss.job WHERE id = $1", [id]);
      expect(jobs).toEqual([{ state: "created" }]);
    },
  );

  it.each([["completed"], ["no_answer"], ["busy"], ["voicemail"], ["failed"]])(
    "refuses a %s call with 409 conflict",
    async (status) => {
      const { id } = await create();
      await t.ctx.db.query("UPDATE calls SET status = $2, ended_at = now(), billed_seconds = 0 WHERE id = $1", [
        id,
        status,
      ]);
      const body = problem(await cancel(id), "conflict", 409);
      expect(body["detail"]).toContain(status);
      expect((await row(id)).status).toBe(status);
    },
  );

  it("refuses a second cancel with 409 conflict", async () => {
    const { id } = await create();
    expect((await cancel(id)).statusCode).toBe(200);
    problem(await cancel(id), "conflict", 409);
  });

  it("gives 404 call_not_found for missing, foreign and malformed ids, and leaves a foreign call alone", async () => {
    const { id } = await create();
    const stranger = await newAccount(t.ctx, 100);
    problem(await cancel(id, stranger), "call_not_found", 404);
    problem(await cancel(randomUUID()), "call_not_found", 404);
    problem(await cancel("nope"), "call_not_found", 404);
    expect((await row(id)).status).toBe("queued");
  });
});
