// The store connector and WhatsApp pages of the console (issue 38.3): set up or not, the address with a copy button,
// recent events with their reasons in words and the shop's own order name, the retry of a failed write-back (through
// the service /v1 uses), recent WhatsApp messages; another account's shop is not found.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logConnectorEvent } from "../src/services/connectors.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";
import { ENCRYPTION_KEY, newAccount, startApp, type TestAccount, type TestApp } from "./helpers.ts";

async function signIn(
  t: TestApp,
  key: string,
  lang: string,
): Promise<{ cookie: string; csrf: (body: string) => string }> {
  const form = await t.app.inject({ method: "GET", url: "/console/sign-in" });
  const jar = new Map(form.cookies.map((c) => [c.name, c.value]));
  const csrf = (body: string) => [...body.matchAll(/name="_csrf" value="([^"]+)"/g)].at(-1)![1]!;
  const res = await t.app.inject({
    method: "POST",
    url: "/console/sign-in",
    payload: new URLSearchParams({ _csrf: csrf(form.body), api_key: key }).toString(),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
    },
  });
  for (const c of res.cookies) jar.set(c.name, c.value);
  jar.set("wakha_lang", lang);
  return { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "), csrf };
}

describe("console store connector and WhatsApp pages (issue 38.3)", () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let shop: string;
  let bare: string;
  let failedId: string;

  beforeAll(async () => {
    t = await startApp({ env: { WAKHA_ENCRYPTION_KEY: ENCRYPTION_KEY } });
    a = await newAccount(t.ctx, 1000);
    b = await newAccount(t.ctx, 1000);
    const s = await insertShop(t.ctx, a.accountId);
    shop = s.externalId;
    bare = (await insertShop(t.ctx, a.accountId)).externalId;
    const put = await t.app.inject({
      method: "PUT",
      url: `/v1/shops/${shop}/connector`,
      headers: a.headers,
      payload: {
        platform: "shopify",
        store_url: "https://my-store.myshopify.com",
        access_token: `shpat_${"a".repeat(32)}`,
        webhook_secret: "s".repeat(32),
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const connectorId = (
      await t.ctx.db.query<{ id: string }>("SELECT id FROM store_connectors WHERE shop_id = $1", [s.id])
    ).rows[0]!.id;
    await logConnectorEvent(t.ctx.db, {
      connectorId,
      accountId: a.accountId,
      kind: "order",
      status: "skipped",
      reason: "paid",
      platformOrderId: "5550001",
      detail: { display_name: "#1003" },
    });
    await logConnectorEvent(t.ctx.db, {
      connectorId,
      accountId: a.accountId,
      kind: "write_back",
      status: "failed",
      reason: "credentials_refused",
      platformOrderId: "5550002",
    });
    await logConnectorEvent(t.ctx.db, {
      connectorId,
      accountId: a.accountId,
      kind: "order",
      status: "rejected",
      reason: "some_new_slug",
      platformOrderId: "5550003",
    });
    failedId = (
      await t.ctx.db.query<{ id: string }>(
        "SELECT id FROM connector_events WHERE connector_id = $1 AND kind = 'write_back'",
        [connectorId],
      )
    ).rows[0]!.id;
    // A WhatsApp message that failed, on an order of the shop.
    const orderId = randomUUID();
    await t.ctx.db.query("INSERT INTO orders (id, account_id, shop_id, external_id) VALUES ($1, $2, $3, 'WA-1')", [
      orderId,
      a.accountId,
      s.id,
    ]);
    await t.ctx.db.query(
      `INSERT INTO whatsapp_messages (id, account_id, order_id, attempt, kind, to_phone, language, status, error)
       VALUES ($1, $2, $3, 1, 'template', '+212612345601', 'ar', 'skipped', '{"reason": "number_do_not_call"}')`,
      [randomUUID(), a.accountId, orderId],
    );
  });
  afterAll(async () => t?.close());

  it("shows the connector: platform, the address with a copy button, events in words with the shop's order name", async () => {
    const { cookie } = await signIn(t, a.apiKey, "fr");
    const page = await t.app.inject({ method: "GET", url: `/console/shops/${shop}/connector`, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-connector="on"');
    expect(page.body).toMatch(/<input id="connector-url" readonly dir="ltr" value="[^"]+\/connectors\/[^"]+"/);
    expect(page.body).toContain('data-copy="connector-url"');
    expect(page.body).toContain("Commande reçue");
    expect(page.body).toContain("déjà payée (pas en paiement à la livraison)");
    expect(page.body).toContain("<bdi>#1003</bdi>");
    expect(page.body).toContain("la boutique a refusé le jeton d’accès");
    // An unknown reason is shown as the code it is, introduced in words.
    expect(page.body).toContain("refus : <code>some_new_slug</code>");
    expect(page.body).toContain(`action="/console/shops/${shop}/connector/events/${failedId}/retry"`);
    const none = await t.app.inject({ method: "GET", url: `/console/shops/${bare}/connector`, headers: { cookie } });
    expect(none.statusCode).toBe(200);
    expect(none.body).toContain('data-connector="off"');
  });

  it("retries a failed write-back through the service, once; another account's shop is not found", async () => {
    const { cookie, csrf } = await signIn(t, a.apiKey, "en");
    const page = await t.app.inject({ method: "GET", url: `/console/shops/${shop}/connector`, headers: { cookie } });
    const url = `/console/shops/${shop}/connector/events/${failedId}/retry`;
    const post = (token: string) =>
      t.app.inject({
        method: "POST",
        url,
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        payload: `_csrf=${encodeURIComponent(token)}`,
      });
    expect((await post("nope")).statusCode).toBe(403);
    const retried = await post(csrf(page.body));
    expect(retried.statusCode).toBe(303);
    expect((await t.ctx.db.query("SELECT status FROM connector_events WHERE id = $1", [failedId])).rows[0]).toEqual({
      status: "pending",
    });
    const again = await post(csrf(page.body));
    expect(again.statusCode).toBe(409);
    const other = await signIn(t, b.apiKey, "en");
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: `/console/shops/${shop}/connector`,
          headers: { cookie: other.cookie },
        })
      ).statusCode,
    ).toBe(404);
  });

  it("shows WhatsApp set up or not, its templates, and recent messages with their reasons in words", async () => {
    const { cookie } = await signIn(t, a.apiKey, "ar");
    const off = await t.app.inject({ method: "GET", url: "/console/whatsapp", headers: { cookie } });
    expect(off.statusCode).toBe(200);
    expect(off.body).toContain('data-whatsapp="off"');
    expect(off.body).toContain("لم تُرسل");
    expect(off.body).toContain("الرقم في قائمة عدم الاتصال");
    const put = await t.app.inject({
      method: "PUT",
      url: "/v1/me/whatsapp",
      headers: a.headers,
      payload: {
        phone_number_id: "1234567890",
        access_token: "EAAG".padEnd(40, "x"),
        templates: { ar: { name: "wakha_confirm_ar" } },
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const on = await t.app.inject({ method: "GET", url: "/console/whatsapp", headers: { cookie } });
    expect(on.body).toContain('data-whatsapp="on"');
    expect(on.body).toContain("<code>wakha_confirm_ar</code>");
    expect(on.body).toContain("لا يوجد قالب");
    const other = await signIn(t, b.apiKey, "fr");
    const theirs = await t.app.inject({ method: "GET", url: "/console/whatsapp", headers: { cookie: other.cookie } });
    expect(theirs.body).toContain('data-whatsapp="off"');
    expect(theirs.body).not.toContain("WA-1");
  });

  it("shows the shop's own order name (#1003) beside the platform's id on the calls and orders lists", async () => {
    const created = await postCall(
      t,
      a,
      callBody(shop, { order: { external_id: "5550001", items: [{ name: "Caftan", unit_price: "249.00" }] } }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const callId = (created.json() as { id: string }).id;
    // The order the connector took in is this call's order (as intake links them).
    await t.ctx.db.query(
      "UPDATE connector_events SET order_id = (SELECT order_id FROM calls WHERE id = $1), call_id = $1 WHERE platform_order_id = '5550001' AND kind = 'order'",
      [callId],
    );
    const { cookie } = await signIn(t, a.apiKey, "fr");
    const calls = await t.app.inject({ method: "GET", url: "/console/calls", headers: { cookie } });
    expect(calls.body).toContain('<bdi>#1003</bdi> <span class="muted" dir="ltr">5550001</span>');
    const orders = await t.app.inject({ method: "GET", url: "/console/orders", headers: { cookie } });
    expect(orders.body).toContain('<bdi>#1003</bdi> <span class="muted" dir="ltr">5550001</span>');
    // Another account never sees the name.
    const other = await signIn(t, b.apiKey, "fr");
    expect(
      (await t.app.inject({ method: "GET", url: "/console/calls", headers: { cookie: other.cookie } })).body,
    ).not.toContain("#1003");
  });
});
