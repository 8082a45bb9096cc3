// A shop's handoff to a person (issue 34): PUT/GET/DELETE /v1/shops/{shop}/handoff and its MCP tools; the number
// follows a call's dialling rules; hours in the shop's time zone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insideHandoffHours } from "../src/domain/handoff.ts";
import { insertShop, type ShopFixture } from "./calls-fixtures.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";

const BODY = {
  phone_number: "+212612345699",
  triggers: ["customer_asks", "unanswered_question"],
  ring_timeout_seconds: 15,
};

describe("a shop's handoff (issue 34)", () => {
  let t: ListeningApp;
  let acct: TestAccount;
  let stranger: TestAccount;
  let shop: ShopFixture;
  const url = (s: string) => `/v1/shops/${encodeURIComponent(s)}/handoff`;
  const put = (body: unknown, who = acct, s = shop.externalId) =>
    t.app.inject({ method: "PUT", url: url(s), headers: who.headers, payload: body as object });

  beforeAll(async () => {
    t = await startListening();
    acct = await newAccount(t.ctx, 100);
    stranger = await newAccount(t.ctx, 100);
    shop = await insertShop(t.ctx, acct.accountId);
    await t.ctx.db.query("UPDATE shops SET default_country = 'MA' WHERE id = $1", [shop.id]);
  });
  afterAll(() => t?.close());

  it("is 404 handoff_not_configured before it is set, then set, read, replaced and removed", async () => {
    problem(
      await t.app.inject({ method: "GET", url: url(shop.externalId), headers: acct.headers }),
      "handoff_not_configured",
      404,
    );
    const set = await put({ ...BODY, hours: { days: { mon: [{ from: "09:00", to: "18:00" }], sat: [] } } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      shop_external_id: shop.externalId,
      phone_number: "+212612345699",
      triggers: ["customer_asks", "unanswered_question"],
      ring_timeout_seconds: 15,
      hours: { time_zone: "Africa/Casablanca", days: { mon: [{ from: "09:00", to: "18:00" }], sat: [] } },
    });
    const read = await t.app.inject({ method: "GET", url: url(shop.externalId), headers: acct.headers });
    expect(read.json()).toEqual(set.json());
    const replaced = await put({ phone_number: "+212522123456", triggers: ["angry"] });
    expect(replaced.json()).toMatchObject({
      phone_number: "+212522123456",
      triggers: ["angry"],
      ring_timeout_seconds: 20,
      hours: null,
      created_at: set.json().created_at,
    });
    expect(
      (await t.app.inject({ method: "DELETE", url: url(shop.externalId), headers: acct.headers })).statusCode,
    ).toBe(204);
    problem(
      await t.app.inject({ method: "DELETE", url: url(shop.externalId), headers: acct.headers }),
      "handoff_not_configured",
      404,
    );
    problem(
      await t.app.inject({ method: "GET", url: url(shop.externalId), headers: acct.headers }),
      "handoff_not_configured",
      404,
    );
  });

  it("refuses numbers a call would not dial: premium rate, another country than the shop's, satellite", async () => {
    const premium = problem(await put({ ...BODY, phone_number: "+33899123456" }), "phone_number_not_allowed", 422);
    expect(String(premium["detail"])).toContain("the call is for MA");
    problem(await put({ ...BODY, phone_number: "+213550123401" }), "phone_number_not_allowed", 422);
    problem(await put({ ...BODY, phone_number: "+881612345678" }), "phone_number_not_allowed", 422);
    // A shop without a country: any served country's mobile or fixed line, nothing else.
    const open = await insertShop(t.ctx, acct.accountId);
    expect((await put({ ...BODY, phone_number: "+213550123401" }, acct, open.externalId)).statusCode).toBe(200);
    problem(
      await put({ ...BODY, phone_number: "+33899123456" }, acct, open.externalId),
      "phone_number_not_allowed",
      422,
    );
    problem(
      await put({ ...BODY, phone_number: "+4915112345678" }, acct, open.externalId),
      "phone_number_not_allowed",
      422,
    );
    // Hours need a zone when the shop has no country to take it from.
    problem(await put({ ...BODY, hours: { days: {} } }, acct, open.externalId), "validation_error", 422);
    expect(
      (await put({ ...BODY, hours: { time_zone: "Africa/Algiers", days: {} } }, acct, open.externalId)).json().hours
        .time_zone,
    ).toBe("Africa/Algiers");
  });

  it("validates the body: triggers, timeout bounds, windows, zone, unknown fields", async () => {
    for (const bad of [
      { ...BODY, triggers: [] },
      { ...BODY, triggers: ["bored"] },
      { ...BODY, triggers: ["angry", "angry"] },
      { ...BODY, ring_timeout_seconds: 4 },
      { ...BODY, ring_timeout_seconds: 61 },
      { ...BODY, ring_timeout_seconds: 10.5 },
      { ...BODY, phone_number: "0612345699" },
      { ...BODY, colour: "red" },
      { ...BODY, hours: { days: { mon: [{ from: "18:00", to: "09:00" }] } } },
      { ...BODY, hours: { time_zone: "Mars/Olympus", days: {} } },
      { ...BODY, hours: { days: { monday: [] } } },
    ])
      problem(await put(bad), "validation_error", 422);
  });

  it("answers another account and archived or unknown shops with shop_not_found, and a bad key with 401", async () => {
    problem(await put(BODY, stranger), "shop_not_found", 404);
    problem(
      await t.app.inject({ method: "GET", url: url(shop.externalId), headers: stranger.headers }),
      "shop_not_found",
      404,
    );
    problem(
      await t.app.inject({ method: "DELETE", url: url(shop.externalId), headers: stranger.headers }),
      "shop_not_found",
      404,
    );
    problem(await put(BODY, acct, "no-such-shop"), "shop_not_found", 404);
    const archived = await insertShop(t.ctx, acct.accountId, { status: "archived" });
    problem(await put(BODY, acct, archived.externalId), "shop_not_found", 404);
    problem(
      await t.app.inject({
        method: "PUT",
        url: url(shop.externalId),
        headers: { authorization: "Bearer nope" },
        payload: BODY,
      }),
      "invalid_api_key",
      401,
    );
    problem(await t.app.inject({ method: "GET", url: url(shop.externalId) }), "invalid_api_key", 401);
  });

  it("has MCP tools for the three verbs", async () => {
    const client = await connect(t.url, acct.apiKey);
    expect(await ok(client, "set_handoff", { shop_external_id: shop.externalId, ...BODY })).toMatchObject({
      phone_number: "+212612345699",
      ring_timeout_seconds: 15,
    });
    expect(await ok(client, "get_handoff", { shop_external_id: shop.externalId })).toMatchObject({
      triggers: ["customer_asks", "unanswered_question"],
    });
    await fails(
      client,
      "set_handoff",
      { shop_external_id: shop.externalId, ...BODY, phone_number: "+33899123456" },
      "phone_number_not_allowed",
    );
    expect(await ok(client, "delete_handoff", { shop_external_id: shop.externalId })).toEqual({ deleted: true });
    await fails(client, "get_handoff", { shop_external_id: shop.externalId }, "handoff_not_configured");
    await client.close();
  });

  it("takes transfers inside the hours only, in their time zone", () => {
    const hours = { time_zone: "Europe/Paris", days: { mon: [{ from: "09:00", to: "18:00" }] } };
    // Monday 2026-11-23: Paris is UTC+1.
    expect(insideHandoffHours(hours, new Date("2026-11-23T08:00:00Z"))).toBe(true);
    expect(insideHandoffHours(hours, new Date("2026-11-23T07:59:00Z"))).toBe(false);
    expect(insideHandoffHours(hours, new Date("2026-11-23T17:00:00Z"))).toBe(false);
    expect(insideHandoffHours(hours, new Date("2026-11-24T10:00:00Z"))).toBe(false);
    expect(insideHandoffHours(null, new Date("2026-11-24T03:00:00Z"))).toBe(true);
  });
});
