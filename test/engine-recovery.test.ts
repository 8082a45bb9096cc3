// Crash recovery (issue 5): calls left ringing or in progress by a dead worker are ended by the sweep as
// failed (worker_lost), billed for the seconds last seen connected, exactly once; lost queued jobs come back.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOBS } from "../src/jobs/catalogue.ts";
import { recoveryClock, sweepCalls } from "../src/calls/sweeper.ts";
import { newAccount, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { createEngineDatabase, startAppOn } from "./engine-db.ts";

let db: Awaited<ReturnType<typeof createEngineDatabase>>;
let t: TestApp;

beforeAll(async () => {
  db = await createEngineDatabase();
  t = await startAppOn(db.url, {});
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

async function setup(balance: number): Promise<{ acct: TestAccount; create(): Promise<string> }> {
  const acct = await newAccount(t.ctx, balance);
  const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  await t.ctx.db.query(
    "INSERT INTO webhooks (id, account_id, url, secret_sealed) VALUES ($1, $2, 'https://hooks.example.test/w', 'sealed')",
    [randomUUID(), acct.accountId],
  );
  return {
    acct,
    async create() {
      const res = await postCall(t, acct, callBody(shop));
      return (res.json() as { id: string }).id;
    },
  };
}

/** What a worker killed mid-call leaves behind: a live status and a heartbeat that stopped `ago` seconds back. */
async function abandon(
  id: string,
  status: "ringing" | "in_progress",
  answeredSeconds: number | null,
  ago = 300,
): Promise<void> {
  await t.ctx.db.query(
    `UPDATE calls SET status = $2, answered_at = CASE WHEN $3::int IS NULL THEN NULL ELSE now() - make_interval(secs => $4 + $3) END,
       answered_seconds = $3, last_heartbeat_at = now() - make_interval(secs => $4) WHERE id = $1`,
    [id, status, answeredSeconds, ago],
  );
}

const row = async (id: string) => (await t.ctx.db.query("SELECT * FROM calls WHERE id = $1", [id])).rows[0]!;
const debits = async (id: string) =>
  (await t.ctx.db.query("SELECT seconds, balance_after FROM transactions WHERE call_id = $1 AND type = 'debit'", [id]))
    .rows;
const ended = async (id: string) =>
  (
    await t.ctx.db.query(
      "SELECT count(*)::int AS n FROM webhook_events WHERE type = 'call.ended' AND payload->>'id' = $1",
      [id],
    )
  ).rows[0]!.n as number;

describe("sweep of calls whose worker died", () => {
  it("runs on one clock: the production intervals at WAKHA_RECOVERY_TIME_SCALE=1, the same ratios on a faster one", async () => {
    expect(recoveryClock({ WAKHA_RECOVERY_TIME_SCALE: 1 })).toEqual({
      heartbeatMs: 5_000,
      staleAfterSeconds: 25,
      sweepEveryMs: 10_000,
      queuedGraceSeconds: 120,
      parkRecheckSeconds: 60,
    });
    expect(recoveryClock({ WAKHA_RECOVERY_TIME_SCALE: 5 })).toEqual({
      heartbeatMs: 1_000,
      staleAfterSeconds: 5,
      sweepEveryMs: 2_000,
      queuedGraceSeconds: 24,
      parkRecheckSeconds: 12,
    });
    // The README's minute: a lost call is ended by the first sweep after its heartbeat is stale.
    const clock = recoveryClock({ WAKHA_RECOVERY_TIME_SCALE: 1 });
    expect(clock.staleAfterSeconds + clock.sweepEveryMs / 1000).toBeLessThan(60);
    // A call whose heartbeat is 10 s old is alive on the production clock, lost on a 5x faster one.
    const { create } = await setup(1_000);
    const id = await create();
    await abandon(id, "in_progress", 12, 10);
    await sweepCalls(t.ctx);
    expect((await row(id)).ended_at).toBeNull();
    const scale = t.ctx.config.WAKHA_RECOVERY_TIME_SCALE;
    t.ctx.config.WAKHA_RECOVERY_TIME_SCALE = 5;
    try {
      await sweepCalls(t.ctx);
    } finally {
      t.ctx.config.WAKHA_RECOVERY_TIME_SCALE = scale;
    }
    // Issue 31.4: from the answer to the time of loss, the middle of the missed heartbeat interval (1 s here).
    expect(await row(id)).toMatchObject({ status: "failed", end_reason: "worker_lost", billed_seconds: 13 });
  });

  it("ends a stale in-progress call as failed, worker_lost, billed for the heartbeat's seconds, exactly once", async () => {
    const { acct, create } = await setup(1_000);
    const id = await create();
    await abandon(id, "in_progress", 37);
    await sweepCalls(t.ctx);
    const after = await row(id);
    // Issue 31.4: the heartbeat's 37 s and the line's life until it was lost, half a heartbeat interval (2.5 s) later.
    expect(after).toMatchObject({
      status: "failed",
      end_reason: "worker_lost",
      outcome: null,
      duration_seconds: 40,
      billed_seconds: 40,
    });
    expect(after.ended_at.getTime()).toBe(after.last_heartbeat_at.getTime() + 2_500); // lost between two heartbeats
    expect(await debits(id)).toEqual([{ seconds: -40, balance_after: 960 }]);
    expect(await ended(id)).toBe(1);
    // Again: nothing changes, nothing is billed twice.
    await sweepCalls(t.ctx);
    await sweepCalls(t.ctx);
    expect(await debits(id)).toHaveLength(1);
    expect(await ended(id)).toBe(1);
    const balance = await t.app.inject({ method: "GET", url: "/v1/me/balance", headers: acct.headers });
    expect(balance.json()).toMatchObject({ balance_seconds: 960 });
    const read = await t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: acct.headers });
    expect(read.json()).toMatchObject({
      status: "failed",
      end_reason: "worker_lost",
      billed_seconds: 40,
      recording_url: null,
    });
  });

  it("ends a stale ringing call unbilled, and caps a lost call's bill at the balance", async () => {
    const { create } = await setup(20);
    const ringing = await create();
    await abandon(ringing, "ringing", null);
    const long = await create();
    await abandon(long, "in_progress", 45);
    await sweepCalls(t.ctx);
    expect(await row(ringing)).toMatchObject({
      status: "failed",
      end_reason: "worker_lost",
      billed_seconds: 0,
      duration_seconds: 0,
    });
    expect(await debits(ringing)).toEqual([]);
    expect(await row(long)).toMatchObject({ status: "failed", billed_seconds: 20, duration_seconds: 48 });
    expect(await debits(long)).toEqual([{ seconds: -20, balance_after: 0 }]);
  });

  it("finishes a call the API canceled mid-call whose worker died: canceled, billed for its seconds", async () => {
    const { acct, create } = await setup(1_000);
    const id = await create();
    await abandon(id, "in_progress", 12, 0);
    await t.app.inject({ method: "POST", url: `/v1/calls/${id}/cancel`, headers: acct.headers });
    await t.ctx.db.query("UPDATE calls SET last_heartbeat_at = now() - interval '5 minutes' WHERE id = $1", [id]);
    await sweepCalls(t.ctx);
    expect(await row(id)).toMatchObject({ status: "canceled", end_reason: "canceled", billed_seconds: 12 });
    expect(await debits(id)).toHaveLength(1);
  });

  it("leaves live calls alone while their heartbeat is fresh", async () => {
    const { create } = await setup(1_000);
    const id = await create();
    await abandon(id, "in_progress", 20, 5);
    await sweepCalls(t.ctx);
    expect(await row(id)).toMatchObject({ status: "in_progress", ended_at: null, billed_seconds: null });
    expect(await debits(id)).toEqual([]);
  });
});

describe("sweep of queued calls whose job was lost", () => {
  const jobState = async (id: string) =>
    (await t.ctx.db.query("SELECT state FROM pgboss.job WHERE name = $1 AND id = $2", [JOBS.placeCall.name, id]))
      .rows[0]?.state as string | undefined;

  it("puts back a failed or missing place-call job under the call's id, and leaves fresh or canceled calls alone", async () => {
    const { acct, create } = await setup(1_000);
    const failed = await create();
    const missing = await create();
    const fresh = await create();
    const canceled = await create();
    await t.app.inject({ method: "POST", url: `/v1/calls/${canceled}/cancel`, headers: acct.headers });
    await t.ctx.db.query("UPDATE calls SET created_at = now() - interval '10 minutes' WHERE id = ANY($1)", [
      [failed, missing, canceled],
    ]);
    await t.ctx.db.query("UPDATE pgboss.job SET state = 'failed' WHERE name = $1 AND id = $2", [
      JOBS.placeCall.name,
      failed,
    ]);
    await t.ctx.db.query("DELETE FROM pgboss.job WHERE name = $1 AND id = $2", [JOBS.placeCall.name, missing]);
    const report = await sweepCalls(t.ctx);
    expect(report.requeued).toBeGreaterThanOrEqual(2);
    expect(["retry", "created"]).toContain(await jobState(failed));
    expect(await jobState(missing)).toBe("created");
    expect(await jobState(fresh)).toBe("created");
    expect(await jobState(canceled)).toBe("cancelled");
    expect((await sweepCalls(t.ctx)).requeued).toBe(0);
  });
});

describe("a `wakha worker` killed mid-call (kill -9)", () => {
  it("leaves a call the sweep ends as failed, billed from its answer to the time of loss", {
    timeout: 90_000,
  }, async () => {
    const { acct, create } = await setup(1_000);
    const id = await create();
    const dataDir = await mkdtemp(path.join(tmpdir(), "wakha-kill-"));
    await chmod(dataDir, 0o755);
    const bin = fileURLToPath(new URL("../bin/wakha.js", import.meta.url));
    const child = spawn(process.execPath, [bin, "worker"], {
      env: {
        PATH: process.env["PATH"] ?? "",
        DATABASE_URL: db.url,
        WAKHA_DATA_DIR: dataDir,
        WAKHA_SIMULATOR_SPEED: "2",
        LOG_LEVEL: "silent",
        WAKHA_CALLING_HOURS: "off",
        WAKHA_BASE_URL: "https://api.example.test",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      // In progress, with a few connected seconds recorded by a heartbeat.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const r = await row(id);
        if (r.status === "in_progress" && r.answered_seconds >= 3) break;
        if (r.ended_at || Date.now() > deadline)
          throw new Error(`no live call to kill: ${r.status} ${r.answered_seconds} ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      child.kill("SIGKILL");
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
    const lost = await row(id);
    expect(lost).toMatchObject({ status: "in_progress", ended_at: null });
    // The next sweep after the heartbeat went stale (here: 1 s instead of 60).
    await new Promise((r) => setTimeout(r, 1_200));
    await sweepCalls(t.ctx, 1);
    const after = await row(id);
    expect(after).toMatchObject({
      status: "failed",
      end_reason: "worker_lost",
      duration_seconds: after.billed_seconds,
    });
    // Issue 31.4: the seconds the heartbeat saw, or the answer to the time of loss (half a heartbeat past the last), if more.
    const toLoss = (lost.last_heartbeat_at.getTime() - lost.answered_at.getTime()) / 1000 + 2.5;
    expect(after.billed_seconds).toBeGreaterThanOrEqual(Math.max(lost.answered_seconds, Math.ceil(toLoss) - 1));
    expect(after.billed_seconds).toBeLessThanOrEqual(Math.max(lost.answered_seconds, Math.ceil(toLoss)));
    expect(await debits(id)).toEqual([{ seconds: -after.billed_seconds, balance_after: 1_000 - after.billed_seconds }]);
    expect(await ended(id)).toBe(1);
    const read = await t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: acct.headers });
    expect(read.json()).toMatchObject({ status: "failed", end_reason: "worker_lost" });
  });
});
