// Issue 36.4: POST /v1/erasures erases everything personal about a number across the account (calls, transcripts,
// recordings in the bucket, WhatsApp messages, orders' details, stored webhook events and replies), keeps amounts,
// durations and billing, runs as a job, is audited, lists the store write-backs, and a second erasure is a no-op.
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runErasure } from "../src/calls/compliance/erasure.ts";
import { createWorkers } from "../src/root/job-handlers.ts";
import type { Workers } from "../src/jobs/runtime.ts";
import type { Root } from "../src/root/root.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { createEngineDatabase, debitsOf, type EngineApp, startEngineApp, waitForEnd } from "./engine-fixtures.ts";
import { FakeS3 } from "./fakes/s3.ts";
import { ENCRYPTION_KEY, newAccount, problem, type TestAccount } from "./helpers.ts";
import { connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

const PHONE = "+212612345601"; // the simulator's confirming customer
const OTHER = "+212612345606"; // reschedules: another customer, untouched

describe("an erasure across calls, orders, recordings in the bucket and messages", () => {
  let db: Awaited<ReturnType<typeof createEngineDatabase>>;
  let t: EngineApp;
  let s3: FakeS3;
  let erasing: Workers<Root>;
  let receiver: Receiver;
  let acct: TestAccount;

  beforeAll(async () => {
    s3 = await new FakeS3({
      bucket: "wakha-recordings",
      accessKeyId: "AKIATEST",
      secretAccessKey: "test-secret",
      region: "eu-west-3",
    }).start();
    db = await createEngineDatabase();
    t = await startEngineApp({
      databaseUrl: db.url,
      speed: 200,
      env: {
        WAKHA_WEBHOOK_ALLOW_PRIVATE: "on",
        WAKHA_ENCRYPTION_KEY: ENCRYPTION_KEY,
        WAKHA_BASE_URL: "https://api.example.test",
        WAKHA_RECORDINGS_BUCKET: "wakha-recordings",
        WAKHA_RECORDINGS_ENDPOINT: s3.url,
        WAKHA_RECORDINGS_REGION: "eu-west-3",
        WAKHA_RECORDINGS_ACCESS_KEY_ID: "AKIATEST",
        WAKHA_RECORDINGS_SECRET_ACCESS_KEY: "test-secret",
        WAKHA_RECORDINGS_FORCE_PATH_STYLE: "true",
      },
    });
    await t.startWorkers();
    erasing = createWorkers(t.ctx, (m) => t.errors.push(m));
    await erasing.start(["eraseCustomerData"]);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await erasing?.stop();
    await receiver?.close();
    await t?.close();
    await db?.drop();
    await s3?.stop();
  });

  async function erase(who: TestAccount, phone: string): Promise<Record<string, unknown>> {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/erasures",
      headers: who.headers,
      payload: { phone_number: phone },
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ status: "pending", counts: null, store_write_backs: null, completed_at: null });
    expect(res.headers["location"]).toBe(`/v1/erasures/${res.json().id}`);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const got = await t.app.inject({ method: "GET", url: `/v1/erasures/${res.json().id}`, headers: who.headers });
      expect(got.statusCode).toBe(200);
      if (got.json().status === "completed") return got.json();
      if (Date.now() > deadline) throw new Error(`erasure still ${got.body}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("leaves nothing personal, keeps billing, audits it, and a second erasure erases nothing", async () => {
    acct = await newAccount(t.ctx, 5000);
    const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/v1/me/webhooks",
          headers: acct.headers,
          payload: { url: receiver.url },
        })
      ).statusCode,
    ).toBe(201);
    const ids: string[] = [];
    for (const [phone, name] of [
      [PHONE, "Fatima Zahra"],
      [PHONE, "Fatima Zahra"],
      [OTHER, "Karim"],
    ] as const) {
      const res = await postCall(
        t,
        acct,
        callBody(shop, {
          customer: { name, phone_number: phone },
          order: { external_id: `E-${randomUUID().slice(0, 8)}`, items: [{ name: "Caftan", unit_price: "249.00" }] },
        }),
      );
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const before = await Promise.all(ids.map((id) => waitForEnd(t, acct, id)));
    for (const call of before) expect(call.recording_url).not.toBeNull();
    expect(s3.objects.size).toBe(3);
    // The customer wrote on WhatsApp (as the inbound webhook records it), attached to the latest call.
    await t.ctx.db.query(
      "INSERT INTO inbound_messages (message_id, from_phone, type, text, call_id, account_id) VALUES ($1, $2, 'text', 'Je suis Fatima, 12 rue des Oudayas', $3, $4)",
      [`wamid.${randomUUID()}`, PHONE, ids[1], acct.accountId],
    );
    const debits = await debitsOf(t.ctx, acct.accountId);

    const done = await erase(acct, PHONE);
    expect(done).toMatchObject({
      status: "completed",
      completed_at: expect.any(String),
      store_write_backs: [],
      counts: {
        calls: 2,
        transcripts: 2,
        recordings: 2,
        messages: 1,
        orders: 2,
        idempotency_records: 2,
        do_not_call_notes: 0,
      },
    });
    expect((done["counts"] as { webhook_events: number }).webhook_events).toBeGreaterThanOrEqual(4); // answered, ended, recording.ready, order.resolved

    // Nothing personal left about the number, anywhere.
    const everything = JSON.stringify(
      (
        await t.ctx.db.query(
          `SELECT (SELECT json_agg(c) FROM calls c WHERE account_id = $1) AS calls, (SELECT json_agg(o) FROM orders o WHERE account_id = $1) AS orders,
         (SELECT json_agg(m) FROM inbound_messages m WHERE account_id = $1) AS messages, (SELECT json_agg(e) FROM webhook_events e WHERE account_id = $1) AS events,
         (SELECT json_agg(k) FROM idempotency_keys k WHERE account_id = $1) AS replies`,
          [acct.accountId],
        )
      ).rows[0],
    );
    for (const personal of [PHONE, "Fatima", "Oudayas", "6123456 01"]) expect(everything).not.toContain(personal);
    expect(everything).toContain("Karim"); // another customer is untouched
    for (const id of ids.slice(0, 2)) {
      const call = (await t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: acct.headers })).json();
      const was = before[ids.indexOf(id)]!;
      // Billing intact, anonymised.
      expect(call).toMatchObject({
        customer: { name: "erased", phone_number: "erased" },
        recording_url: null,
        outcome: was.outcome,
        amount: was.amount,
        duration_seconds: was.duration_seconds,
        billed_seconds: was.billed_seconds,
      });
      expect(call.outcome_details).not.toHaveProperty("transcript_excerpt");
      problem(
        await t.app.inject({ method: "GET", url: `/v1/calls/${id}/recording`, headers: acct.headers }),
        "recording_gone",
        410,
      );
    }
    expect([...s3.objects.keys()]).toHaveLength(1); // only the other customer's recording is left in the bucket
    expect(await debitsOf(t.ctx, acct.accountId)).toEqual(debits);
    const balance = (await t.app.inject({ method: "GET", url: "/v1/me/balance", headers: acct.headers })).json();
    expect(balance.balance_seconds).toBe(5000 - [...debits.values()].reduce((s, d) => s + d.seconds, 0));

    // Audited on the key that asked.
    const events = await t.ctx.db.query<{ type: string }>(
      "SELECT type FROM api_key_events WHERE key_id = $1 ORDER BY seq",
      [acct.keyId],
    );
    expect(events.rows.map((e) => e.type)).toEqual(expect.arrayContaining(["erasure_requested", "erasure_completed"]));
    // The erasure record keeps no number.
    expect((await t.ctx.db.query("SELECT phone_number FROM erasures WHERE id = $1", [done["id"]])).rows[0]).toEqual({
      phone_number: null,
    });

    // A second erasure of the number is a no-op: a new erasure, completed, all counts zero.
    const again = await erase(acct, PHONE);
    expect(again["id"]).not.toBe(done["id"]);
    expect(Object.values(again["counts"] as object).every((n) => n === 0)).toBe(true);
    expect(t.errors).toEqual([]);
  }, 120_000);

  it("404 erasure_not_found for an unknown id, a bad id and another account's erasure; validates the body", async () => {
    const other = await newAccount(t.ctx, 0);
    const mine = await t.app.inject({
      method: "POST",
      url: "/v1/erasures",
      headers: acct.headers,
      payload: { phone_number: "+33612345699" },
    });
    problem(
      await t.app.inject({ method: "GET", url: `/v1/erasures/${mine.json().id}`, headers: other.headers }),
      "erasure_not_found",
      404,
    );
    problem(
      await t.app.inject({ method: "GET", url: `/v1/erasures/${randomUUID()}`, headers: acct.headers }),
      "erasure_not_found",
      404,
    );
    problem(
      await t.app.inject({ method: "GET", url: "/v1/erasures/nope", headers: acct.headers }),
      "erasure_not_found",
      404,
    );
    problem(
      await t.app.inject({
        method: "POST",
        url: "/v1/erasures",
        headers: acct.headers,
        payload: { phone_number: "0612", x: 1 },
      }),
      "validation_error",
      422,
    );
    problem(
      await t.app.inject({ method: "POST", url: "/v1/erasures", payload: { phone_number: PHONE } }),
      "invalid_api_key",
      401,
    );
  });
});

describe("the erasure MCP tools", () => {
  let t: ListeningApp;
  let client: Client;
  beforeAll(async () => {
    t = await startListening();
    const a = await newAccount(t.ctx, 0);
    client = await connect(t.url, a.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it("erase_customer_data answers pending; get_erasure reads it completed after its job; unknown ids fail with erasure_not_found", async () => {
    const started = await ok<{ id: string; status: string }>(client, "erase_customer_data", {
      phone_number: "+21620123499",
    });
    expect(started.status).toBe("pending");
    await runErasure(t.ctx, started.id);
    expect(await ok(client, "get_erasure", { id: started.id })).toMatchObject({
      status: "completed",
      counts: { calls: 0, recordings: 0 },
    });
    await fails(client, "get_erasure", { id: randomUUID() }, "erasure_not_found");
    await fails(client, "erase_customer_data", { phone_number: "12" }, "validation_error");
  });
});
