// Issue 30.5: every speech shape jambonz documents is read. A gather result with top-level `alternatives` (gather's
// examples, Google-style results) was taken for silence: the agent re-asked and the call ended no_decision.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bestTranscript } from "../src/engine/telephony/jambonz/inbound.ts";
import { createEngineDatabase, waitForEnd } from "./engine-fixtures.ts";
import {
  carrierAccount,
  type CarrierNode,
  createCarrierCall,
  PublicAddress,
  startCarrierNode,
} from "./fakes/carrier-harness.ts";
import { FakeJambonz } from "./fakes/jambonz.ts";

describe("bestTranscript", () => {
  it("reads the verb:hook reference's transcripts and gather's top-level alternatives, and nothing else", () => {
    // https://docs.jambonz.org/reference/websocket-api/call-control/verb-hook (data.speech)
    expect(
      bestTranscript({
        is_final: true,
        transcripts: [
          {
            is_final: true,
            language_code: "en-US",
            alternatives: [{ confidence: 0.91916794, transcript: "I'd like to book a car" }],
          },
        ],
      }),
    ).toEqual({ transcript: "I'd like to book a car", confidence: 0.91916794 });
    expect(
      bestTranscript({
        is_final: true,
        language_code: "fr-FR",
        alternatives: [{ confidence: 0.8, transcript: "oui je confirme" }],
      }),
    ).toEqual({ transcript: "oui je confirme", confidence: 0.8 });
    // An empty first alternative gives way to the next; no confidence is no confidence.
    expect(bestTranscript({ alternatives: [{ transcript: "  " }, { transcript: "wakha" }] })).toEqual({
      transcript: "wakha",
    });
    for (const junk of [
      null,
      undefined,
      5,
      "x",
      [],
      {},
      { transcripts: "x" },
      { alternatives: [{ transcript: 5 }] },
      { transcripts: [null, { alternatives: null }] },
    ]) {
      expect(bestTranscript(junk)).toBeNull();
    }
  });
});

describe("through the jambonz fake", () => {
  const SID = "9351f46a-678c-43f5-b8a6-d4eb58d131af";
  const KEY = "jambonz-speech-api-key-0123456789";
  const SECRET = "wh_secret_jambonz_speech_0123456789";
  const TOP_LEVEL = "+212600000101";
  let db: Awaited<ReturnType<typeof createEngineDatabase>>;
  let fake: FakeJambonz;
  let address: PublicAddress;
  let t: CarrierNode;
  beforeAll(async () => {
    db = await createEngineDatabase();
    fake = new FakeJambonz({
      accountSid: SID,
      apiKey: KEY,
      webhookSecret: SECRET,
      speed: 5,
      scenarios: { [TOP_LEVEL]: { topLevelAlternatives: true } },
    });
    await fake.start();
    address = new PublicAddress();
    await address.start();
    t = await startCarrierNode(
      db.url,
      {
        WAKHA_CHANNELS: "gsm=jambonz",
        WAKHA_JAMBONZ_API_URL: fake.url,
        WAKHA_JAMBONZ_ACCOUNT_SID: SID,
        WAKHA_JAMBONZ_API_KEY: KEY,
        WAKHA_JAMBONZ_CALLER_IDS: "+212522000000",
        WAKHA_JAMBONZ_WEBHOOK_SECRET: SECRET,
        WAKHA_CARRIER_TIME_SCALE: "5",
        WAKHA_JAMBONZ_VOICES: "ma=ar-MA-JamalNeural,fr=fr-FR-DeniseNeural",
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

  it("a customer heard in the top-level alternatives shape confirms, as in the transcripts shape", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "MA", TOP_LEVEL);
    const call = await waitForEnd(t, acct, id, 60_000);
    expect([call.status, call.outcome]).toEqual(["completed", "confirmed"]);
  }, 90_000);
});
