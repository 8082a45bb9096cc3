// Issue 20, finding 3: after `kill -9` of the worker placing a call, another worker node ends the call within the
// minute the README promises, billed for the seconds its last heartbeat saw connected (never 0 for a call that
// talked), and the call's hold on the balance is released.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Child, createAccountCli, startWakha, wakhaEnv } from "../../bench/processes.ts";

const databaseUrl = inject("databaseUrl");
const started: Child[] = [];
let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
});
afterAll(async () => {
  for (const child of started) await child.stop();
  await db.end();
});

async function start(command: "serve" | "worker", extra: Record<string, string> = {}) {
  const child = await startWakha(command, wakhaEnv(databaseUrl, extra));
  started.push(child);
  return child;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a worker killed mid-call (kill -9) with another worker running", () => {
  it("has its call ended within a minute, billed from the last heartbeat, and the hold released", {
    timeout: 150_000,
  }, async () => {
    const api = await start("serve", { WAKHA_ROLE: "api" });
    const account = await createAccountCli(databaseUrl, 1_000, "recovery");
    const headers = { authorization: `Bearer ${account.api_key}`, "content-type": "application/json" };
    const shop = `recovery-${Date.now()}`;
    expect(
      (
        await fetch(`${api.url}/v1/shops`, {
          method: "POST",
          headers,
          body: JSON.stringify({ external_id: shop, merchant_external_id: "m", name: "Recovery" }),
        })
      ).status,
    ).toBe(201);
    // Real-time simulator: the call lasts tens of seconds, long enough to kill its worker mid-call.
    const doomed = await start("worker", { WAKHA_SIMULATOR_SPEED: "1" });
    const res = await fetch(`${api.url}/v1/calls`, {
      method: "POST",
      headers: { ...headers, "idempotency-key": `recovery-${Date.now()}` },
      body: JSON.stringify({
        shop_external_id: shop,
        customer: { name: "Fatima", phone_number: "+212612345601" },
        amount: "100.00",
        country: "MA",
        order: { external_id: `o-${Date.now()}`, items: [{ name: "Caftan", unit_price: "100.00" }] },
      }),
    });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { id: string }).id;
    const row = async () =>
      (
        await db.query(
          "SELECT status, answered_seconds, held_seconds, ended_at, end_reason, billed_seconds, duration_seconds FROM calls WHERE id = $1",
          [id],
        )
      ).rows[0]!;
    const deadline = Date.now() + 60_000;
    while ((await row()).answered_seconds < 6) {
      if (Date.now() > deadline)
        throw new Error(`the call never got going: ${JSON.stringify(await row())}\n${doomed.output()}`);
      await sleep(100);
    }
    await doomed.kill9();
    const killedAt = Date.now();
    const lost = await row();
    expect(lost.ended_at).toBeNull();
    expect(lost.held_seconds).toBeGreaterThan(0);
    await start("worker");
    while ((await row()).ended_at === null && Date.now() - killedAt < 90_000) await sleep(250);
    const recoveredInMs = Date.now() - killedAt;
    const after = await row();
    expect(after).toMatchObject({ status: "failed", end_reason: "worker_lost" });
    expect(recoveredInMs).toBeLessThan(60_000);
    // Billed for what the last heartbeat saw connected: at least what it had seen when the worker was killed.
    expect(after.billed_seconds).toBeGreaterThanOrEqual(lost.answered_seconds);
    expect(after.billed_seconds).toBe(after.duration_seconds);
    const { rows } = await db.query<{ balance: number }>(
      "SELECT balance_seconds::int AS balance FROM accounts WHERE id = $1",
      [account.account_id],
    );
    expect(rows[0]!.balance).toBe(1_000 - after.billed_seconds);
    console.log(`recovered ${(recoveredInMs / 1000).toFixed(1)} s after kill -9, billed ${after.billed_seconds} s`);
  });
});
