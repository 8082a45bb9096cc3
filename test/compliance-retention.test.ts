// Issue 36.5: the account's retention (PUT|GET /v1/me/retention, MCP get_retention/set_retention): recordings 1 to 30
// days, transcripts 1 to 365 days, purged by the hourly sweep (the purge-recordings job) per account.
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeExpiredTranscripts } from "../src/calls/compliance/retention.ts";
import { purgeExpiredRecordings, saveRecording } from "../src/calls/recordings.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";

describe("/v1/me/retention and its purge", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let b: TestAccount;
  let client: Client;
  beforeAll(async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "wakha-retention-"));
    await chmod(dataDir, 0o755);
    t = await startListening({ env: { WAKHA_DATA_DIR: dataDir } });
    a = await newAccount(t.ctx, 1000);
    b = await newAccount(t.ctx, 1000);
    client = await connect(t.url, b.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const put = (who: TestAccount, payload: object) =>
    t.app.inject({ method: "PUT", url: "/v1/me/retention", headers: who.headers, payload });

  it("reads the defaults, sets both, validates the bounds, and is scoped by account", async () => {
    expect((await t.app.inject({ method: "GET", url: "/v1/me/retention", headers: a.headers })).json()).toEqual({
      recording_days: 30,
      transcript_days: 365,
    });
    for (const bad of [
      { recording_days: 0, transcript_days: 10 },
      { recording_days: 31, transcript_days: 10 },
      { recording_days: 5, transcript_days: 366 },
      { recording_days: 5 },
      { recording_days: 5, transcript_days: 10, extra: 1 },
      { recording_days: "5", transcript_days: 10 },
      { recording_days: 1.5, transcript_days: 10 },
    ]) {
      problem(await put(a, bad), "validation_error", 422);
    }
    const set = await put(a, { recording_days: 2, transcript_days: 10 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ recording_days: 2, transcript_days: 10 });
    expect((await t.app.inject({ method: "GET", url: "/v1/me/retention", headers: a.headers })).json()).toEqual({
      recording_days: 2,
      transcript_days: 10,
    });
    expect((await t.app.inject({ method: "GET", url: "/v1/me/retention", headers: b.headers })).json()).toEqual({
      recording_days: 30,
      transcript_days: 365,
    });
    problem(await t.app.inject({ method: "GET", url: "/v1/me/retention" }), "invalid_api_key", 401);
  });

  it("the sweep purges each account's recordings and transcripts by its own retention, keeping outcomes and billing", async () => {
    await put(a, { recording_days: 2, transcript_days: 10 });
    const made: Record<string, string> = {};
    for (const [who, label] of [
      [a, "a"],
      [b, "b"],
    ] as const) {
      const shop = (await insertShop(t.ctx, who.accountId)).externalId;
      for (const age of ["young", "old"]) {
        const id = (await postCall(t, who, callBody(shop, {}))).json().id as string;
        made[`${label}-${age}`] = id;
        const days = age === "young" ? 1 : 20;
        await t.ctx.db.query(
          `UPDATE calls SET status = 'completed', outcome = 'declined', end_reason = 'completed', answered_at = now() - make_interval(days => $2),
             ended_at = now() - make_interval(days => $2), duration_seconds = 42, billed_seconds = 42,
             transcript = '[{"speaker":"customer","text":"non, trop cher","at":3}]', outcome_details = '{"reason":"trop cher","transcript_excerpt":"non, trop cher"}'
           WHERE id = $1`,
          [id, days],
        );
        await saveRecording(t.ctx, id, randomBytes(2000), "audio/wav");
        await t.ctx.db.query("UPDATE calls SET recording_saved_at = now() - make_interval(days => $2) WHERE id = $1", [
          id,
          days >= 20 ? 5 : 1,
        ]);
      }
    }
    // The purge is global (other test files share the database): what it did is read on these calls, not counted.
    expect(await purgeExpiredRecordings(t.ctx)).toBeGreaterThanOrEqual(1); // a's 5-day-old recording; b keeps its own for 30 days
    expect(await purgeExpiredTranscripts(t.ctx.db)).toBeGreaterThanOrEqual(1); // a's 20-day-old transcript; b keeps its own for 365 days
    const read = (who: TestAccount, id: string) =>
      t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: who.headers });
    problem(
      await t.app.inject({ method: "GET", url: `/v1/calls/${made["a-old"]}/recording`, headers: a.headers }),
      "recording_gone",
      410,
    );
    const aOld = (await read(a, made["a-old"]!)).json();
    expect(aOld).toMatchObject({
      outcome: "declined",
      billed_seconds: 42,
      duration_seconds: 42,
      recording_url: null,
      outcome_details: { reason: null },
    });
    expect(aOld.outcome_details).not.toHaveProperty("transcript_excerpt");
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/calls/${made["a-old"]}/transcript`, headers: a.headers })).json()
        .turns,
    ).toEqual([]);
    // The young call of a, and both of b, keep everything.
    for (const [who, key] of [
      [a, "a-young"],
      [b, "b-young"],
      [b, "b-old"],
    ] as const) {
      const call = (await read(who, made[key]!)).json();
      expect(call.recording_url, key).not.toBeNull();
      expect(call.outcome_details, key).toMatchObject({ reason: "trop cher", transcript_excerpt: "non, trop cher" });
      expect(
        (await t.app.inject({ method: "GET", url: `/v1/calls/${made[key]}/transcript`, headers: who.headers })).json()
          .turns,
        key,
      ).toHaveLength(1);
    }
    // Shorter now: the next sweep purges what the old setting kept.
    await put(b, { recording_days: 3, transcript_days: 15 });
    await purgeExpiredRecordings(t.ctx);
    await purgeExpiredTranscripts(t.ctx.db);
    const bOld = (await read(b, made["b-old"]!)).json();
    expect(bOld.recording_url).toBeNull();
    expect(bOld.outcome_details).toEqual({ reason: null });
    const bYoung = (await read(b, made["b-young"]!)).json();
    expect(bYoung.recording_url).not.toBeNull();
    expect(bYoung.outcome_details).toMatchObject({ transcript_excerpt: "non, trop cher" });
  });

  it("works through MCP: get_retention and set_retention", async () => {
    expect(await ok(client, "set_retention", { recording_days: 7, transcript_days: 90 })).toEqual({
      recording_days: 7,
      transcript_days: 90,
    });
    expect(await ok(client, "get_retention", {})).toEqual({ recording_days: 7, transcript_days: 90 });
    await fails(client, "set_retention", { recording_days: 60, transcript_days: 90 }, "validation_error");
  });
});
