// Issue 15: caps per caller number, where the carrier has a limit (a GSM gateway has as many lines as SIM slots).
// The configuration (`/N` after a number), the claim taking a free line atomically (never a line over its limit under
// two worker nodes; calls beyond wait in order, none lost or dialled twice), and a line freed at the call's end, also
// when the sweep ends the call of a dead worker.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.ts";
import { claimCall } from "../src/calls/call-states.ts";
import { callerLinesFor } from "../src/calls/policy/lines.ts";
import { sweepCalls } from "../src/calls/sweeper.ts";
import { newAccount, type TestAccount } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import {
  createEngineDatabase,
  type EngineApp,
  startEngineApp,
  startSecondNode,
  waitForEnd,
} from "./engine-fixtures.ts";

const GATEWAY = "MA=+212522000001/2,MA=+212522000002/1,FR=+33100000000";

describe("caller numbers with a line count", () => {
  it("reads several numbers per country, each with an optional /N, and refuses a bad count", () => {
    const config = loadConfig({ DATABASE_URL: "postgresql://x@127.0.0.1/x", WAKHA_SIMULATOR_CALLER_IDS: GATEWAY });
    expect(config.WAKHA_SIMULATOR_CALLER_IDS).toEqual({
      MA: [
        { number: "+212522000001", lines: 2 },
        { number: "+212522000002", lines: 1 },
      ],
      FR: [{ number: "+33100000000", lines: null }],
    });
    expect(callerLinesFor(config, "gsm", "MA").map((l) => [l.key, l.lines])).toEqual([
      ["simulator:+212522000001", 2],
      ["simulator:+212522000002", 1],
    ]);
    expect(callerLinesFor(config, "gsm", "DZ")).toEqual([]); // no number for DZ, no default: the carrier decides
    for (const bad of ["MA=+212522000001/0", "MA=+212522000001/x", "MA=+212522000001/"]) {
      expect(() => loadConfig({ DATABASE_URL: "postgresql://x@127.0.0.1/x", WAKHA_JAMBONZ_CALLER_IDS: bad })).toThrow(
        /WAKHA_JAMBONZ_CALLER_IDS: .* is not a number of lines/,
      );
    }
    // The single-number form stays as it was.
    const single = loadConfig({ DATABASE_URL: "postgresql://x@127.0.0.1/x", WAKHA_TWILIO_CALLER_IDS: "+33100000000" });
    expect(single.WAKHA_TWILIO_CALLER_IDS).toEqual({ default: [{ number: "+33100000000", lines: null }] });
  });
});

describe("lines taken by the claim", () => {
  let db: Awaited<ReturnType<typeof createEngineDatabase>>;
  let t: EngineApp;
  let second: EngineApp;
  let acct: TestAccount;
  let shop: string;
  const env = { WAKHA_SIMULATOR_CALLER_IDS: GATEWAY };
  beforeAll(async () => {
    db = await createEngineDatabase();
    t = await startEngineApp({ databaseUrl: db.url, speed: 100, env });
    second = await startSecondNode(t, db.url, 100, { env });
    acct = await newAccount(t.ctx, 1_000_000);
    shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await db?.drop();
  });

  const create = async (phone = "+212612345601") => {
    const res = await postCall(
      t,
      acct,
      callBody(shop, {
        customer: { name: "Sara", phone_number: phone },
        order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00" }] },
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const busy = async () =>
    (
      await t.ctx.db.query<{ caller_line: string; n: number }>(
        "SELECT caller_line, count(*)::int AS n FROM calls WHERE ended_at IS NULL AND status <> 'queued' AND caller_line IS NOT NULL GROUP BY 1",
      )
    ).rows;

  it("gives each of concurrent claims its own line, never more than a number's count, and parks the rest for a line", async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => create()));
    const claimed = await Promise.all(ids.map((id) => claimCall(t.ctx, id)));
    const taken = claimed.filter((c) => c !== null);
    expect(taken.map((c) => c.callerNumber).sort()).toEqual(["+212522000001", "+212522000001", "+212522000002"]);
    expect(Object.fromEntries((await busy()).map((r) => [r.caller_line, r.n]))).toEqual({
      "simulator:+212522000001": 2,
      "simulator:+212522000002": 1,
    });
    const parked = await t.ctx.db.query<{ id: string; wait_lines: string[]; parked: boolean }>(
      "SELECT id, wait_lines, deferred_until = 'infinity' AS parked FROM calls WHERE id = ANY($1) AND status = 'queued'",
      [ids],
    );
    expect(parked.rows).toHaveLength(3);
    for (const p of parked.rows) {
      expect(p.wait_lines.sort()).toEqual(["simulator:+212522000001", "simulator:+212522000002"]);
      expect(p.parked).toBe(true); // no job, until a line frees
    }
    // Parking adds no job: nothing polls a parked call.
    const jobs = await t.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'place-call' AND data->>'call_id' = ANY($1::text[]) AND id::text <> data->>'call_id'",
      [parked.rows.map((p) => p.id)],
    );
    expect(jobs.rows[0]!.n).toBe(0);

    // A worker dies with a call on +212522000002: the sweep ends it and hands its line to the oldest parked call.
    const lost = taken.find((c) => c.callerNumber === "+212522000002")!;
    await t.ctx.db.query("UPDATE calls SET last_heartbeat_at = now() - interval '1 hour' WHERE id = $1", [lost.id]);
    expect((await sweepCalls(t.ctx)).ended).toBe(1);
    const oldest = (
      await t.ctx.db.query<{ id: string }>(
        "SELECT id FROM calls WHERE id = ANY($1) AND status = 'queued' ORDER BY seq LIMIT 1",
        [ids],
      )
    ).rows[0]!.id;
    const woken = await t.ctx.db.query<{ id: string }>(
      "SELECT id FROM calls WHERE id = ANY($1) AND status = 'queued' AND deferred_until < 'infinity'",
      [ids],
    );
    expect(woken.rows.map((r) => r.id)).toEqual([oldest]);
    const next = await claimCall(t.ctx, oldest);
    expect(next?.callerNumber).toBe("+212522000002");
    // The two others stay parked: every line is busy again.
    for (const p of parked.rows.filter((r) => r.id !== oldest)) expect(await claimCall(t.ctx, p.id)).toBeNull();
    await t.ctx.db.query(
      "UPDATE calls SET status = 'canceled', ended_at = now(), end_reason = 'canceled' WHERE id = ANY($1) AND ended_at IS NULL",
      [ids],
    );
  });

  it("under two worker nodes: no line ever over its count, every call dialled once from a line of its country, none lost", {
    timeout: 120_000,
  }, async () => {
    await t.startWorkers();
    await second.startWorkers();
    let sampling = true;
    const peaks = new Map<string, number>();
    const sampler = (async () => {
      while (sampling) {
        for (const r of await busy()) peaks.set(r.caller_line, Math.max(peaks.get(r.caller_line) ?? 0, r.n));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    // A burst: created together, three lines for Morocco; France's number has no limit.
    const ma = await Promise.all(
      Array.from({ length: 14 }, (_, i) => create(i % 2 ? "+212612345601" : "+212612345604")),
    );
    const frRes = await postCall(
      t,
      acct,
      callBody(shop, {
        country: "FR",
        customer: { name: "Julie", phone_number: "+33612345601" },
        amount: "20.00",
        order: { external_id: randomUUID(), items: [{ name: "Robe", unit_price: "20.00" }] },
      }),
    );
    expect(frRes.statusCode, frRes.body).toBe(201);
    const ids = [...ma, frRes.json().id as string];
    const ended = [];
    for (const id of ids) ended.push(await waitForEnd(t, acct, id, 100_000));
    sampling = false;
    await sampler;
    expect(ended.map((c) => c.status).sort()).toEqual([...Array(7).fill("busy"), ...Array(8).fill("completed")].sort());
    expect(peaks.get("simulator:+212522000001")).toBeLessThanOrEqual(2);
    expect(peaks.get("simulator:+212522000002") ?? 0).toBeLessThanOrEqual(1);
    const mine = t.dialled.filter((id) => ids.includes(id));
    expect(mine.sort()).toEqual([...ids].sort()); // each once, across both nodes
    for (const id of ma) expect(["+212522000001", "+212522000002"]).toContain(t.dialledFrom.get(id));
    expect(t.dialledFrom.get(ids.at(-1)!)).toBe("+33100000000");
    const waited = await t.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM calls WHERE id = ANY($1) AND deferrals > 0",
      [ma],
    );
    expect(waited.rows[0]!.n).toBeGreaterThan(0); // some waited for a line
    expect(t.errors).toEqual([]);
  });
});
