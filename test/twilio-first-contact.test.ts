// Issue 30.1/30.2: the first seconds of a Twilio call. The agent speaks on the answer, without waiting for the
// asynchronous answering-machine verdict (which may come seconds later, or as `unknown` at the detection timeout);
// Twilio is asked for DetectMessageEnd with a detection timeout, and a machine's message is left only once Twilio
// reports the end of its greeting (machine_end_*), not interruptible, never over the greeting.
import { afterAll, beforeAll, expect, it } from "vitest";
import { MACHINE_DETECTION_TIMEOUT_SECONDS } from "../src/engine/telephony/twilio/provider.ts";
import { createEngineDatabase, waitForEnd } from "./engine-fixtures.ts";
import {
  carrierAccount,
  type CarrierNode,
  createCarrierCall,
  PHONES,
  PublicAddress,
  startCarrierNode,
} from "./fakes/carrier-harness.ts";
import { FakeTwilio } from "./fakes/twilio.ts";

const ACCOUNT_SID = `AC${"0123456789abcdef".repeat(2)}`;
const AUTH_TOKEN = "first-contact-auth-token-000000000";
const SPEED = 5;
// The last two digits choose the persona: 01 confirms, 05 is a voicemail.
const LATE_VERDICT = `${PHONES.FR}01`;
const UNKNOWN_VERDICT = `${PHONES.MA}01`;
const VOICEMAIL = `${PHONES.FR}05`;

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
    scenarios: {
      [LATE_VERDICT]: { amdSeconds: 7 },
      [UNKNOWN_VERDICT]: { amdSeconds: MACHINE_DETECTION_TIMEOUT_SECONDS, amdVerdict: "unknown" },
    },
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
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await address?.close();
  await db?.drop();
});

const fakeCall = (to: string) => [...fake.calls.values()].find((c) => c.to === to)!;

it("greets on the answer, whether the machine verdict comes 7 s late or as unknown at the detection timeout", async () => {
  const { acct, shop } = await carrierAccount(t, 10_000);
  const ids = [
    await createCarrierCall(t, acct, shop, "FR", LATE_VERDICT),
    await createCarrierCall(t, acct, shop, "MA", UNKNOWN_VERDICT),
  ];
  const ended = await Promise.all(ids.map((id) => waitForEnd(t, acct, id, 60_000)));
  for (const [i, to] of [LATE_VERDICT, UNKNOWN_VERDICT].entries()) {
    const call = fakeCall(to);
    expect(call.params).toMatchObject({
      MachineDetection: "DetectMessageEnd",
      MachineDetectionTimeout: String(MACHINE_DETECTION_TIMEOUT_SECONDS),
      AsyncAmd: "true",
    });
    // The first words reach Twilio before the verdict does: the greeting does not wait for it. (An order, not a
    // duration: how soon the words go out is the bench's to measure, not a timed test's.)
    expect(call.firstTextSeconds, to).not.toBeNull();
    expect(call.amdAtSeconds, to).not.toBeNull();
    expect(call.firstTextSeconds!, to).toBeLessThan(call.amdAtSeconds!);
    // A human (or unknown) verdict changes nothing: the call goes on to the persona's outcome.
    expect([ended[i]!.status, ended[i]!.outcome], to).toEqual(["completed", "confirmed"]);
  }
}, 90_000);

it("leaves the voicemail message after the machine's greeting ended (machine_end_beep), not interruptible", async () => {
  const { acct, shop } = await carrierAccount(t, 10_000);
  const id = await createCarrierCall(t, acct, shop, "FR", VOICEMAIL);
  const ended = await waitForEnd(t, acct, id, 60_000);
  expect([ended.status, ended.end_reason]).toEqual(["voicemail", "voicemail"]);
  const call = fakeCall(VOICEMAIL);
  expect(call.callbacks.filter((c) => c.kind === "AsyncAmdStatusCallback").map((c) => c.params["AnsweredBy"])).toEqual([
    "machine_end_beep",
  ]);
  // The greeting went out on the answer too (before detection could know); the message came only after the beep.
  const message = call.toMachine.at(-1)!;
  expect(call.toMachine.length).toBeGreaterThanOrEqual(2);
  expect(call.toMachine[0]!.afterBeep).toBe(false);
  expect(message).toMatchObject({ afterBeep: true, interruptible: false });
}, 90_000);
