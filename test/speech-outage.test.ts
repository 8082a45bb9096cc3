// Issue 30.8: Media Streams (gsm=twilio-media) needs Azure Speech to speak and hear. A node that dials over it
// refuses to start when the speech service cannot be reached or refuses the key (as `wakha doctor --online` says);
// a speech outage mid-call ends the call with its own reason, speech_unavailable (not engine_error), billed only on
// the carrier's connected seconds.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.ts";
import { AzureSpeech } from "../src/engine/speech/azure.ts";
import { runDoctor, speechPreflight } from "../src/doctor/carriers.ts";
import { createEngineDatabase, debitsOf, waitForEnd } from "./engine-fixtures.ts";
import { FakeAzureSpeech } from "./fakes/azure-speech.ts";
import {
  carrierAccount,
  type CarrierNode,
  createCarrierCall,
  freePort,
  PHONES,
  PublicAddress,
  startCarrierNode,
} from "./fakes/carrier-harness.ts";
import { FakeTwilio } from "./fakes/twilio.ts";

const ACCOUNT_SID = `AC${"0a1b2c3d4e5f6071".repeat(2)}`;
const AUTH_TOKEN = "twilio-outage-auth-token-0123456789";
const AZURE_KEY = "azure-outage-test-key-0123456789";
const SPEED = 5;
const MEDIA_ENV = {
  WAKHA_CHANNELS: "gsm=twilio-media",
  WAKHA_PUBLIC_URL: "https://wakha.example.test",
  WAKHA_TWILIO_ACCOUNT_SID: ACCOUNT_SID,
  WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
  WAKHA_TWILIO_CALLER_IDS: "+33100000000",
  WAKHA_AZURE_SPEECH_KEY: AZURE_KEY,
};

/** `wakha serve` as an operator starts it; resolves with its exit code and what it printed, or null if it kept running. */
function serve(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["bin/wakha.js", "serve"], {
      env: {
        PATH: process.env["PATH"] ?? "",
        LOG_LEVEL: "silent",
        DATABASE_URL: "postgresql://nobody@127.0.0.1:9/none",
        ...env,
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe("a node whose speech path cannot work does not start", () => {
  let azure: FakeAzureSpeech;
  beforeAll(async () => {
    azure = new FakeAzureSpeech({ key: AZURE_KEY });
    await azure.start();
  });
  afterAll(async () => {
    await azure?.close();
  });

  it("refuses to serve when Azure Speech is unreachable or refuses the key, with a sentence that says what to fix", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await serve({ ...MEDIA_ENV, WAKHA_AZURE_SPEECH_ENDPOINT: closed });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /twilio-media channel\(s\) need Azure Speech[\s\S]*could not be reached[\s\S]*WAKHA_AZURE_SPEECH_KEY[\s\S]*does not start/,
    );
    const refused = await serve({
      ...MEDIA_ENV,
      WAKHA_AZURE_SPEECH_ENDPOINT: azure.url,
      WAKHA_AZURE_SPEECH_KEY: "not-the-key-000000000000",
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the key \(401\)/);
    expect(refused.stderr).not.toContain("not-the-key");
  }, 60_000);

  it("lets a node with working speech, or without an audio carrier, past the check", async () => {
    expect(await speechPreflight(loadConfig({ ...MEDIA_ENV, WAKHA_AZURE_SPEECH_ENDPOINT: azure.url }))).toBeNull();
    expect(await speechPreflight(loadConfig({}))).toBeNull();
  });

  it("wakha doctor --online fails the same configuration", async () => {
    const lines: string[] = [];
    const code = await runDoctor({
      env: { ...MEDIA_ENV, WAKHA_AZURE_SPEECH_ENDPOINT: `http://127.0.0.1:${await freePort()}`, WAKHA_VAD: "energy" },
      online: true,
      write: (l) => lines.push(l),
    });
    expect(code).toBe(1);
    expect(lines.some((l) => /^FAIL\s+azure speech: .* could not be reached/.test(l))).toBe(true);
  });
});

describe("a speech outage mid-call", () => {
  it("text to speech down or unreachable rejects with speech_unavailable (a refused key stays speech_refused)", async () => {
    const down = http.createServer((_req, res) => res.writeHead(503).end("Service Unavailable"));
    await new Promise<void>((resolve) => down.listen(0, "127.0.0.1", resolve));
    try {
      const at = (endpoint: string, key = AZURE_KEY) =>
        new AzureSpeech({ key, endpoint, timeoutMs: 2_000 }).synthesize("Salam", { locale: "ar-MA" });
      await expect(at(`http://127.0.0.1:${(down.address() as AddressInfo).port}`)).rejects.toMatchObject({
        endReason: "speech_unavailable",
        status: 503,
      });
      await expect(at(`http://127.0.0.1:${await freePort()}`)).rejects.toMatchObject({
        endReason: "speech_unavailable",
      });
      const azure = new FakeAzureSpeech({ key: AZURE_KEY });
      await azure.start();
      try {
        await expect(at(azure.url, "another-key-0000000000000")).rejects.toMatchObject({
          endReason: "speech_refused",
          status: 401,
        });
      } finally {
        await azure.close();
      }
    } finally {
      await new Promise((resolve) => down.close(resolve));
    }
  });

  describe("through a real call on Media Streams", () => {
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
      const { WAKHA_PUBLIC_URL: _public, ...env } = MEDIA_ENV;
      t = await startCarrierNode(
        db.url,
        {
          ...env,
          WAKHA_TWILIO_API_URL: fake.url,
          WAKHA_CARRIER_TIME_SCALE: String(SPEED),
          WAKHA_AZURE_SPEECH_ENDPOINT: azure.url,
          WAKHA_BASE_URL: "https://api.example.test",
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

    it("ends as failed with speech_unavailable, billed on the carrier's connected seconds only", async () => {
      const { acct, shop } = await carrierAccount(t, 10_000);
      azure.ttsOutage = 503;
      try {
        const call = await waitForEnd(t, acct, await createCarrierCall(t, acct, shop, "MA", `${PHONES.MA}01`), 60_000);
        expect([call.status, call.outcome, call.end_reason]).toEqual(["failed", null, "speech_unavailable"]);
        const twilioCall = [...fake.calls.values()].find((c) => c.to === `${PHONES.MA}01`)!;
        expect(call.billed_seconds).toBe(twilioCall.duration);
        expect((await debitsOf(t.ctx, acct.accountId)).get(call.id)?.seconds ?? 0).toBe(twilioCall.duration);
        expect(t.errors.some((e) => /speech_unavailable/.test(e))).toBe(true);
        expect(t.errors.some((e) => /engine_error/.test(e))).toBe(false);
      } finally {
        azure.ttsOutage = null;
        t.errors.length = 0;
      }
    }, 90_000);
  });
});
