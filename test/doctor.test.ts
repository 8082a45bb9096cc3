// `wakha doctor` (issue 12): the configuration checks, offline, and the carriers' credentials against the fakes.
import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDoctor } from "../src/doctor/carriers.ts";
import { infrastructureChecks } from "../src/doctor/node.ts";
import { ENCRYPTION_KEY, testDatabaseUrl } from "./helpers.ts";
import { FakeS3 } from "./fakes/s3.ts";
import { FakeJambonz } from "./fakes/jambonz.ts";
import { FakeTwilio } from "./fakes/twilio.ts";

const TWILIO = {
  WAKHA_TWILIO_ACCOUNT_SID: `AC${"ab".repeat(16)}`,
  WAKHA_TWILIO_AUTH_TOKEN: "doctor-auth-token-0000000",
  WAKHA_TWILIO_CALLER_IDS: "+33100000000",
};
const JAMBONZ = {
  WAKHA_JAMBONZ_ACCOUNT_SID: "acct-1",
  WAKHA_JAMBONZ_API_KEY: "doctor-api-key",
  WAKHA_JAMBONZ_CALLER_IDS: "MA=+212522000000",
  WAKHA_JAMBONZ_WEBHOOK_SECRET: "doctor-secret-000",
};

let twilio: FakeTwilio;
let jambonz: FakeJambonz;
beforeAll(async () => {
  twilio = new FakeTwilio({
    accountSid: TWILIO.WAKHA_TWILIO_ACCOUNT_SID,
    authToken: TWILIO.WAKHA_TWILIO_AUTH_TOKEN,
    speed: 1,
  });
  jambonz = new FakeJambonz({
    accountSid: "acct-1",
    apiKey: "doctor-api-key",
    webhookSecret: "doctor-secret-000",
    speed: 1,
  });
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
      WAKHA_CHANNELS: "gsm=jambonz,voip=twilio",
      WAKHA_PUBLIC_URL: "https://wakha.example.com",
      ...TWILIO,
      ...JAMBONZ,
      WAKHA_TWILIO_API_URL: twilio.url,
      WAKHA_JAMBONZ_API_URL: jambonz.url,
    };
    const ok = await doctor(env, true);
    expect(ok.lines.join("\n")).toMatch(/ok\s+twilio: account active \(Full\)/);
    expect(ok.lines.join("\n")).toMatch(/ok\s+jambonz: API key accepted; WAKHA_JAMBONZ_WEBHOOK_SECRET matches/);
    expect(ok.code).toBe(0);
    const bad = await doctor(
      { ...env, WAKHA_TWILIO_AUTH_TOKEN: "wrong-token-00000000000", WAKHA_JAMBONZ_WEBHOOK_SECRET: "another-secret" },
      true,
    );
    expect(bad.code).toBe(1);
    expect(bad.lines.join("\n")).toMatch(/FAIL\s+twilio: the account SID and auth token were refused/);
    expect(bad.lines.join("\n")).toMatch(/FAIL\s+jambonz: WAKHA_JAMBONZ_WEBHOOK_SECRET is not the account's/);
    expect(bad.lines.join("\n")).not.toContain("wrong-token");
  });
});

// Issue 32.3: the node's own infrastructure, and a worker without the public API address.
describe("wakha doctor: database, Redis, encryption key, bucket; a worker needs WAKHA_BASE_URL", () => {
  let s3: FakeS3;
  beforeAll(async () => {
    s3 = await new FakeS3({
      bucket: "doctor-probe",
      accessKeyId: "AKIADOCTOR",
      secretAccessKey: "doctor-bucket-secret",
      region: "auto",
    }).start();
  });
  afterAll(async () => {
    await s3?.stop();
  });
  const infra = async (env: Record<string, string>, online = false) => {
    const lines: string[] = [];
    const code = await runDoctor({ env, online, write: (l) => lines.push(l), infrastructure: infrastructureChecks });
    return { code, text: lines.join("\n") };
  };
  const bucket = () => ({
    WAKHA_RECORDINGS_BUCKET: "doctor-probe",
    WAKHA_RECORDINGS_ENDPOINT: s3.url,
    WAKHA_RECORDINGS_REGION: "auto",
    WAKHA_RECORDINGS_ACCESS_KEY_ID: "AKIADOCTOR",
    WAKHA_RECORDINGS_SECRET_ACCESS_KEY: "doctor-bucket-secret",
    WAKHA_RECORDINGS_FORCE_PATH_STYLE: "1",
  });

  it("checks the database, Redis, the encryption key and, online, the bucket with a probe object written, read and deleted", async () => {
    const env = {
      DATABASE_URL: testDatabaseUrl(),
      ...(process.env["REDIS_URL"] ? { REDIS_URL: process.env["REDIS_URL"] } : {}),
      WAKHA_ENCRYPTION_KEY: ENCRYPTION_KEY,
      WAKHA_BASE_URL: "https://api.example.test",
      ...bucket(),
    };
    const ok = await infra(env, true);
    expect(ok.text).toMatch(/ok\s+database: connected \(PostgreSQL \d+/);
    if (process.env["REDIS_URL"]) expect(ok.text).toMatch(/ok\s+Redis: PONG/);
    expect(ok.text).toMatch(/ok\s+WAKHA_ENCRYPTION_KEY (opens|is set)/);
    expect(ok.text).toMatch(/ok\s+recordings: bucket doctor-probe .*written, read back and deleted/);
    expect(ok.code, ok.text).toBe(0);
    expect(s3.requests.some((r) => r.startsWith("PUT "))).toBe(true);
    expect([...s3.objects.keys()]).toEqual([]); // the probe is gone
    // offline, nothing is sent to the bucket
    const before = s3.requests.length;
    expect((await infra(env)).text).toMatch(/--online writes, reads and deletes a probe object/);
    expect(s3.requests.length).toBe(before);
  });

  it("fails an unreachable database and Redis and a refused bucket, without printing their secrets", async () => {
    const { code, text } = await infra(
      {
        DATABASE_URL: "postgresql://wakha:db-password-123@127.0.0.1:1/wakha",
        REDIS_URL: "redis://:redis-password-123@127.0.0.1:1",
        ...bucket(),
        WAKHA_RECORDINGS_SECRET_ACCESS_KEY: "not-the-bucket-secret",
      },
      true,
    );
    expect(code).toBe(1);
    expect(text).toMatch(/FAIL\s+database: cannot connect with DATABASE_URL/);
    expect(text).toMatch(/FAIL\s+Redis: cannot reach REDIS_URL/);
    expect(text).toMatch(/FAIL\s+recordings: bucket doctor-probe .*the probe failed/);
    expect(text).toMatch(/warn\s+WAKHA_ENCRYPTION_KEY is not set/);
    for (const secret of ["db-password-123", "redis-password-123", "not-the-bucket-secret"])
      expect(text).not.toContain(secret);
  });

  it("fails a worker or API node without WAKHA_BASE_URL, and a worker refuses to start without it", async () => {
    const doc = await infra({ WAKHA_ROLE: "worker" });
    expect(doc.code).toBe(1);
    expect(doc.text).toMatch(/FAIL\s+WAKHA_BASE_URL: required on a worker node/);
    expect((await infra({ WAKHA_ROLE: "api" })).text).toMatch(/FAIL\s+WAKHA_BASE_URL is not set on this api node/);
    const started = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["bin/wakha.js", "worker"],
        {
          env: { PATH: process.env["PATH"] ?? "", DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: "silent" },
          timeout: 60_000,
        },
        (err, _out, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stderr }),
      );
    });
    expect(started.code, started.stderr).toBe(1);
    expect(started.stderr).toContain("WAKHA_BASE_URL: required on a worker node");
  }, 90_000);
});
