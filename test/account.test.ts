import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditAccount } from "../src/services/accounts.ts";
import { newAccount, problem, startApp, type TestApp } from "./helpers.ts";

describe("account, balance, usage and transactions", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it("reads the account and its balance", async () => {
    const a = await newAccount(t.ctx, 25);
    const me = (await t.app.inject({ method: "GET", url: "/v1/me", headers: a.headers })).json();
    expect(me).toMatchObject({ id: a.accountId, balance_seconds: 25 });
    const bal = await t.app.inject({ method: "GET", url: "/v1/me/balance", headers: a.headers });
    expect(bal.json()).toEqual({ balance_seconds: 25, required_seconds: 10, can_start_call: true });
    expect(bal.headers["x-ratelimit-limit"]).toBe("600");
  });

  it("says when the balance cannot start a call", async () => {
    const a = await newAccount(t.ctx, 9);
    expect(
      (await t.app.inject({ method: "GET", url: "/v1/me/balance", headers: a.headers })).json().can_start_call,
    ).toBe(false);
  });

  it("lists credits newest first with balance_after, paginated", async () => {
    const a = await newAccount(t.ctx, 10);
    await creditAccount(t.ctx.db, a.accountId, 5);
    await creditAccount(t.ctx.db, a.accountId, 7);
    const first = (
      await t.app.inject({ method: "GET", url: "/v1/me/transactions?limit=2", headers: a.headers })
    ).json();
    expect(first.data.map((x: { seconds: number }) => x.seconds)).toEqual([7, 5]);
    expect(first.data[0]).toMatchObject({ type: "credit", balance_after: 22, call_id: null });
    expect(first.has_more).toBe(true);
    const second = (
      await t.app.inject({
        method: "GET",
        url: `/v1/me/transactions?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`,
        headers: a.headers,
      })
    ).json();
    expect(second.data.map((x: { seconds: number }) => x.seconds)).toEqual([10]);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    const other = await newAccount(t.ctx);
    expect(
      (await t.app.inject({ method: "GET", url: "/v1/me/transactions", headers: other.headers })).json().data,
    ).toEqual([]);
  });

  it("reports usage for the current month by default and for a given one", async () => {
    const a = await newAccount(t.ctx, 40);
    await t.ctx.db.query(
      "INSERT INTO transactions (id, account_id, type, seconds, balance_after, call_id, description) VALUES (gen_random_uuid(), $1, 'debit', -12, 28, gen_random_uuid(), 'call')",
      [a.accountId],
    );
    await t.ctx.db.query("UPDATE accounts SET balance_seconds = 28 WHERE id = $1", [a.accountId]);
    const now = new Date();
    const period = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    const usage = (await t.app.inject({ method: "GET", url: "/v1/me/usage", headers: a.headers })).json();
    expect(usage).toMatchObject({ period, billed_seconds: 12, billed_calls: 1, credited_seconds: 40 });
    const past = (await t.app.inject({ method: "GET", url: "/v1/me/usage?period=2020-02", headers: a.headers })).json();
    expect(past).toEqual({
      period: "2020-02",
      period_start: "2020-02-01T00:00:00.000Z",
      period_end: "2020-03-01T00:00:00.000Z",
      billed_seconds: 0,
      billed_calls: 0,
      credited_seconds: 0,
    });
  });

  it.each(["2026-13", "2026-00", "2026-1", "26-01", "2026/01", "x", "2026-01-01"])(
    "rejects period %s",
    async (period) => {
      const a = await newAccount(t.ctx);
      const body = problem(
        await t.app.inject({
          method: "GET",
          url: `/v1/me/usage?period=${encodeURIComponent(period)}`,
          headers: a.headers,
        }),
        "invalid_period_format",
        400,
      );
      expect(body["detail"]).toContain("YYYY-MM");
    },
  );

  it("refuses a transaction that would take a balance below zero", async () => {
    const a = await newAccount(t.ctx, 5);
    await expect(
      t.ctx.db.query("UPDATE accounts SET balance_seconds = balance_seconds - 6 WHERE id = $1", [a.accountId]),
    ).rejects.toThrow(/check/);
  });
});
