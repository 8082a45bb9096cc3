// A node killed (SIGKILL) mid-call on Twilio (issue 12): its ConversationRelay socket dies with it, Twilio
// ends the call (error 64105, then <Hangup/>) and posts the final status to the public address, which another
// node now serves. That node has no live session for the call: it keeps Twilio's CallDuration on the row, and
// the sweep ends the call as failed (worker_lost) billing exactly those seconds.
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sweepCalls } from "../src/calls/sweeper.ts";
import { CURSOR_SECRET } from "./helpers.ts";
import { createEngineDatabase, debitsOf, getCallOut } from "./engine-fixtures.ts";
import { carrierAccount, createCarrierCall, freePort, PublicAddress } from "./fakes/carrier-harness.ts";
import { FakeTwilio } from "./fakes/twilio.ts";
import { startEngineApp, type EngineApp } from "./engine-fixtures.ts";

const ACCOUNT_SID = `AC${"fedcba9876543210".repeat(2)}`;
const AUTH_TOKEN = "twilio-restart-auth-token-000000";
const SPEED = 4;

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let fake: FakeTwilio;
let address: PublicAddress;
let survivor: EngineApp;
let dataDir: string;

beforeAll(async () => {
  db = await createEngineDatabase();
  fake = new FakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, speed: SPEED });
  await fake.start();
  address = new PublicAddress();
  await address.start();
  dataDir = await mkdtemp(path.join(tmpdir(), "wakha-restart-"));
  await chmod(dataDir, 0o755);
});
afterAll(async () => {
  await survivor?.close();
  await fake?.close();
  await address?.close();
  await db?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

it("a node killed mid-call: the call ends failed (worker_lost), billed on Twilio's seconds only", async () => {
  const env = {
    WAKHA_CHANNELS: "gsm=twilio",
    WAKHA_TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    WAKHA_TWILIO_CALLER_IDS: "+33100000000",
    WAKHA_TWILIO_API_URL: fake.url,
    WAKHA_CARRIER_TIME_SCALE: String(SPEED),
    WAKHA_PUBLIC_URL: `http://127.0.0.1:${address.port}`,
  };
  // The survivor serves HTTP (and the sweep) but places no call: the doomed node places it.
  survivor = await startEngineApp({ databaseUrl: db.url, env });
  const survivorPort = await freePort();
  await survivor.app.listen({ port: survivorPort, host: "127.0.0.1" });
  const doomedPort = await freePort();
  address.target = doomedPort;
  const doomed = spawn(process.execPath, ["bin/wakha.js", "serve"], {
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: db.url,
      PORT: String(doomedPort),
      HOST: "127.0.0.1",
      LOG_LEVEL: "silent",
      WAKHA_DATA_DIR: dataDir,
      WAKHA_CURSOR_SECRET: CURSOR_SECRET,
    },
    stdio: "ignore",
  });
  try {
    const { acct, shop } = await carrierAccount(survivor, 10_000);
    // 08 asks a question then confirms: a call long enough to die in.
    const id = await createCarrierCall(survivor, acct, shop, "FR", "+33612345608");
    const deadline = Date.now() + 30_000;
    for (;;) {
      const twilioCall = [...fake.calls.values()].find((c) => c.params["Twiml"]?.includes(id));
      if (twilioCall && twilioCall.transcript.length >= 2) break;
      if (Date.now() > deadline) throw new Error("the call never got going");
      await new Promise((r) => setTimeout(r, 20));
    }
    address.target = survivorPort; // the load balancer sends the carrier to the node still alive
    doomed.kill("SIGKILL");
    address.cutAll();
    const twilioCall = [...fake.calls.values()].find((c) => c.params["Twiml"]?.includes(id))!;
    for (let i = 0; i < 1_500; i++) {
      const { rows } = await survivor.ctx.db.query<{ carrier_seconds: number | null }>(
        "SELECT carrier_seconds FROM calls WHERE id = $1",
        [id],
      );
      // The row is written before the route answers Twilio, so the callback's own record (pushed when the fake reads
      // the answer) is awaited as well: on a loaded machine the test can see the row first.
      const answered = twilioCall.callbacks.some((c) => c.params["CallStatus"] === "completed");
      if (answered && rows[0]?.carrier_seconds !== null && rows[0]?.carrier_seconds !== undefined) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await fake.statusCallbacks(twilioCall, "completed"))[0]?.status).toBe(204);
    // The sweep takes the call once its last heartbeat is over a second old; on a loaded machine that can be later
    // than a fixed wait, so it is polled (the call is ended once, whichever sweep takes it).
    let ended = 0;
    for (let i = 0; i < 100 && ended === 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      ended += (await sweepCalls(survivor.ctx, 1)).ended;
    }
    expect(ended).toBe(1);
    const call = await getCallOut(survivor, acct, id);
    expect([call.status, call.end_reason]).toEqual(["failed", "worker_lost"]);
    expect(twilioCall.duration).toBeGreaterThan(0);
    expect(call.billed_seconds).toBe(twilioCall.duration);
    expect((await debitsOf(survivor.ctx, acct.accountId)).get(id)?.seconds).toBe(twilioCall.duration);
  } finally {
    doomed.kill("SIGKILL");
  }
}, 90_000);
