// The call engine end to end (issue 5): calls created through the API, placed by the in-process workers
// through the simulator, settled with status, outcome, billing, events and recordings.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeWav } from "../src/engine/speech/wav.ts";
import { newAccount, type TestAccount } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import {
  balanceOf,
  createEngineDatabase,
  debitsOf,
  type EngineApp,
  eventsOf,
  getCallOut,
  startEngineApp,
  startSecondNode,
  waitForEnd,
  waitForStatus,
} from "./engine-fixtures.ts";

const PHONES = { MA: "+2126123456", DZ: "+2135512345", TN: "+216201234", FR: "+336123456" } as const;

const EXPECTED: Record<string, { status: string; outcome: string | null; endReason?: string }> = {
  "01": { status: "completed", outcome: "confirmed" },
  "02": { status: "completed", outcome: "declined" },
  "03": { status: "no_answer", outcome: null, endReason: "no_answer" },
  "04": { status: "busy", outcome: null, endReason: "busy" },
  "05": { status: "voicemail", outcome: null, endReason: "voicemail" },
  "06": { status: "completed", outcome: "rescheduled" },
  "07": { status: "completed", outcome: "wrong_number" },
  "08": { status: "completed", outcome: "confirmed" },
  "09": { status: "completed", outcome: "change_requested" },
  "10": { status: "completed", outcome: "callback_requested" },
  "11": { status: "completed", outcome: "no_decision", endReason: "customer_hangup" },
  "12": { status: "completed", outcome: "no_decision" },
};

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let t: EngineApp;
let mainWorkers: Awaited<ReturnType<EngineApp["startWorkers"]>>;

beforeAll(async () => {
  db = await createEngineDatabase();
  t = await startEngineApp({ databaseUrl: db.url, speed: 200, env: { WAKHA_BASE_URL: "https://api.example.test" } });
  mainWorkers = await t.startWorkers();
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

async function account(balance: number): Promise<{ acct: TestAccount; shop: string }> {
  const acct = await newAccount(t.ctx, balance);
  const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  // An active webhook, so the engine's events are written (nobody delivers them in this suite).
  await t.ctx.db.query(
    "INSERT INTO webhooks (id, account_id, url, secret_sealed) VALUES ($1, $2, 'https://hooks.example.test/wakha', 'sealed')",
    [randomUUID(), acct.accountId],
  );
  return { acct, shop };
}

async function create(acct: TestAccount, shop: string, country: keyof typeof PHONES, suffix: string): Promise<string> {
  const res = await postCall(
    t,
    acct,
    callBody(shop, {
      country,
      customer: { name: "Fatima Zahra", phone_number: `${PHONES[country]}${suffix}` },
      order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00", quantity: 2 }] },
    }),
  );
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

describe("each simulator number, per country (CONTRACT §5)", () => {
  it("ends with the right status, outcome, billing, events and recording", async () => {
    const { acct, shop } = await account(100_000);
    const created: { id: string; country: string; suffix: string }[] = [];
    for (const country of ["MA", "DZ", "TN", "FR"] as const) {
      for (const suffix of Object.keys(EXPECTED))
        created.push({ id: await create(acct, shop, country, suffix), country, suffix });
    }
    const ended = await Promise.all(created.map((c) => waitForEnd(t, acct, c.id)));
    const debits = await debitsOf(t.ctx, acct.accountId);
    // recording.ready follows the stored file by a moment.
    const answeredCount = ended.filter((c) => c.answered_at !== null).length;
    let events = await eventsOf(t.ctx, acct.accountId);
    for (let i = 0; i < 200 && events.filter((e) => e.type === "recording.ready").length < answeredCount; i++) {
      await new Promise((r) => setTimeout(r, 25));
      events = await eventsOf(t.ctx, acct.accountId);
    }
    const mismatches: string[] = [];
    for (const [i, call] of ended.entries()) {
      const { country, suffix } = created[i]!;
      const want = EXPECTED[suffix]!;
      const label = `${country} ${suffix}`;
      if (
        call.status !== want.status ||
        call.outcome !== want.outcome ||
        (want.endReason && call.end_reason !== want.endReason)
      ) {
        const { rows } = await t.ctx.db.query<{ transcript: unknown }>("SELECT transcript FROM calls WHERE id = $1", [
          call.id,
        ]);
        mismatches.push(
          `${label}: ${call.status}/${call.outcome}/${call.end_reason} (wanted ${want.status}/${want.outcome}/${want.endReason ?? "any"}) ${JSON.stringify(rows[0]?.transcript)}`,
        );
      }
      const answered = call.answered_at !== null;
      expect(answered, label).toBe(!["no_answer", "busy"].includes(want.status));
      if (answered) {
        expect(call.duration_seconds, label).toBeGreaterThan(0);
        expect(call.billed_seconds, label).toBe(call.duration_seconds); // rounded-up answered seconds, balance ample
        expect(debits.get(call.id)?.seconds, label).toBe(call.billed_seconds);
        expect(call.recording_url, label).toBe(`https://api.example.test/v1/calls/${call.id}/recording`);
        expect(Date.parse(call.ended_at!), label).toBeGreaterThanOrEqual(Date.parse(call.answered_at!));
      } else {
        expect([call.billed_seconds, call.duration_seconds, call.recording_url], label).toEqual([0, 0, null]);
        expect(debits.has(call.id), label).toBe(false);
      }
      if (call.status === "completed") {
        expect(call.outcome_details?.transcript_excerpt, label).toBeTypeOf("string");
        if (call.outcome === "rescheduled") expect(call.outcome_details, label).toHaveProperty("preferred_date");
      } else {
        expect(call.outcome_details, label).toBeNull();
      }
      const mine = events.filter((e) => e.payload.id === call.id).map((e) => e.type);
      expect(mine, label).toEqual(answered ? ["call.answered", "call.ended", "recording.ready"] : ["call.ended"]);
      expect(events.find((e) => e.payload.id === call.id && e.type === "call.ended")?.payload, label).toMatchObject({
        status: call.status,
        billed_seconds: call.billed_seconds,
        ended_at: call.ended_at,
      });
    }
    expect(mismatches).toEqual([]);
    const billed = ended.reduce((sum, c) => sum + (c.billed_seconds ?? 0), 0);
    expect(await balanceOf(t.ctx, acct.accountId)).toBe(100_000 - billed);
    expect(t.errors).toEqual([]);
    // Each call was dialled exactly once.
    const ids = created.map((c) => c.id);
    expect(t.dialled.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
  });

  it("keeps the transcript with timings and stores a WAV recording as long as the call, served by the API", async () => {
    const { acct, shop } = await account(10_000);
    const confirmed = await waitForEnd(t, acct, await create(acct, shop, "MA", "01"));
    const voicemail = await waitForEnd(t, acct, await create(acct, shop, "FR", "05"));
    for (const call of [confirmed, voicemail]) {
      const { rows } = await t.ctx.db.query<{ transcript: { speaker: string; text: string; at: number }[] }>(
        "SELECT transcript FROM calls WHERE id = $1",
        [call.id],
      );
      const transcript = rows[0]!.transcript;
      expect(transcript.length).toBeGreaterThanOrEqual(2);
      expect(transcript.map((e) => e.at)).toEqual([...transcript.map((e) => e.at)].sort((a, b) => a - b));
      expect(transcript.at(-1)!.at).toBeLessThanOrEqual(call.duration_seconds!);
      const res = await t.app.inject({ method: "GET", url: `/v1/calls/${call.id}/recording`, headers: acct.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("audio/wav");
      const wav = decodeWav(res.rawPayload);
      expect(wav.sampleRate).toBe(8000);
      expect(wav.samples.length).toBe(call.duration_seconds! * 8000);
    }
    expect(voicemail.billed_seconds).toBeGreaterThan(0);
    const unanswered = await waitForEnd(t, acct, await create(acct, shop, "TN", "03"));
    const res = await t.app.inject({
      method: "GET",
      url: `/v1/calls/${unanswered.id}/recording`,
      headers: acct.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe("billing never below zero (CONTRACT §4)", () => {
  it("closes 20 concurrent answered calls on a 60 s account before the balance runs out", async () => {
    const { acct, shop } = await account(60);
    const ids = await Promise.all(Array.from({ length: 20 }, () => create(acct, shop, "MA", "01")));
    const ended = await Promise.all(ids.map((id) => waitForEnd(t, acct, id)));
    const balance = await balanceOf(t.ctx, acct.accountId);
    const debits = await debitsOf(t.ctx, acct.accountId);
    expect(balance).toBeGreaterThanOrEqual(0);
    let billed = 0;
    for (const call of ended) {
      expect(call.billed_seconds! <= call.duration_seconds!).toBe(true);
      expect(debits.get(call.id)?.seconds ?? 0).toBe(call.billed_seconds);
      billed += call.billed_seconds!;
    }
    expect(billed).toBe(60 - balance);
    expect([...debits.values()].every((d) => d.balance_after >= 0)).toBe(true);
    // Each dialled call holds part of the balance (issue 20): the calls it cannot cover are never dialled.
    expect(ended.some((c) => c.end_reason === "balance_exhausted" || c.end_reason === "insufficient_balance")).toBe(
      true,
    );
    for (const call of ended) expect(call.billed_seconds).toBe(call.duration_seconds);
    expect(t.errors).toEqual([]);
  });
});

describe("exactly once with several workers (issue 5)", () => {
  it("places each call once when two nodes consume the same queue", async () => {
    const second = await startSecondNode(t, db.url);
    await second.startWorkers();
    try {
      const { acct, shop } = await account(100_000);
      const ids = await Promise.all(
        Array.from({ length: 40 }, (_, i) => create(acct, shop, "DZ", i % 2 ? "01" : "02")),
      );
      const ended = await Promise.all(ids.map((id) => waitForEnd(t, acct, id)));
      expect(ended.every((c) => c.status === "completed")).toBe(true);
      const dialled = t.dialled.filter((id) => ids.includes(id));
      expect(dialled.length).toBe(40);
      expect(new Set(dialled).size).toBe(40);
      const debits = await debitsOf(t.ctx, acct.accountId);
      expect(debits.size).toBe(40);
    } finally {
      await second.close();
    }
  });
});

describe("calls that must not ring, and cancels (CONTRACT §4, §10)", () => {
  // The main node's workers stop here: each test controls which node dials, and when.
  beforeAll(async () => {
    await mainWorkers.stop();
  });

  it("never dials a call canceled while queued, nor one whose cancel was requested before pickup", async () => {
    const { acct, shop } = await account(1_000);
    const canceledId = await create(acct, shop, "MA", "01");
    const res = await t.app.inject({ method: "POST", url: `/v1/calls/${canceledId}/cancel`, headers: acct.headers });
    expect(res.json()).toMatchObject({ status: "canceled", billed_seconds: 0, duration_seconds: 0 });
    // A cancel that races the pickup: the job is still there, the call still queued, the request recorded.
    const racedId = await create(acct, shop, "MA", "01");
    await t.ctx.db.query("UPDATE calls SET cancel_requested_at = now() WHERE id = $1", [racedId]);
    const workers = await t.startWorkers();
    try {
      await new Promise((r) => setTimeout(r, 2_500));
      expect(t.dialled).not.toContain(canceledId);
      expect(t.dialled).not.toContain(racedId);
      expect(await getCallOut(t, acct, canceledId)).toMatchObject({
        status: "canceled",
        answered_at: null,
        billed_seconds: 0,
      });
      expect((await getCallOut(t, acct, racedId)).status).toBe("queued"); // left as is: the cancel owns it
      expect((await debitsOf(t.ctx, acct.accountId)).size).toBe(0);
    } finally {
      await workers.stop();
    }
  });

  it("does not ring anyone for an account emptied since the call was created", async () => {
    const { acct, shop } = await account(100);
    const id = await create(acct, shop, "FR", "01");
    await t.ctx.db.query("UPDATE accounts SET balance_seconds = 5 WHERE id = $1", [acct.accountId]);
    const workers = await t.startWorkers();
    try {
      const call = await waitForEnd(t, acct, id);
      expect(call).toMatchObject({
        status: "failed",
        end_reason: "insufficient_balance",
        billed_seconds: 0,
        answered_at: null,
      });
      expect(t.dialled).not.toContain(id);
    } finally {
      await workers.stop();
    }
  });

  it("ends an in-progress call as canceled with a polite close, billed for its seconds", async () => {
    const slow = await startEngineApp({ databaseUrl: db.url, speed: 10 });
    try {
      const acct = await newAccount(slow.ctx, 10_000);
      const shop = (await insertShop(slow.ctx, acct.accountId)).externalId;
      const res = await postCall(
        slow,
        acct,
        callBody(shop, { customer: { name: "Karim", phone_number: "+212612345608" } }),
      );
      const id = (res.json() as { id: string }).id;
      await slow.startWorkers();
      await waitForStatus(slow, id, "in_progress");
      const canceled = await slow.app.inject({ method: "POST", url: `/v1/calls/${id}/cancel`, headers: acct.headers });
      expect(canceled.json()).toMatchObject({ status: "canceled", ended_at: null, billed_seconds: null });
      const call = await waitForEnd(slow, acct, id);
      expect(call).toMatchObject({ status: "canceled", end_reason: "canceled", outcome: null, outcome_details: null });
      expect(call.billed_seconds).toBeGreaterThan(0);
      expect(call.billed_seconds).toBe(call.duration_seconds);
      expect((await debitsOf(slow.ctx, acct.accountId)).get(id)?.seconds).toBe(call.billed_seconds);
      const { rows } = await slow.ctx.db.query<{ transcript: { speaker: string; text: string }[] }>(
        "SELECT transcript FROM calls WHERE id = $1",
        [id],
      );
      expect(rows[0]!.transcript.at(-1)).toMatchObject({ speaker: "agent" });
      expect(slow.dialled).toEqual([id]);
      expect(slow.errors).toEqual([]);
    } finally {
      await slow.close();
    }
  });
});
