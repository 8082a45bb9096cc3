// Issue 15 (the dial rate under a cap) through issue 20's billing rules: a call's end debits the account by one
// statement, the last of its transaction, for the seconds its hold covers. These tests end calls directly
// (settleCall, as the dialer does) to check the rules that path must keep: billed seconds equal connected seconds
// rounded up, one debit per call under concurrent and repeated ends, a call whose seconds outgrew its hold extends it
// first, never taking seconds the account's other live calls hold, and the balance never below zero.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingTimeScale, type CallEnd, settleCall } from "../src/calls/call-states.ts";
import { recoveryClock, sweepCalls } from "../src/calls/sweeper.ts";
import { newAccount, type TestAccount } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { type ListeningApp, startListening } from "./mcp-client.ts";

let t: ListeningApp;

beforeAll(async () => {
  t = await startListening();
});
afterAll(async () => {
  await t?.close();
});

async function account(balance: number): Promise<{ acct: TestAccount; shop: string }> {
  const acct = await newAccount(t.ctx, balance);
  return { acct, shop: (await insertShop(t.ctx, acct.accountId)).externalId };
}

/** A call created through the API, then answered with `held` seconds of the balance held, as a claim leaves it. */
async function answered(acct: TestAccount, shop: string, held: number): Promise<string> {
  const res = await postCall(
    t,
    acct,
    callBody(shop, { order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00" }] } }),
  );
  expect(res.statusCode, res.body).toBe(201);
  const id = (res.json() as { id: string }).id;
  await t.ctx.db.query(
    // Answered long enough ago for the seconds these ends report (issue 31.1 bounds billing by the wall clock).
    "UPDATE calls SET status = 'in_progress', dialed_at = now(), answered_at = now() - interval '10 minutes', last_heartbeat_at = now(), held_seconds = $2 WHERE id = $1",
    [id, held],
  );
  return id;
}

const completed = (connectedSeconds: number): CallEnd => ({
  status: "completed",
  outcome: "confirmed",
  outcomeDetails: { transcript_excerpt: "wakha" },
  endReason: "completed",
  transcript: [],
  connectedSeconds,
});

async function state(accountId: string) {
  const {
    rows: [acct],
  } = await t.ctx.db.query<{ balance: number }>("SELECT balance_seconds AS balance FROM accounts WHERE id = $1", [
    accountId,
  ]);
  const { rows: calls } = await t.ctx.db.query<{
    id: string;
    ended: boolean;
    billed: number | null;
    duration: number | null;
    held: number;
  }>(
    "SELECT id, ended_at IS NOT NULL AS ended, billed_seconds AS billed, duration_seconds AS duration, held_seconds AS held FROM calls WHERE account_id = $1",
    [accountId],
  );
  const { rows: debits } = await t.ctx.db.query<{ call_id: string; seconds: number; balance_after: number }>(
    "SELECT call_id, seconds, balance_after FROM transactions WHERE account_id = $1 AND type = 'debit' ORDER BY balance_after DESC",
    [accountId],
  );
  return { balance: Number(acct!.balance), calls: new Map(calls.map((c) => [c.id, c])), debits };
}

describe("the debit at a call's end (issue 15 with issue 20's rules)", () => {
  it("bills the connected seconds rounded up, once, under 40 concurrent ends of one account each raced by a second end", async () => {
    const { acct, shop } = await account(5_000);
    const ids = await Promise.all(Array.from({ length: 40 }, () => answered(acct, shop, 60)));
    const seconds = new Map(ids.map((id, i) => [id, 0.4 + (i % 59)]));
    const results = await Promise.all(
      ids.flatMap((id) =>
        [1, 2].map(() => settleCall(t.ctx, { id, accountId: acct.accountId }, completed(seconds.get(id)!))),
      ),
    );
    // Each call was ended by exactly one of its two ends.
    expect(results.filter(Boolean)).toHaveLength(40);
    const s = await state(acct.accountId);
    let billed = 0;
    for (const id of ids) {
      const call = s.calls.get(id)!;
      expect(call.ended).toBe(true);
      expect(call.billed).toBe(Math.ceil(seconds.get(id)!));
      expect(call.billed).toBe(call.duration);
      billed += call.billed!;
    }
    expect(s.debits).toHaveLength(40);
    expect(new Set(s.debits.map((d) => d.call_id)).size).toBe(40);
    for (const d of s.debits) expect(-d.seconds).toBe(s.calls.get(d.call_id)!.billed);
    expect(s.balance).toBe(5_000 - billed);
    // The debits ran one after the other on the account's row: each balance_after is the one before it less its seconds.
    let before = 5_000;
    for (const d of s.debits) {
      expect(d.balance_after).toBe(before + d.seconds);
      before = d.balance_after;
    }
  });

  it("extends the hold of a call whose seconds outgrew it, then bills them all", async () => {
    const { acct, shop } = await account(1_000);
    const id = await answered(acct, shop, 10);
    expect(await settleCall(t.ctx, { id, accountId: acct.accountId }, completed(25.2))).toBe(true);
    const s = await state(acct.accountId);
    expect(s.calls.get(id)).toMatchObject({ ended: true, billed: 26, duration: 26, held: 26 });
    expect(s.debits.map((d) => [d.call_id, d.seconds, d.balance_after])).toEqual([[id, -26, 974]]);
    expect(s.balance).toBe(974);
  });

  it("never bills seconds another live call holds: an outgrown call gets what is free, and the balance still covers the others", async () => {
    const { acct, shop } = await account(100);
    const other = await answered(acct, shop, 90);
    const id = await answered(acct, shop, 5);
    expect(await settleCall(t.ctx, { id, accountId: acct.accountId }, completed(30))).toBe(true);
    let s = await state(acct.accountId);
    // 5 held + the 5 the other call does not hold.
    expect(s.calls.get(id)).toMatchObject({ ended: true, billed: 10, duration: 30 });
    expect(s.balance).toBe(90);
    // The other call can still be billed its whole hold.
    expect(await settleCall(t.ctx, { id: other, accountId: acct.accountId }, completed(89.5))).toBe(true);
    s = await state(acct.accountId);
    expect(s.calls.get(other)).toMatchObject({ ended: true, billed: 90 });
    expect(s.balance).toBe(0);
    expect(s.debits.map((d) => d.balance_after)).toEqual([90, 0]);
  });

  it("records the end when the balance does not cover the hold: clamped at the balance, never below zero, the answer kept (issue 31.2)", async () => {
    const { acct, shop } = await account(100);
    const id = await answered(acct, shop, 60);
    // An active webhook, so a call.ended is recorded.
    await t.ctx.db.query(
      "INSERT INTO webhooks (id, account_id, url, secret_sealed) VALUES ($1, $2, 'https://hooks.example.test/w', 'sealed')",
      [randomUUID(), acct.accountId],
    );
    // Only a debit lowers a balance; this one is lowered behind the holds' back (a broken invariant).
    await t.ctx.db.query("UPDATE accounts SET balance_seconds = 5 WHERE id = $1", [acct.accountId]);
    expect(await settleCall(t.ctx, { id, accountId: acct.accountId }, completed(20))).toBe(true);
    const s = await state(acct.accountId);
    expect(s.calls.get(id)).toMatchObject({ ended: true, billed: 5, duration: 20 });
    expect(s.debits.map((d) => [d.seconds, d.balance_after])).toEqual([[-5, 0]]);
    expect(s.balance).toBe(0);
    const { rows } = await t.ctx.db.query<{ status: string; outcome: string | null }>(
      "SELECT status, outcome FROM calls WHERE id = $1",
      [id],
    );
    expect(rows[0]).toEqual({ status: "completed", outcome: "confirmed" });
    const { rows: events } = await t.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhook_events WHERE account_id = $1 AND type = 'call.ended'",
      [acct.accountId],
    );
    expect(events[0]!.n).toBe(1);
  });

  it("the sweep settles a lost call without the seconds live calls hold; a live call's end after it is billed in full (issue 31.2)", async () => {
    const { acct, shop } = await account(1_000);
    const live = await answered(acct, shop, 60);
    // A call lost 10-hour-claim style: its carrier reported far more than the balance, over an hour after its answer.
    const lost = await answered(acct, shop, 60);
    await t.ctx.db.query(
      `UPDATE calls SET answered_at = now() - interval '11 hours', carrier_seconds = 36000, last_heartbeat_at = now() - interval '10 minutes' WHERE id = $1`,
      [lost],
    );
    await t.ctx.db.query("UPDATE calls SET last_heartbeat_at = now() + interval '1 hour' WHERE id = $1", [live]); // alive
    expect((await sweepCalls(t.ctx, 60)).ended).toBeGreaterThanOrEqual(1);
    let s = await state(acct.accountId);
    // The lost call got its own hold and the free balance: everything but the live call's 60 s.
    expect(s.calls.get(lost)).toMatchObject({ ended: true, billed: 940 });
    expect(s.balance).toBe(60);
    // The live call ends with its answer and its seconds.
    expect(await settleCall(t.ctx, { id: live, accountId: acct.accountId }, completed(19.2))).toBe(true);
    s = await state(acct.accountId);
    expect(s.calls.get(live)).toMatchObject({ ended: true, billed: 20 });
    const { rows } = await t.ctx.db.query<{ status: string; outcome: string | null }>(
      "SELECT status, outcome FROM calls WHERE id = $1",
      [live],
    );
    expect(rows[0]).toEqual({ status: "completed", outcome: "confirmed" });
    expect(s.balance).toBe(40);
  });

  it("after a crash, a call answered within its last heartbeat is billed from its answer to the time of loss, not 0 (issue 31.4)", async () => {
    const { acct, shop } = await account(1_000);
    const id = await answered(acct, shop, 60);
    // Answered, then its node died before the next heartbeat: the heartbeat is the answer's, connected seconds 0.
    await t.ctx.db.query(
      "UPDATE calls SET answered_at = now() - interval '2 minutes', last_heartbeat_at = now() - interval '2 minutes', answered_seconds = 0 WHERE id = $1",
      [id],
    );
    expect((await sweepCalls(t.ctx, 60)).ended).toBeGreaterThanOrEqual(1);
    // The answer to the time of loss: the middle of the heartbeat interval it missed.
    const expected = Math.ceil(
      (recoveryClock(t.ctx.config).heartbeatMs / 2000) * billingTimeScale(t.ctx.config, "gsm"),
    );
    const s = await state(acct.accountId);
    expect(expected).toBeGreaterThan(0);
    expect(s.calls.get(id)).toMatchObject({ ended: true, billed: expected, duration: expected });
    expect(s.balance).toBe(1_000 - expected);
  });
});
