// Call events end to end: a call placed by the engine's workers reaches the reseller's receiver as signed
// call.answered, call.ended and recording.ready deliveries whose data is the call's CallOut.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../src/webhooks/signature.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { type EngineApp, getCallOut, startEngineWithReceiver, waitForEnd } from "./engine-fixtures.ts";
import { newAccount } from "./helpers.ts";
import type { Receiver } from "./webhook-receiver.ts";

describe("call events are delivered to the webhook (issue 6.3 with the engine of issue 5)", () => {
  let t: EngineApp;
  let receiver: Receiver;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ t, receiver, close } = await startEngineWithReceiver());
  });
  afterAll(async () => {
    await close?.();
  });

  it("sends call.answered, call.ended and recording.ready with the CallOut, each signed, each once", async () => {
    const acct = await newAccount(t.ctx, 600);
    const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    const hook = await t.app.inject({
      method: "POST",
      url: "/v1/me/webhooks",
      headers: acct.headers,
      payload: { url: `http://127.0.0.1:${receiver.port}/calls` },
    });
    expect(hook.statusCode).toBe(201);
    const secret = hook.json().secret as string;

    const res = await postCall(
      t,
      acct,
      callBody(shop, {
        customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
        order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00" }] },
      }),
    );
    expect(res.statusCode).toBe(201);
    const callId = res.json().id as string;
    const ended = await waitForEnd(t, acct, callId);
    expect(ended).toMatchObject({ status: "completed", outcome: "confirmed" });

    // The confirmed call settles its order too (issue 16): order.resolved comes with the call's events.
    const types = ["call.answered", "call.ended", "order.resolved", "recording.ready"];
    const deadline = Date.now() + 20_000;
    const mine = () => receiver.requests.filter((r) => r.path === "/calls");
    while (mine().length < types.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    const got = mine();
    expect(got.map((r) => r.headers["x-service-event-type"]).sort()).toEqual(types);
    for (const r of got) {
      expect(verifyWebhook(secret, r.headers["x-service-signature"] as string, r.body)).toBe(true);
      const event = JSON.parse(r.body);
      expect(event.id).toBe(r.headers["x-service-event-id"]);
      if (event.type === "order.resolved")
        expect(event.data.resolution).toMatchObject({ value: "confirmed", channel: "voice", call_id: callId });
      else expect(event.data.id).toBe(callId);
    }
    const byType = Object.fromEntries(got.map((r) => [r.headers["x-service-event-type"], JSON.parse(r.body).data]));
    expect(byType["call.answered"].answered_at).toBeTruthy();
    expect(byType["call.ended"]).toMatchObject({
      status: "completed",
      outcome: "confirmed",
      billed_seconds: ended.billed_seconds,
    });
    expect(byType["recording.ready"].recording_url).toBe((await getCallOut(t, acct, callId)).recording_url);

    const list = (
      await t.app.inject({ method: "GET", url: "/v1/me/webhooks/deliveries?status=delivered", headers: acct.headers })
    ).json();
    expect(list.data.map((d: { event_type: string }) => d.event_type).sort()).toEqual(types);
    expect(t.errors).toEqual([]);
  }, 60_000);
});
