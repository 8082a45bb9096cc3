// Issue 15: the do-not-call list over REST and MCP, the refusal at creation (number_do_not_call), a queued call
// whose number is listed afterwards never dialled, and a customer's spoken request listing the number by the call's end.
import { randomUUID } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimCall } from "../src/calls/call-states.ts";
import type { SimulatedCustomer } from "../src/engine/dialogue/types.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { callBody, countCalls, insertShop, postCall } from "./calls-fixtures.ts";
import { connect, fails, type ListeningApp, ok, startListening } from "./mcp-client.ts";
import { createEngineDatabase, type EngineApp, startEngineApp, waitForEnd } from "./engine-fixtures.ts";
import { REQUESTS } from "./do-not-call-fixtures.ts";

const PHONE = "+212612345601";

describe("/v1/me/do-not-call and the MCP tools", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let b: TestAccount;
  let shop: string;
  let client: Client;
  beforeAll(async () => {
    t = await startListening();
    a = await newAccount(t.ctx, 1000);
    b = await newAccount(t.ctx, 1000);
    shop = (await insertShop(t.ctx, a.accountId)).externalId;
    client = await connect(t.url, a.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const add = (acct: TestAccount, payload: object) =>
    t.app.inject({ method: "POST", url: "/v1/me/do-not-call", headers: acct.headers, payload });

  it("adds a number idempotently (201, then 200 with the same entry), reads, lists and removes it (204 twice)", async () => {
    const first = await add(a, { phone_number: PHONE, reason: "asked by email" });
    expect(first.statusCode).toBe(201);
    expect(first.headers["x-ratelimit-limit"]).toBeDefined();
    expect(first.json()).toEqual({
      phone_number: PHONE,
      source: "api",
      reason: "asked by email",
      call_id: null,
      created_at: expect.any(String),
    });
    const again = await add(a, { phone_number: PHONE, reason: "other" });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());

    const one = await t.app.inject({
      method: "GET",
      url: `/v1/me/do-not-call/${encodeURIComponent(PHONE)}`,
      headers: a.headers,
    });
    expect(one.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: "GET", url: `/v1/me/do-not-call/${PHONE}`, headers: a.headers })).json(),
    ).toEqual(first.json());
    const list = await t.app.inject({ method: "GET", url: "/v1/me/do-not-call", headers: a.headers });
    expect(list.json()).toEqual({ data: [first.json()], has_more: false, next_cursor: null });

    for (let i = 0; i < 2; i++) {
      const del = await t.app.inject({
        method: "DELETE",
        url: `/v1/me/do-not-call/${encodeURIComponent(PHONE)}`,
        headers: a.headers,
      });
      expect(del.statusCode).toBe(204);
    }
    problem(
      await t.app.inject({ method: "GET", url: `/v1/me/do-not-call/${PHONE}`, headers: a.headers }),
      "not_found",
      404,
    );
  });

  it("validates the body (E.164, unknown fields) and the page size", async () => {
    const bad = problem(await add(a, { phone_number: "0612345678", extra: 1 }), "validation_error", 422);
    expect((bad["errors"] as { loc: string[]; type: string }[]).map((e) => [e.loc.join("."), e.type])).toEqual(
      expect.arrayContaining([
        ["body.phone_number", "value_error"],
        ["body.extra", "extra_forbidden"],
      ]),
    );
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/do-not-call?limit=0", headers: a.headers }),
      "validation_error",
      422,
    );
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/do-not-call?cursor=nope", headers: a.headers }),
      "invalid_cursor",
      400,
    );
  });

  it("pages with cursors, newest first", async () => {
    const acct = await newAccount(t.ctx, 0);
    const phones = ["+212612340001", "+212612340002", "+212612340003"];
    for (const phone_number of phones) expect((await add(acct, { phone_number })).statusCode).toBe(201);
    const p1 = (await t.app.inject({ method: "GET", url: "/v1/me/do-not-call?limit=2", headers: acct.headers })).json();
    expect(p1.data.map((e: { phone_number: string }) => e.phone_number)).toEqual([phones[2], phones[1]]);
    expect(p1.has_more).toBe(true);
    const p2 = (
      await t.app.inject({
        method: "GET",
        url: `/v1/me/do-not-call?limit=2&cursor=${p1.next_cursor}`,
        headers: acct.headers,
      })
    ).json();
    expect(p2).toMatchObject({ data: [{ phone_number: phones[0] }], has_more: false, next_cursor: null });
  });

  it("is scoped by account and needs a key", async () => {
    await add(a, { phone_number: "+212612349999" });
    expect((await t.app.inject({ method: "GET", url: "/v1/me/do-not-call", headers: b.headers })).json().data).toEqual(
      [],
    );
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/do-not-call/+212612349999", headers: b.headers }),
      "not_found",
      404,
    );
    // Another account's removal does not touch this account's list.
    await t.app.inject({ method: "DELETE", url: "/v1/me/do-not-call/+212612349999", headers: b.headers });
    expect(
      (await t.app.inject({ method: "GET", url: "/v1/me/do-not-call/+212612349999", headers: a.headers })).statusCode,
    ).toBe(200);
    problem(await t.app.inject({ method: "GET", url: "/v1/me/do-not-call" }), "invalid_api_key", 401);
    problem(
      await t.app.inject({
        method: "POST",
        url: "/v1/me/do-not-call",
        headers: { authorization: "Bearer nope" },
        payload: { phone_number: PHONE },
      }),
      "invalid_api_key",
      401,
    );
  });

  it("refuses a call to a listed number with 422 number_do_not_call, creating nothing; another account may call it", async () => {
    const phone = "+212612345002";
    await add(a, { phone_number: phone });
    const before = await countCalls(t.ctx, a.accountId);
    const res = await postCall(t, a, callBody(shop, { customer: { name: "Amal", phone_number: phone } }));
    const body = problem(res, "number_do_not_call", 422);
    expect(body["detail"]).toContain(phone);
    expect(await countCalls(t.ctx, a.accountId)).toBe(before);
    const shopB = (await insertShop(t.ctx, b.accountId)).externalId;
    expect(
      (await postCall(t, b, callBody(shopB, { customer: { name: "Amal", phone_number: phone } }))).statusCode,
    ).toBe(201);
  });

  it("does not dial a queued call whose number was listed after its creation: it ends failed, unbilled", async () => {
    const phone = "+212612345003";
    const id = (await postCall(t, a, callBody(shop, { customer: { name: "Amal", phone_number: phone } }))).json()
      .id as string;
    await add(a, { phone_number: phone });
    expect(await claimCall(t.ctx, id)).toBeNull();
    const call = (await t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: a.headers })).json();
    expect(call).toMatchObject({ status: "failed", end_reason: "number_do_not_call", billed_seconds: 0 });
  });

  it("works through MCP: add_do_not_call, list_do_not_call, remove_do_not_call, and create_call's refusal", async () => {
    const phone = "+212612345004";
    expect(await ok(client, "add_do_not_call", { phone_number: phone })).toMatchObject({
      created: true,
      entry: { phone_number: phone, source: "api" },
    });
    expect(await ok(client, "add_do_not_call", { phone_number: phone })).toMatchObject({ created: false });
    const list = await ok<{ data: { phone_number: string }[] }>(client, "list_do_not_call", { limit: 100 });
    expect(list.data.map((e) => e.phone_number)).toContain(phone);
    const refused = await fails(
      client,
      "create_call",
      callBody(shop, { customer: { name: "Amal", phone_number: phone } }),
      "number_do_not_call",
    );
    expect(refused["status"]).toBe(422);
    expect(refused["remedy"]).toMatch(/DELETE \/v1\/me\/do-not-call/);
    expect(await ok(client, "remove_do_not_call", { phone_number: phone })).toEqual({ removed: true });
    expect(await ok(client, "remove_do_not_call", { phone_number: phone })).toEqual({ removed: false });
    await fails(client, "add_do_not_call", { phone_number: "12" }, "validation_error");
  });
});

describe("a customer asking not to be called again, in each dialect (engine end to end)", () => {
  const PHONES = { MA: "+212612345621", DZ: "+213551234521", TN: "+21620123421", FR: "+33612345621" } as const;
  const DIALECT = { MA: "ma", DZ: "dz", TN: "tn", FR: "fr" } as const;
  let db: Awaited<ReturnType<typeof createEngineDatabase>>;
  let t: EngineApp;

  // Says yes to the identity check, then asks not to be called again.
  function asking(_phone: string, dialect: "ma" | "dz" | "tn" | "fr"): SimulatedCustomer {
    return {
      pickup: "answer",
      ringSeconds: 1,
      reply: (_agent, turn) =>
        turn === 0
          ? { text: dialect === "fr" ? "oui c'est moi" : "iyeh", hangup: false, thinkSeconds: 1 }
          : { text: REQUESTS[dialect][0]!, hangup: false, thinkSeconds: 1 },
    };
  }

  beforeAll(async () => {
    db = await createEngineDatabase();
    t = await startEngineApp({ databaseUrl: db.url, speed: 200, parts: { customers: asking } });
    await t.startWorkers();
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it("ends the call politely, lists the number (source customer_request) and refuses the next call", async () => {
    const acct = await newAccount(t.ctx, 5000);
    const shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    for (const country of ["MA", "DZ", "TN", "FR"] as const) {
      const phone = PHONES[country];
      const body = {
        country,
        customer: { name: "Nadia", phone_number: phone },
        order: { external_id: randomUUID(), items: [{ name: "Caftan", unit_price: "249.00" }] },
      };
      const created = await postCall(t, acct, callBody(shop, body));
      expect(created.statusCode, created.body).toBe(201);
      const ended = await waitForEnd(t, acct, created.json().id);
      expect(ended, country).toMatchObject({
        status: "completed",
        outcome: "declined",
        end_reason: "do_not_call_requested",
        outcome_details: { reason: "do_not_call" },
      });
      const entry = await t.app.inject({
        method: "GET",
        url: `/v1/me/do-not-call/${encodeURIComponent(phone)}`,
        headers: acct.headers,
      });
      expect(entry.json(), country).toMatchObject({
        source: "customer_request",
        call_id: ended.id,
        reason: REQUESTS[DIALECT[country]][0],
      });
      problem(
        await postCall(t, acct, callBody(shop, { ...body, order: { ...body.order, external_id: randomUUID() } })),
        "number_do_not_call",
        422,
      );
    }
    expect(t.errors).toEqual([]);
  });
});
