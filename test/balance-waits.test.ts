// Issue 31.3: calls never fail while balance is free. An account with 100 s placing 60 calls: a call that cannot get
// a hold because the account's live calls hold the balance waits (CallOut.waiting_reason `balance_held`) and is
// dialled when a hold frees; `insufficient_balance` only once nothing is held and the free balance is under 10 s.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../src/console/helpers.ts";
import { readCallOut } from "../src/calls/read-model.ts";
import { newAccount } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import {
  balanceOf,
  createEngineDatabase,
  debitsOf,
  type EngineApp,
  getCallOut,
  startEngineApp,
  waitForEnd,
} from "./engine-fixtures.ts";

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let t: EngineApp;

beforeAll(async () => {
  db = await createEngineDatabase();
  t = await startEngineApp({ databaseUrl: db.url, speed: 200 });
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

describe("calls wait for held balance (issue 31.3)", () => {
  it("100 s and 60 calls: none fails while balance is free; the waiting ones say why", async () => {
    const acct = await newAccount(t.ctx, 100);
    const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await postCall(
        t,
        acct,
        callBody(shop, {
          customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
          order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00" }] },
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      ids.push((res.json() as { id: string }).id);
    }
    // The workers start once all 60 exist: creation's own gate (402 under 10 s, spec 2.10) is not what is tested here,
    // and on a loaded machine the first calls could otherwise spend the balance before the last were created.
    await t.startWorkers();
    // While the first calls hold the balance, the others wait, and say so.
    let seen = false;
    for (let i = 0; i < 200 && !seen; i++) {
      for (const id of ids.slice(-10))
        if ((await getCallOut(t, acct, id)).waiting_reason === "balance_held") seen = true;
      if (!seen) await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen).toBe(true);
    const ended = await Promise.all(ids.map((id) => waitForEnd(t, acct, id, 120_000)));
    const refused = ended.filter((c) => c.end_reason === "insufficient_balance");
    const dialled = ended.filter((c) => c.end_reason !== "insufficient_balance");
    const balance = await balanceOf(t.ctx, acct.accountId);
    // More than the first two ran: each waited for a hold to free.
    expect(dialled.length).toBeGreaterThan(2);
    // A call was refused only once nothing was held and the free balance was under the minimum: after every dialled
    // call ended, and with under 10 s left.
    const lastDialledEnd = Math.max(...dialled.map((c) => Date.parse(c.ended_at!)));
    for (const call of refused) {
      expect(call.answered_at).toBeNull();
      expect(Date.parse(call.ended_at!)).toBeGreaterThanOrEqual(lastDialledEnd);
    }
    if (refused.length > 0) expect(balance).toBeLessThan(10);
    // The money: billed exactly what was spent, never below zero, one debit per billed call.
    const debits = await debitsOf(t.ctx, acct.accountId);
    const billed = ended.reduce((sum, c) => sum + (c.billed_seconds ?? 0), 0);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(billed).toBe(100 - balance);
    for (const call of ended) expect(debits.get(call.id)?.seconds ?? 0).toBe(call.billed_seconds);
    for (const call of ended) expect(call.waiting_reason).toBeNull();
    expect(t.errors).toEqual([]);
  }, 180_000);

  it("the API and the console say why a queued call waits", async () => {
    const acct = await newAccount(t.ctx, 100);
    const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await postCall(
        t,
        acct,
        callBody(shop, {
          order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00" }] },
          scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      ids.push((res.json() as { id: string }).id);
    }
    // Parked as the scheduler parks them: for the account's place, for a line, for balance.
    const parks: [string, string | null, string][] = [
      [ids[0]!, null, "concurrency_cap"],
      [ids[1]!, "{simulator:+212522000000}", "caller_line_busy"],
      [ids[2]!, "{balance}", "balance_held"],
    ];
    // Read inside the transaction that parks them (rolled back), out of the running dispatcher's reach.
    const client = await t.ctx.db.pool.connect();
    try {
      await client.query("BEGIN");
      for (const [id, lines] of parks)
        await client.query(
          "UPDATE calls SET scheduled_at = NULL, deferred_until = 'infinity', wait_lines = $2::text[] WHERE id = $1",
          [id, lines],
        );
      for (const [id, , reason] of parks)
        expect((await readCallOut(client, t.ctx.config.baseUrl, acct.accountId, id))?.waiting_reason).toBe(reason);
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
    // A line no node limits: the dispatcher leaves it parked, for the console to show.
    await t.ctx.db.query(
      "UPDATE calls SET scheduled_at = NULL, deferred_until = 'infinity', wait_lines = '{simulator:+212522000000}' WHERE id = $1",
      [ids[1]],
    );
    const page = await t.app.inject({ method: "GET", url: "/console/sign-in" });
    const csrf = [...page.body.matchAll(/name="_csrf" value="([^"]+)"/g)].at(-1)![1]!;
    const cookies = (page.cookies as { name: string; value: string }[]).map((c) => `${c.name}=${c.value}`).join("; ");
    const signIn = await t.app.inject({
      method: "POST",
      url: "/console/sign-in",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies },
      payload: new URLSearchParams({ _csrf: csrf, api_key: acct.apiKey, next: "/console/calls" }).toString(),
    });
    const session = (signIn.cookies as { name: string; value: string }[]).find((c) => c.name === SESSION_COOKIE)!;
    const detail = await t.app.inject({
      method: "GET",
      url: `/console/calls/${ids[1]}`,
      headers: { cookie: `${cookies}; ${SESSION_COOKIE}=${session.value}`, "accept-language": "en" },
    });
    expect(detail.body).toContain('class="waiting-reason"');
    // Out of the scheduler's way again: these calls are not for this test to place.
    await t.ctx.db.query(
      "UPDATE calls SET status = 'canceled', ended_at = now(), end_reason = 'canceled', deferred_until = NULL, wait_lines = NULL WHERE id = ANY($1::uuid[])",
      [ids],
    );
  });
});
