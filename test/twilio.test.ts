// Real calls through Twilio ConversationRelay (issue 12), against the local fake of Twilio at its documented
// boundary (test/fakes/twilio.ts): created through the public API with WAKHA_CHANNELS=gsm=twilio, rung,
// answered, conversed through the real dialogue and classifier in each dialect, hung up, billed on Twilio's
// CallDuration, recording fetched from the fake and stored, webhooks emitted. Then the carrier's bad moments.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CarrierLines } from "../src/engine/telephony/text-carrier.ts";
import { TwilioTelephony } from "../src/engine/telephony/twilio/provider.ts";
import { decodeWav } from "../src/engine/speech/wav.ts";
import { balanceOf, createEngineDatabase, debitsOf, eventsOf, getCallOut, waitForEnd } from "./engine-fixtures.ts";
import {
  carrierAccount,
  type CarrierNode,
  createCarrierCall,
  PHONES,
  PublicAddress,
  startCarrierNode,
} from "./fakes/carrier-harness.ts";
import { FakeTwilio, twilioSignature } from "./fakes/twilio.ts";

const ACCOUNT_SID = `AC${"0123456789abcdef".repeat(2)}`;
const AUTH_TOKEN = "twilio-test-auth-token-0123456789";
// The fake carrier's clock runs this many times the wall's. At 5, a simulated customer's reply (the agent's line
// played, up to 3 s of thought, their own words) came within 0.6 s of wall time of the agent's no-input timeout, and a
// loaded CI machine (the busy lane beside it) missed it twice: the call went on one turn out of step. At 3 the margin
// is a second of wall time, the calls a few seconds longer.
const SPEED = 3;

const EXPECTED: Record<string, { status: string; outcome: string | null; endReason?: string }> = {
  "01": { status: "completed", outcome: "confirmed" },
  "02": { status: "completed", outcome: "declined" },
  "03": { status: "no_answer", outcome: null, endReason: "no_answer" },
  "04": { status: "busy", outcome: null, endReason: "busy" },
  "05": { status: "voicemail", outcome: null, endReason: "voicemail" },
  "06": { status: "completed", outcome: "rescheduled" },
  "07": { status: "completed", outcome: "wrong_number" },
  "09": { status: "completed", outcome: "change_requested" },
  "10": { status: "completed", outcome: "callback_requested" },
  "11": { status: "completed", outcome: "no_decision", endReason: "customer_hangup" },
};

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let fake: FakeTwilio;
let address: PublicAddress;
let t: CarrierNode;
let env: Record<string, string>;

beforeAll(async () => {
  db = await createEngineDatabase();
  fake = new FakeTwilio({
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    speed: SPEED,
    scenarios: {
      [`${PHONES.MA}21`]: { duplicateCallbacks: true },
      [`${PHONES.MA}22`]: { forgedCallback: true },
      "+212600000101": { dropSocketAfterTurns: 1 },
      "+33600000101": { bargeIn: true },
    },
  });
  await fake.start();
  address = new PublicAddress();
  await address.start();
  env = {
    WAKHA_CHANNELS: "gsm=twilio",
    WAKHA_TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    WAKHA_TWILIO_CALLER_IDS: "MA=+212522000000,+33100000000",
    WAKHA_TWILIO_API_URL: fake.url,
    WAKHA_CARRIER_TIME_SCALE: String(SPEED),
    WAKHA_TWILIO_VOICES: "ma=ar-XA-Standard-A,fr=fr-FR-Neural2-A",
    WAKHA_BASE_URL: "https://api.example.test",
  };
  t = await startCarrierNode(db.url, env, address);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await address?.close();
  await db?.drop();
});

describe("calls through Twilio ConversationRelay, per country", () => {
  it("end with the simulator's outcomes, billed on Twilio's CallDuration, with the recording and events", async () => {
    const { acct, shop } = await carrierAccount(t, 100_000);
    const created: { id: string; label: string; suffix: string }[] = [];
    for (const country of ["MA", "DZ", "TN", "FR"] as const) {
      for (const suffix of Object.keys(EXPECTED))
        created.push({
          id: await createCarrierCall(t, acct, shop, country, `${PHONES[country]}${suffix}`),
          label: `${country} ${suffix}`,
          suffix,
        });
    }
    const ended = await Promise.all(created.map((c) => waitForEnd(t, acct, c.id, 90_000)));
    const debits = await debitsOf(t.ctx, acct.accountId);
    const mismatches: string[] = [];
    for (const [i, call] of ended.entries()) {
      const { label, suffix } = created[i]!;
      const want = EXPECTED[suffix]!;
      if (
        call.status !== want.status ||
        call.outcome !== want.outcome ||
        (want.endReason && call.end_reason !== want.endReason)
      ) {
        const { rows } = await t.ctx.db.query<{ transcript: unknown }>("SELECT transcript FROM calls WHERE id = $1", [
          call.id,
        ]);
        mismatches.push(
          `${label}: ${call.status}/${call.outcome}/${call.end_reason}, wanted ${want.status}/${want.outcome} ${JSON.stringify(rows[0]?.transcript)}`,
        );
      }
      const twilioCall = [...fake.calls.values()].find((c) => c.params["Twiml"]?.includes(call.id))!;
      expect(twilioCall.params, label).toMatchObject({
        MachineDetection: "DetectMessageEnd",
        MachineDetectionTimeout: "20",
        AsyncAmd: "true",
        Record: "true",
        RecordingChannels: "dual",
        Timeout: "30",
      });
      expect(twilioCall.from, label).toBe(label.startsWith("MA") ? "+212522000000" : "+33100000000");
      const answered = call.answered_at !== null;
      if (answered) {
        expect(call.billed_seconds, label).toBe(twilioCall.duration);
        expect(debits.get(call.id)?.seconds, label).toBe(twilioCall.duration);
        expect(call.recording_url, label).toBe(`https://api.example.test/v1/calls/${call.id}/recording`);
      } else {
        expect([call.billed_seconds, call.recording_url, debits.has(call.id)], label).toEqual([0, null, false]);
      }
    }
    expect(mismatches).toEqual([]);
    // The agent spoke each country's language through the relay, in the dialect's locale.
    const ma = [...fake.calls.values()].find((c) => c.to === `${PHONES.MA}01`)!;
    expect(ma.params["Twiml"]).toMatch(
      /language="ar-MA"[^>]*voice="ar-XA-Standard-A"|voice="ar-XA-Standard-A"[^>]*language="ar-MA"/,
    );
    expect(ma.messages.some((m) => m["type"] === "text" && m["lang"] === "ar-MA")).toBe(true);
    expect(ma.messages.at(-1)).toMatchObject({ type: "end" });
    // recording.ready follows the stored file by a moment.
    const answeredCount = ended.filter((c) => c.answered_at !== null).length;
    let events = await eventsOf(t.ctx, acct.accountId);
    for (let i = 0; i < 200 && events.filter((e) => e.type === "recording.ready").length < answeredCount; i++) {
      await new Promise((r) => setTimeout(r, 25));
      events = await eventsOf(t.ctx, acct.accountId);
    }
    for (const call of ended) {
      const mine = events.filter((e) => e.payload.id === call.id).map((e) => e.type);
      expect(mine, call.id).toEqual(
        call.answered_at ? ["call.answered", "call.ended", "recording.ready"] : ["call.ended"],
      );
    }
    const recording = await t.app.inject({
      method: "GET",
      url: `/v1/calls/${ended[0]!.id}/recording`,
      headers: acct.headers,
    });
    expect(recording.statusCode).toBe(200);
    expect(decodeWav(new Uint8Array(recording.rawPayload)).samples.length).toBeGreaterThan(0);
    const billed = ended.reduce((sum, c) => sum + (c.billed_seconds ?? 0), 0);
    expect(await balanceOf(t.ctx, acct.accountId)).toBe(100_000 - billed);
    expect(fake.refusals).toEqual([]);
    expect(t.errors).toEqual([]);
  }, 120_000);
});

describe("the carrier's bad moments", () => {
  it("duplicate and out-of-order callbacks change nothing twice", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "MA", `${PHONES.MA}21`);
    const call = await waitForEnd(t, acct, id, 60_000);
    const twilioCall = [...fake.calls.values()].find((c) => c.to === `${PHONES.MA}21`)!;
    // Every status was posted twice, a stale `ringing` came after the answer, a second AMD verdict said human.
    expect(await fake.statusCallbacks(twilioCall, "completed", 2)).toHaveLength(2);
    // The callbacks answer 204; the <Connect> action (the relay session ended) answers its TwiML, <Hangup/>.
    expect(twilioCall.callbacks.every((c) => c.status === (c.kind === "ConnectAction" ? 200 : 204))).toBe(true);
    expect(call.billed_seconds).toBe(twilioCall.duration);
    expect([...(await debitsOf(t.ctx, acct.accountId)).values()]).toHaveLength(1);
    let events = (await eventsOf(t.ctx, acct.accountId)).map((e) => e.type);
    for (let i = 0; i < 200 && events.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 25));
      events = (await eventsOf(t.ctx, acct.accountId)).map((e) => e.type);
    }
    expect(events).toEqual(["call.answered", "call.ended", "recording.ready"]);
  }, 90_000);

  it("a forged callback is refused and changes nothing", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "MA", `${PHONES.MA}22`);
    const call = await waitForEnd(t, acct, id, 60_000);
    const twilioCall = [...fake.calls.values()].find((c) => c.to === `${PHONES.MA}22`)!;
    expect(twilioCall.callbacks[0]).toMatchObject({
      kind: "StatusCallback",
      status: 403,
      params: { CallStatus: "completed", CallDuration: "9999" },
    });
    expect(call.billed_seconds).toBe(twilioCall.duration);
    expect(call.billed_seconds).toBeLessThan(9999);
    fake.refusals.splice(0);
  }, 90_000);

  it("refuses unsigned and mis-signed requests and sockets; a replay changes nothing", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "FR", `${PHONES.FR}01`);
    const url = `${env["WAKHA_PUBLIC_URL"] ?? `http://127.0.0.1:${address.port}`}/carriers/twilio/calls/${id}/status`;
    const form = { CallSid: `CA${"0".repeat(32)}`, CallStatus: "completed", CallDuration: "500" };
    const post = (headers: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: `/carriers/twilio/calls/${id}/status`,
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        payload: new URLSearchParams(form).toString(),
      });
    expect((await post({})).statusCode).toBe(403);
    expect(
      (await post({ "x-twilio-signature": twilioSignature("not-the-token-00000000", url, form) })).statusCode,
    ).toBe(403);
    expect((await post({ "x-twilio-signature": twilioSignature(AUTH_TOKEN, `${url}?x=1`, form) })).statusCode).toBe(
      403,
    );
    // Signed for another call's URL: refused (the call id is part of what is signed).
    expect(
      (
        await post({
          "x-twilio-signature": twilioSignature(
            AUTH_TOKEN,
            url.replace(id, "00000000-0000-4000-8000-000000000000"),
            form,
          ),
        })
      ).statusCode,
    ).toBe(403);
    const relay = `ws://127.0.0.1:${address.port}/carriers/twilio/calls/${id}/relay`;
    const { WebSocket } = await import("ws");
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(relay);
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
      ws.on("error", () => {});
    });
    expect(refused).toBe(403);
    // The carrier endpoints stay out of the /v1 API's OpenAPI document.
    const openapi = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(openapi.paths).filter((p) => p.startsWith("/carriers"))).toEqual([]);
    const call = await waitForEnd(t, acct, id, 60_000);
    expect(call.status).toBe("completed");
    // A replay of Twilio's own (signed) final callback after the end changes nothing either.
    const twilioCall = [...fake.calls.values()].find((c) => c.params["Twiml"]?.includes(id))!;
    const final = (await fake.statusCallbacks(twilioCall, "completed"))[0]!.params;
    const replay = await t.app.inject({
      method: "POST",
      url: `/carriers/twilio/calls/${id}/status`,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-twilio-signature": twilioSignature(AUTH_TOKEN, url, final),
      },
      payload: new URLSearchParams(final).toString(),
    });
    expect(replay.statusCode).toBe(204);
    expect((await getCallOut(t, acct, id)).billed_seconds).toBe(call.billed_seconds);
    expect((await debitsOf(t.ctx, acct.accountId)).get(id)?.seconds).toBe(call.billed_seconds);
  }, 90_000);

  it("a dropped relay socket ends the call, billed on Twilio's seconds", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "MA", "+212600000101");
    const call = await waitForEnd(t, acct, id, 60_000);
    const twilioCall = [...fake.calls.values()].find((c) => c.to === "+212600000101")!;
    expect(call.status).toBe("completed");
    expect(call.end_reason).toBe("customer_hangup");
    expect(call.billed_seconds).toBe(twilioCall.duration);
    expect(twilioCall.messages.some((m) => m["type"] === "end")).toBe(false);
  }, 90_000);

  it("the customer's barge-in cuts the agent short and the call goes on", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "FR", "+33600000101");
    const call = await waitForEnd(t, acct, id, 60_000);
    expect(call.status).toBe("completed");
    expect(call.outcome).toBe("confirmed");
    const twilioCall = [...fake.calls.values()].find((c) => c.to === "+33600000101")!;
    expect(twilioCall.transcript.length).toBeGreaterThan(2);
  }, 90_000);

  it("an outage of Twilio's REST API fails the call as carrier_unavailable, unbilled", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    fake.outage = true;
    try {
      const id = await createCarrierCall(t, acct, shop, "TN", `${PHONES.TN}01`);
      const call = await waitForEnd(t, acct, id, 60_000);
      expect([call.status, call.end_reason, call.billed_seconds, call.recording_url]).toEqual([
        "failed",
        "carrier_unavailable",
        0,
        null,
      ]);
      expect(await balanceOf(t.ctx, acct.accountId)).toBe(10_000);
    } finally {
      fake.outage = false;
    }
    t.errors.splice(0); // the engine logged the outage
  }, 90_000);

  it("hanging up while it rings cancels the call at Twilio (the dialer's cancel)", async () => {
    // At the fake's speed a ring outlasts no heartbeat of the dialer, so the session is driven directly here.
    const provider = new TwilioTelephony({
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      apiBaseUrl: fake.url,
      publicUrl: `http://127.0.0.1:${address.port}`,
      callerIds: { default: "+33100000000" },
      voices: {},
      lines: t.ctx.lines.text,
      speed: SPEED,
      log: () => {},
    });
    const session = await provider.originate({
      callId: randomUUID(),
      to: `${PHONES.DZ}03`,
      country: "DZ",
      language: "ar",
      dialect: "dz",
      ringTimeoutSeconds: 30,
      machineDetection: true,
      record: true,
    });
    for (let i = 0; i < 200 && fake.calls.get(session.providerCallId)?.status !== "ringing"; i++)
      await new Promise((r) => setTimeout(r, 10));
    await session.hangup();
    expect(await session.answered()).toMatchObject({ type: "canceled" });
    expect(fake.calls.get(session.providerCallId)?.status).toBe("canceled");
    expect(await session.recording()).toBeNull();
    // A REST refusal is carrier_refused, an outage carrier_unavailable.
    const refused = new TwilioTelephony({
      ...{
        accountSid: ACCOUNT_SID,
        authToken: "wrong-auth-token-0000000",
        apiBaseUrl: fake.url,
        publicUrl: "http://127.0.0.1:1",
      },
      callerIds: { default: "+33100000000" },
      voices: {},
      lines: new CarrierLines(),
      speed: SPEED,
      log: () => {},
    });
    await expect(
      refused.originate({
        callId: randomUUID(),
        to: `${PHONES.DZ}01`,
        country: "DZ",
        language: "ar",
        dialect: "dz",
        ringTimeoutSeconds: 30,
        machineDetection: true,
        record: true,
      }),
    ).rejects.toMatchObject({ endReason: "carrier_refused" });
  }, 90_000);
});
