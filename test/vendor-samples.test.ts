// Issue 30.9: the vendors' own sample payloads (test/fixtures/vendors/, sources in its README.md) replayed verbatim
// through the real inbound adapters: Shopify's test notification through POST /connectors/shopify/{token}, Twilio's
// callbacks and ConversationRelay / Media Streams messages through /carriers/twilio/..., jambonz's WebSocket messages
// through /carriers/jambonz/..., WhatsApp's webhook through /webhooks/messaging. Each must be accepted (or answered as
// documented), and 64-bit platform ids must stay exact.
import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { parseJsonExact } from "../src/connectors/exact-json.ts";
import { ShopifyPlatform } from "../src/connectors/platforms/shopify.ts";
import { WooCommercePlatform } from "../src/connectors/platforms/woocommerce.ts";
import { YouCanPlatform } from "../src/connectors/platforms/youcan.ts";
import { socketPassword } from "../src/engine/telephony/jambonz/provider.ts";
import { TextCarrierSession } from "../src/engine/telephony/text-carrier.ts";
import { MediaStreamLeg } from "../src/engine/telephony/twilio/media-streams.ts";
import { twilioPaths } from "../src/engine/telephony/twilio/provider.ts";
import { messagingPayloadSchema } from "../src/inbound/messaging.ts";
import { newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { type ListeningApp, startListening } from "./mcp-client.ts";
import { jambonzSignature } from "./fakes/jambonz.ts";
import { FakeShopify, shopifyOrder } from "./fakes/shopify.ts";
import { twilioSignature } from "./fakes/twilio.ts";

const sample = (path: string) => readFileSync(new URL(`./fixtures/vendors/${path}`, import.meta.url), "utf8");
const PUBLIC_URL = "https://carrier.example.test";

/** A live call on this node as the dialer would have registered it, with the carrier's own call id. */
function liveSession(app: TestApp, providerCallId: string, callId = randomUUID()): TextCarrierSession {
  const hangups: string[] = [];
  const session = new TextCarrierSession({
    providerCallId,
    callId,
    locale: "fr-FR",
    speed: 1,
    expectMachineVerdict: true,
    control: {
      hangup: async (sid) => void hangups.push(sid),
      recordingSource: (location) => ({ url: location, headers: {} }) as never,
    },
  });
  app.ctx.lines.text.add(session);
  return session;
}

function open(url: string, headers: Record<string, string>, protocol?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = protocol ? new WebSocket(url, protocol, { headers }) : new WebSocket(url, { headers });
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    ws.once("error", reject);
  });
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

describe("Shopify: the admin's test notification and 64-bit ids", () => {
  const TOKEN = "shpat_0123456789abcdef0123456789abcdef";
  const SECRET = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
  let fake: FakeShopify;
  let t: ListeningApp;
  let a: TestAccount;

  beforeAll(async () => {
    fake = await new FakeShopify().start();
    fake.tokens.add(TOKEN);
    t = await startListening({ env: { WAKHA_SHOPIFY_ADMIN_URL: fake.url } });
    a = await newAccount(t.ctx, 100_000);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function connectedShop(): Promise<{ shop: string; path: string }> {
    const shop = `shop-${randomUUID().slice(0, 8)}`;
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/v1/shops",
          headers: a.headers,
          payload: { external_id: shop, merchant_external_id: "m1", name: "Boutique", default_country: "MA" },
        })
      ).statusCode,
    ).toBe(201);
    const res = await t.app.inject({
      method: "PUT",
      url: `/v1/shops/${shop}/connector`,
      headers: a.headers,
      payload: {
        platform: "shopify",
        store_url: "https://wakha-test.myshopify.com",
        access_token: TOKEN,
        webhook_secret: SECRET,
      },
    });
    expect(res.statusCode).toBe(200);
    return { shop, path: new URL(res.json().webhook_url as string).pathname };
  }
  const deliver = (path: string, raw: string) =>
    t.app.inject({ method: "POST", url: path, headers: fake.deliveryHeaders(raw, SECRET), payload: raw });
  const orderEvents = async (shop: string) =>
    (
      (
        await t.app.inject({ method: "GET", url: `/v1/shops/${shop}/connector/events?limit=100`, headers: a.headers })
      ).json().data as Record<string, unknown>[]
    ).filter((e) => e["type"] === "order");

  it("accepts the sample order verbatim and records its id exactly (820982911946154508, past 2^53)", async () => {
    const { shop, path } = await connectedShop();
    const raw = sample("shopify/orders-create-test-notification.json");
    const res = await deliver(path, raw);
    expect(res.statusCode, res.body).toBe(200);
    // A voided card order: taken in and skipped (not cash on delivery), with Shopify's exact id.
    expect(res.json()).toEqual({ status: "ok", result: "skipped" });
    expect((await orderEvents(shop)).map((e) => e["platform_order_id"])).toEqual(["820982911946154508"]);
    // Its line items' product ids are past 2^53 too: read exactly, never rounded (nor dropped).
    const event = new ShopifyPlatform().parseWebhook({
      headers: { "x-shopify-topic": "orders/create" },
      rawBody: Buffer.from(raw),
    });
    expect(event.kind === "order_created" ? event.order.lines.map((l) => l.productId) : []).toEqual([
      "78803211967292922",
      "788032119674292922",
    ]);
  });

  it("keeps two orders whose ids differ only past 2^53 apart (...508 and ...500), read from the raw body", async () => {
    const { shop, path } = await connectedShop();
    const made: string[] = [];
    for (const [i, bigId] of ["820982911946154508", "820982911946154500"].entries()) {
      // Only the numeric `id`: no admin_graphql_api_id to fall back on, as some apps' relays send it.
      const body = shopifyOrder({
        id: 777000111,
        phone: `061${String(Date.now() % 1e5).padStart(5, "0")}${i}${i}`, // 061...: a mobile range (issue 31.5)
      });
      delete body["admin_graphql_api_id"];
      const raw = JSON.stringify(body).replace('"id":777000111', `"id":${bigId}`);
      const res = await deliver(path, raw);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result).toBe("call_created");
      made.push(bigId);
    }
    const { rows } = await t.ctx.db.query<{ order_external_id: string }>(
      "SELECT c.order_external_id FROM calls c JOIN shops s ON s.id = c.shop_id WHERE s.external_id = $1 ORDER BY c.order_external_id",
      [shop],
    );
    expect(rows.map((r) => r.order_external_id)).toEqual([...made].sort());
  });
});

describe("Twilio: status, AMD and recording callbacks, ConversationRelay and Media Streams messages", () => {
  const AUTH_TOKEN = "twilio-test-auth-token-0123456789";
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startApp({
      env: {
        WAKHA_CHANNELS: "gsm=twilio,voip=twilio-media",
        WAKHA_PUBLIC_URL: PUBLIC_URL,
        WAKHA_TWILIO_ACCOUNT_SID: `AC${"0".repeat(32)}`,
        WAKHA_TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        WAKHA_TWILIO_CALLER_IDS: "+33100000000",
        WAKHA_AZURE_SPEECH_KEY: "azure-key-for-config-only-0000000",
        WAKHA_AZURE_SPEECH_REGION: "westeurope",
      },
    });
    base = (await t.app.listen({ host: "127.0.0.1", port: 0 })).replace(/^http/, "ws");
  });
  afterAll(async () => {
    await t?.close();
  });

  const postForm = (path: string, raw: string) => {
    const params = Object.fromEntries(new URLSearchParams(raw));
    return t.app.inject({
      method: "POST",
      url: path,
      payload: raw,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-twilio-signature": twilioSignature(AUTH_TOKEN, `${PUBLIC_URL}${path}`, params),
      },
    });
  };

  it("takes the documented callbacks: answered, machine verdict, recording, completed with the carrier's seconds", async () => {
    const session = liveSession(t, "CA00000000000000000000000000000000");
    const id = session.callId;
    expect((await postForm(twilioPaths.status(id), sample("twilio/status-callback-in-progress.form"))).statusCode).toBe(
      204,
    );
    expect((await postForm(twilioPaths.amd(id), sample("twilio/amd-callback.form"))).statusCode).toBe(204);
    expect(await session.answered()).toMatchObject({ type: "answered" });
    expect(
      (await postForm(twilioPaths.recording(id), sample("twilio/recording-status-callback.form"))).statusCode,
    ).toBe(204);
    expect((await postForm(twilioPaths.status(id), sample("twilio/status-callback-completed.form"))).statusCode).toBe(
      204,
    );
    // CallDuration is what Twilio bills: the call's connected seconds.
    expect((await session.ended()).connectedSeconds).toBe(14);
    expect(await session.recording()).toMatchObject({
      source: { url: expect.stringContaining("/Recordings/RE00000000000000000000000000000000") },
    });
  });

  it("takes the documented ConversationRelay messages: setup, prompt, dtmf, interrupt, error", async () => {
    const setup = JSON.parse(sample("twilio/conversation-relay-setup.json")) as { callSid: string };
    const session = liveSession(t, setup.callSid);
    session.progress("answered");
    session.machineVerdict("human");
    const heard: string[] = [];
    const digits: string[] = [];
    const path = twilioPaths.relay(session.callId);
    const ws = await open(`${base}${path}`, {
      "x-twilio-signature": twilioSignature(AUTH_TOKEN, `${PUBLIC_URL.replace(/^http/, "ws")}${path}`, {}),
    });
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    for (const name of ["setup", "prompt", "dtmf", "interrupt", "error"])
      ws.send(sample(`twilio/conversation-relay-${name}.json`));
    for (let i = 0; i < 4 && (heard.length === 0 || digits.length === 0); i++) {
      const u = await session.listen({ timeoutSeconds: 2 });
      if (!u) break;
      if (u.text) heard.push(u.text);
      if (u.digits) digits.push(u.digits);
    }
    expect(heard).toEqual(["Hi! Can you tell me about life?"]);
    expect(digits).toEqual(["1"]);
    // Accepted: the socket stays open (a refused setup closes it with 1008).
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
    expect(await closed).not.toBe(1008);
  });

  it("takes the documented Media Streams messages: connected, start, media, dtmf, mark, stop", async () => {
    const start = JSON.parse(sample("twilio/media-streams-start.json")) as { start: { callSid: string } };
    const session = liveSession(t, start.start.callSid);
    const leg = new MediaStreamLeg(session, { speed: 1, endCall: async () => {} });
    t.ctx.lines.media.add(leg);
    const path = twilioPaths.media(session.callId);
    const ws = await open(`${base}${path}`, {
      "x-twilio-signature": twilioSignature(AUTH_TOKEN, `${PUBLIC_URL.replace(/^http/, "ws")}${path}`, {}),
    });
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    const digits: string[] = [];
    leg.onDigit((d) => digits.push(d));
    for (const name of ["connected", "start", "media", "dtmf", "mark"])
      ws.send(sample(`twilio/media-streams-${name}.json`));
    await until(() => leg.stats.framesIn === 1, "the media frame");
    await until(() => digits.length === 1, "the DTMF digit");
    expect(digits).toEqual(["1"]);
    ws.send(sample("twilio/media-streams-stop.json"));
    // `stop` ends the stream: this side closes normally, not as a refusal (1008) or a bad format (1003).
    expect([1000, 1005]).toContain(await closed);
  });
});

describe("jambonz: the documented WebSocket messages", () => {
  const SECRET = "jambonz-webhook-secret-0123456789";
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await startApp({
      env: {
        WAKHA_CHANNELS: "gsm=jambonz",
        WAKHA_PUBLIC_URL: PUBLIC_URL,
        WAKHA_JAMBONZ_API_URL: "http://127.0.0.1:9",
        WAKHA_JAMBONZ_ACCOUNT_SID: randomUUID(),
        WAKHA_JAMBONZ_API_KEY: randomUUID(),
        WAKHA_JAMBONZ_CALLER_IDS: "+212522000000",
        WAKHA_JAMBONZ_WEBHOOK_SECRET: SECRET,
      },
    });
    base = (await t.app.listen({ host: "127.0.0.1", port: 0 })).replace(/^http/, "ws");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("acks session:new and verb:hook (gather) and ends the call on call:status completed", async () => {
    const gather = JSON.parse(sample("jambonz/ws-verb-hook-gather.json")) as { call_sid: string };
    const session = liveSession(t, gather.call_sid);
    const path = `/carriers/jambonz/calls/${session.callId}/ws`;
    const auth = `Basic ${Buffer.from(`wakha:${socketPassword(SECRET, session.callId)}`).toString("base64")}`;
    const ws = await open(`${base}${path}`, { authorization: auth }, "ws.jambonz.org");
    const acks: Record<string, unknown>[] = [];
    ws.on("message", (m) => acks.push(JSON.parse(String(m)) as Record<string, unknown>));
    // session:new carries the call as jambonz's call:status data does (docs.jambonz.org/reference/websocket-api/call-control/session-new).
    ws.send(
      JSON.stringify({
        type: "session:new",
        msgid: "auuHioXGktYh2ZFYxf3hAA",
        call_sid: gather.call_sid,
        data: { call_sid: gather.call_sid, direction: "outbound", call_status: "in-progress" },
      }),
    );
    await until(() => acks.length === 1, "the ack of session:new");
    ws.send(sample("jambonz/ws-verb-hook-gather.json"));
    const heard = await session.listen({ timeoutSeconds: 2 });
    expect(heard).toMatchObject({ text: "I'd like to book a car" });
    await until(() => acks.filter((m) => m["type"] === "ack").length === 2, "two acks");
    expect(acks.map((m) => m["msgid"])).toEqual(["auuHioXGktYh2ZFYxf3hAA", "cvY6kNE8RXdaZdaDcJbViG"]);
    // The documented call:status is for another call_sid in the sample; with ours it ends the call.
    const status = JSON.parse(sample("jambonz/ws-call-status.json")) as { data: Record<string, unknown> };
    ws.send(sample("jambonz/ws-call-status.json").replaceAll(String(status.data["call_sid"]), gather.call_sid));
    expect(await session.ended()).toMatchObject({ type: "hangup" });
    ws.close();
  });

  it("takes the documented call status as the signed HTTP status webhook", async () => {
    const status = (JSON.parse(sample("jambonz/ws-call-status.json")) as { data: Record<string, unknown> }).data;
    const session = liveSession(t, String(status["call_sid"]));
    session.progress("answered");
    const raw = JSON.stringify(status);
    const res = await t.app.inject({
      method: "POST",
      url: `/carriers/jambonz/calls/${session.callId}/status`,
      payload: raw,
      headers: { "content-type": "application/json", "jambonz-signature": jambonzSignature(SECRET, raw) },
    });
    expect(res.statusCode).toBe(204);
    await session.ended();
  });
});

describe("WhatsApp Cloud API: the documented webhooks (text, reply buttons, statuses)", () => {
  const APP_SECRET = "meta-app-secret-for-vendor-samples";
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({
      env: { WAKHA_MESSAGING_APP_SECRET: APP_SECRET, WAKHA_MESSAGING_VERIFY_TOKEN: "verify-token" },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("is accepted verbatim (signed over its raw bytes) and a second delivery changes nothing", async () => {
    const raw = sample("whatsapp/messages-text.json");
    const headers = {
      "content-type": "application/json",
      "x-hub-signature-256": `sha256=${createHmac("sha256", APP_SECRET).update(raw).digest("hex")}`,
    };
    const first = await t.app.inject({ method: "POST", url: "/webhooks/messaging", headers, payload: raw });
    expect(first.statusCode, first.body).toBe(200);
    const again = await t.app.inject({ method: "POST", url: "/webhooks/messaging", headers, payload: raw });
    expect(again.statusCode).toBe(200);
  });

  const signed = (raw: string) => ({
    "content-type": "application/json",
    "x-hub-signature-256": `sha256=${createHmac("sha256", APP_SECRET).update(raw).digest("hex")}`,
  });

  it.each([
    [
      "messages-interactive-button-reply.json",
      "wamid.HBgLMTY0NjcwNDM1OTUVAgARGBJBM0Y4RUU0RUNFQkFDMjYzQUMA",
      "change-button",
      "Change",
    ],
    [
      "messages-template-button.json",
      "wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=",
      "Unsubscribe",
      "Unsubscribe",
    ],
  ])("takes the documented reply %s verbatim (signed over its raw bytes)", async (file, contextId, payload, label) => {
    const raw = sample(`whatsapp/${file}`);
    const res = await t.app.inject({ method: "POST", url: "/webhooks/messaging", headers: signed(raw), payload: raw });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
    // Read as a reply to the message its context names, with the tapped button's payload (id) and label.
    const m = messagingPayloadSchema.parse(JSON.parse(raw)).entry[0]!.changes[0]!.value.messages![0]!;
    expect([
      m.context?.id,
      m.button?.payload ?? m.interactive?.button_reply?.id,
      m.button?.text ?? m.interactive?.button_reply?.title,
    ]).toEqual([contextId, payload, label]);
    // Tampered bytes are refused: the signature covers exactly what Meta sent.
    const bad = await t.app.inject({
      method: "POST",
      url: "/webhooks/messaging",
      headers: signed(raw),
      payload: raw.replace('"from": "16505551234"', '"from": "16505551235"'),
    });
    expect(bad.statusCode).toBe(401);
  });

  it("records the documented statuses verbatim: sent (with conversation and pricing), sent as v24 sends it, failed with its errors", async () => {
    for (const file of ["statuses-sent.json", "statuses-v24-no-conversation.json", "statuses-failed.json"]) {
      const raw = sample(`whatsapp/${file}`);
      const res = await t.app.inject({
        method: "POST",
        url: "/webhooks/messaging",
        headers: signed(raw),
        payload: raw,
      });
      expect(res.statusCode, `${file}: ${res.body}`).toBe(200);
    }
    const { rows } = await t.ctx.db.query<{
      wamid: string;
      status: string;
      at: Date;
      error: { reason: string; errors: { code: number }[] } | null;
    }>("SELECT wamid, status, at, error FROM whatsapp_statuses WHERE wamid IN ($1, $2) ORDER BY at", [
      "wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=",
      "wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI0QUQ2MjA4NEYyRkExNjMyREUA",
    ]);
    // The v24 body repeats the first one's (wamid, status): recorded once. Meta's unix-seconds strings become the times.
    expect(rows.map((r) => [r.status, r.at.getTime() / 1000, r.error?.errors[0]?.code ?? null])).toEqual([
      ["sent", 1750030073, null],
      ["failed", 1751142888, 131049],
    ]);
  });
});

describe("parseJsonExact", () => {
  it("keeps integers past 2^53 as their digits and leaves strings, decimals and safe integers alone", () => {
    expect(
      parseJsonExact(
        '{"id":820982911946154508,"n":-9007199254740993,"s":"820982911946154508 \\" 9007199254740993","x":1.5e300,"k":42,"a":[9007199254740991,9007199254740992]}',
      ),
    ).toEqual({
      id: "820982911946154508",
      n: "-9007199254740993",
      s: '820982911946154508 " 9007199254740993',
      x: 1.5e300,
      k: 42,
      a: [9007199254740991, "9007199254740992"],
    });
    expect(() => parseJsonExact('{"id": 12345678901234567890 1}')).toThrow();
  });
});

describe("WooCommerce: the documented order, delivered as its order.created webhook", () => {
  it("is verified over its raw bytes and read as an order (id, totals, both lines, paid: date_paid is set)", () => {
    const secret = "wc-webhook-secret-0123456789";
    const rawBody = Buffer.from(sample("woocommerce/order-retrieve-example.json"));
    // The delivery headers WooCommerce documents (source/includes/wp-api-v3/_webhooks.md, "Delivery/payload").
    const headers = {
      "content-type": "application/json",
      "x-wc-webhook-source": "https://example.com/",
      "x-wc-webhook-topic": "order.created",
      "x-wc-webhook-resource": "order",
      "x-wc-webhook-event": "created",
      "x-wc-webhook-id": "12",
      "x-wc-webhook-delivery-id": "7",
      "x-wc-webhook-signature": createHmac("sha256", secret).update(rawBody).digest("base64"),
    };
    const platform = new WooCommercePlatform({ allowPrivate: true });
    expect(platform.verifyWebhook(secret, { headers, rawBody })).toEqual({ ok: true });
    const event = platform.parseWebhook({ headers, rawBody });
    expect(event).toMatchObject({
      kind: "order_created",
      order: { platformOrderId: "727", total: "29.35", currency: "USD", payment: "paid" },
    });
    expect(
      event.kind === "order_created" ? event.order.lines.map((l) => [l.productId, l.variantId, l.quantity]) : [],
    ).toEqual([
      ["93", null, 2],
      ["22", "23", 1],
    ]);
  });
});

describe("YouCan: the documented order.create webhook payload", () => {
  it("is verified over its raw bytes and read as an order (uuid id, ref, total, currency, the customer's phone, the line)", () => {
    const secret = "youcan-client-secret-0123456789";
    const rawBody = Buffer.from(sample("youcan/order-create-example.json"));
    // Each event carries x-youcan-signature, the hex HMAC-SHA256 of the payload keyed with the app's client secret.
    const headers = {
      "content-type": "application/json",
      "x-youcan-signature": createHmac("sha256", secret).update(rawBody).digest("hex"),
    };
    const platform = new YouCanPlatform({ allowPrivate: true });
    expect(platform.verifyWebhook(secret, { headers, rawBody })).toEqual({ ok: true });
    const event = platform.parseWebhook({ headers, rawBody });
    expect(event).toMatchObject({
      kind: "order_created",
      order: {
        platformOrderId: "e1f4dd96-7e1c-4cd6-b9c8-9ede62f53eae",
        displayName: "#025",
        total: "300",
        currency: "USD",
        customerName: "John Doe",
        phone: "+1234567890",
      },
    });
    expect(
      event.kind === "order_created"
        ? event.order.lines.map((l) => [l.productId, l.variantId, l.sku, l.title, l.quantity])
        : [],
    ).toEqual([[null, null, "SK7897", "Sample Product", 1]]);
  });
});
