// Issue 30.7: on ConversationRelay the answer goes out as soon as it is decided. The fake's text-to-speech plays our
// lines 4x faster than the pace Wakha budgets, so the callee's answer (a final `prompt`) comes while Wakha's own
// estimate of its line's playback still runs: the first `text` token back must not wait for that estimate
// (ConversationRelay queues tokens and reports interruptions itself). The bench's relay-latency section measures
// the same with 200 calls (bench/carriers.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
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
const AUTH_TOKEN = "relay-latency-auth-token-000000000";
const SPEED = 2;

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let fake: FakeTwilio;
let address: PublicAddress;
let t: CarrierNode;

beforeAll(async () => {
  db = await createEngineDatabase();
  fake = new FakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, speed: SPEED, playbackSpeed: 4 });
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

it("the answer is not held on Wakha's estimate of its own playback when the carrier's speech runs 4x faster", async () => {
  const { acct, shop } = await carrierAccount(t, 10_000);
  // 08 asks a question then confirms: several turns each.
  const ids = [
    await createCarrierCall(t, acct, shop, "FR", `${PHONES.FR}08`),
    await createCarrierCall(t, acct, shop, "MA", `${PHONES.MA}01`),
  ];
  const ended = await Promise.all(ids.map((id) => waitForEnd(t, acct, id, 90_000)));
  expect(ended.map((c) => c.status)).toEqual(["completed", "completed"]);
  const latencies = [...fake.calls.values()].flatMap((c) => c.tokenLatencies);
  expect(latencies.length).toBeGreaterThanOrEqual(3);
  // Processing takes milliseconds; the old hold was the rest of the estimate (hundreds of ms to seconds, wall).
  expect(Math.max(...latencies), JSON.stringify(latencies)).toBeLessThan(250);
}, 120_000);
