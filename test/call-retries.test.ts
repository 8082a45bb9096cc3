// Issue 15: automatic retries. The policy (layers, triggers, timing inside the calling hours), then retries created by
// the engine's own end-of-call transaction: once each under concurrent settles and repeated ends, with
// call.retry_scheduled, the chain's length, cancel stopping it, and the list filtered by order.
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallEnd, settleCall } from "../src/calls/call-states.ts";
import { localToUtc } from "../src/domain/local-time.ts";
import { effectiveHours } from "../src/calls/policy/calling-hours.ts";
import {
  DEFAULT_RETRY_POLICY,
  effectiveRetryPolicy,
  retryTime,
  retryTrigger,
  scheduleRetry,
} from "../src/calls/policy/retries.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { connect, ok, type ListeningApp, startListening } from "./mcp-client.ts";

const MIN = 60_000;

describe("the retry policy", () => {
  it("is off by default and layers account, shop and call field by field", () => {
    expect(DEFAULT_RETRY_POLICY.enabled).toBe(false);
    const p = effectiveRetryPolicy({ enabled: true, delays_minutes: [10] }, { max_attempts: 5 }, { on: ["busy"] });
    expect(p).toEqual({ enabled: true, on: ["busy"], max_attempts: 5, delays_minutes: [10] });
  });

  it("retries only the ends it names, failed only for carrier causes", () => {
    expect(retryTrigger("no_answer", null, "no_answer")).toBe("no_answer");
    expect(retryTrigger("voicemail", null, "voicemail")).toBe("voicemail");
    expect(retryTrigger("failed", null, "number_unreachable")).toBe("failed");
    expect(retryTrigger("failed", null, "carrier_refused")).toBeNull();
    expect(retryTrigger("failed", null, "worker_lost")).toBeNull();
    expect(retryTrigger("completed", "callback_requested", "completed")).toBe("callback_requested");
    expect(retryTrigger("completed", "confirmed", "completed")).toBeNull();
    expect(retryTrigger("canceled", null, "canceled")).toBeNull();
  });

  it("waits the delay of each attempt (the last repeats), moved into the calling hours, or the customer's callback time", () => {
    const p = effectiveRetryPolicy({ enabled: true, delays_minutes: [30, 120] });
    const end = localToUtc("2026-11-24", 10, 0, "MA");
    expect(retryTime(p, 1, end, null, "MA", effectiveHours("MA"))).toEqual(new Date(end.getTime() + 30 * MIN));
    expect(retryTime(p, 3, end, null, "MA", effectiveHours("MA"))).toEqual(new Date(end.getTime() + 120 * MIN));
    // No answer at 20:45 in Casablanca: not at 21:15, but at 09:00 the next morning.
    expect(retryTime(p, 1, localToUtc("2026-11-24", 20, 45, "MA"), null, "MA", effectiveHours("MA"))).toEqual(
      localToUtc("2026-11-25", 9, 0, "MA"),
    );
    expect(retryTime(p, 1, end, "2026-11-24T16:00:00Z", "MA", effectiveHours("MA"))).toEqual(
      new Date("2026-11-24T16:00:00Z"),
    );
  });
});

describe("retries created with the end of a call", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let shop: string;
  let client: Client;
  const clock = Date.now();
  beforeAll(async () => {
    t = await startListening({ now: () => clock });
    a = await newAccount(t.ctx, 5000);
    shop = (await insertShop(t.ctx, a.accountId)).externalId;
    // An active webhook, so events are recorded.
    await t.ctx.db.query(
      "INSERT INTO webhooks (id, account_id, url, secret_sealed) VALUES ($1, $2, 'https://hooks.example.test/w', 'sealed')",
      [randomUUID(), a.accountId],
    );
    client = await connect(t.url, a.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const ended = (status: CallEnd["status"], extra: Partial<CallEnd> = {}): CallEnd => ({
    status,
    outcome: null,
    outcomeDetails: null,
    endReason: status,
    transcript: null,
    connectedSeconds: 0,
    ...extra,
  });
  const create = async (body: Record<string, unknown> = {}) => {
    const res = await postCall(t, a, callBody(shop, body));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string; order: { external_id: string } };
  };
  const ringing = (id: string) => t.ctx.db.query("UPDATE calls SET status = 'ringing' WHERE id = $1", [id]);
  const retriesOf = async (id: string) =>
    (
      await t.ctx.db.query<{ id: string; previous_attempts: number; scheduled_at: Date; status: string }>(
        "SELECT id, previous_attempts, scheduled_at, status FROM calls WHERE retry_of = $1",
        [id],
      )
    ).rows;
  const policy = { enabled: true, max_attempts: 3, delays_minutes: [30, 60] };

  it("creates the retry on the same order, previous_attempts + 1, retry_of, scheduled after the delay, with its job and call.retry_scheduled", async () => {
    const call = await create({ retry_policy: policy });
    await ringing(call.id);
    expect(await settleCall(t.ctx, { id: call.id, accountId: a.accountId }, ended("no_answer"))).toBe(true);
    const [retry] = await retriesOf(call.id);
    expect(retry).toMatchObject({ previous_attempts: 1, status: "queued" });
    expect(retry!.scheduled_at.getTime()).toBe(clock + 30 * MIN);
    const job = (
      await t.ctx.db.query("SELECT start_after FROM pgboss.job WHERE name = 'place-call' AND id = $1", [retry!.id])
    ).rows[0];
    expect(job!.start_after.getTime()).toBe(clock + 30 * MIN);
    const out = (await t.app.inject({ method: "GET", url: `/v1/calls/${retry!.id}`, headers: a.headers })).json();
    expect(out).toMatchObject({
      retry_of: call.id,
      order: { external_id: call.order.external_id, previous_attempts: 1 },
      scheduled_at: new Date(clock + 30 * MIN).toISOString(),
    });
    const events = (
      await t.ctx.db.query<{ type: string; id: string }>(
        "SELECT type, payload->>'id' AS id FROM webhook_events WHERE account_id = $1 ORDER BY created_at, type",
        [a.accountId],
      )
    ).rows;
    expect(events.filter((e) => e.id === retry!.id || e.id === call.id).map((e) => e.type)).toEqual([
      "call.ended",
      "call.retry_scheduled",
    ]);
    // The order's list shows both attempts, newest first.
    const list = (
      await t.app.inject({
        method: "GET",
        url: `/v1/calls?order_external_id=${encodeURIComponent(call.order.external_id)}`,
        headers: a.headers,
      })
    ).json();
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([retry!.id, call.id]);
  });

  it("retries once under two workers settling the same call at once, and never again on a repeated end", async () => {
    const call = await create({ retry_policy: policy });
    await ringing(call.id);
    const settles = await Promise.all(
      [1, 2, 3].map(() => settleCall(t.ctx, { id: call.id, accountId: a.accountId }, ended("busy"))),
    );
    expect(settles.filter(Boolean)).toHaveLength(1);
    expect(await retriesOf(call.id)).toHaveLength(1);
    // A restarted node running the retry step again for the same end: the unique retry_of refuses it.
    expect(await t.ctx.db.tx((c) => scheduleRetry(t.ctx, c, call.id, new Date(clock)))).toBeNull();
    expect(await retriesOf(call.id)).toHaveLength(1);
  });

  it("stops at max_attempts, on a cancel of the pending retry, and on ends it does not retry", async () => {
    const first = await create({ retry_policy: policy });
    let id = first.id;
    for (const attempt of [1, 2]) {
      await ringing(id);
      await settleCall(t.ctx, { id, accountId: a.accountId }, ended("no_answer"));
      const [next] = await retriesOf(id);
      expect(next?.previous_attempts).toBe(attempt);
      id = next!.id;
    }
    await ringing(id);
    await settleCall(t.ctx, { id, accountId: a.accountId }, ended("no_answer"));
    expect(await retriesOf(id)).toEqual([]); // three calls on the order: the chain ends

    const second = await create({ retry_policy: policy });
    await ringing(second.id);
    await settleCall(t.ctx, { id: second.id, accountId: a.accountId }, ended("voicemail"));
    const [pending] = await retriesOf(second.id);
    const canceled = await t.app.inject({ method: "POST", url: `/v1/calls/${pending!.id}/cancel`, headers: a.headers });
    expect(canceled.json()).toMatchObject({ status: "canceled", retry_of: second.id });
    expect(await retriesOf(pending!.id)).toEqual([]);

    for (const end of [
      ended("completed", { outcome: "confirmed" }),
      ended("failed", { endReason: "carrier_refused" }),
    ]) {
      const c = await create({ retry_policy: policy });
      await ringing(c.id);
      await settleCall(t.ctx, { id: c.id, accountId: a.accountId }, end);
      expect(await retriesOf(c.id)).toEqual([]);
    }
    const off = await create();
    await ringing(off.id);
    await settleCall(t.ctx, { id: off.id, accountId: a.accountId }, ended("no_answer"));
    expect(await retriesOf(off.id)).toEqual([]); // the default policy is off
  });

  it("calls back at the customer's callback_at when the policy retries callback_requested", async () => {
    const c = await create({ retry_policy: { ...policy, on: ["callback_requested"] } });
    await ringing(c.id);
    const at = new Date(Math.ceil((clock + 5 * 3600_000) / 1000) * 1000).toISOString();
    await settleCall(
      t.ctx,
      { id: c.id, accountId: a.accountId },
      ended("completed", {
        outcome: "callback_requested",
        outcomeDetails: { callback_at: at, transcript_excerpt: "later" },
      }),
    );
    expect((await retriesOf(c.id))[0]!.scheduled_at.toISOString()).toBe(at);
  });

  it("follows the account's and the shop's policy set over REST and MCP", async () => {
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/me/retry-policy",
      headers: a.headers,
      payload: { enabled: true, on: ["busy"] },
    });
    expect(put.json()).toEqual({
      override: { enabled: true, on: ["busy"] },
      effective: { enabled: true, on: ["busy"], max_attempts: 3, delays_minutes: [30, 180, 1440] },
    });
    const busy = await create();
    await ringing(busy.id);
    await settleCall(t.ctx, { id: busy.id, accountId: a.accountId }, ended("busy"));
    expect(await retriesOf(busy.id)).toHaveLength(1);
    await ok(client, "set_retry_policy", { shop_external_id: shop, policy: { enabled: false } });
    expect(await ok(client, "get_retry_policy", { shop_external_id: shop })).toMatchObject({
      override: { enabled: false },
      effective: { enabled: false, on: ["busy"] },
    });
    const quiet = await create();
    await ringing(quiet.id);
    await settleCall(t.ctx, { id: quiet.id, accountId: a.accountId }, ended("busy"));
    expect(await retriesOf(quiet.id)).toEqual([]);
    problem(
      await t.app.inject({
        method: "PUT",
        url: "/v1/me/retry-policy",
        headers: a.headers,
        payload: { max_attempts: 0, on: ["confirmed"] },
      }),
      "validation_error",
      422,
    );
    problem(await postCall(t, a, callBody(shop, { retry_policy: { delays_minutes: [] } })), "validation_error", 422);
    await t.app.inject({ method: "PUT", url: "/v1/me/retry-policy", headers: a.headers, payload: {} });
  });
});
