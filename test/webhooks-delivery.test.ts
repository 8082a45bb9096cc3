import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createWorkers, JOB_HANDLERS, jobsForRole } from "../src/root/job-handlers.ts";
import { JOBS } from "../src/jobs/catalogue.ts";
import { attemptDeliveries, requeueStuckDeliveries } from "../src/webhooks/delivery.ts";
import type { Workers } from "../src/jobs/runtime.ts";
import type { Root } from "../src/root/root.ts";
import type { AppContext } from "../src/context.ts";
import { emitEvent } from "../src/webhooks/events.ts";
import { verifyWebhook } from "../src/webhooks/signature.ts";
import { newAccount, problem, startApp, testDatabaseUrl, type TestAccount, type TestApp } from "./helpers.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

// Attempt 1, then retries 1 s and 2 s later: three attempts in all.
const ENV = { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on", WAKHA_WEBHOOK_RETRY_SCHEDULE: "1s,2s" };

interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
  event_id: string;
  last_status_code: number | null;
  last_error: string | null;
}

async function deliveryOf(ctx: AppContext, eventId: string): Promise<DeliveryRow> {
  const { rows } = await ctx.db.query<DeliveryRow>(
    "SELECT id, status, attempts, event_id, last_status_code, last_error FROM webhook_deliveries WHERE event_id = $1",
    [eventId],
  );
  return rows[0]!;
}

async function settled(ctx: AppContext, eventId: string, timeoutMs = 20_000): Promise<DeliveryRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await deliveryOf(ctx, eventId);
    if (row.status !== "pending") return row;
    if (Date.now() > deadline)
      throw new Error(`delivery still pending after ${row.attempts} attempts: ${row.last_error}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("webhook delivery (issue 6.3): signed, retried on the schedule, dead-lettered, guarded", () => {
  let t: TestApp;
  let workers: Workers<Root>;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startApp({ env: ENV });
    workers = createWorkers(t.ctx, () => {});
    await workers.start(["deliverWebhook"]);
    receiver = await startReceiver();
  });
  afterEach(() => {
    receiver.respond = () => ({ status: 200, body: "ok" });
  });
  afterAll(async () => {
    await workers.stop();
    await receiver.close();
    await t.close();
  });

  async function withWebhook(path = "/hooks/wakha"): Promise<TestAccount & { secret: string }> {
    const a = await newAccount(t.ctx);
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/me/webhooks",
      headers: a.headers,
      payload: { url: `http://127.0.0.1:${receiver.port}${path}` },
    });
    expect(res.statusCode).toBe(201);
    return { ...a, secret: res.json().secret };
  }

  const emit = (a: TestAccount, data: object = { call_id: randomUUID(), status: "completed" }) =>
    t.ctx.db.tx((client) => emitEvent(t.ctx, client, a.accountId, "call.ended", data));

  it("puts back the job of a delivery left pending without one, and delivers it once", async () => {
    const a = await withWebhook("/stuck");
    const eventId = await t.ctx.db.tx(async (client) => {
      const id = await emitEvent(t.ctx, client, a.accountId, "call.ended", {
        call_id: randomUUID(),
        status: "completed",
      });
      // The job is lost (as when pg-boss gives up on a crashing attempt) and the delivery is long overdue.
      const lost = await client.query(
        `DELETE FROM pgboss.job WHERE name = $1 AND data->>'delivery_id' = (SELECT id::text FROM webhook_deliveries WHERE event_id = $2)`,
        [JOBS.deliverWebhook.name, id],
      );
      expect(lost.rowCount).toBe(1);
      await client.query(
        "UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 hour' WHERE event_id = $1",
        [id],
      );
      return id!;
    });
    expect(await requeueStuckDeliveries(t.ctx)).toBeGreaterThanOrEqual(1);
    const { rows } = await t.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1 AND next_attempt_at < now() - interval '30 minutes'",
      [eventId],
    );
    expect(rows[0]!.n).toBe(0); // not picked again by the next sweep
    expect(await settled(t.ctx, eventId)).toMatchObject({ status: "delivered", attempts: 1 });
    expect(receiver.requests.filter((r) => r.headers["x-service-event-id"] === eventId)).toHaveLength(1);
  });

  it("is one of the workers a node runs (JOB_HANDLERS), settling batches of 100 at once", () => {
    expect(jobsForRole("worker")).toContain("deliverWebhook");
    expect(JOB_HANDLERS.deliverWebhook.batchSize).toBe(100);
    expect(JOB_HANDLERS.deliverWebhook.handleBatch).toBeTypeOf("function");
  });

  it("settles a batch of mixed attempts (delivered, retried, spent, stale, duplicate) as it would one by one", async () => {
    // Deliveries made by hand with their jobs deleted, so only this call attempts them.
    const a = await withWebhook("/batch");
    const make = async (n: number) => {
      const eventId = await t.ctx.db.tx(async (client) => {
        const id = await emitEvent(t.ctx, client, a.accountId, "call.ended", { call_id: randomUUID(), n });
        await client.query(
          `DELETE FROM pgboss.job WHERE name = $1 AND data->>'delivery_id' = (SELECT id::text FROM webhook_deliveries WHERE event_id = $2)`,
          [JOBS.deliverWebhook.name, id],
        );
        return id!;
      });
      return { eventId, deliveryId: (await deliveryOf(t.ctx, eventId)).id };
    };
    const ok = await make(1);
    const retry = await make(2);
    const spent = await make(3);
    await t.ctx.db.query("UPDATE webhook_deliveries SET attempts = 2 WHERE id = $1", [spent.deliveryId]); // its last attempt is 3
    receiver.respond = (req) =>
      req.path === "/batch" && JSON.parse(req.body).data.n !== 1
        ? { status: 502, body: "bad gateway" }
        : { status: 200, body: "ok" };
    const outcomes = await attemptDeliveries(t.ctx, [
      { deliveryId: ok.deliveryId, attempt: 1 },
      { deliveryId: retry.deliveryId, attempt: 1 },
      { deliveryId: spent.deliveryId, attempt: 3 },
      { deliveryId: ok.deliveryId, attempt: 1 }, // the same due attempt twice in one batch: sent once
      { deliveryId: retry.deliveryId, attempt: 5 }, // not the due attempt
      { deliveryId: randomUUID(), attempt: 1 }, // no such delivery
    ]);
    expect(outcomes).toEqual(["delivered", "retrying", "failed", "stale", "stale", "stale"]);
    expect(receiver.requests.filter((r) => r.headers["x-service-event-id"] === ok.eventId)).toHaveLength(1);
    for (const r of receiver.requests.filter((x) => x.path === "/batch"))
      expect(verifyWebhook(a.secret, r.headers["x-service-signature"] as string, r.body)).toBe(true);
    expect(await deliveryOf(t.ctx, ok.eventId)).toMatchObject({
      status: "delivered",
      attempts: 1,
      last_status_code: 200,
      last_error: null,
    });
    expect(await deliveryOf(t.ctx, retry.eventId)).toMatchObject({
      status: "pending",
      attempts: 1,
      last_status_code: 502,
    });
    expect(await deliveryOf(t.ctx, spent.eventId)).toMatchObject({
      status: "failed",
      attempts: 3,
      last_error: "the receiver answered 502",
    });
    const { rows: attempts } = await t.ctx.db.query<{ delivery_id: string; attempt: number; status_code: number }>(
      "SELECT delivery_id, attempt, status_code FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY status_code, attempt",
      [[ok.deliveryId, retry.deliveryId, spent.deliveryId]],
    );
    expect(attempts).toEqual([
      { delivery_id: ok.deliveryId, attempt: 1, status_code: 200 },
      { delivery_id: retry.deliveryId, attempt: 1, status_code: 502 },
      { delivery_id: spent.deliveryId, attempt: 3, status_code: 502 },
    ]);
    // The retry's next job was queued with it (attempt 2), and the settled ones got none.
    const { rows: jobs } = await t.ctx.db.query<{ data: { delivery_id: string; attempt: number } }>(
      "SELECT data FROM pgboss.job WHERE name = $1 AND data->>'delivery_id' = ANY($2::text[])",
      [JOBS.deliverWebhook.name, [ok.deliveryId, retry.deliveryId, spent.deliveryId]],
    );
    expect(jobs.map((j) => j.data)).toEqual([{ delivery_id: retry.deliveryId, attempt: 2 }]);
    // Run again, the batch finds nothing due (at least once, never twice for a recorded attempt).
    expect(
      await attemptDeliveries(t.ctx, [
        { deliveryId: ok.deliveryId, attempt: 1 },
        { deliveryId: spent.deliveryId, attempt: 3 },
      ]),
    ).toEqual(["stale", "stale"]);
  });

  it("delivers an event emitted in a transaction through the queue, signed over the exact body", async () => {
    const a = await withWebhook("/ok");
    const data = { call_id: randomUUID(), status: "completed", note: "ça marche – مرحبا", nested: { z: 1, a: [2, 3] } };
    const eventId = await emit(a, data);
    expect(eventId).toMatch(/^evt_[0-9a-f]{24}$/);
    expect((await settled(t.ctx, eventId!)).status).toBe("delivered");
    const got = receiver.requests.find((r) => r.headers["x-service-event-id"] === eventId)!;
    expect(got.path).toBe("/ok");
    expect(got.headers["x-service-event-type"]).toBe("call.ended");
    expect(verifyWebhook(a.secret, got.headers["x-service-signature"] as string, got.body)).toBe(true);
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ id: eventId, type: "call.ended", api_version: "1", data });
    // The stored `data` keeps its key order (json, not jsonb).
    expect(got.body).toContain(JSON.stringify(data));
  });

  it("returns null and writes nothing when the account has no webhook", async () => {
    const a = await newAccount(t.ctx);
    expect(await emit(a)).toBeNull();
    const { rows } = await t.ctx.db.query("SELECT count(*)::int AS n FROM webhook_events WHERE account_id = $1", [
      a.accountId,
    ]);
    expect(rows[0]!.n).toBe(0);
  });

  it("leaves no event, delivery or job when the emitting transaction rolls back", async () => {
    const a = await withWebhook();
    let seen: { eventId: string | null; deliveryId: string } | undefined;
    await expect(
      t.ctx.db.tx(async (client) => {
        const eventId = await emitEvent(t.ctx, client, a.accountId, "call.answered", { call_id: randomUUID() });
        const { rows } = await client.query<{ id: string }>("SELECT id FROM webhook_deliveries WHERE event_id = $1", [
          eventId,
        ]);
        const { rows: jobs } = await client.query(
          "SELECT id FROM pgboss.job WHERE name = $1 AND data->>'delivery_id' = $2",
          [JOBS.deliverWebhook.name, rows[0]!.id],
        );
        expect(jobs).toHaveLength(1);
        seen = { eventId, deliveryId: rows[0]!.id };
        throw new Error("the call's update failed");
      }),
    ).rejects.toThrow("the call's update failed");
    expect(seen?.eventId).toMatch(/^evt_/);
    const counts = await t.ctx.db.query<{ e: number; d: number; j: number }>(
      `SELECT (SELECT count(*)::int FROM webhook_events WHERE account_id = $1) AS e,
              (SELECT count(*)::int FROM webhook_deliveries WHERE account_id = $1) AS d,
              (SELECT count(*)::int FROM pgboss.job WHERE data->>'delivery_id' = $2) AS j`,
      [a.accountId, seen!.deliveryId],
    );
    expect(counts.rows[0]).toEqual({ e: 0, d: 0, j: 0 });
  });

  it("retries on the schedule with the same event id and body, then delivers", async () => {
    const a = await withWebhook("/flaky");
    let n = 0;
    receiver.respond = (req) =>
      req.path === "/flaky" && ++n <= 2 ? { status: 500, body: "down for maintenance" } : { status: 200, body: "ok" };
    const started = Date.now();
    const eventId = await emit(a);
    const row = await settled(t.ctx, eventId!);
    expect(row).toMatchObject({ status: "delivered", attempts: 3, last_status_code: 200, last_error: null });
    // 1 s then 2 s between attempts (pg-boss schedules to the second).
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
    const got = receiver.requests.filter((r) => r.path === "/flaky");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers["x-service-event-id"]))).toEqual(new Set([eventId]));
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    for (const r of got) expect(verifyWebhook(a.secret, r.headers["x-service-signature"] as string, r.body)).toBe(true);
    const { rows: attempts } = await t.ctx.db.query(
      "SELECT attempt, status_code, response_excerpt FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt",
      [row.id],
    );
    expect(attempts).toEqual([
      { attempt: 1, status_code: 500, response_excerpt: "down for maintenance" },
      { attempt: 2, status_code: 500, response_excerpt: "down for maintenance" },
      { attempt: 3, status_code: 200, response_excerpt: "ok" },
    ]);
  });

  it("ends failed once the schedule is spent, listed with status=failed (the dead-letter queue)", async () => {
    const a = await withWebhook("/dead");
    receiver.respond = (req) => (req.path === "/dead" ? { status: 503, body: "x".repeat(5000) } : { status: 200 });
    const eventId = await emit(a);
    const row = await settled(t.ctx, eventId!);
    expect(row).toMatchObject({
      status: "failed",
      attempts: 3,
      last_status_code: 503,
      last_error: "the receiver answered 503",
    });
    const list = await t.app.inject({
      method: "GET",
      url: "/v1/me/webhooks/deliveries?status=failed",
      headers: a.headers,
    });
    expect(list.statusCode).toBe(200);
    const [failed] = list.json().data;
    expect(failed).toMatchObject({
      event_id: eventId,
      status: "failed",
      attempts: 3,
      next_attempt_at: null,
      last_status_code: 503,
    });
    expect(failed.failed_at).toBeTruthy();
    expect(failed.last_response_excerpt).toHaveLength(1024);
    expect(
      (
        await t.app.inject({ method: "GET", url: "/v1/me/webhooks/deliveries?status=pending", headers: a.headers })
      ).json().data,
    ).toEqual([]);
    expect(receiver.requests.filter((r) => r.path === "/dead")).toHaveLength(3);
  });

  it("disables the webhook when the receiver answers 410, failing that delivery and the other pending ones", async () => {
    const a = await withWebhook("/gone");
    // The receiver first fails an earlier event (left pending for its retry), then answers 410.
    receiver.respond = (req) =>
      req.path !== "/gone"
        ? { status: 200 }
        : req.headers["x-service-event-type"] === "call.answered"
          ? { status: 500 }
          : { status: 410, body: "gone" };
    const earlier = await t.ctx.db.tx((client) =>
      emitEvent(t.ctx, client, a.accountId, "call.answered", { call_id: randomUUID() }),
    );
    while ((await deliveryOf(t.ctx, earlier!)).attempts < 1) await new Promise((r) => setTimeout(r, 50));
    expect((await deliveryOf(t.ctx, earlier!)).status).toBe("pending");

    const eventId = await emit(a);
    const row = await settled(t.ctx, eventId!);
    expect(row).toMatchObject({
      status: "failed",
      attempts: 1,
      last_status_code: 410,
      last_error: "the receiver answered 410 Gone: the webhook is now disabled",
    });
    expect(await deliveryOf(t.ctx, earlier!)).toMatchObject({
      status: "failed",
      attempts: 1,
      last_error: "the webhook was disabled (410 Gone) before this delivery succeeded",
    });
    const res = problem(
      await t.app.inject({ method: "GET", url: "/v1/me/webhooks", headers: a.headers }),
      "webhook_not_configured",
      404,
    );
    expect(res["detail"]).toMatch(/disabled.*410/);
    expect(await emit(a)).toBeNull();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.requests.filter((r) => r.path === "/gone")).toHaveLength(2);
    // A new webhook can be configured after that.
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/v1/me/webhooks",
          headers: a.headers,
          payload: { url: receiver.url },
        })
      ).statusCode,
    ).toBe(201);
  });

  it("never follows a redirect: a 3xx is a failed attempt", async () => {
    const a = await withWebhook("/moved");
    receiver.respond = (req) =>
      req.path === "/moved"
        ? { status: 302, headers: { location: `http://127.0.0.1:${receiver.port}/elsewhere` } }
        : { status: 200 };
    const res = await t.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: a.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "pending", attempts: 1, last_status_code: 302 });
    expect(res.json().last_error).toMatch(/^redirect not followed/);
    expect(res.json().next_attempt_at).toBeTruthy();
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.requests.filter((r) => r.path === "/elsewhere")).toHaveLength(0);
  });

  it("fails the pending deliveries of a deleted webhook at once, and a late job sends nothing", async () => {
    const a = await withWebhook("/deleted");
    receiver.respond = (req) => (req.path === "/deleted" ? { status: 500 } : { status: 200 });
    const eventId = await emit(a);
    while ((await deliveryOf(t.ctx, eventId!)).attempts < 1) await new Promise((r) => setTimeout(r, 50));
    expect((await t.app.inject({ method: "DELETE", url: "/v1/me/webhooks", headers: a.headers })).statusCode).toBe(204);
    const row = await deliveryOf(t.ctx, eventId!);
    expect(row).toMatchObject({
      status: "failed",
      attempts: 1,
      last_error: "the webhook was deleted before this delivery succeeded",
    });
    await new Promise((r) => setTimeout(r, 2_000));
    expect(receiver.requests.filter((r) => r.path === "/deleted")).toHaveLength(1);
    expect(
      (
        await t.app.inject({ method: "GET", url: "/v1/me/webhooks/deliveries?status=failed", headers: a.headers })
      ).json().data,
    ).toHaveLength(1);
  });

  it("delivers what a process committed just before it was killed (SIGKILL), from another node's workers", async () => {
    const a = await withWebhook("/killed");
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL("./fixtures/emit-and-die.ts", import.meta.url)), testDatabaseUrl(), a.accountId],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const signal = await new Promise((resolve) => child.on("exit", (_code, sig) => resolve(sig)));
    expect(signal).toBe("SIGKILL");
    const eventId = out.trim();
    expect(eventId).toMatch(/^evt_[0-9a-f]{24}$/);
    expect((await settled(t.ctx, eventId)).status).toBe("delivered");
    const got = receiver.requests.filter((r) => r.path === "/killed");
    expect(got.map((r) => r.headers["x-service-event-id"])).toEqual([eventId]);
    expect(verifyWebhook(a.secret, got[0]!.headers["x-service-signature"] as string, got[0]!.body)).toBe(true);
  }, 30_000);
});

describe("the address is checked again at every attempt (DNS rebinding)", () => {
  let strict: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    strict = await startApp({ env: { WAKHA_WEBHOOK_RETRY_SCHEDULE: "1h" } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await strict.close();
  });

  // The webhook as it was saved when its name still resolved to a public address.
  async function savedWebhook(url: string): Promise<TestAccount> {
    const a = await newAccount(strict.ctx);
    await strict.ctx.db.query("INSERT INTO webhooks (id, account_id, url, secret_sealed) VALUES ($1, $2, $3, $4)", [
      randomUUID(),
      a.accountId,
      url,
      strict.ctx.secretBox!.seal("whsec_test"),
    ]);
    return a;
  }

  it.each([
    // "vm" is this machine's name: it resolves to 127.0.0.1 through /etc/hosts, like a rebound record.
    [
      "a name that now resolves to loopback",
      () => `https://vm:${receiver.port}/rebound`,
      /^private_ip_rejected: "vm" points to 127\.0\.0\.1/,
    ],
    ["a loopback literal", () => `https://127.0.0.1:${receiver.port}/literal`, /^localhost_rejected/],
    ["a private literal", () => `https://10.1.2.3:${receiver.port}/private`, /^private_ip_rejected/],
    ["plain http", () => `http://example.com:${receiver.port}/plain`, /^scheme_not_allowed/],
  ])("refuses %s at delivery time, without connecting", async (_name, url, error) => {
    const a = await savedWebhook(url());
    const res = await strict.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: a.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "pending", attempts: 1, last_status_code: null });
    expect(res.json().last_error).toMatch(error);
    expect(receiver.requests).toHaveLength(0);
  });
});
