// Issue 15: the end of a call hands its place to the oldest call parked for it. Ended by the dialer, the woken call gets
// no place-call job: its id goes back to the node that ended the call, which claims it (dialer.ts Relay). Should that
// node die before, the sweep gives the woken call a job once it has waited past the grace; ended any other way (no
// relay), the woken call gets its job in the end's transaction, as before.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallEnd, settleCall } from "../src/calls/call-states.ts";
import { sweepCalls } from "../src/calls/sweeper.ts";
import { QUEUE_SCHEMA } from "../src/jobs/queue.ts";
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

const busy: CallEnd = {
  status: "busy",
  outcome: null,
  outcomeDetails: null,
  endReason: "busy",
  transcript: null,
  connectedSeconds: 0,
};

/** A live call and two calls parked for the account's place behind it (oldest first). */
async function liveAndParked(): Promise<{ acct: TestAccount; live: string; parked: string[] }> {
  const acct = await newAccount(t.ctx, 1_000);
  const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await postCall(
      t,
      acct,
      callBody(shop, { order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00" }] } }),
    );
    expect(res.statusCode, res.body).toBe(201);
    ids.push((res.json() as { id: string }).id);
  }
  await t.ctx.db.query(
    "UPDATE calls SET status = 'ringing', dialed_at = now(), last_heartbeat_at = now() WHERE id = $1",
    [ids[0]],
  );
  await t.ctx.db.query("UPDATE calls SET deferred_until = 'infinity', deferrals = 1 WHERE id = ANY($1::uuid[])", [
    ids.slice(1),
  ]);
  return { acct, live: ids[0]!, parked: ids.slice(1) };
}

/** The place-call jobs of a call other than the one created with it (whose id is the call's). */
async function wakeJobs(callId: string): Promise<number> {
  const { rows } = await t.ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${QUEUE_SCHEMA}.job WHERE name = 'place-call' AND data->>'call_id' = $1 AND id <> $1::uuid`,
    [callId],
  );
  return rows[0]!.n;
}

async function deferredUntil(callId: string): Promise<string | null> {
  const { rows } = await t.ctx.db.query<{ d: string | null }>(
    "SELECT deferred_until::text AS d FROM calls WHERE id = $1",
    [callId],
  );
  return rows[0]!.d;
}

describe("the hand-over of a place at a call's end (issue 15)", () => {
  it("hands the oldest parked call to the node that ended the call, without a job, once the end has committed", async () => {
    const { acct, live, parked } = await liveAndParked();
    const relay: string[] = [];
    expect(await settleCall(t.ctx, { id: live, accountId: acct.accountId }, busy, relay)).toBe(true);
    expect(relay).toEqual([parked[0]]);
    expect(await deferredUntil(parked[0]!)).not.toBe("infinity"); // woken: it holds the place until claimed
    expect(await deferredUntil(parked[1]!)).toBe("infinity");
    expect(await wakeJobs(parked[0]!)).toBe(0);
  });

  it("gives the woken call a job in the end's transaction when the end has no relay", async () => {
    const { acct, live, parked } = await liveAndParked();
    expect(await settleCall(t.ctx, { id: live, accountId: acct.accountId }, busy)).toBe(true);
    expect(await wakeJobs(parked[0]!)).toBe(1);
    expect(await deferredUntil(parked[1]!)).toBe("infinity");
  });

  it("hands over nothing when the end rolls back, and a woken call its node never claimed gets a job from the sweep", async () => {
    const { acct, live, parked } = await liveAndParked();
    // An end that fails (its debit is refused by the database: a trigger stands in for any failure) wakes nobody.
    await t.ctx.db.query(
      "UPDATE calls SET status = 'in_progress', answered_at = now() - interval '1 minute', held_seconds = 60 WHERE id = $1",
      [live],
    );
    await t.ctx.db.query(`CREATE OR REPLACE FUNCTION wakha_test_refuse_debit() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN IF NEW.call_id = '${live}'::uuid THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await t.ctx.db.query(
      "CREATE TRIGGER wakha_test_refuse_debit BEFORE INSERT ON transactions FOR EACH ROW EXECUTE FUNCTION wakha_test_refuse_debit()",
    );
    const relay: string[] = [];
    try {
      await expect(
        settleCall(
          t.ctx,
          { id: live, accountId: acct.accountId },
          { ...busy, status: "completed", connectedSeconds: 20 },
          relay,
        ),
      ).rejects.toThrow();
    } finally {
      await t.ctx.db.query("DROP TRIGGER wakha_test_refuse_debit ON transactions");
    }
    expect(relay).toEqual([]);
    expect(await deferredUntil(parked[0]!)).toBe("infinity");
    // Now an end that commits, whose node dies before claiming the call it woke.
    expect(
      await settleCall(
        t.ctx,
        { id: live, accountId: acct.accountId },
        { ...busy, status: "completed", connectedSeconds: 20 },
        relay,
      ),
    ).toBe(true);
    expect(relay).toEqual([parked[0]]);
    // Its own job (created with it) was fetched and completed long ago, and it has waited past the grace.
    await t.ctx.db.query(`DELETE FROM ${QUEUE_SCHEMA}.job WHERE name = 'place-call' AND id = $1::uuid`, [parked[0]]);
    await t.ctx.db.query(
      "UPDATE calls SET created_at = now() - interval '10 minutes', deferred_until = now() - interval '5 minutes' WHERE id = $1",
      [parked[0]],
    );
    const report = await sweepCalls(t.ctx);
    expect(report.requeued).toBeGreaterThanOrEqual(1);
    const { rows } = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${QUEUE_SCHEMA}.job WHERE name = 'place-call' AND id = $1::uuid AND state = 'created'`,
      [parked[0]],
    );
    expect(rows[0]!.n).toBe(1);
  });
});
