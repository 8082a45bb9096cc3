// Issue 30.4: with WAKHA_JAMBONZ_APPLICATION_SID, the application's socket (/carriers/jambonz/ws) opens with one
// static basic-auth password for every call; what opens a call's session there is that call's own short-lived token,
// which Wakha puts in the create-call `tag` (jambonz hands it back as `customerData` in session:new). A session:new
// with another call's token, a stale one, or none is refused (the socket closed 1008) and logged as a security event.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { applicationCallToken, JambonzTelephony, socketPassword } from "../src/engine/telephony/jambonz/provider.ts";
import { CarrierLines, TextCarrierSession } from "../src/engine/telephony/text-carrier.ts";
import { startApp, type TestApp } from "./helpers.ts";

const SECRET = "jambonz-webhook-secret-0123456789";
const APP_AUTH = `Basic ${Buffer.from(`wakha:${socketPassword(SECRET, "application")}`).toString("base64")}`;

describe("jambonz application mode: a per-call, short-lived token opens the call's session", () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startApp({
      env: {
        WAKHA_CHANNELS: "gsm=jambonz",
        WAKHA_PUBLIC_URL: "https://carrier.example.test",
        WAKHA_JAMBONZ_API_URL: "http://127.0.0.1:9",
        WAKHA_JAMBONZ_ACCOUNT_SID: randomUUID(),
        WAKHA_JAMBONZ_API_KEY: randomUUID(),
        WAKHA_JAMBONZ_CALLER_IDS: "+212522000000",
        WAKHA_JAMBONZ_WEBHOOK_SECRET: SECRET,
        WAKHA_JAMBONZ_APPLICATION_SID: randomUUID(),
      },
    });
    base = (await t.app.listen({ host: "127.0.0.1", port: 0 })).replace(/^http/, "ws");
  });
  afterAll(async () => {
    await t?.close();
  });

  function live(): TextCarrierSession {
    const session = new TextCarrierSession({
      providerCallId: randomUUID(),
      callId: randomUUID(),
      locale: "ar-MA",
      speed: 1,
      expectMachineVerdict: false,
      control: {
        hangup: async () => {},
        recordingSource: () => {
          throw new Error("no recording here");
        },
      },
    });
    t.ctx.lines.text.add(session);
    return session;
  }

  /** Opens the application socket and sends session:new for `session` with `customerData`; resolves with the first answer. */
  async function sessionNew(
    session: TextCarrierSession,
    customerData: Record<string, unknown>,
  ): Promise<{ ack: boolean; closeCode: number | null }> {
    const ws = new WebSocket(`${base}/carriers/jambonz/ws`, "ws.jambonz.org", { headers: { authorization: APP_AUTH } });
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    const answer = new Promise<{ ack: boolean; closeCode: number | null }>((resolve) => {
      ws.once("message", (m) =>
        resolve({ ack: (JSON.parse(String(m)) as { type?: string }).type === "ack", closeCode: null }),
      );
      ws.once("close", (code) => resolve({ ack: false, closeCode: code }));
    });
    ws.send(
      JSON.stringify({
        type: "session:new",
        msgid: randomUUID(),
        call_sid: session.providerCallId,
        data: { call_sid: session.providerCallId, customerData },
      }),
    );
    const result = await answer;
    ws.close();
    return result;
  }

  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

  it("opens the session with the call's own unexpired token", async () => {
    const call = live();
    expect(
      await sessionNew(call, {
        wakha_call_id: call.callId,
        wakha_call_token: applicationCallToken(SECRET, call.callId, inAnHour()),
      }),
    ).toEqual({ ack: true, closeCode: null });
  });

  it("refuses another call's token, a stale token, a forged one and none, though the static password is right", async () => {
    const a = live();
    const b = live();
    const refused = { ack: false, closeCode: 1008 };
    expect(
      await sessionNew(a, {
        wakha_call_id: a.callId,
        wakha_call_token: applicationCallToken(SECRET, b.callId, inAnHour()),
      }),
    ).toEqual(refused);
    expect(
      await sessionNew(a, {
        wakha_call_id: a.callId,
        wakha_call_token: applicationCallToken(SECRET, a.callId, Math.floor(Date.now() / 1000) - 1),
      }),
    ).toEqual(refused);
    expect(
      await sessionNew(a, {
        wakha_call_id: a.callId,
        wakha_call_token: applicationCallToken("another-secret-0123456789abcdef", a.callId, inAnHour()),
      }),
    ).toEqual(refused);
    expect(await sessionNew(a, { wakha_call_id: a.callId })).toEqual(refused);
    // b's token opens b only, and a still opens with its own.
    expect(
      await sessionNew(b, {
        wakha_call_id: b.callId,
        wakha_call_token: applicationCallToken(SECRET, b.callId, inAnHour()),
      }),
    ).toEqual({ ack: true, closeCode: null });
    expect(
      await sessionNew(a, {
        wakha_call_id: a.callId,
        wakha_call_token: applicationCallToken(SECRET, a.callId, inAnHour()),
      }),
    ).toEqual({ ack: true, closeCode: null });
  });
});

describe("jambonz application mode: create-call carries the token in its tag", () => {
  let server: Server;
  let bodies: Record<string, unknown>[];
  beforeAll(async () => {
    bodies = [];
    // jambonz's create-call at its documented boundary: POST /v1/Accounts/{sid}/Calls answers 201 {sid}.
    server = createServer((req, res) => {
      let raw = "";
      req
        .on("data", (c) => (raw += c))
        .on("end", () => {
          bodies.push(JSON.parse(raw) as Record<string, unknown>);
          res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ sid: randomUUID() }));
        });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("sends application_sid, our call id and a token valid for the ring time, the call's limit and a minute", async () => {
    const applicationSid = randomUUID();
    const jambonz = new JambonzTelephony({
      apiBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      accountSid: randomUUID(),
      apiKey: "key",
      applicationSid,
      publicUrl: "https://carrier.example.test",
      callerIds: { default: "+212522000000" },
      webhookSecret: SECRET,
      lines: new CarrierLines(),
      speed: 1,
      log: () => {},
    });
    const callId = randomUUID();
    const before = Math.floor(Date.now() / 1000);
    const session = await jambonz.originate({
      callId,
      to: "+212612345678",
      country: "MA",
      language: "ar",
      dialect: "ma",
      ringTimeoutSeconds: 30,
      machineDetection: false,
      timeLimitSeconds: 300,
      record: false,
    });
    const body = bodies.at(-1)!;
    expect(body["application_sid"]).toBe(applicationSid);
    expect(body["call_hook"]).toBeUndefined();
    const tag = body["tag"] as { wakha_call_id: string; wakha_call_token: string };
    expect(tag.wakha_call_id).toBe(callId);
    const expiresAt = Number(tag.wakha_call_token.split(".")[0]);
    expect(expiresAt - before).toBeGreaterThanOrEqual(30 + 300 + 60);
    expect(expiresAt - before).toBeLessThanOrEqual(30 + 300 + 60 + 2);
    expect(tag.wakha_call_token).toBe(applicationCallToken(SECRET, callId, expiresAt));
    void session;
  });
});
