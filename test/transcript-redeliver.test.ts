// Issue 20, finding 8: the two-sided transcript of a call (REST and MCP), and redelivery of a webhook delivery.
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";
import { type Receiver, startReceiver } from "./webhook-receiver.ts";

const TRANSCRIPT = [
  { speaker: "agent", text: "Salam, m3ak Wakha men Boutique Atlas.", at: 0.4 },
  { speaker: "customer", text: "ah, ana hiya", at: 3.1, intent: "confirm", confidence: 0.71 },
  { speaker: "agent", text: "Bghiti tconfirmi la commande?", at: 5 },
  { speaker: "customer", text: "wakha, safi", at: 9.6, intent: "confirm", confidence: 0.93 },
];

describe("GET /v1/calls/{id}/transcript and get_transcript (issue 20, finding 8)", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let b: TestAccount;
  let client: Client;
  let ended: string;
  let queued: string;
  beforeAll(async () => {
    t = await startListening();
    a = await newAccount(t.ctx, 1000);
    b = await newAccount(t.ctx, 1000);
    const shop = (await insertShop(t.ctx, a.accountId)).externalId;
    ended = (await postCall(t, a, callBody(shop))).json().id;
    queued = (await postCall(t, a, callBody(shop))).json().id;
    // The engine writes the transcript in the transaction that ends the call (calls/call-states.ts).
    await t.ctx.db.query(
      `UPDATE calls SET status = 'completed', outcome = 'confirmed', end_reason = 'completed', transcript = $2, answered_at = now(),
              ended_at = now(), duration_seconds = 12, billed_seconds = 12 WHERE id = $1`,
      [ended, JSON.stringify(TRANSCRIPT)],
    );
    client = await connect(t.url, a.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t.close();
  });

  const expected = {
    call_id: "",
    status: "completed",
    complete: true,
    turns: [
      {
        speaker: "agent",
        text: TRANSCRIPT[0]!.text,
        start_seconds: 0.4,
        end_seconds: 3.1,
        intent: null,
        confidence: null,
      },
      {
        speaker: "customer",
        text: "ah, ana hiya",
        start_seconds: 3.1,
        end_seconds: 5,
        intent: "confirm",
        confidence: 0.71,
      },
      {
        speaker: "agent",
        text: TRANSCRIPT[2]!.text,
        start_seconds: 5,
        end_seconds: 9.6,
        intent: null,
        confidence: null,
      },
      {
        speaker: "customer",
        text: "wakha, safi",
        start_seconds: 9.6,
        end_seconds: 12,
        intent: "confirm",
        confidence: 0.93,
      },
    ],
  };

  it("gives every turn with speaker, text, start and end seconds, and the customer's intent and confidence", async () => {
    const res = await t.app.inject({ method: "GET", url: `/v1/calls/${ended}/transcript`, headers: a.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...expected, call_id: ended });
  });

  it("is empty and not complete while the call has not ended", async () => {
    const res = await t.app.inject({ method: "GET", url: `/v1/calls/${queued}/transcript`, headers: a.headers });
    expect(res.json()).toEqual({ call_id: queued, status: "queued", complete: false, turns: [] });
  });

  it("answers call_not_found identically for another account's call, an unknown id and a malformed id", async () => {
    const foreign = await t.app.inject({ method: "GET", url: `/v1/calls/${ended}/transcript`, headers: b.headers });
    const missing = await t.app.inject({
      method: "GET",
      url: `/v1/calls/${randomUUID()}/transcript`,
      headers: b.headers,
    });
    problem(foreign, "call_not_found", 404);
    problem(missing, "call_not_found", 404);
    problem(
      await t.app.inject({ method: "GET", url: "/v1/calls/nope/transcript", headers: a.headers }),
      "call_not_found",
      404,
    );
    const strip = (r: typeof foreign) => ({ ...r.json(), request_id: null, detail: null, instance: null });
    expect(strip(foreign)).toEqual(strip(missing));
  });

  it("is the MCP tool get_transcript", async () => {
    expect(await ok(client, "get_transcript", { call_id: ended })).toEqual({ ...expected, call_id: ended });
    await fails(client, "get_transcript", { call_id: randomUUID() }, "call_not_found");
  });

  it("is documented in OpenAPI", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    expect(doc.paths["/v1/calls/{id}/transcript"].get.operationId).toBe("getCallTranscript");
    expect(doc.paths["/v1/me/webhooks/deliveries/{id}/redeliver"].post.operationId).toBe("redeliverWebhookDelivery");
  });
});

describe("POST /v1/me/webhooks/deliveries/{id}/redeliver (issue 20, finding 8)", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let b: TestAccount;
  let receiver: Receiver;
  let client: Client;
  beforeAll(async () => {
    t = await startListening({ env: { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on", WAKHA_WEBHOOK_RETRY_SCHEDULE: "1h" } });
    receiver = await startReceiver();
    a = await newAccount(t.ctx, 100);
    b = await newAccount(t.ctx, 100);
    for (const acct of [a, b]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/me/webhooks",
        headers: acct.headers,
        payload: { url: receiver.url },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    client = await connect(t.url, a.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t.close();
    await receiver.close();
  });

  async function deadLetter(acct: TestAccount): Promise<{ id: string; event_id: string }> {
    receiver.respond = () => ({ status: 500 });
    const delivery = (
      await t.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: acct.headers })
    ).json();
    expect(delivery.status).toBe("pending");
    // As if the retry schedule had run out: the dead-letter queue.
    await t.ctx.db.query(
      "UPDATE webhook_deliveries SET status = 'failed', failed_at = now(), next_attempt_at = NULL WHERE id = $1",
      [delivery.id],
    );
    return delivery;
  }

  it("sends the same event again now, as a new delivery with the same event id, and answers 201 with it", async () => {
    const failed = await deadLetter(a);
    receiver.respond = () => ({ status: 200 });
    const before = receiver.requests.length;
    const res = await t.app.inject({
      method: "POST",
      url: `/v1/me/webhooks/deliveries/${failed.id}/redeliver`,
      headers: a.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    const again = res.json();
    expect(again).toMatchObject({
      event_id: failed.event_id,
      event_type: "webhook.test",
      status: "delivered",
      attempts: 1,
    });
    expect(again.id).not.toBe(failed.id);
    const sent = receiver.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers["x-service-event-id"]).toBe(failed.event_id);
    // The dead letter stays as it was; the redelivery is listed beside it.
    const list = (
      await t.app.inject({ method: "GET", url: "/v1/me/webhooks/deliveries?status=failed", headers: a.headers })
    ).json();
    expect(list.data.map((d: { id: string }) => d.id)).toContain(failed.id);
  });

  it("refuses a delivery that is still pending with 409 conflict", async () => {
    receiver.respond = () => ({ status: 500 });
    const pending = (await t.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: a.headers })).json();
    problem(
      await t.app.inject({
        method: "POST",
        url: `/v1/me/webhooks/deliveries/${pending.id}/redeliver`,
        headers: a.headers,
      }),
      "conflict",
      409,
    );
  });

  it("answers not_found identically for another account's delivery, an unknown id and a malformed id", async () => {
    const theirs = await deadLetter(b);
    const foreign = await t.app.inject({
      method: "POST",
      url: `/v1/me/webhooks/deliveries/${theirs.id}/redeliver`,
      headers: a.headers,
    });
    const missing = await t.app.inject({
      method: "POST",
      url: `/v1/me/webhooks/deliveries/${randomUUID()}/redeliver`,
      headers: a.headers,
    });
    problem(foreign, "not_found", 404);
    problem(missing, "not_found", 404);
    problem(
      await t.app.inject({ method: "POST", url: "/v1/me/webhooks/deliveries/x/redeliver", headers: a.headers }),
      "not_found",
      404,
    );
  });

  it("is the MCP tool redeliver_webhook_delivery", async () => {
    const failed = await deadLetter(a);
    receiver.respond = () => ({ status: 200 });
    const again = await ok<{ event_id: string; status: string }>(client, "redeliver_webhook_delivery", {
      delivery_id: failed.id,
    });
    expect(again).toMatchObject({ event_id: failed.event_id, status: "delivered" });
  });
});
