// The warm transfer through Twilio (issue 34), against the local fake at its documented boundary (test/fakes/twilio.ts):
// ConversationRelay's `end` with handoffData, the <Connect> action answered with <Dial callerId timeout action>
// <Number url>, the whisper played to the person only, the <Dial> action's DialCallStatus/DialCallDuration. Bridged
// (the person answers, hears the brief, settles the order through PUT .../resolution), no answer, busy, the person
// hanging up during the brief; the call's `transfer`, call.transferred, callback_requested, billing of the bridge,
// and the bridge cut through Twilio's REST API when the account's balance runs out. Signatures are checked.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { conferenceTwiml } from "../src/engine/telephony/twilio/transfer.ts";
import { transferringLine } from "../src/engine/dialogue/handoff.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineDatabase, debitsOf, waitForEnd } from "./engine-fixtures.ts";
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
import { type FakeCall, FakeTwilio, twilioSignature } from "./fakes/twilio.ts";
import type { TestAccount } from "./helpers.ts";

const ACCOUNT_SID = `AC${"0123456789abcdef".repeat(2)}`;
const AUTH_TOKEN = "twilio-test-auth-token-0123456789";
const SPEED = 5;
const CUSTOMER = "+212612345613"; // asks for a person (the simulator's customer 13)

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let fake: FakeTwilio;
let address: PublicAddress;
let t: CarrierNode;

beforeAll(async () => {
  db = await createEngineDatabase();
  fake = new FakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, speed: SPEED });
  await fake.start();
  address = new PublicAddress();
  await address.start();
  t = await startCarrierNode(
    db.url,
    {
      WAKHA_CHANNELS: "gsm=twilio",
      WAKHA_TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      WAKHA_TWILIO_CALLER_IDS: "MA=+212522000000,+33100000000",
      WAKHA_TWILIO_API_URL: fake.url,
      WAKHA_CARRIER_TIME_SCALE: String(SPEED),
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
  return putHandoff(t, acct, shop, phone, ring, ["customer_asks", "unanswered_question"]);
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
  const twilioCall = [...fake.calls.values()].find((c) => c.params["Twiml"]?.includes(id))!;
  return { call, twilioCall };
}

function agentSaid(c: FakeCall): string[] {
  return c.transcript.filter((x) => x.speaker === "agent").map((x) => x.text);
}

describe("warm transfer through Twilio (issue 34)", () => {
  it("bridged: the person hears the brief alone, talks with the customer, settles the order; billed with the bridge", async () => {
    const { acct, shop } = await carrierAccount(t, 100_000);
    await setHandoff(acct, shop, "+212612345699", 20);
    const { call, twilioCall } = await transferCall(acct, shop, "tw-bridged");
    expect(call).toMatchObject({
      status: "completed",
      outcome: "no_decision",
      end_reason: "transferred",
      transfer: { status: "bridged", to: "+212612345699", reason: "customer_asks", ended_by: null },
    });
    // The relay ended with the transfer's handoffData; the <Connect> action got it; the <Dial> as documented.
    expect(twilioCall.messages).toContainEqual({ type: "end", handoffData: JSON.stringify({ reason: "transfer" }) });
    const connect = twilioCall.callbacks.find((c) => c.kind === "ConnectAction")!;
    expect(connect).toMatchObject({ status: 200, params: { HandoffData: '{"reason":"transfer"}' } });
    const h = twilioCall.handoff!;
    expect(h).toMatchObject({ to: "+212612345699", callerId: "+212522000000", timeout: 20, dialStatus: "completed" });
    // The person was dialled through the REST API as a call of its own (the whisper as its Url, its status callbacks),
    // and their phone rang before the customer left the agent: the dial did not wait for the put-through line.
    const leg = [...fake.calls.values()].find((c) => c.personOf === twilioCall)!;
    expect(leg.params).toMatchObject({
      To: "+212612345699",
      From: "+212522000000",
      Timeout: "20",
      Method: "POST",
      StatusCallbackEvent: "initiated ringing answered completed",
    });
    expect(leg.params["Url"]).toMatch(/\/carriers\/twilio\/calls\/[0-9a-f-]{36}\/whisper$/);
    expect(
      leg.callbacks.filter((c) => c.kind === "StatusCallback").map((c) => [c.params["CallStatus"], c.status]),
    ).toEqual([
      ["initiated", 200],
      ["ringing", 200],
      ["in-progress", 200],
      ["completed", 200],
    ]);
    expect(h.ringingAt).not.toBeNull();
    expect(twilioCall.transferEndAt).not.toBeNull();
    expect(h.ringingAt!).toBeLessThan(twilioCall.transferEndAt!);
    // Both legs met in one conference room, which either leaving ends.
    const rooms = [twilioCall, leg].map((c) => c.answeredTwiml.find((d) => d.includes("<Conference")));
    expect(rooms[0]).toMatch(
      /<Dial><Conference [^>]*endConferenceOnExit="true"[^>]*>wakha-transfer-[0-9a-f-]{36}<\/Conference><\/Dial>/,
    );
    expect(rooms[1]).toBe(rooms[0]);
    // The customer heard the whole put-through line before leaving the relay for the room (never in silence, never cut).
    const line = transferringLine("ma", "ar");
    const lineAt = twilioCall.messages.findIndex((m) => m["type"] === "text" && m["token"] === line);
    const endAt = twilioCall.messages.findIndex((m) => m["type"] === "end");
    expect(lineAt).toBeGreaterThan(-1);
    expect(endAt).toBeGreaterThan(lineAt);
    expect(agentSaid(twilioCall).indexOf(line)).toBeLessThan(agentSaid(twilioCall).indexOf("[the shop's person]"));
    expect(twilioCall.twimlTypes.every((type) => type.startsWith("text/xml"))).toBe(true);
    // The brief, in the shop's language, to the person only: never sent to the customer's relay.
    expect(h.whisper).toContain("Amina");
    expect(h.whisper).toContain("tw-bridged");
    expect(h.whisperLanguage).toBe("ar-MA");
    expect(agentSaid(twilioCall).some((x) => x.includes("تحويل من واكا"))).toBe(false);
    expect(h.refused).toBe(false);
    // The bridge's seconds on the call, the whole call billed on Twilio's CallDuration, the person's resolution.
    await expectBridgedThenResolved(t, acct, shop, "tw-bridged", call, {
      duration: twilioCall.duration,
      dialDuration: h.dialDuration,
    });
  }, 60_000);

  it("no answer, busy, refused during the brief, unreachable: back to the relay, a person will call back, callback_requested", async () => {
    await Promise.all(
      UNTAKEN_TRANSFERS.map(async (c) => {
        const { acct, shop } = await carrierAccount(t, 100_000);
        await setHandoff(acct, shop, c.phone, 5);
        const ext = `tw-${c.phone.slice(-2)}-${randomUUID().slice(0, 6)}`;
        const { call, twilioCall } = await transferCall(acct, shop, ext);
        expectUntaken(call, twilioCall.handoff!, c);
        // The customer never left the agent's relay session (the person was a call of its own): the agent's last words
        // promise a callback, then the call hangs up.
        expect(twilioCall.relaySessions, c.phone).toBe(1);
        expect(twilioCall.callbacks.filter((x) => x.kind === "ConnectAction").at(-1)?.params["HandoffData"]).toBe(
          JSON.stringify({ reason: "agent_hangup" }),
        );
        expect(call.billed_seconds, c.phone).toBe(twilioCall.duration);
        const order = (
          await t.app.inject({ method: "GET", url: `/v1/shops/${shop}/orders/${ext}`, headers: acct.headers })
        ).json();
        expect(order.resolution, c.phone).toMatchObject({ value: "callback_requested", channel: "voice" });
      }),
    );
  }, 90_000);

  it("outside the handoff hours: nobody is dialled, the agent promises a callback, callback_requested", async () => {
    const { acct, shop } = await carrierAccount(t, 100_000);
    await putHandoff(t, acct, shop, "+212612345689", 10, ["customer_asks"], {
      time_zone: "Africa/Casablanca",
      days: {},
    });
    const ext = `tw-hours-${randomUUID().slice(0, 6)}`;
    const { call, twilioCall } = await transferCall(acct, shop, ext);
    expect(call).toMatchObject({
      status: "completed",
      outcome: "callback_requested",
      transfer: { status: "outside_hours", to: "+212612345689", answered_at: null, seconds: 0 },
    });
    expect([...fake.calls.values()].filter((c) => c.to === "+212612345689")).toEqual([]);
    expect(twilioCall.relaySessions).toBe(1);
    expect(call.billed_seconds).toBe(twilioCall.duration);
  }, 60_000);

  it("the balance runs out during the bridge: the call is ended through Twilio's REST API, billed within the balance", async () => {
    const { acct, shop } = await carrierAccount(t, 80);
    await setHandoff(acct, shop, "+212612345607", 10); // the person would talk for an hour
    const { call, twilioCall } = await transferCall(acct, shop, "tw-cut");
    expect(twilioCall.handoff!.cut).toBe(true);
    // Two carrier calls, both ended through the REST API.
    const leg = [...fake.calls.values()].find((c) => c.personOf === twilioCall)!;
    expect(twilioCall.restUpdates).toContainEqual({ Status: "completed" });
    expect(leg.restUpdates).toContainEqual({ Status: "completed" });
    // The bridge the balance cut says so; the call still ends `transferred`.
    expect(call).toMatchObject({ end_reason: "transferred", transfer: { status: "bridged", ended_by: "balance" } });
    expect(call.billed_seconds).toBeLessThanOrEqual(80);
    expect(twilioCall.duration).toBeLessThanOrEqual(82);
    const debit = (await debitsOf(t.ctx, acct.accountId)).get(call.id);
    expect(debit?.balance_after).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it("refuses the transfer's callbacks without a valid signature, and answers a stray one with <Hangup/>", async () => {
    const id = randomUUID();
    const url = `http://127.0.0.1:${address.port}/carriers/twilio/calls/${id}/relay-ended`;
    const form = { CallSid: `CA${"0".repeat(32)}`, HandoffData: '{"reason":"transfer"}' };
    const post = (signature: string) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
        body: new URLSearchParams(form).toString(),
      });
    expect((await post("bad")).status).toBe(403);
    const ok = await post(twilioSignature(AUTH_TOKEN, url, form));
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("<Hangup/>");
    for (const path of ["whisper", "whisper-done", "person-status"]) {
      const res = await fetch(`http://127.0.0.1:${address.port}/carriers/twilio/calls/${id}/${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "CallStatus=completed&CallDuration=9999",
      });
      expect(res.status, path).toBe(403);
    }
  });

  it("the conference TwiML has the shape of Twilio's sample, and the person leg's status route takes Twilio's documented callback", async () => {
    const sample = readFileSync(new URL("./fixtures/vendors/twilio/conference-simple.xml", import.meta.url), "utf8");
    const shape = (doc: string) => [...doc.matchAll(/<(\/?)(Response|Dial|Conference)\b/g)].map((m) => m[1] + m[2]!);
    const ours = conferenceTwiml(randomUUID());
    expect(shape(ours)).toEqual(shape(sample));
    expect(ours).toMatch(/<Conference [^>]*waitUrl=""[^>]*>/);
    // Twilio's status callback fields (test/fixtures/vendors/twilio/status-callback-completed.form), signed, at the
    // person leg's route of a call with no transfer running: a clear 200 and nothing changes.
    const form = Object.fromEntries(
      new URLSearchParams(
        readFileSync(
          new URL("./fixtures/vendors/twilio/status-callback-completed.form", import.meta.url),
          "utf8",
        ).trim(),
      ),
    );
    const url = `http://127.0.0.1:${address.port}/carriers/twilio/calls/${randomUUID()}/person-status`;
    const errorsBefore = t.errors.length;
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-twilio-signature": twilioSignature(AUTH_TOKEN, url, form),
      },
      body: new URLSearchParams(form).toString(),
    });
    expect(res.status).toBe(200);
    expect(t.errors.slice(errorsBefore)).toEqual([]);
  });

  it("answers signed but hostile transfer callbacks (garbage, null, arrays, numbers, huge values, odd ids) without a server error", async () => {
    const forms: Record<string, string>[] = [
      {},
      { HandoffData: "null" },
      { HandoffData: "[1,2,3]" },
      { HandoffData: "42" },
      { HandoffData: "{not json" },
      { HandoffData: JSON.stringify({ reason: "transfer" }).repeat(5_000) },
      { DialCallStatus: "🙂", DialCallDuration: "abc" },
      { CallStatus: "🙂", CallDuration: "abc" },
      { CallStatus: "completed", CallDuration: "-5" },
      { CallStatus: "completed", CallDuration: "1e308" },
      { CallStatus: "busy", CallSid: `CA${"f".repeat(32)}` },
      { CallStatus: "ringing", CallSid: "x".repeat(10_000) },
    ];
    const errorsBefore = t.errors.length;
    for (const id of [randomUUID(), "not-a-uuid"]) {
      for (const path of ["relay-ended", "whisper", "whisper-done", "person-status"]) {
        const url = `http://127.0.0.1:${address.port}/carriers/twilio/calls/${id}/${path}`;
        for (const form of forms) {
          const res = await fetch(url, {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              "x-twilio-signature": twilioSignature(AUTH_TOKEN, url, form),
            },
            body: new URLSearchParams(form).toString(),
          });
          expect(res.status, `${path} ${JSON.stringify(form).slice(0, 80)}`).toBeLessThan(500);
        }
      }
    }
    expect(t.errors.slice(errorsBefore)).toEqual([]);
  });
});
