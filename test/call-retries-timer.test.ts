// Issue 15's "Done when": retries firing on schedule once each, under two worker nodes and a restart. Unlike
// call-retries.test.ts (the scheduling decision), these retries are made by the engine's own end of the call and
// fired by pg-boss's own timer (the job's start_after) on real workers. The app runs on a fake clock 52 s behind the
// database's, so a retry due one minute after its call ended (the smallest delay) falls due 8 s later in real time.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Workers } from "../src/jobs/runtime.ts";
import type { Root } from "../src/root/root.ts";
import { newAccount, type TestAccount } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { createEngineDatabase, type EngineApp, startEngineApp, startSecondNode } from "./engine-fixtures.ts";

const LAG_MS = 60_000 - 8_000;
const now = () => Date.now() - LAG_MS;

describe("automatic retries fired by the queue's timer (two worker nodes, a restart)", () => {
  let db: Awaited<ReturnType<typeof createEngineDatabase>>;
  let t: EngineApp;
  let second: EngineApp | null;
  let third: EngineApp | null = null;
  let acct: TestAccount;
  let shop: string;
  let firstWorkers: Workers<Root>;
  beforeAll(async () => {
    db = await createEngineDatabase();
    t = await startEngineApp({ databaseUrl: db.url, speed: 100, now });
    second = await startSecondNode(t, db.url, 100, { now });
    acct = await newAccount(t.ctx, 1_000_000);
    shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    // An active webhook, so events are recorded.
    await t.ctx.db.query(
      "INSERT INTO webhooks (id, account_id, url, secret_sealed) VALUES ($1, $2, 'https://hooks.example.test/w', 'sealed')",
      [randomUUID(), acct.accountId],
    );
    firstWorkers = await t.startWorkers();
    await second!.startWorkers();
  });
  afterAll(async () => {
    await third?.close();
    await second?.close();
    await t?.close();
    await db?.drop();
  });

  interface Attempt {
    id: string;
    order_external_id: string;
    previous_attempts: number;
    retry_of: string | null;
    status: string;
    ended: boolean;
    scheduled_at: Date | null;
    dialed_at: Date | null;
  }
  const attempts = async (orders: string[]) =>
    (
      await t.ctx.db.query<Attempt>(
        `SELECT id, order_external_id, previous_attempts, retry_of, status, ended_at IS NOT NULL AS ended, scheduled_at, dialed_at
     FROM calls WHERE account_id = $1 AND order_external_id = ANY($2) ORDER BY order_external_id, previous_attempts`,
        [acct.accountId, orders],
      )
    ).rows;
  const until = async (what: string, done: () => Promise<boolean>, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}: ${JSON.stringify(await t.ctx.db.query("SELECT previous_attempts, status, end_reason, deferred_until::text, dialed_at FROM calls").then((r) => r.rows))} ${t.errors.join("\n")}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it("makes each retry once, rings it no earlier than its scheduled_at, and stops after max_attempts", {
    timeout: 150_000,
  }, async () => {
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/me/retry-policy",
      headers: acct.headers,
      payload: { enabled: true, on: ["no_answer", "busy"], max_attempts: 3, delays_minutes: [1] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const orders: string[] = [];
    for (const phone of ["+212612345603", "+212612345604", "+212612345603", "+212612345604"]) {
      const order = `o-${randomUUID()}`;
      const res = await postCall(
        t,
        acct,
        callBody(shop, {
          customer: { name: "Sara", phone_number: phone },
          order: { external_id: order, items: [{ name: "Caftan", unit_price: "249.00" }] },
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      orders.push(order);
    }
    // The first attempts end (no answer, busy) and their retries wait for the queue's timer...
    await until(
      "the first retries",
      async () => (await attempts(orders)).filter((a) => a.previous_attempts === 1).length === 4,
    );
    const waiting = (await attempts(orders)).filter((a) => a.previous_attempts === 1);
    expect(waiting.every((a) => a.status === "queued" && a.scheduled_at !== null)).toBe(true);
    // ...while the nodes restart: one stops for good, another starts, the first one's workers stop and start again.
    await second!.close();
    second = null;
    await firstWorkers.stop();
    third = await startSecondNode(t, db.url, 100, { now });
    await third.startWorkers();
    firstWorkers = await t.startWorkers();

    await until("every attempt of every order", async () => {
      const all = await attempts(orders);
      return all.length === 12 && all.every((a) => a.ended);
    });
    await new Promise((r) => setTimeout(r, 300)); // nothing more comes: the chains ended at max_attempts
    const all = await attempts(orders);
    expect(all).toHaveLength(12);
    for (const order of orders) {
      const chain = all.filter((a) => a.order_external_id === order);
      expect(chain.map((a) => a.previous_attempts)).toEqual([0, 1, 2]);
      expect(chain[1]!.retry_of).toBe(chain[0]!.id);
      expect(chain[2]!.retry_of).toBe(chain[1]!.id);
      expect(new Set(chain.map((a) => a.status)).size).toBe(1); // the same customer behaviour each time
      for (const retry of chain.slice(1)) {
        // Fired by the timer, not before its time: dialled at or after scheduled_at (both on the database's clock).
        expect(retry.dialed_at!.getTime()).toBeGreaterThanOrEqual(retry.scheduled_at!.getTime());
      }
    }
    // Each attempt dialled exactly once across the three nodes, and announced once.
    const ids = all.map((a) => a.id);
    expect(t.dialled.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    const announced = await t.ctx.db.query<{ id: string }>(
      "SELECT payload->>'id' AS id FROM webhook_events WHERE account_id = $1 AND type = 'call.retry_scheduled'",
      [acct.accountId],
    );
    expect(announced.rows.map((r) => r.id).sort()).toEqual(
      all
        .filter((a) => a.previous_attempts > 0)
        .map((a) => a.id)
        .sort(),
    );
    expect(t.errors).toEqual([]);
  });
});
