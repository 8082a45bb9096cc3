// The warm transfer on Twilio Media Streams (issue 34), against the local fakes at their documented boundaries
// (test/fakes/twilio.ts with Azure Speech's fake as the callee's voice): the conference pattern as on ConversationRelay.
// The person is dialled through the REST API (Calls create with the whisper as its Url) while the agent speaks; once
// they heard the brief they wait in <Dial><Conference>, and the customer's live call is updated with the same TwiML
// (Calls update `Twiml`: the stream ends, the call goes on in the room). No answer, busy and the person hanging up
// during the brief leave the customer with the agent: a person will call back, callback_requested.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineDatabase, waitForEnd } from "./engine-fixtures.ts";
import { callBody, postCall } from "./calls-fixtures.ts";
import {
  carrierAccount,
  expectBridgedThenResolved,
  expectUntaken,
  putHandoff,
  UNTAKEN_TRANSFERS,
  type CarrierNode,
  PublicAddress,
  startCarrierNode,
} from "./fakes/carrier-harness.ts";
import { FakeAzureSpeech } from "./fakes/azure-speech.ts";
import { FakeTwilio } from "./fakes/twilio.ts";
import type { TestAccount } from "./helpers.ts";

const ACCOUNT_SID = `AC${"fedcba9876543210".repeat(2)}`;
const AUTH_TOKEN = "twilio-media-auth-token-0123456789";
const AZURE_KEY = "azure-speech-test-key-0123456789";
const SPEED = 5;
const CUSTOMER = "+212612345613"; // asks for a person (the simulator's customer 13)

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let azure: FakeAzureSpeech;
let fake: FakeTwilio;
let address: PublicAddress;
let t: CarrierNode;

beforeAll(async () => {
  db = await createEngineDatabase();
  azure = new FakeAzureSpeech({ key: AZURE_KEY });
  await azure.start();
  fake = new FakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, speed: SPEED, voice: azure });
  await fake.start();
  address = new PublicAddress();
  await address.start();
  t = await startCarrierNode(
    db.url,
    {
      WAKHA_CHANNELS: "gsm=twilio-media",
      WAKHA_TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      WAKHA_TWILIO_CALLER_IDS: "+212522000000",
      WAKHA_TWILIO_API_URL: fake.url,
      WAKHA_CARRIER_TIME_SCALE: String(SPEED),
      WAKHA_AZURE_SPEECH_KEY: AZURE_KEY,
      WAKHA_AZURE_SPEECH_ENDPOINT: azure.url,
      WAKHA_AZURE_SPEECH_VOICES: "ma=ar-MA-JamalNeural,dz=ar-DZ-IsmaelNeural",
      WAKHA_BASE_URL: "https://api.example.test",
      // The fake's speech is a pitch-coded tone: the energy detector hears it (see test/media-streams.test.ts).
      WAKHA_VAD: "energy",
    },
    address,
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await azure?.close();
  await address?.close();
  await db?.drop();
});

async function transferCall(acct: TestAccount, shop: string, ext: string) {
  const res = await postCall(
    t,
    acct,
    callBody(shop, {
      country: "MA",
      customer: { name: "Amina", phone_number: CUSTOMER },
      order: { external_id: ext, items: [{ name: "Caftan", unit_price: "450" }] },
    }),
  );
  expect(res.statusCode, res.body).toBe(201);
  const id = (res.json() as { id: string }).id;
  const call = await waitForEnd(t, acct, id, 120_000);
  const twilioCall = [...fake.calls.values()].find((c) => c.params["Twiml"]?.includes(id))!;
  const leg = [...fake.calls.values()].find((c) => c.personOf === twilioCall) ?? null;
  return { call, twilioCall, leg };
}

describe("warm transfer on Twilio Media Streams (issue 34)", () => {
  it("bridged: the person dialled at once, the brief to them only, the customer's live call updated into the room", async () => {
    const { acct, shop } = await carrierAccount(t, 100_000);
    await putHandoff(t, acct, shop, "+212612345699", 20, ["customer_asks"]);
    const { call, twilioCall, leg } = await transferCall(acct, shop, "tm-bridged");
    expect(call).toMatchObject({
      status: "completed",
      outcome: "no_decision",
      end_reason: "transferred",
      transfer: { status: "bridged", to: "+212612345699", reason: "customer_asks", ended_by: null },
    });
    expect(leg).not.toBeNull();
    expect(leg!.params).toMatchObject({ To: "+212612345699", From: "+212522000000", Timeout: "20" });
    const h = twilioCall.handoff!;
    expect(h.whisper).toContain("Amina");
    expect(h.whisperLanguage).toBe("ar-MA");
    expect(h.bridgedAt).not.toBeNull();
    // The customer's call was moved into the room by a Calls update with the conference's TwiML, the same room the
    // person's whisper led them to.
    const update = twilioCall.restUpdates.find((u) => u["Twiml"]?.includes("<Conference"));
    expect(update?.["Twiml"]).toMatch(/<Dial><Conference [^>]*>wakha-transfer-[0-9a-f-]{36}<\/Conference><\/Dial>/);
    expect(leg!.answeredTwiml.find((d) => d.includes("<Conference"))).toBe(update!["Twiml"]);
    // The brief never reached the customer: only the agent's own lines were synthesised for the call.
    expect(azure.syntheses.some((s) => s.text.includes("tm-bridged"))).toBe(false);
    await expectBridgedThenResolved(t, acct, shop, "tm-bridged", call, {
      duration: twilioCall.duration,
      dialDuration: h.dialDuration,
    });
  }, 90_000);

  it("no answer, busy, refused during the brief: the customer stays with the agent, callback_requested", async () => {
    await Promise.all(
      UNTAKEN_TRANSFERS.map(async (c) => {
        const { acct, shop } = await carrierAccount(t, 100_000);
        await putHandoff(t, acct, shop, c.phone, 5, ["customer_asks"]);
        const ext = `tm-${c.phone.slice(-2)}-${randomUUID().slice(0, 6)}`;
        const { call, twilioCall } = await transferCall(acct, shop, ext);
        expectUntaken(call, twilioCall.handoff!, c);
        expect(
          twilioCall.restUpdates.some((u) => u["Twiml"] !== undefined),
          c.phone,
        ).toBe(false);
        expect(call.billed_seconds, c.phone).toBe(twilioCall.duration);
      }),
    );
  }, 120_000);
});
