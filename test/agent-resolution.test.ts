// A person of the shop settles an order (issue 34): PUT /v1/shops/{shop}/orders/{order}/resolution, the MCP tool
// resolve_order and the console's order page; channel `agent`, the supersede rule, `order.resolved` once per change.
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settleOrder } from "../src/calls/orders/settle.ts";
import { callBody, insertShop, postCall, type ShopFixture, uid } from "./calls-fixtures.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";

describe("an order settled by the shop's person (issue 34)", () => {
  let t: ListeningApp;
  let acct: TestAccount;
  let stranger: TestAccount;
  let shop: ShopFixture;

  const newOrder = async () => {
    const ext = uid("order");
    const res = await postCall(
      t,
      acct,
      callBody(shop.externalId, { order: { external_id: ext, items: [{ name: "Caftan", unit_price: "450" }] } }),
    );
    expect(res.statusCode, res.body).toBe(201);
    return ext;
  };
  const resolve = (ext: string, body: unknown, who = acct, s = shop.externalId) =>
    t.app.inject({
      method: "PUT",
      url: `/v1/shops/${encodeURIComponent(s)}/orders/${encodeURIComponent(ext)}/resolution`,
      headers: who.headers,
      payload: body as object,
    });
  const events = async (ext: string) =>
    (
      await t.ctx.db.query<{ payload: { resolution: { value: string; channel: string } } }>(
        "SELECT payload FROM webhook_events WHERE account_id = $1 AND type = 'order.resolved' AND payload->>'external_id' = $2 ORDER BY created_at, id",
        [acct.accountId, ext],
      )
    ).rows.map((r) => r.payload.resolution);

  beforeAll(async () => {
    t = await startListening({ env: { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on" } });
    acct = await newAccount(t.ctx, 1000);
    // The event is written only for an account with an active webhook; no delivery worker runs here.
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/v1/me/webhooks",
          headers: acct.headers,
          payload: { url: "http://127.0.0.1:9999/hooks" },
        })
      ).statusCode,
    ).toBe(201);
    stranger = await newAccount(t.ctx, 1000);
    shop = await insertShop(t.ctx, acct.accountId);
  });
  afterAll(() => t?.close());

  it("gives an open order the person's decision through channel agent, with its note, and sends order.resolved once", async () => {
    const ext = await newOrder();
    const res = await resolve(ext, { value: "confirmed", note: "Confirmée au téléphone par Samira, livraison samedi" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      changed: true,
      order: {
        external_id: ext,
        status: "resolved",
        resolution: {
          value: "confirmed",
          channel: "agent",
          call_id: null,
          message_id: null,
          details: { note: "Confirmée au téléphone par Samira, livraison samedi" },
        },
      },
    });
    // The same answer again changes nothing and sends nothing.
    expect(
      (await resolve(ext, { value: "confirmed", note: "Confirmée au téléphone par Samira, livraison samedi" })).json()
        .changed,
    ).toBe(false);
    expect(await events(ext)).toEqual([expect.objectContaining({ value: "confirmed", channel: "agent" })]);
    // A later, different decision replaces it; a callback_requested never replaces a decision.
    expect((await resolve(ext, { value: "rescheduled", preferred_date: "2026-12-05" })).json()).toMatchObject({
      changed: true,
      order: { resolution: { value: "rescheduled", details: { preferred_date: "2026-12-05" } } },
    });
    expect((await resolve(ext, { value: "callback_requested" })).json()).toMatchObject({
      changed: false,
      order: { resolution: { value: "rescheduled" } },
    });
    expect((await events(ext)).map((r) => r.value)).toEqual(["confirmed", "rescheduled"]);
  });

  it("follows the same supersede rule as voice: a decision beats a callback request, not the other way round", async () => {
    const ext = await newOrder();
    const { rows } = await t.ctx.db.query<{ id: string }>(
      "SELECT id FROM orders WHERE shop_id = $1 AND external_id = $2",
      [shop.id, ext],
    );
    await settleOrder(t.ctx, t.ctx.db, {
      accountId: acct.accountId,
      orderId: rows[0]!.id,
      resolution: "callback_requested",
      channel: "whatsapp",
      at: new Date(Date.now() - 60_000),
      details: null,
    });
    expect((await resolve(ext, { value: "declined", note: "Le client a trouvé moins cher" })).json()).toMatchObject({
      changed: true,
      order: { resolution: { value: "declined", channel: "agent" } },
    });
  });

  it("refuses unresolved, unknown values and fields, and answers not_found for another account, a missing order or shop; 401 without a key", async () => {
    const ext = await newOrder();
    for (const bad of [
      { value: "unresolved" },
      { value: "maybe" },
      {},
      { value: "confirmed", colour: "red" },
      { value: "confirmed", note: "" },
      { value: "rescheduled", preferred_date: "samedi" },
    ]) {
      problem(await resolve(ext, bad), "validation_error", 422);
    }
    problem(await resolve(ext, { value: "confirmed" }, stranger), "not_found", 404);
    problem(await resolve("no-such-order", { value: "confirmed" }), "not_found", 404);
    problem(await resolve(ext, { value: "confirmed" }, acct, "no-such-shop"), "not_found", 404);
    problem(
      await t.app.inject({
        method: "PUT",
        url: `/v1/shops/${shop.externalId}/orders/${ext}/resolution`,
        headers: { authorization: "Bearer nope" },
        payload: { value: "confirmed" },
      }),
      "invalid_api_key",
      401,
    );
    expect(await events(ext)).toEqual([]);
  });

  it("has the MCP tool resolve_order", async () => {
    const ext = await newOrder();
    const client = await connect(t.url, acct.apiKey);
    expect(
      await ok(client, "resolve_order", {
        shop_external_id: shop.externalId,
        order_external_id: ext,
        value: "change_requested",
        note: "Taille M au lieu de L",
      }),
    ).toMatchObject({ changed: true, order: { resolution: { value: "change_requested", channel: "agent" } } });
    await fails(
      client,
      "resolve_order",
      { shop_external_id: shop.externalId, order_external_id: "nope", value: "confirmed" },
      "not_found",
    );
    await client.close();
  });

  it("has the same action on the console's order page, behind its CSRF token", async () => {
    const ext = await newOrder();
    const jar = new Map<string, string>();
    const send = async (
      method: "GET" | "POST",
      url: string,
      form?: Record<string, string>,
    ): Promise<LightMyRequestResponse> => {
      const res = await t.app.inject({
        method,
        url,
        ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
        headers: {
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
          ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        },
      });
      for (const c of res.cookies as { name: string; value: string }[]) jar.set(c.name, c.value);
      return res;
    };
    const csrf = (res: LightMyRequestResponse) => [...res.body.matchAll(/name="_csrf" value="([^"]+)"/g)].at(-1)![1]!;
    const signIn = await send("GET", "/console/sign-in");
    expect(
      (await send("POST", "/console/sign-in", { _csrf: csrf(signIn), api_key: acct.apiKey, next: "/console/calls" }))
        .statusCode,
    ).toBe(303);
    const page = await send("GET", `/console/orders/${shop.externalId}/${ext}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-form="agent-resolution"');
    const action = `/console/orders/${shop.externalId}/${ext}/resolution`;
    expect((await send("POST", action, { value: "confirmed" })).statusCode).toBe(403);
    expect(await events(ext)).toEqual([]);
    const done = await send("POST", action, { _csrf: csrf(page), value: "wrong_number", note: "Pas le bon client" });
    expect(done.statusCode, done.body.slice(0, 300)).toBe(303);
    expect(done.headers.location).toBe(`/console/orders/${shop.externalId}/${ext}`);
    const after = await send("GET", `/console/orders/${shop.externalId}/${ext}`);
    expect(after.body).toContain('data-resolution="wrong_number"');
    expect(after.body).toContain("Pas le bon client");
    expect((await events(ext)).map((r) => r.channel)).toEqual(["agent"]);
  });
});
