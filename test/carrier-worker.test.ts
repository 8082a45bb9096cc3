// The topology of docs/scaling.md with a real carrier: an API node that only takes the call, and a `wakha worker`
// node that dials it and serves the carriers' routes itself (buildApp's carriersOnly), reached at its own
// WAKHA_PUBLIC_URL. The call's live session is in the worker's memory: only the worker can hold its WebSocket.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app.ts";
import { createEngineDatabase, type EngineApp, startEngineApp, waitForEnd } from "./engine-fixtures.ts";
import { carrierAccount, createCarrierCall, freePort, PHONES, PublicAddress } from "./fakes/carrier-harness.ts";
import { FakeTwilio } from "./fakes/twilio.ts";

const ACCOUNT_SID = `AC${"0123456789abcdef".repeat(2)}`;
const AUTH_TOKEN = "twilio-test-auth-token-0123456789";
const SPEED = 5;

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let fake: FakeTwilio;
let workerAddress: PublicAddress;
let api: EngineApp;
let worker: EngineApp;
let workerHttp: FastifyInstance;

beforeAll(async () => {
  db = await createEngineDatabase();
  fake = new FakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, speed: SPEED, scenarios: {} });
  await fake.start();
  workerAddress = new PublicAddress();
  await workerAddress.start();
  const env = {
    WAKHA_CHANNELS: "gsm=twilio",
    WAKHA_TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    WAKHA_TWILIO_CALLER_IDS: "+33100000000",
    WAKHA_TWILIO_API_URL: fake.url,
    WAKHA_CARRIER_TIME_SCALE: String(SPEED),
    WAKHA_BASE_URL: "https://api.example.test",
  };
  // The API node: no job workers, so it never dials; its public URL leads nowhere the carrier is sent.
  api = await startEngineApp({ databaseUrl: db.url, env: { ...env, WAKHA_PUBLIC_URL: "http://127.0.0.1:9" } });
  // The worker node: places the calls and serves only /carriers, at its own public URL.
  worker = await startEngineApp({
    databaseUrl: db.url,
    env: { ...env, WAKHA_PUBLIC_URL: `http://127.0.0.1:${workerAddress.port}` },
  });
  workerHttp = await buildApp(worker.ctx, { carriersOnly: true });
  const port = await freePort();
  await workerHttp.listen({ port, host: "127.0.0.1" });
  workerAddress.target = port;
  await worker.startWorkers();
});
afterAll(async () => {
  await workerHttp?.close();
  await worker?.close();
  await api?.close();
  await fake?.close();
  await workerAddress?.close();
  await db?.drop();
});

describe("a worker node with a real carrier", () => {
  it("serves the carrier routes only, and nothing of /v1", async () => {
    const res = await workerHttp.inject({ method: "GET", url: "/v1/calls" });
    expect(res.statusCode).toBe(404);
    const unsigned = await workerHttp.inject({
      method: "POST",
      url: "/carriers/twilio/calls/00000000-0000-4000-8000-000000000000/status",
      payload: "CallSid=CA1&CallStatus=completed",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(unsigned.statusCode).not.toBe(404);
    expect(unsigned.statusCode).toBeGreaterThanOrEqual(400);
  });

  it("takes a call created on the API node through to its end: the carrier reaches the worker holding the session", async () => {
    const { acct, shop } = await carrierAccount(api, 100_000);
    const id = await createCarrierCall(api, acct, shop, "MA", `${PHONES.MA}01`);
    const call = await waitForEnd(api, acct, id, 90_000);
    expect({ status: call.status, outcome: call.outcome }).toEqual({ status: "completed", outcome: "confirmed" });
    expect(api.dialled).toHaveLength(0);
  });
});
