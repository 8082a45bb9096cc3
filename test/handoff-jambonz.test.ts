// The warm transfer through jambonz (issue 34), against the local fake at its documented boundary
// (test/fakes/jambonz.ts), the conference pattern: the person dialled at once through the REST API (POST /Calls with an
// http call_hook and call_status_hook), their call_hook answered with the `say` of the brief (the person's ears only)
// and a `redirect` whose actionHook puts them in the `conference`; the customer joins it by a `redirect` command on the
// call's socket; the person leg's call_status_hook (ringing, busy, no-answer, completed with its duration). Bridged (the person settles the order through PUT .../resolution),
// no answer, busy, the person hanging up during the brief; the call's `transfer`, call.transferred,
// callback_requested, billing of the bridge, and the bridge cut through jambonz's REST API when the balance runs out.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { transferringLine } from "../src/engine/dialogue/handoff.ts";
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
import { type FakeJambonzCall, FakeJambonz, jambonzSignature } from "./fakes/jambonz.ts";
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
  const jambonzCall = [...fake.calls.values()].find((c) => !c.person && c.body["tag"]?.wakha_call_id === id)!;
  const leg = [...fake.calls.values()].find((c) => c.personOf === jambonzCall) ?? null;
  return { call, jambonzCall, leg };
}

/** The conference the customer was redirected to on the call's socket, if any. */
function conferenceVerb(c: FakeJambonzCall): Record<string, any> | undefined {
  return c.received
    .filter((m) => m["type"] === "command" && m["command"] === "redirect")
    .flatMap((m) => m["data"] as Record<string, any>[])
    .find((v) => v["verb"] === "conference");
}

describe("warm transfer through jambonz (issue 34)", () => {
  it("bridged: the person dialled through REST at once, the brief to them only, both in one conference, the order settled; billed with the bridge", async () => {
    const { acct, shop } = await carrierAccount(t, 100_000);
    await setHandoff(acct, shop, "+212612345699", 20);
    const { call, jambonzCall, leg } = await transferCall(acct, shop, "jz-bridged");
    expect(call).toMatchObject({
      status: "completed",
      outcome: "no_decision",
      end_reason: "transferred",
      transfer: { status: "bridged", to: "+212612345699", reason: "customer_asks", ended_by: null },
    });
    // The person: a call of its own, created through the REST API with the call's caller id and the ring timeout.
    expect(leg).not.toBeNull();
    expect(leg!.body).toMatchObject({
      from: "+212522000000",
      to: { type: "phone", number: "+212612345699" },
      timeout: 20,
      call_hook: { url: expect.stringMatching(/\/carriers\/jambonz\/calls\/[0-9a-f-]{36}\/person$/), method: "POST" },
      call_status_hook: { url: expect.stringMatching(/\/person-status$/), method: "POST" },
    });
    expect(leg!.callbacks.map((c) => c.payload["call_status"])).toEqual(
      expect.arrayContaining(["trying", "ringing", "in-progress", "completed"]),
    );
    expect(leg!.callbacks.every((c) => c.status < 300)).toBe(true);
    // Both legs in one conference that either leaving ends: the person by their brief's redirect, the customer by a
    // redirect command on the call's socket.
    const room = conferenceVerb(jambonzCall);
    expect(room).toMatchObject({
      verb: "conference",
      name: expect.stringMatching(/^wakha-transfer-[0-9a-f-]{36}$/),
      endConferenceOnExit: true,
      beep: false,
    });
    expect(leg!.room === null && leg!.endedAt !== null).toBe(true);
    // The put-through line was sent before the customer's redirect into the room (never cut by it).
    const line = transferringLine("ma", "ar");
    const redirects = jambonzCall.received.filter((m) => m["command"] === "redirect");
    const lineAt = redirects.findIndex((m) => (m["data"] as Record<string, any>[])[0]?.["say"]?.text === line);
    const roomAt = redirects.findIndex((m) => (m["data"] as Record<string, any>[])[0]?.["verb"] === "conference");
    expect(lineAt).toBeGreaterThan(-1);
    expect(roomAt).toBeGreaterThan(lineAt);
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
    // The person hung up after the bridged conversation: the conference ended, and the customer's call with it.
    expect(jambonzCall.endedAt).not.toBeNull();
    await expectBridgedThenResolved(t, acct, shop, "jz-bridged", call, {
      duration: jambonzCall.duration,
      dialDuration: h.dialDuration,
    });
  }, 60_000);

  it("bridged when the person leg's status carries no `duration`: our clock measures the bridge", async () => {
    const { acct, shop } = await carrierAccount(t, 100_000);
    await setHandoff(acct, shop, "+212612345698", 20);
    const { call, jambonzCall, leg } = await transferCall(acct, shop, "jz-no-duration");
    const completed = leg!.callbacks.find((c) => c.payload["call_status"] === "completed");
    expect(completed).toBeDefined();
    expect(completed!.payload["duration"]).toBeUndefined();
    expect(call).toMatchObject({ end_reason: "transferred", transfer: { status: "bridged" } });
    expect(call.transfer!.seconds).toBeGreaterThanOrEqual(6);
    expect(call.transfer!.seconds).toBeLessThanOrEqual(jambonzCall.handoff!.dialDuration! + 1);
  }, 60_000);

  it("no answer, busy, refused during the brief, unreachable: the agent comes back, a person will call back, callback_requested", async () => {
    await Promise.all(
      UNTAKEN_TRANSFERS.map(async (c) => {
        const { acct, shop } = await carrierAccount(t, 100_000);
        await setHandoff(acct, shop, c.phone, 5);
        const ext = `jz-${c.phone.slice(-2)}-${randomUUID().slice(0, 6)}`;
        const { call, jambonzCall } = await transferCall(acct, shop, ext);
        expectUntaken(call, jambonzCall.handoff!, c);
        // The customer never left the agent (no conference): its words go on (a gather with them), then it ends the call.
        const received = jambonzCall.received;
        expect(conferenceVerb(jambonzCall), c.phone).toBeUndefined();
        expect(
          received.some(
            (m) =>
              m["command"] === "redirect" && typeof (m["data"] as Record<string, any>[])[0]?.["say"]?.text === "string",
          ),
          c.phone,
        ).toBe(true);
        expect(received.at(-1), c.phone).toMatchObject({ command: "call:status", data: { call_status: "completed" } });
        expect(call.billed_seconds, c.phone).toBe(jambonzCall.duration);
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
    const ext = `jz-hours-${randomUUID().slice(0, 6)}`;
    const { call, jambonzCall } = await transferCall(acct, shop, ext);
    expect(call).toMatchObject({
      status: "completed",
      outcome: "callback_requested",
      transfer: { status: "outside_hours", to: "+212612345689", answered_at: null, seconds: 0 },
    });
    expect([...fake.calls.values()].filter((c) => c.body["to"]?.number === "+212612345689")).toEqual([]);
    expect(conferenceVerb(jambonzCall)).toBeUndefined();
    expect(call.billed_seconds).toBe(jambonzCall.duration);
  }, 60_000);

  it("the balance runs out during the bridge: the call is ended through jambonz's REST API, billed within the balance", async () => {
    const { acct, shop } = await carrierAccount(t, 80);
    await setHandoff(acct, shop, "+212612345607", 10);
    const { call, jambonzCall, leg } = await transferCall(acct, shop, "jz-cut");
    expect(jambonzCall.handoff!.cut).toBe(true);
    expect(leg!.endedAt).not.toBeNull();
    // The bridge the balance cut says so; the call still ends `transferred`.
    expect(call).toMatchObject({ end_reason: "transferred", transfer: { status: "bridged", ended_by: "balance" } });
    expect(call.billed_seconds).toBeLessThanOrEqual(80);
    expect(jambonzCall.duration).toBeLessThanOrEqual(82);
  }, 60_000);

  it("refuses the person leg's hooks without a valid Jambonz-Signature, and answers a stray signed one with hangup", async () => {
    const id = randomUUID();
    for (const path of ["person", "whisper-done", "person-status"]) {
      const url = `http://127.0.0.1:${address.port}/carriers/jambonz/calls/${id}/${path}`;
      const body = JSON.stringify({ call_sid: randomUUID(), call_status: "completed", duration: 9999 });
      const unsigned = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(unsigned.status, path).toBe(403);
      const forged = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "jambonz-signature": jambonzSignature("not-the-secret", body) },
        body,
      });
      expect(forged.status, path).toBe(403);
      const signature = jambonzSignature(SECRET, body);
      const post = () =>
        fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "jambonz-signature": signature },
          body,
        });
      const signed = await post();
      expect(signed.status, path).toBeLessThan(300);
      if (path !== "person-status") expect(await signed.json(), path).toEqual([{ verb: "hangup" }]);
      // The same signature to the same hook again: a replay.
      expect((await post()).status, path).toBe(409);
    }
    // A real call_hook request (test/fixtures/vendors/jambonz/call-hook-in-progress.json), signed, for a call with no
    // transfer running: the person's leg hangs up.
    const sample = readFileSync(
      new URL("./fixtures/vendors/jambonz/call-hook-in-progress.json", import.meta.url),
      "utf8",
    );
    for (const path of ["person", "whisper-done"]) {
      const res = await fetch(`http://127.0.0.1:${address.port}/carriers/jambonz/calls/${id}/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "jambonz-signature": jambonzSignature(SECRET, sample) },
        body: sample,
      });
      expect(res.status, path).toBe(200);
      expect(await res.json(), path).toEqual([{ verb: "hangup" }]);
    }
  });

  it("answers signed but hostile bodies on the person leg's hooks (null, arrays, numbers, broken JSON, huge values, odd ids) without a server error", async () => {
    const bodies = [
      "null",
      "[1,2,3]",
      "42",
      '"text"',
      "{not json",
      "{}",
      JSON.stringify({ call_sid: null, call_status: ["completed"] }),
      JSON.stringify({ call_sid: 7, call_status: "completed", duration: "abc" }),
      JSON.stringify({ call_sid: randomUUID(), call_status: "completed", duration: 1e308 }),
      JSON.stringify({ call_sid: "x".repeat(10_000), call_status: "ringing" }),
      JSON.stringify({ call_sid: randomUUID(), call_status: "busy", duration: -5 }),
    ];
    const errorsBefore = t.errors.length;
    for (const id of [randomUUID(), "not-a-uuid"]) {
      for (const path of ["person", "whisper-done", "person-status"]) {
        const url = `http://127.0.0.1:${address.port}/carriers/jambonz/calls/${id}/${path}`;
        for (const body of bodies) {
          const res = await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", "jambonz-signature": jambonzSignature(SECRET, body) },
            body,
          });
          expect(res.status, `${path} ${body.slice(0, 60)}`).toBeLessThan(500);
        }
      }
    }
    expect(t.errors.slice(errorsBefore)).toEqual([]);
  });
});
