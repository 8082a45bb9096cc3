// Issue 15: a concurrency cap per account. Calls over the cap wait (parked until a place frees) and none is lost or
// dialled twice, with two worker nodes on one queue, for calls created one by one and in a burst; the cap is set per
// account by `wakha accounts set`.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommandLine } from "../src/cli-args.ts";
import { setConcurrencyCap } from "../src/calls/policy/concurrency.ts";
import { newAccount } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import {
  createEngineDatabase,
  type EngineApp,
  startEngineApp,
  startSecondNode,
  waitForEnd,
} from "./engine-fixtures.ts";

describe("concurrency caps", () => {
  let db: Awaited<ReturnType<typeof createEngineDatabase>>;
  let t: EngineApp;
  let second: EngineApp;
  beforeAll(async () => {
    db = await createEngineDatabase();
    t = await startEngineApp({ databaseUrl: db.url, speed: 100 });
    second = await startSecondNode(t, db.url, 100);
    await t.startWorkers();
    await second.startWorkers();
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await db?.drop();
  });

  it("parses `wakha accounts set ACCOUNT_ID --max-concurrent-calls N`", () => {
    expect(parseCommandLine(["accounts", "set", "acc", "--max-concurrent-calls", "5"])).toMatchObject({
      kind: "run",
      command: "accounts set",
      positionals: ["acc"],
      values: { "max-concurrent-calls": "5" },
    });
    expect(() => parseCommandLine(["accounts", "set"])).toThrow(/missing argument/);
  });

  it("keeps at most N calls ringing or in progress, dials every call exactly once, and ends them all", {
    timeout: 90_000,
  }, async () => {
    const acct = await newAccount(t.ctx, 100_000);
    expect(await setConcurrencyCap(t.ctx.db, acct.accountId, 2)).toEqual({
      account_id: acct.accountId,
      max_concurrent_calls: 2,
    });
    const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await t.ctx.db.query<{ live: number }>(
          "SELECT count(*)::int AS live FROM calls WHERE account_id = $1 AND ended_at IS NULL AND status <> 'queued'",
          [acct.accountId],
        );
        peak = Math.max(peak, rows[0]!.live);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const create = async () => {
      const res = await postCall(
        t,
        acct,
        callBody(shop, {
          customer: { name: "Sara", phone_number: "+212612345601" },
          order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00" }] },
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await create());
    // Then a burst: 16 more created at once, while the first ones ring.
    ids.push(...(await Promise.all(Array.from({ length: 16 }, create))));
    const ended = [];
    for (const id of ids) ended.push(await waitForEnd(t, acct, id, 80_000));
    sampling = false;
    await sampler;
    expect(ended.map((c) => c.status)).toEqual(Array(24).fill("completed"));
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(2);
    const mine = t.dialled.filter((id) => ids.includes(id));
    expect(mine.sort()).toEqual([...ids].sort()); // each once, across both nodes
    const deferred = await t.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM calls WHERE account_id = $1 AND deferred_until IS NOT NULL",
      [acct.accountId],
    );
    expect(deferred.rows[0]!.n).toBeGreaterThan(0); // some waited
    expect(t.errors).toEqual([]);
  });

  it("uses the installation's default without an account cap (`default`)", async () => {
    const acct = await newAccount(t.ctx, 0);
    await setConcurrencyCap(t.ctx.db, acct.accountId, 3);
    expect(await setConcurrencyCap(t.ctx.db, acct.accountId, null)).toEqual({
      account_id: acct.accountId,
      max_concurrent_calls: null,
    });
    await expect(setConcurrencyCap(t.ctx.db, "nope", 3)).rejects.toThrow(/no account nope/);
    expect(t.ctx.config.WAKHA_MAX_CONCURRENT_CALLS).toBe(200);
  });
});
