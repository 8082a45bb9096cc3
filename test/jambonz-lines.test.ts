// Issue 15: a GSM gateway behind jambonz, whose numbers carry one call at a time each (WAKHA_JAMBONZ_CALLER_IDS with
// `/1`), against the local fake of jambonz at its documented boundary (test/fakes/jambonz.ts): every call is created
// with the `from` of a free line, and the gateway never sees two live calls on one number.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineDatabase, waitForEnd } from "./engine-fixtures.ts";
import {
  carrierAccount,
  type CarrierNode,
  createCarrierCall,
  PHONES,
  PublicAddress,
  startCarrierNode,
} from "./fakes/carrier-harness.ts";
import { FakeJambonz } from "./fakes/jambonz.ts";

const ACCOUNT_SID = "9351f46a-678c-43f5-b8a6-d4eb58d131af";
const API_KEY = "jambonz-test-api-key-0123456789";
const SECRET = "wh_secret_jambonz_0123456789";
const SPEED = 10;
const SIMS = ["+212522000001", "+212522000002"];

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
    scenarios: {},
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
      WAKHA_JAMBONZ_CALLER_IDS: SIMS.map((n) => `MA=${n}/1`).join(","),
      WAKHA_JAMBONZ_WEBHOOK_SECRET: SECRET,
      WAKHA_CARRIER_TIME_SCALE: String(SPEED),
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

describe("a two-SIM gateway behind jambonz", () => {
  it("dials each call from a free SIM, never two at once on one, and ends them all", { timeout: 120_000 }, async () => {
    const { acct, shop } = await carrierAccount(t, 100_000);
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const live = new Map<string, number>();
        for (const c of fake.calls.values())
          if (c.endedAt === null && !["busy", "no-answer", "failed", "completed"].includes(c.status))
            live.set(c.body["from"], (live.get(c.body["from"]) ?? 0) + 1);
        peak = Math.max(peak, ...live.values(), 0);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const ids: string[] = [];
    for (const suffix of ["01", "04", "01", "04", "01"])
      ids.push(await createCarrierCall(t, acct, shop, "MA", `${PHONES.MA}${suffix}`));
    const ended = [];
    for (const id of ids) ended.push(await waitForEnd(t, acct, id, 100_000));
    sampling = false;
    await sampler;
    expect(ended.map((c) => c.status)).toEqual(["completed", "busy", "completed", "busy", "completed"]);
    const made = [...fake.calls.values()].filter((c) => ids.includes(c.body["tag"]?.wakha_call_id));
    expect(made).toHaveLength(5); // each dialled once
    for (const c of made) expect(SIMS).toContain(c.body["from"]);
    expect(peak).toBe(1);
    const lines = await t.ctx.db.query<{ caller_line: string }>("SELECT caller_line FROM calls WHERE id = ANY($1)", [
      ids,
    ]);
    for (const r of lines.rows) expect(SIMS.map((n) => `jambonz:${n}`)).toContain(r.caller_line);
    expect(t.errors).toEqual([]);
  });
});
