// `wakha doctor` (issue 12): the configuration checks, offline, and the carriers' credentials against the fakes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDoctor } from "../src/engine/telephony/doctor.ts";
import { FakeJambonz } from "./fakes/jambonz.ts";
import { FakeTwilio } from "./fakes/twilio.ts";

const TWILIO = { WAKHA_TWILIO_ACCOUNT_SID: `AC${"ab".repeat(16)}`, WAKHA_TWILIO_AUTH_TOKEN: "doctor-auth-token-0000000", WAKHA_TWILIO_CALLER_IDS: "+33100000000" };
const JAMBONZ = { WAKHA_JAMBONZ_ACCOUNT_SID: "acct-1", WAKHA_JAMBONZ_API_KEY: "doctor-api-key", WAKHA_JAMBONZ_CALLER_IDS: "MA=+212522000000", WAKHA_JAMBONZ_WEBHOOK_SECRET: "doctor-secret-000" };

let twilio: FakeTwilio;
let jambonz: FakeJambonz;
beforeAll(async () => {
  twilio = new FakeTwilio({ accountSid: TWILIO.WAKHA_TWILIO_ACCOUNT_SID, authToken: TWILIO.WAKHA_TWILIO_AUTH_TOKEN, speed: 1 });
  jambonz = new FakeJambonz({ accountSid: "acct-1", apiKey: "doctor-api-key", webhookSecret: "doctor-secret-000", speed: 1 });
  await twilio.start();
  await jambonz.start();
});
afterAll(async () => {
  await twilio?.close();
  await jambonz?.close();
});

async function doctor(env: Record<string, string>, online = false): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runDoctor({ env, online, write: (l) => lines.push(l) });
  return { code, lines };
}

describe("wakha doctor", () => {
  it("passes the simulator and names each missing carrier variable once", async () => {
    expect((await doctor({})).code).toBe(0);
    const { code, lines } = await doctor({ WAKHA_CHANNELS: "gsm=jambonz,voip=twilio" });
    expect(code).toBe(1);
    expect(lines.filter((l) => l.includes("WAKHA_PUBLIC_URL"))).toHaveLength(1);
    expect(lines.join("\n")).toMatch(/WAKHA_TWILIO_AUTH_TOKEN: required by the twilio channel/);
    expect(lines.join("\n")).toMatch(/WAKHA_JAMBONZ_WEBHOOK_SECRET: required by the jambonz channel/);
  });

  it("fails while the crash recovery runs on a test clock (WAKHA_RECOVERY_TIME_SCALE)", async () => {
    const { code, lines } = await doctor({ WAKHA_RECOVERY_TIME_SCALE: "5" });
    expect(code).toBe(1);
    expect(lines.join("\n")).toMatch(/WAKHA_RECOVERY_TIME_SCALE is 5: only tests/);
  });

  it("checks the credentials online against each carrier", async () => {
    const env = {
      WAKHA_CHANNELS: "gsm=jambonz,voip=twilio", WAKHA_PUBLIC_URL: "https://wakha.example.com", ...TWILIO, ...JAMBONZ,
      WAKHA_TWILIO_API_URL: twilio.url, WAKHA_JAMBONZ_API_URL: jambonz.url,
    };
    const ok = await doctor(env, true);
    expect(ok.lines.join("\n")).toMatch(/ok\s+twilio: account active \(Full\)/);
    expect(ok.lines.join("\n")).toMatch(/ok\s+jambonz: API key accepted; WAKHA_JAMBONZ_WEBHOOK_SECRET matches/);
    expect(ok.code).toBe(0);
    const bad = await doctor({ ...env, WAKHA_TWILIO_AUTH_TOKEN: "wrong-token-00000000000", WAKHA_JAMBONZ_WEBHOOK_SECRET: "another-secret" }, true);
    expect(bad.code).toBe(1);
    expect(bad.lines.join("\n")).toMatch(/FAIL\s+twilio: the account SID and auth token were refused/);
    expect(bad.lines.join("\n")).toMatch(/FAIL\s+jambonz: WAKHA_JAMBONZ_WEBHOOK_SECRET is not the account's/);
    expect(bad.lines.join("\n")).not.toContain("wrong-token");
  });
});
