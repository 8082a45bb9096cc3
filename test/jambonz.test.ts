// Real calls through jambonz (issue 12), against the local fake of jambonz at its documented boundary
// (test/fakes/jambonz.ts): created through the public API with WAKHA_CHANNELS=gsm=jambonz, conversed over the
// WebSocket API (ws.jambonz.org) through the real dialogue and classifier in each dialect, billed on jambonz's
// call duration, recording fetched from its recent-calls API; then the carrier's bad moments.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, createEngineDatabase, debitsOf, eventsOf, waitForEnd } from "./engine-fixtures.ts";
import {
  carrierAccount,
  type CarrierNode,
  createCarrierCall,
  PHONES,
  PublicAddress,
  startCarrierNode,
} from "./fakes/carrier-harness.ts";
import { FakeJambonz, jambonzSignature } from "./fakes/jambonz.ts";

const ACCOUNT_SID = "9351f46a-678c-43f5-b8a6-d4eb58d131af";
const API_KEY = "jambonz-test-api-key-0123456789";
const SECRET = "wh_secret_jambonz_0123456789";
const SPEED = 5;

const EXPECTED: Record<string, { status: string; outcome: string | null; endReason?: string }> = {
  "01": { status: "completed", outcome: "confirmed" },
  "02": { status: "completed", outcome: "declined" },
  "03": { status: "no_answer", outcome: null, endReason: "no_answer" },
  "04": { status: "busy", outcome: null, endReason: "busy" },
  "06": { status: "completed", outcome: "rescheduled" },
  "07": { status: "completed", outcome: "wrong_number" },
  "09": { status: "completed", outcome: "change_requested" },
  "10": { status: "completed", outcome: "callback_requested" },
  "11": { status: "completed", outcome: "no_decision", endReason: "customer_hangup" },
};

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let fake: FakeJambonz;
let address: PublicAddress;
let t: CarrierNode;

beforeAll(async () => {
  db = await createEngineDatabase();
  fake = new FakeJambonz({
    accountSid: ACCOUNT_SID,
    apiKey: API_KEY,
    webhookSecret: SECRET,
    speed: SPEED,
    scenarios: {
      "+212600000201": { duplicateCallbacks: true },
      "+212600000301": { forgedCallback: true },
      "+212600000401": { dropSocketAfterTurns: 1 },
      "+212600000501": { dropSocketAfterTurns: 1, noReconnect: true },
    },
  });
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
      WAKHA_JAMBONZ_VOICES: "ma=ar-MA-JamalNeural,dz=ar-DZ-AminaNeural,tn=ar-TN-HediNeural,fr=fr-FR-DeniseNeural",
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

const fakeCallOf = (id: string) => [...fake.calls.values()].find((c) => c.body["tag"]?.wakha_call_id === id)!;

describe("calls through jambonz, per country", () => {
  it("end with the simulator's outcomes, billed on jambonz's duration, with the recording and events", async () => {
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
      const jc = fakeCallOf(call.id);
      expect(jc.body, label).toMatchObject({
        from: "+212522000000",
        to: { type: "phone" },
        timeout: 30,
        call_hook: { username: "wakha" },
      });
      if (call.answered_at) {
        expect(call.billed_seconds, label).toBe(jc.duration);
        expect(debits.get(call.id)?.seconds, label).toBe(jc.duration);
        expect(call.recording_url, label).not.toBeNull();
      } else {
        expect([call.billed_seconds, call.recording_url, debits.has(call.id)], label).toEqual([0, null, false]);
      }
    }
    expect(mismatches).toEqual([]);
    const ma = fakeCallOf(ended[0]!.id);
    const say = ma.received.find((m) => m["type"] === "command")?.["data"] as Record<string, any>[];
    expect(say[0]).toMatchObject({
      verb: "gather",
      input: ["speech", "digits"],
      say: { synthesizer: { vendor: "microsoft", language: "ar-MA", voice: "ar-MA-JamalNeural" } },
      recognizer: { vendor: "microsoft", language: "ar-MA" },
    });
    expect(ma.received.at(-1)).toMatchObject({
      type: "command",
      command: "call:status",
      data: { call_status: "completed" },
    });
    // recording.ready follows the stored file by a moment.
    const answeredCount = ended.filter((c) => c.answered_at !== null).length;
    let events = await eventsOf(t.ctx, acct.accountId);
    for (let i = 0; i < 200 && events.filter((e) => e.type === "recording.ready").length < answeredCount; i++) {
      await new Promise((r) => setTimeout(r, 25));
      events = await eventsOf(t.ctx, acct.accountId);
    }
    for (const call of ended) {
      expect(
        events.filter((e) => e.payload.id === call.id).map((e) => e.type),
        call.id,
      ).toEqual(call.answered_at ? ["call.answered", "call.ended", "recording.ready"] : ["call.ended"]);
    }
    expect(await balanceOf(t.ctx, acct.accountId)).toBe(
      100_000 - ended.reduce((s, c) => s + (c.billed_seconds ?? 0), 0),
    );
    expect(fake.refusals).toEqual([]);
    expect(t.errors).toEqual([]);
  }, 120_000);
});

describe("jambonz's bad moments", () => {
  it("a replayed status webhook is refused, a duplicate changes nothing", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "MA", "+212600000201");
    const call = await waitForEnd(t, acct, id, 60_000);
    const jc = fakeCallOf(id);
    // The call can end before our answer to the final webhook (and to its duplicate) reaches the fake.
    for (let i = 0; i < 500 && jc.callbacks.filter((c) => c.payload["call_status"] === "completed").length < 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(jc.callbacks.filter((c) => c.status === 409).length).toBe(jc.callbacks.length / 2);
    expect([call.status, call.outcome, call.billed_seconds]).toEqual(["completed", "confirmed", jc.duration]);
    expect([...(await debitsOf(t.ctx, acct.accountId)).values()]).toHaveLength(1);
    fake.refusals.splice(0);
  }, 90_000);

  it("a forged or unsigned webhook and an unauthenticated socket are refused", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "MA", "+212600000301");
    const call = await waitForEnd(t, acct, id, 60_000);
    const jc = fakeCallOf(id);
    expect(jc.callbacks[0]).toMatchObject({ status: 403, payload: { call_status: "completed", duration: 9999 } });
    expect(call.billed_seconds).toBe(jc.duration);
    const body = JSON.stringify({ call_sid: jc.sid, call_status: "completed", duration: 50 });
    const post = (headers: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: `/carriers/jambonz/calls/${id}/status`,
        headers: { "content-type": "application/json", ...headers },
        payload: body,
      });
    expect((await post({})).statusCode).toBe(403);
    expect(
      (await post({ "jambonz-signature": jambonzSignature(SECRET, body, Math.floor(Date.now() / 1000) - 600) }))
        .statusCode,
    ).toBe(403);
    expect((await post({ "jambonz-signature": jambonzSignature(SECRET, `${body} `) })).statusCode).toBe(403);
    const { WebSocket } = await import("ws");
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${address.port}/carriers/jambonz/calls/${id}/ws`, ["ws.jambonz.org"], {
        auth: "wakha:guess",
      });
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
      ws.on("error", () => {});
    });
    expect(status).toBe(401);
    fake.refusals.splice(0);
  }, 90_000);

  it("a dropped socket that jambonz reconnects: the call goes on", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "MA", "+212600000401");
    const call = await waitForEnd(t, acct, id, 60_000);
    const jc = fakeCallOf(id);
    expect(jc.connections).toBe(2);
    expect([call.status, call.outcome, call.billed_seconds]).toEqual(["completed", "confirmed", jc.duration]);
  }, 90_000);

  it("a dropped socket that never comes back: the call is ended, billed on jambonz's duration", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    const id = await createCarrierCall(t, acct, shop, "MA", "+212600000501");
    const call = await waitForEnd(t, acct, id, 60_000);
    const jc = fakeCallOf(id);
    expect(jc.connections).toBe(1);
    expect(call.status).toBe("completed");
    expect(call.billed_seconds).toBe(jc.duration);
    expect(jc.endedAt).not.toBeNull();
  }, 90_000);

  it("an outage of jambonz's REST API fails the call as carrier_unavailable, unbilled", async () => {
    const { acct, shop } = await carrierAccount(t, 10_000);
    fake.outage = true;
    try {
      const id = await createCarrierCall(t, acct, shop, "DZ", `${PHONES.DZ}01`);
      const call = await waitForEnd(t, acct, id, 60_000);
      expect([call.status, call.end_reason, call.billed_seconds]).toEqual(["failed", "carrier_unavailable", 0]);
      expect(await balanceOf(t.ctx, acct.accountId)).toBe(10_000);
    } finally {
      fake.outage = false;
    }
    t.errors.splice(0);
  }, 90_000);
});
