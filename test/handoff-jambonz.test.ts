// The warm transfer through jambonz (issue 34), against the local fake at its documented boundary
// (test/fakes/jambonz.ts): a redirect to the `dial` verb (target [{type: "phone", number, confirmHook}], callerId,
// timeout, actionHook), `dial:confirm` answered with the `say` of the brief (the person's ears only), the actionHook's
// dial_call_status / dial_sip_status / duration. Bridged (the person settles the order through PUT .../resolution),
// no answer, busy, the person hanging up during the brief; the call's `transfer`, call.transferred,
// callback_requested, billing of the bridge, and the bridge cut through jambonz's REST API when the balance runs out.
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
import { type FakeJambonzCall, FakeJambonz } from "./fakes/jambonz.ts";
import type { TestAccount } from "./helpers.ts";

const ACCOUNT_SID = "9351f46a-678c-43f5-b8a6-d4eb58d131af";
const API_KEY = "jambonz-test-api-key-0123456789";
const SECRET = "wh_secret_jambonz_0123456789";
const SPEED = 5;
const CUSTOMER = "+212612345613"; // asks for a person (the simulator's customer 13)

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let fake: FakeJambonz;
let address: PublicAddress;
let t: CarrierNode;

beforeAll(async () => {
  db = await createEngineDatabase();
  fake = new FakeJambonz({ accountSid: ACCOUNT_SID, apiKey: API_KEY, webhookSecret: SECRET, speed: SPEED });
  await fake.start();
  address = new PublicAddress();
  await address.start();
  t = await startCarrierNode(
    db.url,
    {
      WAKHA_CHANNELS: "gsm=jambonz",
      WAKHA_JAMBONZ_API_URL: fake.url,
      WAKHA_JAMBONZ_ACCOUNT_SID: ACCOUNT_SID,
      WAKHA_JAMBONZ_API_KEY: API_KEY,
      WAKHA_JAMBONZ_CALLER_IDS: "+212522000000",
      WAKHA_JAMBONZ_WEBHOOK_SECRET: SECRET,
      WAKHA_CARRIER_TIME_SCALE: String(SPEED),
      WAKHA_JAMBONZ_VOICES: "ma=ar-MA-JamalNeural,fr=fr-FR-DeniseNeural",
      WAKHA_BASE_URL: "https://api.example.test",
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

function setHandoff(acct: TestAccount, shop: string, phone: string, ring = 10): Promise<void> {
  return putHandoff(t, acct, shop, phone, ring, ["customer_asks"]);
}

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
  const call = await waitForEnd(t, acct, id, 90_000);
  const jambonzCall = [...fake.calls.values()].find((c) => c.body["tag"]?.wakha_call_id === id)!;
  return { call, jambonzCall };
}

function dialVerb(c: FakeJambonzCall): Record<string, any> | undefined {
  return c.received
    .filter((m) => m["type"] === "command" && m["command"] === "redirect")
    .flatMap((m) => m["data"] as Record<string, any>[])
    .find((v) => v["verb"] === "dial");
}

describe("warm transfer through jambonz (issue 34)", () => {
  it("bridged: the dial verb as documented, the brief to the person only, the order settled; billed with the bridge", async () => {
    const { acct, shop } = await carrierAccount(t, 100_000);
    await setHandoff(acct, shop, "+212612345699", 20);
    const { call, jambonzCall } = await transferCall(acct, shop, "jz-bridged");
    expect(call).toMatchObject({
      status: "completed",
      outcome: "no_decision",
      end_reason: "transferred",
      transfer: { status: "bridged", to: "+212612345699", reason: "customer_asks", ended_by: null },
    });
    expect(dialVerb(jambonzCall)).toMatchObject({
      verb: "dial",
      target: [{ type: "phone", number: "+212612345699", confirmHook: expect.any(String) }],
      callerId: "+212522000000",
      timeout: 20,
      actionHook: expect.any(String),
    });
    const h = jambonzCall.handoff!;
    expect(h.dialStatus).toBe("completed");
    expect(h.whisper).toContain("Amina");
    expect(h.whisper).toContain("jz-bridged");
    expect(h.whisperLanguage).toBe("ar-MA");
    expect(jambonzCall.confirmVerbs?.[0]).toMatchObject({
      verb: "say",
      synthesizer: { language: "ar-MA", voice: "ar-MA-JamalNeural" },
    });
    // The customer never hears the brief: no gather's say carries it.
    const toCustomer = jambonzCall.received
      .flatMap((m) => (Array.isArray(m["data"]) ? (m["data"] as Record<string, any>[]) : []))
      .filter((v) => v["verb"] === "gather")
      .map((v) => String(v["say"]?.text ?? ""));
    expect(toCustomer.some((x) => x.includes("تحويل من واكا"))).toBe(false);
    // After the bridged conversation the actionHook's answer hangs the call up.
    expect(
      jambonzCall.received.some(
        (m) => m["type"] === "ack" && (m["data"] as Record<string, unknown>[] | undefined)?.[0]?.["verb"] === "hangup",
      ),
    ).toBe(true);
    await expectBridgedThenResolved(t, acct, shop, "jz-bridged", call, {
      duration: jambonzCall.duration,
      dialDuration: h.dialDuration,
    });
  }, 60_000);

  it("bridged when the actionHook carries no `duration` (a real jambonz sample's shape): our clock measures the bridge", async () => {
    const { acct, shop } = await carrierAccount(t, 100_000);
    await setHandoff(acct, shop, "+212612345698", 20);
    const { call, jambonzCall } = await transferCall(acct, shop, "jz-no-duration");
    const hook = jambonzCall.received.find(
      (m) => m["type"] === "ack" && (m["data"] as Record<string, unknown>[] | undefined)?.[0]?.["verb"] === "hangup",
    );
    expect(hook).toBeDefined();
    expect(call).toMatchObject({ end_reason: "transferred", transfer: { status: "bridged" } });
    expect(call.transfer!.seconds).toBeGreaterThanOrEqual(6);
    expect(call.transfer!.seconds).toBeLessThanOrEqual(jambonzCall.handoff!.dialDuration! + 1);
  }, 60_000);

  it("no answer, busy, refused during the brief: the agent comes back, a person will call back, callback_requested", async () => {
    await Promise.all(
      UNTAKEN_TRANSFERS.map(async (c) => {
        const { acct, shop } = await carrierAccount(t, 100_000);
        await setHandoff(acct, shop, c.phone, 5);
        const ext = `jz-${c.phone.slice(-2)}-${randomUUID().slice(0, 6)}`;
        const { call, jambonzCall } = await transferCall(acct, shop, ext);
        expectUntaken(call, jambonzCall.handoff!, c);
        // After the dial the agent is back on the customer's line (a gather with its words), then ends the call.
        const received = jambonzCall.received;
        const dialAt = received.findIndex(
          (m) => m["command"] === "redirect" && (m["data"] as Record<string, unknown>[])[0]?.["verb"] === "dial",
        );
        const after = received.slice(dialAt + 1);
        expect(dialAt, c.phone).toBeGreaterThan(-1);
        expect(
          after.some(
            (m) =>
              m["command"] === "redirect" && typeof (m["data"] as Record<string, any>[])[0]?.["say"]?.text === "string",
          ),
          c.phone,
        ).toBe(true);
        expect(after.at(-1), c.phone).toMatchObject({ command: "call:status", data: { call_status: "completed" } });
        expect(call.billed_seconds, c.phone).toBe(jambonzCall.duration);
        const order = (
          await t.app.inject({ method: "GET", url: `/v1/shops/${shop}/orders/${ext}`, headers: acct.headers })
        ).json();
        expect(order.resolution, c.phone).toMatchObject({ value: "callback_requested", channel: "voice" });
      }),
    );
  }, 90_000);

  it("the balance runs out during the bridge: the call is ended through jambonz's REST API, billed within the balance", async () => {
    const { acct, shop } = await carrierAccount(t, 80);
    await setHandoff(acct, shop, "+212612345607", 10);
    const { call, jambonzCall } = await transferCall(acct, shop, "jz-cut");
    expect(jambonzCall.handoff!.cut).toBe(true);
    // The bridge the balance cut says so; the call still ends `transferred`.
    expect(call).toMatchObject({ end_reason: "transferred", transfer: { status: "bridged", ended_by: "balance" } });
    expect(call.billed_seconds).toBeLessThanOrEqual(80);
    expect(jambonzCall.duration).toBeLessThanOrEqual(82);
  }, 60_000);
});
