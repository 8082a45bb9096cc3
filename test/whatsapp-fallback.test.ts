// Issue 16, the WhatsApp fallback, end to end against a local Graph API (test/fakes/whatsapp.ts) and signed inbound
// webhooks as WhatsApp sends them: the template after the last unreached attempt, its statuses (duplicates,
// out of order), replies (buttons, free text, unclear once, "call me"), the 24-hour window, an invalid token, do-not-call.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallEnd, settleCall } from "../src/calls/call-states.ts";
import { createWorkers } from "../src/root/job-handlers.ts";
import type { Workers } from "../src/jobs/runtime.ts";
import { sendQueuedMessage } from "../src/calls/whatsapp/send.ts";
import { messageBody, WhatsAppError } from "../src/messaging/whatsapp.ts";
import type { Root } from "../src/root/root.ts";
import { verifyWebhook } from "../src/webhooks/signature.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import {
  buttonReply,
  FakeWhatsApp,
  FAILURES,
  hubSignature,
  interactiveReply,
  statusUpdate,
  textReply,
} from "./fakes/whatsapp.ts";
import { newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

const APP_SECRET = "meta-app-secret-for-whatsapp-tests";
const TOKEN = "EAAGm0PX4ZCpsBAvalidTokenForTheFake0001";

/** A Moroccan mobile number ending in `ending` (the simulator's script: 03 never answers), E.164 and WhatsApp's digits. */
function phone(ending = "03"): { e164: string; wa: string } {
  const digits = `21261${String(randomBytes(4).readUInt32BE() % 100_000).padStart(5, "0")}${ending}`; // 061...: a mobile range (issue 31.5)
  return { e164: `+${digits}`, wa: digits };
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the WhatsApp fallback (issue 16)", () => {
  let t: TestApp;
  let fake: FakeWhatsApp;
  let receiver: Receiver;
  let workers: Workers<Root>;

  beforeAll(async () => {
    fake = await new FakeWhatsApp().start();
    fake.tokens.add(TOKEN);
    receiver = await startReceiver();
    t = await startApp({
      env: {
        WAKHA_WEBHOOK_ALLOW_PRIVATE: "on",
        WAKHA_MESSAGING_APP_SECRET: APP_SECRET,
        WAKHA_WHATSAPP_GRAPH_URL: fake.url,
        WAKHA_SIMULATOR_SPEED: "200",
        WAKHA_RATE_LIMIT_SCALE: "1000",
      },
    });
    workers = createWorkers(t.ctx, () => {});
    await workers.start(["placeCall", "sendWhatsApp", "deliverWebhook"]);
  });
  afterAll(async () => {
    await workers?.stop();
    await t?.close();
    await receiver?.close();
    await fake?.close();
  });

  const inbound = (raw: string, secret = APP_SECRET) =>
    t.app.inject({
      method: "POST",
      url: "/webhooks/messaging",
      headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(raw, secret) },
      payload: raw,
    });

  interface Setup extends TestAccount {
    shop: string;
    secret: string;
    path: string;
  }

  async function account(options: { token?: string; fallback?: string; retries?: object } = {}): Promise<Setup> {
    const a = await newAccount(t.ctx, 10_000);
    const shop = (await insertShop(t.ctx, a.accountId)).externalId;
    const path = `/hooks-${randomBytes(4).toString("hex")}`;
    const hook = await t.app.inject({
      method: "POST",
      url: "/v1/me/webhooks",
      headers: a.headers,
      payload: { url: `http://127.0.0.1:${receiver.port}${path}` },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const wa = await t.app.inject({
      method: "PUT",
      url: "/v1/me/whatsapp",
      headers: a.headers,
      payload: {
        phone_number_id: "106540352242922",
        access_token: options.token ?? TOKEN,
        fallback: options.fallback ?? "after_last_attempt",
        templates: { ar: { name: "wakha_order_ar" }, fr: { name: "wakha_order_fr" } },
      },
    });
    expect(wa.statusCode, wa.body).toBe(200);
    if (options.retries) {
      const rp = await t.app.inject({
        method: "PUT",
        url: "/v1/me/retry-policy",
        headers: a.headers,
        payload: options.retries,
      });
      expect(rp.statusCode, rp.body).toBe(200);
    }
    return { ...a, shop, secret: hook.json().secret, path };
  }

  /** A call created through the API and ended by the engine's own end-of-call transaction, without ringing anyone. */
  async function unreachedCall(
    a: Setup,
    p: { e164: string },
    end: Partial<CallEnd> = {},
    body: Record<string, unknown> = {},
    beforeEnd?: () => Promise<unknown>,
  ) {
    const res = await postCall(
      t,
      a,
      callBody(a.shop, { customer: { name: "Fatima Zahra", phone_number: p.e164 }, ...body }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const call = res.json() as { id: string; order: { external_id: string } };
    // Claimed by this test, not by a worker: the place-call job finds it no longer queued.
    await t.ctx.db.query("UPDATE calls SET status = 'ringing' WHERE id = $1", [call.id]);
    await beforeEnd?.();
    await settleCall(
      t.ctx,
      { id: call.id, accountId: a.accountId },
      {
        status: "no_answer",
        outcome: null,
        outcomeDetails: null,
        endReason: "no_answer",
        transcript: null,
        connectedSeconds: 0,
        ...end,
      },
    );
    return call;
  }

  const messagesOf = async (orderExternalId: string) =>
    (
      await t.ctx.db.query<{
        id: string;
        kind: string;
        status: string;
        wamid: string | null;
        error: Record<string, unknown> | null;
        attempt: number;
      }>(
        `SELECT m.id, m.kind, m.status, m.wamid, m.error, m.attempt FROM whatsapp_messages m JOIN orders o ON o.id = m.order_id
       WHERE o.external_id = $1 ORDER BY m.created_at`,
        [orderExternalId],
      )
    ).rows;
  const sentTo = (p: { wa: string }) => fake.sent.filter((s) => s.body["to"] === p.wa);
  const templateTo = (p: { wa: string }) =>
    until(`a template to ${p.wa}`, async () => sentTo(p).find((s) => s.body["type"] === "template"));
  const orderOf = async (orderExternalId: string) =>
    (
      await t.ctx.db.query<{ id: string; resolution: string; resolution_channel: string | null }>(
        "SELECT id, resolution, resolution_channel FROM orders WHERE external_id = $1",
        [orderExternalId],
      )
    ).rows[0]!;
  const repliesOf = async (orderExternalId: string) =>
    (
      await t.ctx.db.query<{
        kind: string;
        text: string | null;
        intent: string | null;
        resolution: string | null;
        action: string;
      }>(
        `SELECT r.kind, r.text, r.intent, r.resolution, r.action FROM order_messages r JOIN orders o ON o.id = r.order_id
       WHERE o.external_id = $1 ORDER BY r.received_at, r.message_id`,
        [orderExternalId],
      )
    ).rows;

  /** The payload of a template's quick-reply button `index` (0 confirm, 1 cancel, 2 call me). */
  function payloadOf(template: { body: Record<string, unknown> }, index: number): string {
    const components = (
      template.body["template"] as {
        components: { type: string; index?: string; parameters: { payload?: string }[] }[];
      }
    ).components;
    return components.find((c) => c.type === "button" && c.index === String(index))!.parameters[0]!.payload!;
  }

  async function resolvedEvent(a: Setup, orderExternalId: string) {
    const got = await until("order.resolved", async () =>
      receiver.requests.find(
        (r) =>
          r.path === a.path &&
          r.headers["x-service-event-type"] === "order.resolved" &&
          JSON.parse(r.body).data?.external_id === orderExternalId,
      ),
    );
    expect(verifyWebhook(a.secret, got.headers["x-service-signature"] as string, got.body)).toBe(true);
    return JSON.parse(got.body) as { type: string; data: Record<string, unknown> };
  }

  describe("done when: a customer who never answers (simulator 03)", () => {
    async function throughTheLastAttempt(): Promise<{
      a: Setup;
      p: { e164: string; wa: string };
      order: string;
      template: Awaited<ReturnType<typeof templateTo>>;
    }> {
      const a = await account({ retries: { enabled: true, max_attempts: 2, delays_minutes: [1] } });
      const p = phone("03");
      const res = await postCall(t, a, callBody(a.shop, { customer: { name: "Fatima Zahra", phone_number: p.e164 } }));
      expect(res.statusCode, res.body).toBe(201);
      const first = res.json() as { id: string; order: { external_id: string } };
      const retry = await until(
        "the first attempt's end and its retry",
        async () =>
          (
            await t.ctx.db.query<{ id: string }>(
              "SELECT r.id FROM calls c JOIN calls r ON r.retry_of = c.id WHERE c.id = $1 AND c.status = 'no_answer'",
              [first.id],
            )
          ).rows[0],
      );
      // Not the last attempt: no template yet.
      expect(await messagesOf(first.order.external_id)).toEqual([]);
      // The retry rings now rather than in a minute.
      await t.ctx.db.query("UPDATE pgboss.job SET start_after = now() WHERE id = $1", [retry.id]);
      await until(
        "the last attempt's end",
        async () =>
          (await t.ctx.db.query("SELECT 1 FROM calls WHERE id = $1 AND status = 'no_answer'", [retry.id])).rowCount,
      );
      const template = await templateTo(p);
      // The fake has the template once it is sent; Wakha records the API's answer (accepted, the wamid) just after.
      await until(
        "the accepted template",
        async () => (await messagesOf(first.order.external_id))[0]?.status === "accepted",
      );
      return { a, p, order: first.order.external_id, template };
    }

    it("gets the Arabic template after the last attempt, confirms with its button, and the order is confirmed via whatsapp (order.resolved signed)", async () => {
      const { a, p, order, template } = await throughTheLastAttempt();
      expect(template.phoneNumberId).toBe("106540352242922");
      expect(template.body).toMatchObject({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: p.wa,
        type: "template",
        template: { name: "wakha_order_ar", language: { code: "ar" } },
      });
      const components = (template.body["template"] as { components: Record<string, unknown>[] }).components;
      expect(components[0]).toEqual({
        type: "body",
        parameters: [
          { type: "text", text: "Fatima Zahra" },
          { type: "text", text: expect.any(String) },
          { type: "text", text: "1 x Caftan" },
          { type: "text", text: "249.00 MAD" },
        ],
      });
      expect(components.slice(1).map((c) => [c["sub_type"], c["index"]])).toEqual([
        ["quick_reply", "0"],
        ["quick_reply", "1"],
        ["quick_reply", "2"],
      ]);
      const [message] = await messagesOf(order);
      expect(message).toMatchObject({ kind: "template", status: "accepted", attempt: 2, wamid: template.wamid });

      const reply = buttonReply(p.wa, template.wamid, payloadOf(template, 0), "تأكيد الطلب");
      expect((await inbound(reply)).statusCode).toBe(200);
      expect(await orderOf(order)).toMatchObject({ resolution: "confirmed", resolution_channel: "whatsapp" });
      const event = await resolvedEvent(a, order);
      expect(event.type).toBe("order.resolved");
      expect(event.data).toMatchObject({
        external_id: order,
        status: "resolved",
        resolution: { value: "confirmed", channel: "whatsapp" },
      });
      expect(await repliesOf(order)).toEqual([
        { kind: "button", text: "تأكيد الطلب", intent: "confirm", resolution: "confirmed", action: "settled" },
      ]);
      // Through the public API: the order, its two attempts, its resolution and its messages.
      const res = await t.app.inject({
        method: "GET",
        url: `/v1/shops/${encodeURIComponent(a.shop)}/orders/${encodeURIComponent(order)}`,
        headers: a.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      const out = res.json();
      expect(out).toMatchObject({
        status: "resolved",
        resolution: { value: "confirmed", channel: "whatsapp", call_id: null },
      });
      expect(out.attempts.map((x: { status: string }) => x.status)).toEqual(["no_answer", "no_answer"]);
      expect(out.messages).toMatchObject([
        { direction: "outbound", type: "template", id: template.wamid, status: "accepted" },
        {
          direction: "inbound",
          type: "button",
          text: "تأكيد الطلب",
          intent: "confirm",
          resolution: "confirmed",
          action: "settled",
        },
      ]);
      // Another account does not see it.
      const other = await newAccount(t.ctx);
      expect(
        (
          await t.app.inject({
            method: "GET",
            url: `/v1/shops/${encodeURIComponent(a.shop)}/orders/${encodeURIComponent(order)}`,
            headers: other.headers,
          })
        ).statusCode,
      ).toBe(404);
    });

    it('confirms with the free text "wakha, sifto" (the intent classifier, the order\'s country)', async () => {
      const { a, p, order } = await throughTheLastAttempt();
      expect((await inbound(textReply(p.wa, "wakha, sifto"))).statusCode).toBe(200);
      expect(await orderOf(order)).toMatchObject({ resolution: "confirmed", resolution_channel: "whatsapp" });
      expect((await resolvedEvent(a, order)).data).toMatchObject({
        resolution: { value: "confirmed", channel: "whatsapp", details: { transcript_excerpt: "wakha, sifto" } },
      });
      expect(await repliesOf(order)).toEqual([
        { kind: "text", text: "wakha, sifto", intent: "confirm", resolution: "confirmed", action: "settled" },
      ]);
    });
  });

  describe("sending", () => {
    it("speaks French to a French order, and sends at the first unreached call with fallback `immediately`", async () => {
      const a = await account({ fallback: "immediately", retries: { enabled: true, max_attempts: 3 } });
      const p = { e164: `+3361${String(randomBytes(4).readUInt32BE() % 100_000).padStart(5, "0")}03`, wa: "" };
      p.wa = p.e164.slice(1);
      const call = await unreachedCall(a, p, {}, { country: "FR", amount: "49.00" });
      const template = await templateTo(p);
      expect(template.body).toMatchObject({ template: { name: "wakha_order_fr", language: { code: "fr" } } });
      expect((await messagesOf(call.order.external_id)).map((m) => m.attempt)).toEqual([1]);
    });

    it("sends nothing while a retry is to come, nor for a call that reached the customer", async () => {
      const a = await account({ retries: { enabled: true, max_attempts: 3 } });
      const p = phone();
      const call = await unreachedCall(a, p);
      const reached = await unreachedCall(a, phone("01"), {
        status: "completed",
        outcome: "no_decision",
        endReason: "completed",
      });
      expect(await messagesOf(call.order.external_id)).toEqual([]);
      expect(await messagesOf(reached.order.external_id)).toEqual([]);
    });

    it("never sends to a do-not-call number: listed before the call's end (none queued) or after it (skipped at send)", async () => {
      const a = await account();
      const list = (p: { e164: string }) =>
        t.app
          .inject({ method: "POST", url: "/v1/me/do-not-call", headers: a.headers, payload: { phone_number: p.e164 } })
          .then((r) => expect(r.statusCode, r.body).toBeLessThan(300));
      const before = phone();
      const early = await unreachedCall(a, before, {}, {}, () => list(before));
      expect(await messagesOf(early.order.external_id)).toEqual([]);
      const after = phone();
      await workers.stop();
      try {
        const call = await unreachedCall(a, after);
        expect(await messagesOf(call.order.external_id)).toMatchObject([{ status: "pending" }]);
        await list(after);
        const [m] = await messagesOf(call.order.external_id);
        await sendQueuedMessage(t.ctx, m!.id);
        expect(await messagesOf(call.order.external_id)).toMatchObject([
          { status: "skipped", error: { reason: "do_not_call" } },
        ]);
        expect(sentTo(after)).toEqual([]);
        expect(sentTo(before)).toEqual([]);
      } finally {
        await workers.start(["placeCall", "sendWhatsApp", "deliverWebhook"]);
      }
    });

    it("an invalid token gets the documented OAuth error (190): the message is failed, not retried", async () => {
      const a = await account({ token: "EAAGm0PX4ZCpsBAthisTokenWasRevoked0000" });
      const p = phone();
      const refusedBefore = fake.refused.length;
      const call = await unreachedCall(a, p);
      const [m] = await until("the failed send", async () =>
        (await messagesOf(call.order.external_id)).filter((x) => x.status === "failed").length
          ? messagesOf(call.order.external_id)
          : null,
      );
      expect(m!.error).toMatchObject({ reason: "api_error", code: 190, status: 401 });
      expect(fake.refused.slice(refusedBefore).map((r) => r.code)).toEqual([190]);
      expect(sentTo(p)).toEqual([]);
    });

    it("a transient error (131016) is thrown for the job to retry; the next attempt sends it once", async () => {
      const a = await account();
      const p = phone();
      await workers.stop();
      try {
        const call = await unreachedCall(a, p);
        const [m] = await messagesOf(call.order.external_id);
        fake.failNext.push(FAILURES.serviceUnavailable);
        await expect(sendQueuedMessage(t.ctx, m!.id)).rejects.toSatisfy(
          (e) => e instanceof WhatsAppError && e.transient && e.code === 131016,
        );
        expect((await messagesOf(call.order.external_id))[0]!.status).toBe("pending");
        await sendQueuedMessage(t.ctx, m!.id);
        await sendQueuedMessage(t.ctx, m!.id); // a duplicate job: already sent, nothing more
        expect(sentTo(p)).toHaveLength(1);
        expect((await messagesOf(call.order.external_id))[0]!.status).toBe("accepted");
      } finally {
        await workers.start(["placeCall", "sendWhatsApp", "deliverWebhook"]);
      }
    });

    it("one template per order and attempt, whatever the repeated ends", async () => {
      const a = await account();
      const p = phone();
      const call = await unreachedCall(a, p);
      const id = (
        await t.ctx.db.query<{ id: string }>("SELECT id FROM calls WHERE order_external_id = $1", [
          call.order.external_id,
        ])
      ).rows[0]!.id;
      await t.ctx.db.query("UPDATE calls SET ended_at = NULL, status = 'ringing' WHERE id = $1", [id]);
      await settleCall(
        t.ctx,
        { id, accountId: a.accountId },
        {
          status: "busy",
          outcome: null,
          outcomeDetails: null,
          endReason: "busy",
          transcript: null,
          connectedSeconds: 0,
        },
      );
      await templateTo(p);
      expect(await messagesOf(call.order.external_id)).toHaveLength(1);
    });

    it("builds interactive and text bodies as the Cloud API documents them", () => {
      expect(messageBody({ type: "text", to: "+212600000001", body: "Salam" })).toEqual({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: "212600000001",
        type: "text",
        text: { preview_url: false, body: "Salam" },
      });
      expect(
        messageBody({ type: "buttons", to: "212600000001", body: "?", buttons: [{ payload: "p", title: "T" }] }),
      ).toMatchObject({
        type: "interactive",
        interactive: {
          type: "button",
          body: { text: "?" },
          action: { buttons: [{ type: "reply", reply: { id: "p", title: "T" } }] },
        },
      });
    });
  });

  describe("statuses and replies", () => {
    async function templated(options: Parameters<typeof account>[0] = {}) {
      const a = await account(options);
      const p = phone();
      const call = await unreachedCall(a, p);
      const template = await templateTo(p);
      await until(
        "the accepted template",
        async () => (await messagesOf(call.order.external_id))[0]?.status === "accepted",
      );
      return { a, p, order: call.order.external_id, template };
    }

    it("records statuses forward only: out of order, duplicated, a late failure after read ignored", async () => {
      const { p, order, template } = await templated();
      const at = (s: number) => new Date(Date.now() - 60_000 + s * 1000);
      for (const raw of [
        statusUpdate(template.wamid, p.wa, "delivered", at(2)),
        statusUpdate(template.wamid, p.wa, "sent", at(1)),
        statusUpdate(template.wamid, p.wa, "delivered", at(2)),
      ])
        expect((await inbound(raw)).statusCode).toBe(200);
      expect((await messagesOf(order))[0]!.status).toBe("delivered");
      await inbound(statusUpdate(template.wamid, p.wa, "read", at(3)));
      await inbound(statusUpdate(template.wamid, p.wa, "failed", at(4)));
      await inbound(statusUpdate(template.wamid, p.wa, "sent", at(1)));
      const row = (
        await t.ctx.db.query("SELECT status, sent_at, delivered_at, read_at FROM whatsapp_messages WHERE wamid = $1", [
          template.wamid,
        ])
      ).rows[0]!;
      expect(row).toMatchObject({ status: "read" });
      expect(row.sent_at.getTime()).toBeLessThan(row.delivered_at.getTime());
      expect(row.delivered_at.getTime()).toBeLessThan(row.read_at.getTime());
      // A status for a message Wakha never sent is acknowledged and changes nothing.
      expect((await inbound(statusUpdate("wamid.unknown", p.wa, "read"))).statusCode).toBe(200);
    });

    it("a failed status before any other is recorded with WhatsApp's errors", async () => {
      const { p, order, template } = await templated();
      await inbound(statusUpdate(template.wamid, p.wa, "failed"));
      expect((await messagesOf(order))[0]).toMatchObject({
        status: "failed",
        error: { reason: "delivery_failed", errors: [{ code: 131026 }] },
      });
    });

    it("a repeated reply (same message id) is kept once and settles once", async () => {
      const { a, p, order, template } = await templated();
      const reply = buttonReply(p.wa, template.wamid, payloadOf(template, 1), "إلغاء الطلب");
      for (let i = 0; i < 3; i++) expect((await inbound(reply)).statusCode).toBe(200);
      expect(await orderOf(order)).toMatchObject({ resolution: "declined", resolution_channel: "whatsapp" });
      expect(await repliesOf(order)).toHaveLength(1);
      await resolvedEvent(a, order);
      const events = (
        await t.ctx.db.query("SELECT 1 FROM webhook_events WHERE account_id = $1 AND type = 'order.resolved'", [
          a.accountId,
        ])
      ).rowCount;
      expect(events).toBe(1);
      // message.received keeps working for it.
      const received = (
        await t.ctx.db.query("SELECT 1 FROM webhook_events WHERE account_id = $1 AND type = 'message.received'", [
          a.accountId,
        ])
      ).rowCount;
      expect(received).toBe(1);
    });

    it("an unclear reply gets ONE clarifying message with the buttons; its button reply settles the order", async () => {
      const { p, order } = await templated();
      await inbound(textReply(p.wa, "chno hada?"));
      await inbound(textReply(p.wa, "hmm"));
      const clarification = await until("the clarifying message", async () =>
        sentTo(p).find((s) => s.body["type"] === "interactive"),
      );
      const buttons = (
        clarification.body["interactive"] as { action: { buttons: { reply: { id: string; title: string } }[] } }
      ).action.buttons;
      expect(buttons.map((b) => b.reply.title)).toEqual(["تأكيد الطلب", "إلغاء الطلب", "اتصلوا بي"]);
      expect(await repliesOf(order)).toMatchObject([{ action: "clarified", resolution: null }, { action: "ignored" }]);
      expect((await orderOf(order)).resolution).toBe("unresolved");
      await inbound(interactiveReply(p.wa, clarification.wamid, buttons[0]!.reply.id, buttons[0]!.reply.title));
      expect(await orderOf(order)).toMatchObject({ resolution: "confirmed", resolution_channel: "whatsapp" });
      expect(sentTo(p).filter((s) => s.body["type"] === "interactive")).toHaveLength(1);
    });

    it("24-hour window expired: no clarifying message, the refusal recorded (our clock, or the API's 131047)", async () => {
      const late = await templated();
      await inbound(textReply(late.p.wa, "chno hada?", new Date(Date.now() - 25 * 3600 * 1000)));
      expect(await repliesOf(late.order)).toMatchObject([{ action: "clarification_refused" }]);
      expect((await messagesOf(late.order)).find((m) => m.kind === "clarification")).toMatchObject({
        status: "failed",
        error: { reason: "window_expired" },
      });

      const closed = await templated();
      fake.closedWindows.add(closed.p.wa);
      await inbound(textReply(closed.p.wa, "chno hada?"));
      const refused = await until("the API's refusal", async () =>
        (await messagesOf(closed.order)).find((m) => m.kind === "clarification" && m.status === "failed"),
      );
      expect(refused.error).toMatchObject({ reason: "window_expired", code: 131047 });
      expect(sentTo(closed.p).filter((s) => s.body["type"] === "interactive")).toEqual([]);
    });

    it('"call me" settles callback_requested and schedules a call on the order', async () => {
      const { p, order, template } = await templated();
      await workers.stop();
      try {
        await inbound(buttonReply(p.wa, template.wamid, payloadOf(template, 2), "اتصلوا بي"));
        expect(await orderOf(order)).toMatchObject({
          resolution: "callback_requested",
          resolution_channel: "whatsapp",
        });
        expect(await repliesOf(order)).toMatchObject([{ action: "call_scheduled" }]);
        const calls = (
          await t.ctx.db.query<{ status: string; previous_attempts: number }>(
            "SELECT status, previous_attempts FROM calls WHERE order_external_id = $1 ORDER BY previous_attempts",
            [order],
          )
        ).rows;
        expect(calls).toEqual([
          { status: "no_answer", previous_attempts: 0 },
          { status: "queued", previous_attempts: 1 },
        ]);
      } finally {
        await workers.start(["placeCall", "sendWhatsApp", "deliverWebhook"]);
      }
    });

    it("a reply to another account's template settles only that order; a forged payload from another phone settles nothing", async () => {
      const one = await templated();
      const two = await templated();
      await inbound(buttonReply(two.p.wa, "wamid.none", payloadOf(one.template, 0), "Confirm"));
      expect((await orderOf(one.order)).resolution).toBe("unresolved");
      expect((await orderOf(two.order)).resolution).toBe("unresolved");
    });

    it("a webhook signed with another secret is refused (401) and changes nothing", async () => {
      const { p, order, template } = await templated();
      const res = await inbound(
        buttonReply(p.wa, template.wamid, payloadOf(template, 0), "Confirm"),
        "not-the-app-secret",
      );
      expect(res.statusCode).toBe(401);
      expect((await orderOf(order)).resolution).toBe("unresolved");
    });
  });
});
