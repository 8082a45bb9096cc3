// Issue 30.6: a carrier socket refused for its signature (ConversationRelay) or its password (jambonz) ends the call
// failed with its own end reason, `carrier_auth_failed`, not as the customer hanging up with no decision; a forged
// socket for a call whose genuine socket attached changes nothing (twilio.test.ts: "refuses unsigned ... sockets").
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEngineDatabase, debitsOf, waitForEnd } from "./engine-fixtures.ts";
import {
  carrierAccount,
  type CarrierNode,
  createCarrierCall,
  PublicAddress,
  startCarrierNode,
} from "./fakes/carrier-harness.ts";
import { FakeAzureSpeech } from "./fakes/azure-speech.ts";
import { FakeJambonz } from "./fakes/jambonz.ts";
import { FakeTwilio } from "./fakes/twilio.ts";

const TWILIO_SID = `AC${"0123456789abcdef".repeat(2)}`;
const TWILIO_TOKEN = "auth-failed-twilio-token-000000000";
const JAMBONZ_SID = "9351f46a-678c-43f5-b8a6-d4eb58d131af";
const JAMBONZ_KEY = "jambonz-auth-failed-key-0123456789";
const JAMBONZ_SECRET = "wh_secret_jambonz_auth_failed_0123";
const SPEED = 5;
const TWILIO_BAD = "+33612345601";
const JAMBONZ_BAD = "+212600000101";
const MEDIA_BAD = "+212612345601";
const AZURE_KEY = "azure-speech-auth-failed-key-01234";

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let twilio: FakeTwilio;
let azure: FakeAzureSpeech;
let jambonz: FakeJambonz;
let address: PublicAddress;
let t: CarrierNode;

beforeAll(async () => {
  db = await createEngineDatabase();
  azure = new FakeAzureSpeech({ key: AZURE_KEY });
  await azure.start();
  twilio = new FakeTwilio({
    accountSid: TWILIO_SID,
    authToken: TWILIO_TOKEN,
    speed: SPEED,
    voice: azure,
    scenarios: {
      [TWILIO_BAD]: { socketToken: "not-the-auth-token-0000000000" },
      [MEDIA_BAD]: { socketToken: "not-the-auth-token-0000000000" },
    },
  });
  await twilio.start();
  jambonz = new FakeJambonz({
    accountSid: JAMBONZ_SID,
    apiKey: JAMBONZ_KEY,
    webhookSecret: JAMBONZ_SECRET,
    speed: SPEED,
    scenarios: { [JAMBONZ_BAD]: { socketPassword: "not-the-password" } },
  });
  await jambonz.start();
  address = new PublicAddress();
  await address.start();
  t = await startCarrierNode(
    db.url,
    {
      WAKHA_CHANNELS: "gsm=twilio,voip=jambonz,audio=twilio-media",
      WAKHA_AZURE_SPEECH_KEY: AZURE_KEY,
      WAKHA_AZURE_SPEECH_ENDPOINT: azure.url,
      WAKHA_AZURE_SPEECH_VOICES: "ma=ar-MA-JamalNeural",
      WAKHA_VAD: "energy",
      WAKHA_CARRIER_TIME_SCALE: String(SPEED),
      WAKHA_TWILIO_ACCOUNT_SID: TWILIO_SID,
      WAKHA_TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      WAKHA_TWILIO_CALLER_IDS: "+33100000000",
      WAKHA_TWILIO_API_URL: twilio.url,
      WAKHA_JAMBONZ_API_URL: jambonz.url,
      WAKHA_JAMBONZ_ACCOUNT_SID: JAMBONZ_SID,
      WAKHA_JAMBONZ_API_KEY: JAMBONZ_KEY,
      WAKHA_JAMBONZ_CALLER_IDS: "+212522000000",
      WAKHA_JAMBONZ_WEBHOOK_SECRET: JAMBONZ_SECRET,
      WAKHA_JAMBONZ_VOICES: "ma=ar-MA-JamalNeural,fr=fr-FR-DeniseNeural",
    },
    address,
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await twilio?.close();
  await jambonz?.close();
  await azure?.close();
  await address?.close();
  await db?.drop();
});

it("a relay, Media Streams or jambonz socket refused for its signature or password ends the call failed, carrier_auth_failed, billed on the carrier's seconds", async () => {
  const { acct, shop } = await carrierAccount(t, 10_000);
  const relayId = await createCarrierCall(t, acct, shop, "FR", TWILIO_BAD, "gsm");
  const jambonzId = await createCarrierCall(t, acct, shop, "MA", JAMBONZ_BAD, "voip");
  const mediaId = await createCarrierCall(t, acct, shop, "MA", MEDIA_BAD, "audio");
  const [relay, jamb, media] = await Promise.all([
    waitForEnd(t, acct, relayId, 60_000),
    waitForEnd(t, acct, jambonzId, 60_000),
    waitForEnd(t, acct, mediaId, 60_000),
  ]);
  expect([media.status, media.end_reason, media.outcome]).toEqual(["failed", "carrier_auth_failed", null]);
  expect(twilio.refusals).toContainEqual({ kind: "media", status: 403 });
  expect([relay.status, relay.end_reason, relay.outcome]).toEqual(["failed", "carrier_auth_failed", null]);
  expect([jamb.status, jamb.end_reason, jamb.outcome]).toEqual(["failed", "carrier_auth_failed", null]);
  expect(twilio.refusals).toContainEqual({ kind: "relay", status: 403 });
  expect(jambonz.refusals).toContainEqual({ kind: "ws", status: 401 });
  // The carrier connected the call before the socket was refused: its seconds are what is billed.
  const twilioCall = [...twilio.calls.values()].find((c) => c.to === TWILIO_BAD)!;
  expect(relay.billed_seconds).toBe(twilioCall.duration);
  expect((await debitsOf(t.ctx, acct.accountId)).get(relayId)?.seconds ?? 0).toBe(twilioCall.duration);
}, 90_000);
