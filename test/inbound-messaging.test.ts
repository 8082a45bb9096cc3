import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { request } from "node:http";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../src/context.ts";
import { createWorkers } from "../src/root/job-handlers.ts";
import type { Workers } from "../src/jobs/runtime.ts";
import type { Root } from "../src/root/root.ts";
import { verifyWebhook } from "../src/webhooks/signature.ts";
import { insertShop, uid } from "./calls-fixtures.ts";
import { newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

const APP_SECRET = "meta-app-secret-for-tests";
const VERIFY_TOKEN = "verify-me-please";
const ENV = {
  WAKHA_WEBHOOK_ALLOW_PRIVATE: "on",
  WAKHA_MESSAGING_APP_SECRET: APP_SECRET,
  WAKHA_MESSAGING_VERIFY_TOKEN: VERIFY_TOKEN,
};

const sign = (raw: string | Buffer, secret = APP_SECRET) =>
  `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;

/** A random Moroccan mobile number, E.164, and WhatsApp's form of it (no '+'). */
function phone(): { e164: string; wa: string } {
  const digits = `21261${String(randomBytes(4).readUInt32BE() % 10_000_000).padStart(7, "0")}`; // 061...: a mobile range (issue 31.5)
  return { e164: `+${digits}`, wa: digits };
}

function payload(messages: object[], extra: object = {}): string {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "1234",
        changes: [
          {
            field: "messages",
            value: { messaging_product: "whatsapp", metadata: { phone_number_id: "1" }, messages, ...extra },
          },
        ],
      },
    ],
  });
}

function textMessage(from: string, text: string, id = `wamid.${randomBytes(8).toString("hex")}`) {
  return { id, from, timestamp: "1763781000", type: "text", text: { body: text } };
}

async function insertCall(
  ctx: AppContext,
  accountId: string,
  customerPhone: string,
  createdAt = new Date(),
): Promise<string> {
  const shop = await insertShop(ctx, accountId);
  const orderId = randomUUID();
  const callId = randomUUID();
  const orderExternalId = uid("order");
  await ctx.db.query("INSERT INTO orders (id, account_id, shop_id, external_id) VALUES ($1, $2, $3, $4)", [
    orderId,
    accountId,
    shop.id,
    orderExternalId,
  ]);
  await ctx.db.query(
    `INSERT INTO calls (id, account_id, shop_id, order_id, order_external_id, status, customer_name, customer_phone, amount, currency,
                        country, language, dialect, channel, items, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'completed', 'Fatima', $6, '249.00', 'MAD', 'MA', 'ar', 'ma', 'gsm', '[]', $7, $7)`,
    [callId, accountId, shop.id, orderId, orderExternalId, customerPhone, createdAt],
  );
  return callId;
}

describe("inbound messaging webhook (CONTRACT §7, spec 5.7)", () => {
  let t: TestApp;
  let workers: Workers<Root>;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startApp({ env: ENV });
    workers = createWorkers(t.ctx, () => {});
    await workers.start(["deliverWebhook"]);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await workers.stop();
    await receiver.close();
    await t.close();
  });

  const post = (app: TestApp, body: string | Buffer, headers: Record<string, string> = {}) =>
    app.app.inject({
      method: "POST",
      url: "/webhooks/messaging",
      headers: { "content-type": "application/json", ...headers },
      payload: body,
    });

  function legacy(res: LightMyRequestResponse, status: number): string {
    expect(res.statusCode).toBe(status);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const body = res.json();
    expect(Object.keys(body)).toEqual(["detail"]);
    return body.detail as string;
  }

  describe("order of checks: size, secret, signature", () => {
    const big = Buffer.alloc(256 * 1024 + 1, "a");

    it("413 payload_too_large before the signature, signed or not", async () => {
      expect(legacy(await post(t, big), 413)).toMatch(/256 KiB/);
      legacy(await post(t, big, { "x-hub-signature-256": sign(big) }), 413);
      legacy(await post(t, big, { "content-type": "text/plain" }), 413);
      // Exactly 256 KiB is within the limit: it reaches the signature check.
      legacy(await post(t, Buffer.alloc(256 * 1024, "a")), 401);
    });

    it("413 for a streamed (chunked) body with no Content-Length, over a real socket", async () => {
      const bare = await startApp();
      try {
        const address = await bare.app.listen({ port: 0, host: "127.0.0.1" });
        const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request(
            `${address}/webhooks/messaging`,
            { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
            (r) => {
              let body = "";
              r.on("data", (c) => (body += c));
              r.on("end", () => resolve({ status: r.statusCode ?? 0, body }));
            },
          );
          req.on("error", reject);
          for (let i = 0; i < 5; i++) req.write(Buffer.alloc(64 * 1024, "a"));
          req.end();
        });
        expect(res.status).toBe(413);
        expect(JSON.parse(res.body)).toEqual({ detail: "The body is over 256 KiB." });
      } finally {
        await bare.close();
      }
    });

    it("413 even when no secret is configured, then 503 for a body within the limit", async () => {
      const bare = await startApp();
      try {
        legacy(await post(bare, big), 413);
        const body = payload([]);
        expect(legacy(await post(bare, body, { "x-hub-signature-256": sign(body) }), 503)).toMatch(/not configured/);
      } finally {
        await bare.close();
      }
    });

    it("401 for a missing, malformed or wrong signature", async () => {
      const body = payload([textMessage("212600000000", "salam")]);
      legacy(await post(t, body), 401);
      legacy(await post(t, body, { "x-hub-signature-256": "sha256=zz" }), 401);
      legacy(await post(t, body, { "x-hub-signature-256": sign(body).replace("sha256=", "sha1=") }), 401);
      legacy(await post(t, body, { "x-hub-signature-256": sign(body, "another-secret") }), 401);
      // The signature covers the raw bytes: the same JSON re-serialised differently does not verify.
      legacy(await post(t, body.replace(`"salam"`, ` "salam"`), { "x-hub-signature-256": sign(body) }), 401);
    });

    it("400 for a signed body that is not a WhatsApp payload", async () => {
      for (const body of ["not json", JSON.stringify({ entry: "nope" })]) {
        legacy(await post(t, body, { "x-hub-signature-256": sign(body) }), 400);
      }
    });
  });

  it("answers 200 {status: ok} to a valid signed payload, status updates included", async () => {
    const body = payload([], { statuses: [{ id: "wamid.x", status: "read" }] });
    const res = await post(t, body, { "x-hub-signature-256": sign(body) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("stores an unmatched message once; a duplicate message id is ignored", async () => {
    const p = phone();
    const message = textMessage(p.wa, "chkoun nta?");
    const body = payload([message]);
    for (let i = 0; i < 3; i++)
      expect((await post(t, body, { "x-hub-signature-256": sign(body) })).statusCode).toBe(200);
    const { rows } = await t.ctx.db.query(
      "SELECT from_phone, text, call_id FROM inbound_messages WHERE message_id = $1",
      [message.id],
    );
    expect(rows).toEqual([{ from_phone: p.e164, text: "chkoun nta?", call_id: null }]);
  });

  async function configured(path: string): Promise<TestAccount & { secret: string }> {
    const a = await newAccount(t.ctx);
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/me/webhooks",
      headers: a.headers,
      payload: { url: `http://127.0.0.1:${receiver.port}${path}` },
    });
    return { ...a, secret: res.json().secret };
  }

  it("attaches a message to the latest call to that phone in 30 days and delivers message.received to its owner", async () => {
    const p = phone();
    const older = await configured("/older");
    const owner = await configured("/owner");
    const stale = await configured("/stale");
    const day = 24 * 3600 * 1000;
    await insertCall(t.ctx, stale.accountId, p.e164, new Date(Date.now() - 31 * day));
    await insertCall(t.ctx, older.accountId, p.e164, new Date(Date.now() - 2 * day));
    const callId = await insertCall(t.ctx, owner.accountId, p.e164, new Date(Date.now() - day));

    const message = textMessage(p.wa, "wakha, sift liya f jm3a");
    const body = payload([message]);
    expect((await post(t, body, { "x-hub-signature-256": sign(body) })).statusCode).toBe(200);
    // The platform re-sends it: no second event.
    expect((await post(t, body, { "x-hub-signature-256": sign(body) })).statusCode).toBe(200);

    const [got] = await receiver
      .waitFor(receiver.requests.length + 1)
      .then(() => receiver.requests.filter((r) => r.path === "/owner"));
    expect(got).toBeDefined();
    expect(got!.headers["x-service-event-type"]).toBe("message.received");
    expect(verifyWebhook(owner.secret, got!.headers["x-service-signature"] as string, got!.body)).toBe(true);
    const event = JSON.parse(got!.body);
    expect(event.data).toMatchObject({
      call_id: callId,
      message_id: message.id,
      from: p.e164,
      type: "text",
      text: "wakha, sift liya f jm3a",
    });
    expect(event.data.received_at).toMatch(/Z$/);
    expect(event.data.sent_at).toBe(new Date(1763781000 * 1000).toISOString());

    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.requests.filter((r) => r.path === "/owner")).toHaveLength(1);
    expect(receiver.requests.filter((r) => r.path === "/older" || r.path === "/stale")).toHaveLength(0);
    const { rows } = await t.ctx.db.query(
      "SELECT call_id, account_id, event_id FROM inbound_messages WHERE message_id = $1",
      [message.id],
    );
    expect(rows[0]).toEqual({ call_id: callId, account_id: owner.accountId, event_id: event.id });
    const list = (
      await t.app.inject({ method: "GET", url: "/v1/me/webhooks/deliveries", headers: owner.headers })
    ).json();
    expect(list.data.map((d: { event_type: string }) => d.event_type)).toEqual(["message.received"]);
  });

  it("does not attach a message to a call older than 30 days", async () => {
    const p = phone();
    const a = await configured("/too-old");
    await insertCall(t.ctx, a.accountId, p.e164, new Date(Date.now() - 31 * 24 * 3600 * 1000));
    const message = textMessage(p.wa, "salam");
    const body = payload([message]);
    expect((await post(t, body, { "x-hub-signature-256": sign(body) })).statusCode).toBe(200);
    const { rows } = await t.ctx.db.query("SELECT call_id FROM inbound_messages WHERE message_id = $1", [message.id]);
    expect(rows).toEqual([{ call_id: null }]);
  });

  describe("GET verification handshake", () => {
    const verify = (app: TestApp, query: string) =>
      app.app.inject({ method: "GET", url: `/webhooks/messaging?${query}` });

    it("echoes the challenge as text/plain when the token matches", async () => {
      const res = await verify(t, `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/plain/);
      expect(res.body).toBe("1158201444");
    });

    it("403 with {detail} for a wrong token or mode, or with no token configured", async () => {
      legacy(await verify(t, "hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1"), 403);
      legacy(await verify(t, `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`), 403);
      legacy(await verify(t, ""), 403);
      const bare = await startApp();
      try {
        legacy(await verify(bare, "hub.mode=subscribe&hub.verify_token=&hub.challenge=1"), 403);
      } finally {
        await bare.close();
      }
    });
  });

  it("is documented in OpenAPI under the Inbound tag", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    const path = doc.paths["/webhooks/messaging"];
    expect(path.post.tags).toEqual(["Inbound"]);
    expect(Object.keys(path.post.responses).sort()).toEqual(["200", "400", "401", "413", "503"]);
    expect(path.get.tags).toEqual(["Inbound"]);
  });
});
