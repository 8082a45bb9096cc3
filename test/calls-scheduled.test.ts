// Issue 15: scheduled calls. `scheduled_at` on POST /v1/calls and create_call, validated against the clock (60 s in the
// past at most, 30 days ahead at most), shown on the CallOut, the place-call job held until then, and cancel.
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { callBody, entries, insertShop, postCall } from "./calls-fixtures.ts";
import { connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";

const HOUR = 3600_000;

describe("scheduled calls (scheduled_at)", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let shop: string;
  let client: Client;
  let clock = Date.now();
  beforeAll(async () => {
    t = await startListening({ now: () => clock, env: { WAKHA_CALLING_HOURS: "off" } });
    a = await newAccount(t.ctx, 1000);
    shop = (await insertShop(t.ctx, a.accountId)).externalId;
    client = await connect(t.url, a.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const job = async (id: string) =>
    (
      await t.ctx.db.query<{ state: string; start_after: Date }>(
        "SELECT state, start_after FROM pgboss.job WHERE name = 'place-call' AND id = $1",
        [id],
      )
    ).rows[0];

  it("queues a call for later: scheduled_at on the CallOut (normalised to UTC), the job held until then", async () => {
    clock = Date.now();
    const at = new Date(Math.ceil((clock + 2 * HOUR) / 1000) * 1000);
    const local = new Date(at.getTime() + HOUR).toISOString().replace("Z", "+01:00");
    const res = await postCall(t, a, callBody(shop, { scheduled_at: local }));
    expect(res.statusCode, res.body).toBe(201);
    const call = res.json();
    expect(call).toMatchObject({ status: "queued", scheduled_at: at.toISOString() });
    expect((await job(call.id))!.start_after.getTime()).toBe(at.getTime());
    const read = await t.app.inject({ method: "GET", url: `/v1/calls/${call.id}`, headers: a.headers });
    expect(read.body).toBe(res.body);
  });

  it("shows scheduled_at null on a call made as soon as possible, and for a time up to 60 s in the past", async () => {
    clock = Date.now();
    const now = (await postCall(t, a, callBody(shop))).json();
    expect(now.scheduled_at).toBeNull();
    const late = await postCall(t, a, callBody(shop, { scheduled_at: new Date(clock - 30_000).toISOString() }));
    expect(late.statusCode).toBe(201);
    expect(late.json().scheduled_at).toBeNull();
    expect((await job(late.json().id))!.start_after.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("refuses a time more than 60 s past or more than 30 days ahead, and what is not RFC 3339 with an offset", async () => {
    clock = Date.now();
    for (const scheduled_at of [
      new Date(clock - 120_000).toISOString(),
      new Date(clock + 31 * 24 * HOUR).toISOString(),
    ]) {
      const res = await postCall(t, a, callBody(shop, { scheduled_at }));
      problem(res, "validation_error", 422);
      expect(entries(res)).toEqual([["body.scheduled_at", "value_error"]]);
    }
    for (const scheduled_at of [
      "tomorrow",
      "2026-11-23 10:00:00",
      "2026-11-23T10:00:00",
      "2026-02-30T10:00:00Z",
      1_800_000_000,
    ]) {
      const res = await postCall(t, a, callBody(shop, { scheduled_at }));
      problem(res, "validation_error", 422);
      expect(entries(res)[0]![0]).toBe("body.scheduled_at");
    }
    expect(
      (await postCall(t, a, callBody(shop, { scheduled_at: new Date(clock + 29 * 24 * HOUR).toISOString() })))
        .statusCode,
    ).toBe(201);
  });

  it("replays the stored response byte for byte once the time has passed", async () => {
    clock = Date.now();
    const key = randomUUID();
    const body = callBody(shop, { scheduled_at: new Date(clock + 10 * 60_000).toISOString() });
    const first = await postCall(t, a, body, key);
    clock += 20 * 60_000;
    const replay = await postCall(t, a, body, key);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["x-idempotent-replay"]).toBe("true");
    expect(replay.body).toBe(first.body);
    clock = Date.now();
  });

  it("cancels a scheduled call: canceled at once, its waiting job cancelled", async () => {
    clock = Date.now();
    const call = (
      await postCall(t, a, callBody(shop, { scheduled_at: new Date(clock + 5 * HOUR).toISOString() }))
    ).json();
    const res = await t.app.inject({ method: "POST", url: `/v1/calls/${call.id}/cancel`, headers: a.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "canceled", scheduled_at: call.scheduled_at, billed_seconds: 0 });
    expect((await job(call.id))!.state).toBe("cancelled");
  });

  it("takes scheduled_at on create_call too", async () => {
    clock = Date.now();
    const at = new Date(Math.ceil((clock + 3 * HOUR) / 1000) * 1000).toISOString();
    const created = await ok<{ call: { scheduled_at: string | null } }>(
      client,
      "create_call",
      callBody(shop, { scheduled_at: at }),
    );
    expect(created.call.scheduled_at).toBe(at);
    const bad = await fails(
      client,
      "create_call",
      callBody(shop, { scheduled_at: new Date(clock - HOUR).toISOString() }),
      "validation_error",
    );
    expect(bad["errors"]).toEqual([
      expect.objectContaining({ loc: ["arguments", "scheduled_at"], type: "value_error" }),
    ]);
  });

  it("documents scheduled_at in OpenAPI, on CallCreate and CallOut", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    expect(doc.components.schemas.CallCreateInput.properties).toHaveProperty("scheduled_at");
    expect(doc.components.schemas.CallOut.properties).toHaveProperty("scheduled_at");
    expect(doc.components.schemas.CallOut.required).toContain("scheduled_at");
  });
});
