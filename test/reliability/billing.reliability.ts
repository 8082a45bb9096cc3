// Issue 31 (also): a property test of billing over random interleavings of claims, answers, ends, carrier callbacks
// (honest or inflated) and crashes (the sweep), on the real engine functions and a real PostgreSQL. For every account:
// the balance never goes below zero; every call is billed exactly once (one debit equal to its billed seconds), never
// more than the wall clock from its answer to its end plus 2 s, and a normal end is billed all of its seconds within
// that bound that its hold and the free balance cover; no call is sent to end `insufficient_balance` while live calls
// hold balance that will free (it waits instead).
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUIRED_SECONDS } from "../../src/domain/money.ts";
import { claimCalls, markAnswered, settleCall, type ClaimedCall } from "../../src/calls/call-states.ts";
import { sweepCalls } from "../../src/calls/sweeper.ts";
import { recordCarrierSeconds } from "../../src/calls/carrier-seconds.ts";
import { newAccount, startApp, type TestAccount, type TestApp } from "../helpers.ts";
import { callBody, insertShop, postCall } from "../calls-fixtures.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startApp({ env: { WAKHA_RATE_LIMIT_SCALE: "1000" } });
});
afterAll(async () => t?.close());

type Command =
  | { kind: "claim"; call: number }
  | { kind: "answer"; call: number; ago: number }
  | { kind: "end"; call: number; extra: number }
  | { kind: "callback"; call: number; extra: number }
  | { kind: "crash"; call: number; heard: number };

const command = (calls: number): fc.Arbitrary<Command> => {
  const call = fc.integer({ min: 0, max: calls - 1 });
  // What the carrier says beyond the wall clock: usually honest (within the tolerance), sometimes wildly inflated.
  const extra = fc.oneof(fc.integer({ min: -5, max: 1 }), fc.constantFrom(36_000, 500, 60));
  return fc.oneof(
    fc.record({ kind: fc.constant("claim" as const), call }),
    fc.record({ kind: fc.constant("answer" as const), call, ago: fc.integer({ min: 0, max: 120 }) }),
    fc.record({ kind: fc.constant("end" as const), call, extra }),
    fc.record({ kind: fc.constant("callback" as const), call, extra }),
    fc.record({ kind: fc.constant("crash" as const), call, heard: fc.integer({ min: 0, max: 60 }) }),
  );
};

interface Live {
  id: string;
  claimed: ClaimedCall | null;
  answered: boolean;
}

async function account(balance: number, calls: number): Promise<{ acct: TestAccount; live: Live[] }> {
  // Created with enough to pass the creation gate, then left with `balance` (others' calls may have spent the rest).
  const acct = await newAccount(t.ctx, 1_000);
  const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  const live: Live[] = [];
  for (let i = 0; i < calls; i++) {
    const res = await postCall(
      t,
      acct,
      callBody(shop, { order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00" }] } }),
    );
    if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
    live.push({ id: (res.json() as { id: string }).id, claimed: null, answered: false });
  }
  await t.ctx.db.query("UPDATE accounts SET balance_seconds = $2 WHERE id = $1", [acct.accountId, balance]);
  return { acct, live };
}

async function holds(accountId: string, except: string): Promise<{ balance: number; otherHeld: number }> {
  const { rows } = await t.ctx.db.query<{ balance: number; held: number }>(
    `SELECT a.balance_seconds AS balance, (SELECT COALESCE(sum(held_seconds), 0)::int FROM calls
       WHERE account_id = a.id AND ended_at IS NULL AND held_seconds > 0 AND id <> $2) AS held FROM accounts a WHERE a.id = $1`,
    [accountId, except],
  );
  return { balance: Number(rows[0]!.balance), otherHeld: Number(rows[0]!.held) };
}

async function run(balance: number, calls: number, commands: Command[]): Promise<void> {
  const { acct, live } = await account(balance, calls);
  const normalEnds = new Map<string, { reported: number; available: number }>();
  for (const c of commands) {
    const call = live[c.call]!;
    if (c.kind === "claim" && !call.claimed) {
      const { otherHeld } = await holds(acct.accountId, call.id);
      const [claimed] = await claimCalls(t.ctx, [call.id]);
      if (claimed) {
        call.claimed = claimed;
        // Claimed to fail `insufficient_balance` only when nothing else holds balance that will free.
        if (claimed.balanceSeconds < REQUIRED_SECONDS)
          expect(otherHeld, "a call sent to fail while balance was held").toBe(0);
      } else {
        const { rows } = await t.ctx.db.query<{ wait_lines: string[] | null; status: string }>(
          "SELECT wait_lines, status FROM calls WHERE id = $1",
          [call.id],
        );
        // Parked for balance only while live calls hold some; it is woken when one ends.
        if (rows[0]!.status === "queued" && rows[0]!.wait_lines?.includes("balance"))
          expect(otherHeld).toBeGreaterThan(0);
      }
    } else if (c.kind === "answer" && call.claimed && !call.answered) {
      const check = await markAnswered(t.ctx, call.claimed);
      if (!check.lost) {
        call.answered = true;
        // Time passes: the call was answered `ago` seconds back (the wall clock the bound reads).
        await t.ctx.db.query("UPDATE calls SET answered_at = answered_at - make_interval(secs => $2) WHERE id = $1", [
          call.id,
          c.ago,
        ]);
      }
    } else if (c.kind === "end" && call.claimed) {
      const { rows } = await t.ctx.db.query<{ wall: number | null; ended: boolean }>(
        "SELECT EXTRACT(EPOCH FROM clock_timestamp() - answered_at)::float8 AS wall, ended_at IS NOT NULL AS ended FROM calls WHERE id = $1",
        [call.id],
      );
      if (rows[0]!.ended) continue;
      const reported = Math.max(0, Math.ceil((rows[0]!.wall ?? 0) + c.extra));
      const { balance: before, otherHeld } = await holds(acct.accountId, call.id);
      const settled = await settleCall(
        t.ctx,
        { id: call.id, accountId: acct.accountId },
        {
          status: "completed",
          outcome: "confirmed",
          outcomeDetails: { transcript_excerpt: "wakha" },
          endReason: "completed",
          transcript: [],
          connectedSeconds: reported,
        },
      );
      if (settled && call.answered) normalEnds.set(call.id, { reported, available: Math.max(0, before - otherHeld) });
    } else if (c.kind === "callback" && call.answered) {
      const { rows } = await t.ctx.db.query<{ wall: number | null }>(
        "SELECT EXTRACT(EPOCH FROM clock_timestamp() - answered_at)::float8 AS wall FROM calls WHERE id = $1",
        [call.id],
      );
      await recordCarrierSeconds(t.ctx, call.id, Math.max(0, Math.ceil((rows[0]!.wall ?? 0) + c.extra)));
    } else if (c.kind === "crash" && call.claimed) {
      // Its node died: the heartbeat stopped a minute ago, having seen `heard` seconds connected; the sweep takes it.
      await t.ctx.db.query(
        "UPDATE calls SET last_heartbeat_at = now() - interval '60 seconds', answered_seconds = CASE WHEN answered_at IS NULL THEN NULL ELSE LEAST($2, GREATEST(0, EXTRACT(EPOCH FROM now() - interval '60 seconds' - answered_at))::int) END WHERE id = $1 AND ended_at IS NULL",
        [call.id, c.heard],
      );
      await sweepCalls(t.ctx, 30);
    }
    const { rows } = await t.ctx.db.query<{ balance: number }>(
      "SELECT balance_seconds AS balance FROM accounts WHERE id = $1",
      [acct.accountId],
    );
    expect(Number(rows[0]!.balance), "balance below zero").toBeGreaterThanOrEqual(0);
  }
  // The end of the story: every call that is still live is lost and swept; then the books.
  await t.ctx.db.query(
    "UPDATE calls SET last_heartbeat_at = now() - interval '60 seconds' WHERE account_id = $1 AND ended_at IS NULL AND status <> 'queued'",
    [acct.accountId],
  );
  await sweepCalls(t.ctx, 30);
  const { rows: ended } = await t.ctx.db.query<{
    id: string;
    billed: number | null;
    answered_at: Date | null;
    ended_at: Date | null;
    wall: number | null;
    end_reason: string | null;
  }>(
    `SELECT id, billed_seconds AS billed, answered_at, ended_at, EXTRACT(EPOCH FROM clock_timestamp() - answered_at)::float8 AS wall, end_reason
     FROM calls WHERE account_id = $1 AND ended_at IS NOT NULL`,
    [acct.accountId],
  );
  const { rows: debits } = await t.ctx.db.query<{ call_id: string; seconds: number }>(
    "SELECT call_id, seconds FROM transactions WHERE account_id = $1 AND type = 'debit'",
    [acct.accountId],
  );
  const {
    rows: [books],
  } = await t.ctx.db.query<{ balance: number }>("SELECT balance_seconds AS balance FROM accounts WHERE id = $1", [
    acct.accountId,
  ]);
  const debitOf = new Map<string, number>();
  for (const d of debits) {
    expect(debitOf.has(d.call_id), "a call debited twice").toBe(false);
    debitOf.set(d.call_id, -Number(d.seconds));
  }
  let billed = 0;
  for (const call of ended) {
    const seconds = call.billed ?? 0;
    expect(debitOf.get(call.id) ?? 0, `call ${call.id}: its debit is its billed seconds`).toBe(seconds);
    if (!call.answered_at) expect(seconds).toBe(0);
    // Never more than our own clock from the answer to now (the end was earlier) plus the tolerance.
    else expect(seconds).toBeLessThanOrEqual(Math.ceil((call.wall ?? 0) + 2));
    const normal = normalEnds.get(call.id);
    // A normal end: all of its seconds within the bound, as far as its hold and the free balance covered them.
    if (normal && call.answered_at && call.ended_at) {
      const bound = Math.ceil((call.ended_at.getTime() - call.answered_at.getTime()) / 1000 + 2);
      const want = Math.min(normal.reported, normal.available);
      expect(
        seconds,
        `call ${call.id}: reported ${normal.reported}, ${normal.available} s available`,
      ).toBeGreaterThanOrEqual(Math.min(want, bound));
      expect(seconds).toBeLessThanOrEqual(Math.min(want, bound + 1));
    }
    billed += seconds;
  }
  expect(billed).toBe(balance - Number(books!.balance));
  expect(Number(books!.balance)).toBeGreaterThanOrEqual(0);
}

describe("billing under random interleavings (issue 31)", () => {
  it("never below zero, each connected second billed once within the wall-clock bound, no insufficient_balance while balance is held", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 5, max: 300 }),
        fc
          .integer({ min: 1, max: 5 })
          .chain((calls) => fc.tuple(fc.constant(calls), fc.array(command(calls), { minLength: 4, maxLength: 24 }))),
        async (balance, [calls, commands]) => run(balance, calls, commands),
      ),
      { numRuns: 100, endOnFailure: true },
    );
  });
});
