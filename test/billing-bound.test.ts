// Issue 31.1: the carrier's duration is never billed beyond our own clock. A signed `completed` callback reporting
// CallDuration=36000 on a call connected a few seconds (a carrier's error, or a leaked auth token that signs for every
// account) bills the seconds from the answer to the end plus 2 s at most; the report is kept on the call
// (CallOut.billing_adjustment), not billed. The same bound holds for the seconds a callback records for the sweep.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, createEngineDatabase, debitsOf, getCallOut, waitForEnd } from "./engine-fixtures.ts";
import {
  carrierAccount,
  type CarrierNode,
  createCarrierCall,
  PublicAddress,
  startCarrierNode,
} from "./fakes/carrier-harness.ts";
import { FakeTwilio } from "./fakes/twilio.ts";
import { recordCarrierSeconds } from "../src/calls/carrier-seconds.ts";

const ACCOUNT_SID = `AC${"31313131deadbeef".repeat(2)}`;
const AUTH_TOKEN = "twilio-bound-auth-token-3131313131";
const SPEED = 5;
const INFLATED = "+212612345601"; // confirms: a call of a few seconds of wall time

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let fake: FakeTwilio;
let address: PublicAddress;
let t: CarrierNode;

beforeAll(async () => {
  db = await createEngineDatabase();
  fake = new FakeTwilio({
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    speed: SPEED,
    scenarios: { [INFLATED]: { reportedDuration: 36_000 } },
  });
  await fake.start();
  address = new PublicAddress();
  await address.start();
  t = await startCarrierNode(
    db.url,
    {
      WAKHA_CHANNELS: "gsm=twilio",
      WAKHA_TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      WAKHA_TWILIO_CALLER_IDS: "+33100000000",
      WAKHA_TWILIO_API_URL: fake.url,
      WAKHA_CARRIER_TIME_SCALE: String(SPEED),
    },
    address,
  );
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await address?.close();
  await db?.drop();
});

describe("billing bound by the wall clock (issue 31.1)", () => {
  it("a signed CallDuration=36000 on a short call bills the call's own seconds, and says so on the call", async () => {
    const { acct, shop } = await carrierAccount(t, 300);
    const id = await createCarrierCall(t, acct, shop, "MA", INFLATED);
    const call = await waitForEnd(t, acct, id, 60_000);
    const twilioCall = [...fake.calls.values()].find((c) => c.params["Twiml"]?.includes(id))!;
    expect((await fake.statusCallbacks(twilioCall, "completed"))[0]).toMatchObject({
      status: 204,
      params: { CallDuration: "36000" },
    });
    expect(call.status).toBe("completed");
    // The bound is our own clock, from the answer to the end, plus 2 s; never the 36,000 s. (The fake's own clock is
    // not compared: on a loaded machine our node records the answer and the end a little after the fake does, and
    // the contract bounds the bill by our clock, not by the carrier's.)
    const wall = (Date.parse(call.ended_at!) - Date.parse(call.answered_at!)) / 1000;
    expect(call.billed_seconds!).toBeGreaterThan(0);
    expect(call.billed_seconds!).toBeLessThanOrEqual(Math.ceil((wall + 2) * SPEED));
    expect(call.billed_seconds!).toBeLessThan(36_000 / 10);
    expect(call.billing_adjustment).toEqual({
      reported_seconds: 36_000,
      billed_seconds: call.billed_seconds,
      reason: "carrier_seconds_exceed_wall_clock",
    });
    expect((await debitsOf(t.ctx, acct.accountId)).get(id)?.seconds).toBe(call.billed_seconds);
    expect(await balanceOf(t.ctx, acct.accountId)).toBe(300 - call.billed_seconds!);
  }, 90_000);

  it("the seconds a callback records for the sweep are bounded the same way", async () => {
    const { acct, shop } = await carrierAccount(t, 300);
    const id = await createCarrierCall(t, acct, shop, "MA", "+212612345602");
    await waitForEnd(t, acct, id, 60_000);
    // A row answered 3 s ago with no carrier seconds yet (as on a node that died): the callback's 36,000 s are cut.
    await t.ctx.db.query(
      "UPDATE calls SET carrier_seconds = NULL, billing_adjustment = NULL, answered_at = clock_timestamp() - interval '3 seconds' WHERE id = $1",
      [id],
    );
    await recordCarrierSeconds(t.ctx, id, 36_000);
    const { rows } = await t.ctx.db.query<{ carrier_seconds: number }>(
      "SELECT carrier_seconds FROM calls WHERE id = $1",
      [id],
    );
    expect(rows[0]!.carrier_seconds).toBeGreaterThanOrEqual(Math.ceil(5 * SPEED));
    expect(rows[0]!.carrier_seconds).toBeLessThanOrEqual(Math.ceil(7 * SPEED));
    expect((await getCallOut(t, acct, id)).billing_adjustment).toMatchObject({
      reported_seconds: 36_000,
      reason: "carrier_seconds_exceed_wall_clock",
    });
  }, 90_000);
});
