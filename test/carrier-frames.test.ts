// Issue 30.3: no frame on a carrier's WebSocket may take a node down. A real node (bin/wakha.js, its own process)
// places calls on the three socket carriers at once: Twilio ConversationRelay, Twilio Media Streams and jambonz.
// On each call's own signed socket the carrier fakes send what is not the documented JSON object (null, true, 0,
// [], "x", a binary frame, known messages with fields of the wrong type), 1,000 frames in a second, or a 1 MB
// frame. The node must still answer HTTP, the junk must change nothing (the call reaches the outcome its persona
// gives), and a call whose socket was closed for an oversized frame must still settle.
import { type ChildProcess, spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CURSOR_SECRET, ENCRYPTION_KEY } from "./helpers.ts";
import { createEngineDatabase, type EngineApp, startEngineApp, waitForEnd } from "./engine-fixtures.ts";
import { FakeAzureSpeech } from "./fakes/azure-speech.ts";
import { carrierAccount, createCarrierCall, freePort, PublicAddress } from "./fakes/carrier-harness.ts";
import { FakeJambonz } from "./fakes/jambonz.ts";
import { FakeTwilio } from "./fakes/twilio.ts";

const TWILIO_SID = `AC${"0123456789abcdef".repeat(2)}`;
const TWILIO_TOKEN = "carrier-frames-auth-token-00000000";
const JAMBONZ_SID = "9351f46a-678c-43f5-b8a6-d4eb58d131af";
const JAMBONZ_KEY = "jambonz-frames-api-key-0123456789";
const JAMBONZ_SECRET = "wh_secret_jambonz_frames_0123456789";
const AZURE_KEY = "azure-speech-frames-key-0123456789";
const SPEED = 5;

// The last two digits choose the persona: 01 confirms.
const RELAY_JUNK = "+33612345601";
const RELAY_BIG = "+33612345701";
const MEDIA_JUNK = "+212612345601";
const MEDIA_BIG = "+212612345701";
const JAMBONZ_JUNK = "+212600000101";
const JAMBONZ_BIG = "+212600000201";

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let azure: FakeAzureSpeech;
let twilio: FakeTwilio;
let jambonz: FakeJambonz;
let address: PublicAddress;
let api: EngineApp;
let node: ChildProcess;
let nodePort: number;
let dataDir: string;
let output = "";
let exited: string | null = null;

beforeAll(async () => {
  db = await createEngineDatabase();
  azure = new FakeAzureSpeech({ key: AZURE_KEY });
  await azure.start();
  twilio = new FakeTwilio({
    accountSid: TWILIO_SID,
    authToken: TWILIO_TOKEN,
    speed: SPEED,
    voice: azure,
    scenarios: {
      [RELAY_JUNK]: { hostile: "junk" },
      [RELAY_BIG]: { hostile: "oversized" },
      [MEDIA_JUNK]: { hostile: "junk" },
      [MEDIA_BIG]: { hostile: "oversized" },
    },
  });
  await twilio.start();
  jambonz = new FakeJambonz({
    accountSid: JAMBONZ_SID,
    apiKey: JAMBONZ_KEY,
    webhookSecret: JAMBONZ_SECRET,
    speed: SPEED,
    scenarios: { [JAMBONZ_JUNK]: { hostile: "junk" }, [JAMBONZ_BIG]: { hostile: "oversized" } },
  });
  await jambonz.start();
  address = new PublicAddress();
  await address.start();
  dataDir = await mkdtemp(path.join(tmpdir(), "wakha-frames-"));
  await chmod(dataDir, 0o755);
  const env = {
    WAKHA_CHANNELS: "gsm=twilio,audio=twilio-media,voip=jambonz",
    WAKHA_PUBLIC_URL: `http://127.0.0.1:${address.port}`,
    WAKHA_CARRIER_TIME_SCALE: String(SPEED),
    WAKHA_TWILIO_ACCOUNT_SID: TWILIO_SID,
    WAKHA_TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    WAKHA_TWILIO_CALLER_IDS: "+33100000000",
    WAKHA_TWILIO_API_URL: twilio.url,
    WAKHA_AZURE_SPEECH_KEY: AZURE_KEY,
    WAKHA_AZURE_SPEECH_ENDPOINT: azure.url,
    WAKHA_AZURE_SPEECH_VOICES: "ma=ar-MA-JamalNeural",
    WAKHA_VAD: "energy",
    WAKHA_JAMBONZ_API_URL: jambonz.url,
    WAKHA_JAMBONZ_ACCOUNT_SID: JAMBONZ_SID,
    WAKHA_JAMBONZ_API_KEY: JAMBONZ_KEY,
    WAKHA_JAMBONZ_CALLER_IDS: "+212522000000",
    WAKHA_JAMBONZ_WEBHOOK_SECRET: JAMBONZ_SECRET,
    WAKHA_JAMBONZ_VOICES: "ma=ar-MA-JamalNeural,fr=fr-FR-DeniseNeural",
  };
  // This process serves the API for the test (no workers); the spawned node places and carries every call.
  api = await startEngineApp({ databaseUrl: db.url, env });
  nodePort = await freePort();
  address.target = nodePort;
  node = spawn(process.execPath, ["bin/wakha.js", "serve"], {
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: db.url,
      PORT: String(nodePort),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      WAKHA_DATA_DIR: dataDir,
      WAKHA_CURSOR_SECRET: CURSOR_SECRET,
      WAKHA_ENCRYPTION_KEY: ENCRYPTION_KEY,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  node.stdout!.on("data", (chunk) => (output += String(chunk)));
  node.stderr!.on("data", (chunk) => (output += String(chunk)));
  node.on("exit", (code, signal) => (exited = `exit ${code} ${signal ?? ""}`));
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${nodePort}/openapi.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 300 || exited) throw new Error(`the node did not start: ${exited ?? ""}\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 90_000);

afterAll(async () => {
  node?.kill("SIGKILL");
  await api?.close();
  await twilio?.close();
  await jambonz?.close();
  await azure?.close();
  await address?.close();
  await db?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('null, true, 0, [], "x", binary, wrong fields, 1,000 frames a second and 1 MB frames on every carrier socket: the node lives, the calls settle', async () => {
  const { acct, shop } = await carrierAccount(api, 10_000);
  const calls = {
    relayJunk: await createCarrierCall(api, acct, shop, "FR", RELAY_JUNK, "gsm"),
    relayBig: await createCarrierCall(api, acct, shop, "FR", RELAY_BIG, "gsm"),
    mediaJunk: await createCarrierCall(api, acct, shop, "MA", MEDIA_JUNK, "audio"),
    mediaBig: await createCarrierCall(api, acct, shop, "MA", MEDIA_BIG, "audio"),
    jambonzJunk: await createCarrierCall(api, acct, shop, "MA", JAMBONZ_JUNK, "voip"),
    jambonzBig: await createCarrierCall(api, acct, shop, "MA", JAMBONZ_BIG, "voip"),
  };
  // A node that dies fails the test at once, with what it printed last.
  const died = new Promise<never>((_, reject) => {
    const fail = () => reject(new Error(`the node died (${exited}):\n${output.slice(-3000)}`));
    if (exited) fail();
    else node.once("exit", () => setTimeout(fail, 50));
  });
  const ended = Object.fromEntries(
    await Promise.race([
      died,
      Promise.all(
        Object.entries(calls).map(async ([name, id]) => [name, await waitForEnd(api, acct, id, 60_000)] as const),
      ),
    ]),
  );
  expect(exited, output).toBeNull();
  // The junk changed nothing: each call went the way its persona (01: confirms) takes it.
  for (const name of ["relayJunk", "mediaJunk", "jambonzJunk"]) {
    expect([name, ended[name]!.status, ended[name]!.outcome], output).toEqual([name, "completed", "confirmed"]);
  }
  // A 1 MB frame is over the socket's limit: the socket is closed (1009) and the call settles, billed.
  for (const name of ["relayBig", "mediaBig", "jambonzBig"]) {
    expect(ended[name]!.ended_at, name).not.toBeNull();
    expect(ended[name]!.status, name).not.toBe("in_progress");
  }
  // The node still answers its API, and it logged what it ignored.
  const res = await fetch(`http://127.0.0.1:${nodePort}/v1/calls/${calls.relayJunk}`, {
    headers: acct.headers as Record<string, string>,
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { id: string }).id).toBe(calls.relayJunk);
  expect(output).toMatch(/ConversationRelay sent a JSON null, not an object: ignored/);
  expect(output).toMatch(/Media Streams sent a binary frame: ignored/);
  expect(output).toMatch(/jambonz sent a frame that is not JSON: ignored/);
  // A gather result with speech in no readable shape is said, not taken silently for silence (issue 30.5).
  expect(output).toMatch(/jambonz reported speech but no transcript could be read from it/);
  expect(node.exitCode).toBeNull();
}, 120_000);
