// Issue 20, finding 1: inputs the database cannot hold are 422 validation_error with a precise entry, never a 500,
// on REST and MCP alike (integers past PostgreSQL's integer, lone UTF-16 surrogates, NUL, dates outside 0001-9999).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { callBody, countCalls, entries, insertShop, postCall, uid } from "./calls-fixtures.ts";
import { connect, fails, type ListeningApp, startListening } from "./mcp-client.ts";

describe("input bounds the database accepts (issue 20, finding 1)", () => {
  let t: ListeningApp;
  let acct: TestAccount;
  let shop: string;
  let client: Client;
  beforeAll(async () => {
    t = await startListening();
    acct = await newAccount(t.ctx, 1000);
    shop = (await insertShop(t.ctx, acct.accountId)).externalId;
    client = await connect(t.url, acct.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t.close();
  });

  const order = (
    extra: Record<string, unknown> = {},
    line: Record<string, unknown> = { name: "x", unit_price: "1" },
  ) => ({ external_id: uid("order"), items: [line], ...extra });

  const cases: [string, (s: string) => Record<string, unknown>, [string, string]][] = [
    [
      "previous_attempts 2^31",
      (s) => callBody(s, { order: order({ previous_attempts: 2 ** 31 }) }),
      ["order.previous_attempts", "less_than_equal"],
    ],
    [
      "previous_attempts 2^53-1",
      (s) => callBody(s, { order: order({ previous_attempts: Number.MAX_SAFE_INTEGER }) }),
      ["order.previous_attempts", "less_than_equal"],
    ],
    [
      "previous_attempts 2^63",
      (s) => callBody(s, { order: order({ previous_attempts: 2 ** 63 }) }),
      ["order.previous_attempts", "less_than_equal"],
    ],
    [
      "quantity 2^31",
      (s) => callBody(s, { order: order({}, { name: "x", unit_price: "1", quantity: 2 ** 31 }) }),
      ["order.items.0.quantity", "less_than_equal"],
    ],
    [
      "a lone surrogate in an item name",
      (s) => callBody(s, { order: order({}, { name: "\ud800x", unit_price: "1" }) }),
      ["order.items.0.name", "string_unicode"],
    ],
    [
      "a lone low surrogate in customer.name",
      (s) => callBody(s, { customer: { name: "Fatima \udc00", phone_number: "+212612345601" } }),
      ["customer.name", "string_unicode"],
    ],
    [
      "a lone surrogate in a catalogue line's name",
      (s) => callBody(s, { order: order({}, { product_external_id: "p\ud83d", name: "y" }) }),
      ["order.items.0.product_external_id", "string_unicode"],
    ],
    [
      "a lone surrogate in order.external_id",
      (s) => callBody(s, { order: { ...order(), external_id: "o\udfff" } }),
      ["order.external_id", "string_unicode"],
    ],
    ["a lone surrogate in shop_external_id", () => callBody("s\ud800"), ["shop_external_id", "string_unicode"]],
    [
      "a NUL in an item name",
      (s) => callBody(s, { order: order({}, { name: "a\u0000b", unit_price: "1" }) }),
      ["order.items.0.name", "string_pattern_mismatch"],
    ],
  ];

  it.each(cases)("REST refuses %s with a precise 422 entry", async (_name, build, [loc, type]) => {
    const before = await countCalls(t.ctx, acct.accountId);
    const res = await postCall(t, acct, build(shop));
    problem(res, "validation_error", 422);
    expect(entries(res)).toContainEqual([`body.${loc}`, type]);
    expect(await countCalls(t.ctx, acct.accountId)).toBe(before);
  });

  it.each(cases)("MCP create_call refuses %s the same way", async (_name, build, [loc, type]) => {
    const body = await fails(client, "create_call", build(shop), "validation_error");
    const got = (body["errors"] as { loc: (string | number)[]; type: string }[]).map((e) => [e.loc.join("."), e.type]);
    expect(got).toContainEqual([`arguments.${loc}`, type]);
  });

  it("accepts a well-formed astral character (a surrogate pair) and reads it back identically", async () => {
    const res = await postCall(
      t,
      acct,
      callBody(shop, { customer: { name: "Fatima 😀", phone_number: "+212612345601" } }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const got = await t.app.inject({ method: "GET", url: `/v1/calls/${res.json().id}`, headers: acct.headers });
    expect(got.json().customer.name).toBe("Fatima 😀");
  });

  it.each([
    [
      "shop names",
      "POST",
      "/v1/shops",
      { external_id: "s\ud800", merchant_external_id: "m", name: "n" },
      "body.external_id",
    ],
    [
      "shop names (name)",
      "POST",
      "/v1/shops",
      { external_id: uid("s"), merchant_external_id: "m", name: "n\udc00" },
      "body.name",
    ],
    ["API key names", "POST", "/v1/me/api-keys", { name: "k\ud800" }, "body.name"],
    [
      "webhook descriptions",
      "POST",
      "/v1/me/webhooks",
      { url: "https://example.com/h", description: "d\ud800" },
      "body.description",
    ],
  ])("refuses lone surrogates in %s", async (_what, method, url, payload, loc) => {
    const res = await t.app.inject({ method: method as "POST", url, headers: acct.headers, payload });
    problem(res, "validation_error", 422);
    expect(entries(res)).toContainEqual([loc, "string_unicode"]);
  });

  it("refuses a lone surrogate in a product's and a variant's name", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: `/v1/shops/${shop}/products`,
      headers: acct.headers,
      payload: {
        external_id: uid("p"),
        name: "P\ud800",
        variants: [{ variant_external_id: "v", price: "1", name: "\udfffV" }],
      },
    });
    problem(res, "validation_error", 422);
    expect(entries(res)).toEqual([
      ["body.name", "string_unicode"],
      ["body.variants.0.name", "string_unicode"],
    ]);
  });

  it.each([
    "0000-01-01",
    "0000-12-31T23:00:00Z",
    "10000-01-01",
    "2026-02-30",
    "2026-13-01T00:00:00Z",
    "yesterday",
    "1700000000",
  ])("GET /v1/calls refuses created_after=%s with a 422 naming the format", async (value) => {
    for (const param of ["created_after", "created_before"]) {
      const res = await t.app.inject({
        method: "GET",
        url: `/v1/calls?${param}=${encodeURIComponent(value)}`,
        headers: acct.headers,
      });
      const body = problem(res, "validation_error", 422);
      const errs = body["errors"] as { loc: string[]; msg: string }[];
      expect(errs[0]!.loc).toEqual(["query", param]);
      expect(errs[0]!.msg).toMatch(/YYYY-MM-DD/);
      expect(errs[0]!.msg).toMatch(/RFC 3339/);
    }
  });

  it.each(["0001-01-01", "9999-12-31", "9999-12-31T23:59:59.999+14:00", "0001-01-01T00:00:00-05:00"])(
    "GET /v1/calls accepts created_after=%s",
    async (value) => {
      const res = await t.app.inject({
        method: "GET",
        url: `/v1/calls?created_after=${encodeURIComponent(value)}`,
        headers: acct.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
    },
  );

  it("MCP list_calls refuses a year-0000 date with the same entry", async () => {
    const body = await fails(client, "list_calls", { created_before: "0000-01-01" }, "validation_error");
    expect((body["errors"] as { loc: string[] }[])[0]!.loc).toEqual(["arguments", "created_before"]);
  });

  it.each(["0000-01", "0000-12", "9999-12", "10000-01"])(
    "GET /v1/me/usage refuses period=%s (no RFC 3339 bound exists for it)",
    async (period) => {
      const body = problem(
        await t.app.inject({ method: "GET", url: `/v1/me/usage?period=${period}`, headers: acct.headers }),
        "invalid_period_format",
        400,
      );
      expect(body["detail"]).toMatch(/0001-01 to 9999-11/);
    },
  );

  it.each([
    ["0001-01", "0001-01-01T00:00:00.000Z", "0001-02-01T00:00:00.000Z"],
    ["0099-12", "0099-12-01T00:00:00.000Z", "0100-01-01T00:00:00.000Z"],
    ["9999-11", "9999-11-01T00:00:00.000Z", "9999-12-01T00:00:00.000Z"],
  ])("GET /v1/me/usage?period=%s covers exactly that month", async (period, start, end) => {
    const res = await t.app.inject({ method: "GET", url: `/v1/me/usage?period=${period}`, headers: acct.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ period, period_start: start, period_end: end });
  });

  it("MCP get_usage refuses period 0000-01 the same way", async () => {
    await fails(client, "get_usage", { period: "0000-01" }, "invalid_period_format");
  });

  it("MCP tools taking ids or names never fail with a 500 on lone surrogates or NUL", async () => {
    const { call } = await import("./mcp-client.ts");
    for (const [name, args] of [
      ["get_shop", { external_id: "s\ud800" }],
      ["archive_shop", { external_id: "\udc00" }],
      ["update_shop", { external_id: "s", name: "n\ud800" }],
      ["get_product", { shop_external_id: "\ud800", product_external_id: "p\u0000" }],
      ["list_products", { shop_external_id: "s\udfff" }],
      ["get_call", { call_id: "\ud800" }],
      ["get_transcript", { call_id: "x\u0000" }],
      ["list_calls", { merchant_id: "m\ud800" }],
      ["explain_error", { slug: "\ud800" }],
      ["create_call", { idempotency_key: "k\ud800" }],
    ] as [string, Record<string, unknown>][]) {
      const result = await call(client, name, args);
      const text = (result.content[0] as { text: string }).text;
      if (result.isError) expect(JSON.parse(text).status, `${name}: ${text}`).toBeLessThan(500);
    }
  });

  it("a NUL in a query filter is a precise 422, not a 500", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/calls?merchant_id=a%00b", headers: acct.headers });
    problem(res, "validation_error", 422);
    expect(entries(res)).toEqual([["query.merchant_id", "string_pattern_mismatch"]]);
  });
});
