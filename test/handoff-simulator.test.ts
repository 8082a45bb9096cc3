// The warm transfer end to end on the simulator (issue 34): 13 asks for a person and the person confirms the order;
// 14 asks for a person who does not answer; 15 asks a question the agent cannot answer, then the person settles it;
// a busy handoff number; outside the handoff hours; no handoff (today's ending). The call's `transfer`,
// `call.transferred` before `call.ended`, the transcript's mark, billing of the bridged part, the order through `agent`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callBody, insertShop, postCall, type ShopFixture } from "./calls-fixtures.ts";
import { debitsOf, type EngineApp, eventsOf, startEngineWithReceiver, waitForEnd } from "./engine-fixtures.ts";
import { newAccount, type TestAccount } from "./helpers.ts";
import type { Receiver } from "./webhook-receiver.ts";

describe("warm transfer on the simulator (issue 34)", () => {
  let t: EngineApp;
  let receiver: Receiver;
  let close: (() => Promise<void>) | undefined;
  let acct: TestAccount;
  let shop: ShopFixture;

  const setHandoff = async (body: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: "PUT",
      url: `/v1/shops/${shop.externalId}/handoff`,
      headers: acct.headers,
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const run = async (phone: string, ext: string) => {
    const res = await postCall(
      t,
      acct,
      callBody(shop.externalId, {
        customer: { name: "Amina", phone_number: phone },
        order: { external_id: ext, items: [{ name: "Caftan", unit_price: "450" }] },
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    return waitForEnd(t, acct, res.json().id, 60_000);
  };
  const order = async (ext: string) =>
    (
      await t.app.inject({ method: "GET", url: `/v1/shops/${shop.externalId}/orders/${ext}`, headers: acct.headers })
    ).json();

  beforeAll(async () => {
    ({ t, receiver, close } = await startEngineWithReceiver());
    acct = await newAccount(t.ctx, 5000);
    shop = await insertShop(t.ctx, acct.accountId);
    await t.ctx.db.query("UPDATE shops SET default_country = 'MA' WHERE id = $1", [shop.id]);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/v1/me/webhooks",
          headers: acct.headers,
          payload: { url: `http://127.0.0.1:${receiver.port}/hooks` },
        })
      ).statusCode,
    ).toBe(201);
  });
  afterAll(async () => {
    await close?.();
  });

  it("13: asks for a person, bridged; the person confirms the order (channel agent); call.transferred then call.ended; billed with the bridged part", async () => {
    await setHandoff({
      phone_number: "+212612345699",
      triggers: ["customer_asks", "unanswered_question"],
      ring_timeout_seconds: 20,
    });
    const call = await run("+212612345613", "t-13");
    expect(call).toMatchObject({
      status: "completed",
      outcome: "no_decision",
      end_reason: "transferred",
      transfer: { status: "bridged", to: "+212612345699", reason: "customer_asks", ended_by: null },
    });
    expect(call.transfer!.answered_at).not.toBeNull();
    expect(call.transfer!.seconds).toBeGreaterThan(5);
    expect(call.billed_seconds).toBeGreaterThanOrEqual(call.transfer!.seconds);
    expect((await debitsOf(t.ctx, acct.accountId)).get(call.id)?.seconds).toBe(call.billed_seconds);
    const types = (await eventsOf(t.ctx, acct.accountId)).filter((e) => e.payload.id === call.id).map((e) => e.type);
    expect(types.indexOf("call.transferred")).toBeGreaterThan(-1);
    expect(types.indexOf("call.transferred")).toBeLessThan(types.indexOf("call.ended"));
    const transcript = (
      await t.app.inject({ method: "GET", url: `/v1/calls/${call.id}/transcript`, headers: acct.headers })
    ).json();
    const texts = (transcript.turns as { text: string }[]).map((x) => x.text);
    expect(texts.some((x) => x.includes("نحولك"))).toBe(true);
    expect(texts).toContain("[transfer to +212612345699: bridged]");
    // The whisper is the person's alone: never on the customer's transcript.
    expect(texts.some((x) => x.includes("تحويل من واكا"))).toBe(false);
    await expect
      .poll(async () => (await order("t-13")).resolution, { timeout: 5000 })
      .toMatchObject({ value: "confirmed", channel: "agent" });
  });

  it("14: the person does not answer; the agent comes back, promises a callback, callback_requested with transfer no_answer", async () => {
    const call = await run("+212612345614", "t-14");
    expect(call).toMatchObject({
      status: "completed",
      outcome: "callback_requested",
      end_reason: "completed",
      transfer: { status: "no_answer", reason: "customer_asks", answered_at: null, seconds: 0 },
    });
    expect((await order("t-14")).resolution).toMatchObject({ value: "callback_requested", channel: "voice" });
  });

  it("15: a question the agent cannot answer, then the person settles it", async () => {
    const call = await run("+212612345615", "t-15");
    expect(call).toMatchObject({
      end_reason: "transferred",
      transfer: { status: "bridged", reason: "unanswered_question" },
    });
    await expect
      .poll(async () => (await order("t-15")).resolution, { timeout: 5000 })
      .toMatchObject({ value: "confirmed", channel: "agent" });
  });

  it("a busy handoff number, and outside the handoff hours: callback_requested with the status saying why", async () => {
    await setHandoff({ phone_number: "+212612345604", triggers: ["customer_asks"], ring_timeout_seconds: 10 });
    expect(await run("+212612345613", "t-busy")).toMatchObject({
      outcome: "callback_requested",
      transfer: { status: "busy", to: "+212612345604" },
    });
    // The person hangs up during the brief: refused; the customer is told a person will call back.
    await setHandoff({ phone_number: "+212612345605", triggers: ["customer_asks"] });
    const refused = await run("+212612345613", "t-refused");
    expect(refused).toMatchObject({ outcome: "callback_requested", transfer: { status: "no_answer", seconds: 0 } });
    expect(refused.transfer!.answered_at).not.toBeNull();
    await setHandoff({ phone_number: "+212612345699", triggers: ["customer_asks"], hours: { days: {} } });
    expect(await run("+212612345613", "t-hours")).toMatchObject({
      outcome: "callback_requested",
      transfer: { status: "outside_hours", answered_at: null },
    });
  });

  it("without a handoff, today's ending and no transfer", async () => {
    expect(
      (await t.app.inject({ method: "DELETE", url: `/v1/shops/${shop.externalId}/handoff`, headers: acct.headers }))
        .statusCode,
    ).toBe(204);
    const call = await run("+212612345613", "t-none");
    expect(call.transfer).toBeNull();
    expect(call.end_reason).not.toBe("transferred");
  });
});
