import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, countCalls, entries, insertShop, postCall, uid } from "./calls-fixtures.ts";

describe("CallCreate validation (spec 2.1, 7.2; CONTRACT §4)", () => {
  let t: TestApp;
  let acct: TestAccount;
  let shop: string;
  beforeAll(async () => {
    t = await startApp();
    acct = await newAccount(t.ctx, 1000);
    shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  });
  afterAll(() => t.close());

  const order = (
    line: Record<string, unknown> = { name: "x", unit_price: "1" },
    extra: Record<string, unknown> = {},
  ) => ({ external_id: uid("order"), items: [line], ...extra });

  const invalid: [string, (shop: string) => unknown, [string, string][]][] = [
    [
      "an unknown top-level field",
      (s) => callBody(s, { merchant_id: "m1" }),
      [["body.merchant_id", "extra_forbidden"]],
    ],
    [
      "two unknown fields",
      (s) => callBody(s, { a: 1, b: 2 }),
      [
        ["body.a", "extra_forbidden"],
        ["body.b", "extra_forbidden"],
      ],
    ],
    [
      "an unknown customer field",
      (s) => callBody(s, { customer: { name: "A", phone_number: "+212612345601", email: "a@b.c" } }),
      [["body.customer.email", "extra_forbidden"]],
    ],
    [
      "an unknown order field",
      (s) => callBody(s, { order: order(undefined, { total: "1" }) }),
      [["body.order.total", "extra_forbidden"]],
    ],
    [
      "an unknown item field",
      (s) => callBody(s, { order: order({ name: "x", unit_price: "1", color: "red" }) }),
      [["body.order.items.0.color", "extra_forbidden"]],
    ],
    [
      "an unknown call_params field",
      (s) => callBody(s, { call_params: { channel: "gsm", voice: "x" } }),
      [["body.call_params.voice", "extra_forbidden"]],
    ],
    ["a numeric amount", (s) => callBody(s, { amount: 249 }), [["body.amount", "string_type"]]],
    ['amount "0"', (s) => callBody(s, { amount: "0" }), [["body.amount", "greater_than"]]],
    ['amount "0.00"', (s) => callBody(s, { amount: "0.00" }), [["body.amount", "greater_than"]]],
    ["a negative amount", (s) => callBody(s, { amount: "-5" }), [["body.amount", "greater_than"]]],
    ["a non-decimal amount", (s) => callBody(s, { amount: "12,50" }), [["body.amount", "decimal_parsing"]]],
    ["an amount with 4 decimals", (s) => callBody(s, { amount: "1.0001" }), [["body.amount", "decimal_max_places"]]],
    [
      "an empty customer name",
      (s) => callBody(s, { customer: { name: "", phone_number: "+212612345601" } }),
      [["body.customer.name", "string_too_short"]],
    ],
    [
      "a blank customer name",
      (s) => callBody(s, { customer: { name: "   ", phone_number: "+212612345601" } }),
      [["body.customer.name", "string_too_short"]],
    ],
    [
      "a missing customer",
      (s) => {
        const b = callBody(s);
        delete b["customer"];
        return b;
      },
      [["body.customer", "missing"]],
    ],
    ["a missing phone", (s) => callBody(s, { customer: { name: "A" } }), [["body.customer.phone_number", "missing"]]],
    [
      "a national phone number",
      (s) => callBody(s, { customer: { name: "A", phone_number: "0612345601" } }),
      [["body.customer.phone_number", "value_error"]],
    ],
    [
      "a phone number with spaces",
      (s) => callBody(s, { customer: { name: "A", phone_number: "+212 6 12 34 56 01" } }),
      [["body.customer.phone_number", "value_error"]],
    ],
    [
      "an impossible phone number",
      (s) => callBody(s, { customer: { name: "A", phone_number: "+2126123456011" } }),
      [["body.customer.phone_number", "value_error"]],
    ],
    ["a country outside the enum", (s) => callBody(s, { country: "EG" }), [["body.country", "enum"]]],
    ["a language outside the enum", (s) => callBody(s, { language: "en" }), [["body.language", "enum"]]],
    [
      "a missing order",
      (s) => {
        const b = callBody(s);
        delete b["order"];
        return b;
      },
      [["body.order", "missing"]],
    ],
    [
      "no item lines",
      (s) => callBody(s, { order: { external_id: "o", items: [] } }),
      [["body.order.items", "too_short"]],
    ],
    [
      "an ad-hoc line without unit_price",
      (s) => callBody(s, { order: order({ name: "x" }) }),
      [["body.order.items.0.unit_price", "missing"]],
    ],
    [
      "an ad-hoc line without name",
      (s) => callBody(s, { order: order({ unit_price: "5" }) }),
      [["body.order.items.0.name", "missing"]],
    ],
    [
      "a numeric unit_price",
      (s) => callBody(s, { order: order({ name: "x", unit_price: 5 }) }),
      [["body.order.items.0.unit_price", "string_type"]],
    ],
    [
      "a negative unit_price",
      (s) => callBody(s, { order: order({ name: "x", unit_price: "-1" }) }),
      [["body.order.items.0.unit_price", "greater_than_equal"]],
    ],
    [
      "a variant without its product",
      (s) => callBody(s, { order: order({ variant_external_id: "v", name: "x", unit_price: "1" }) }),
      [["body.order.items.0.variant_external_id", "value_error"]],
    ],
    [
      "quantity 0",
      (s) => callBody(s, { order: order({ name: "x", unit_price: "1", quantity: 0 }) }),
      [["body.order.items.0.quantity", "greater_than_equal"]],
    ],
    [
      "a fractional quantity",
      (s) => callBody(s, { order: order({ name: "x", unit_price: "1", quantity: 1.5 }) }),
      [["body.order.items.0.quantity", "int_type"]],
    ],
    [
      "negative previous_attempts",
      (s) => callBody(s, { order: order(undefined, { previous_attempts: -1 }) }),
      [["body.order.previous_attempts", "greater_than_equal"]],
    ],
    [
      "a missing shop reference",
      (s) => {
        const b = callBody(s);
        delete b["shop_external_id"];
        return b;
      },
      [["body.shop_external_id", "missing"]],
    ],
  ];

  it.each(invalid)("refuses %s with 422 validation_error", async (_name, build, expected) => {
    const res = await postCall(t, acct, build(shop));
    problem(res, "validation_error", 422);
    expect(entries(res)).toEqual(expected);
  });

  it('accepts amount "0.01" and normalises leading zeros the way it stores them', async () => {
    expect((await postCall(t, acct, callBody(shop, { amount: "0.01" }))).json().amount).toBe("0.01");
    expect((await postCall(t, acct, callBody(shop, { amount: "007.50" }))).json().amount).toBe("7.50");
  });

  it("answers json_invalid for a body that is not JSON, and missing for no body", async () => {
    const bad = await t.app.inject({
      method: "POST",
      url: "/v1/calls",
      payload: "{not json",
      headers: { ...acct.headers, "content-type": "application/json", "idempotency-key": uid("k") },
    });
    problem(bad, "validation_error", 422);
    expect(entries(bad)).toEqual([["body", "json_invalid"]]);
    const none = await t.app.inject({
      method: "POST",
      url: "/v1/calls",
      headers: { ...acct.headers, "idempotency-key": uid("k") },
    });
    problem(none, "validation_error", 422);
    expect(entries(none)).toEqual([["body", "missing"]]);
  });

  it("writes nothing for any invalid body", async () => {
    const before = await countCalls(t.ctx, acct.accountId);
    for (const [, build] of invalid) await postCall(t, acct, build(shop));
    expect(await countCalls(t.ctx, acct.accountId)).toBe(before);
  });
});

describe("call_params.channel (spec 1; CONTRACT §1)", () => {
  let t: TestApp;
  let acct: TestAccount;
  let shop: string;
  beforeAll(async () => {
    t = await startApp({ env: { WAKHA_CHANNELS: "gsm,sip" } });
    acct = await newAccount(t.ctx, 1000);
    shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  });
  afterAll(() => t.close());

  it("defaults to gsm and accepts any open channel", async () => {
    expect((await postCall(t, acct, callBody(shop))).json().channel).toBe("gsm");
    expect((await postCall(t, acct, callBody(shop, { call_params: {} }))).json().channel).toBe("gsm");
    expect((await postCall(t, acct, callBody(shop, { call_params: { channel: "sip" } }))).json().channel).toBe("sip");
  });

  it("refuses a channel that is not open: 422 channel_not_available naming the open channels and the default", async () => {
    const before = await countCalls(t.ctx, acct.accountId);
    const body = problem(
      await postCall(t, acct, callBody(shop, { call_params: { channel: "whatsapp" } })),
      "channel_not_available",
      422,
    );
    expect(body["detail"]).toContain("whatsapp");
    expect(body["detail"]).toContain("gsm, sip");
    expect(body["detail"]).toMatch(/default channel.*gsm/);
    expect(await countCalls(t.ctx, acct.accountId)).toBe(before);
  });

  it("refuses the default too when gsm is not open (no silent rerouting)", async () => {
    const sipOnly = await startApp({ env: { WAKHA_CHANNELS: "sip" } });
    try {
      const a = await newAccount(sipOnly.ctx, 100);
      const s = (await insertShop(sipOnly.ctx, a.accountId)).externalId;
      const body = problem(await postCall(sipOnly, a, callBody(s)), "channel_not_available", 422);
      expect(body["detail"]).toContain("Open channels: sip");
      expect((await postCall(sipOnly, a, callBody(s, { call_params: { channel: "sip" } }))).statusCode).toBe(201);
    } finally {
      await sipOnly.close();
    }
  });
});
