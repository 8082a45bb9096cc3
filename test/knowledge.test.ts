// Issue 37.1: the shop's answers, /v1/shops/{shop_external_id}/knowledge and its MCP tools.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { connect, fails, ok, type ListeningApp, startListening } from "./mcp-client.ts";

export const KNOWLEDGE = {
  delivery: {
    default: { min_days: 2, max_days: 4 },
    areas: [{ names: ["Casablanca", "Casa", "الدار البيضاء", "كازا"], min_days: 1, max_days: 1 }],
  },
  open_before_paying: true,
  returns: {
    accepted: true,
    days: 7,
    exchange: true,
    fee: "25.00",
    note: { fr: "Le livreur reprend l'article.", ar: "الليفرور كياخد السلعة." },
  },
  payment_methods: ["cash", "card_on_delivery"],
  opening_hours: { fr: "du lundi au samedi, de 9 h à 18 h", ar: "من الاثنين حتى السبت، من 9 حتى 6" },
  contact: { channel: "whatsapp", value: "+212 6 12 34 56 78" },
  qa: [
    {
      question: "Le produit a-t-il une garantie ?",
      keywords: ["garantie", "damana", "ضمانة", "الضمان"],
      answer: { fr: "Oui, un an de garantie.", ar: "آه، عندو ضمانة عام." },
    },
  ],
};

describe("/v1/shops/{shop_external_id}/knowledge", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let b: TestAccount;
  let client: Client;
  const shop = `k-${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    t = await startListening();
    a = await newAccount(t.ctx);
    b = await newAccount(t.ctx);
    client = await connect(t.url, a.apiKey);
    for (const acct of [a, b]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/shops",
        headers: acct.headers,
        payload: { external_id: shop, merchant_external_id: "m1", name: "Dar Zellij" },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });
  const url = (s = shop) => `/v1/shops/${encodeURIComponent(s)}/knowledge`;
  const put = (acct: TestAccount, body: unknown, s = shop) =>
    t.app.inject({ method: "PUT", url: url(s), headers: acct.headers, payload: body as object });
  const get = (acct: TestAccount, s = shop) => t.app.inject({ method: "GET", url: url(s), headers: acct.headers });
  const del = (acct: TestAccount, s = shop) => t.app.inject({ method: "DELETE", url: url(s), headers: acct.headers });

  it("404 knowledge_not_configured before any PUT, on GET and DELETE", async () => {
    problem(await get(a), "knowledge_not_configured", 404);
    problem(await del(a), "knowledge_not_configured", 404);
  });

  it("PUT stores every field; GET shows the same; PUT again replaces it as a whole", async () => {
    const res = await put(a, KNOWLEDGE);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ...KNOWLEDGE, shop_external_id: shop });
    expect(Date.parse(res.json().updated_at)).toBeGreaterThan(0);
    expect((await get(a)).json()).toEqual(res.json());
    const smaller = await put(a, { open_before_paying: false });
    expect(smaller.json()).toEqual({
      open_before_paying: false,
      shop_external_id: shop,
      updated_at: smaller.json().updated_at,
    });
    expect((await put(a, KNOWLEDGE)).statusCode).toBe(200);
  });

  it("validates: unknown fields, bad ranges, empty texts, too many pairs, duplicate methods, a bad fee", async () => {
    const bad = async (body: unknown, loc: (string | number)[], type?: string) => {
      const p = problem(await put(a, body), "validation_error", 422);
      const errors = p["errors"] as { loc: unknown[]; type: string }[];
      const want = ["body", ...loc];
      expect(
        errors.some(
          (e) => JSON.stringify(e.loc.slice(0, want.length)) === JSON.stringify(want) && (!type || e.type === type),
        ),
        JSON.stringify(errors),
      ).toBe(true);
    };
    await bad({ surprise: 1 }, [], "extra_forbidden");
    await bad(
      { delivery: { default: { min_days: 5, max_days: 2 } } },
      ["delivery", "default", "max_days"],
      "value_error",
    );
    await bad({ delivery: { default: { min_days: -1, max_days: 2 } } }, ["delivery", "default", "min_days"]);
    await bad(
      { delivery: { default: { min_days: 1, max_days: 2 }, areas: [{ names: [], min_days: 1, max_days: 1 }] } },
      ["delivery", "areas", 0, "names"],
    );
    await bad({ opening_hours: {} }, ["opening_hours"], "value_error");
    await bad({ opening_hours: { fr: "   " } }, ["opening_hours", "fr"]);
    await bad({ opening_hours: { fr: "x".repeat(501) } }, ["opening_hours", "fr"]);
    await bad({ opening_hours: { en: "9 to 5" } }, ["opening_hours"], "extra_forbidden");
    await bad({ payment_methods: ["cash", "cash"] }, ["payment_methods"], "value_error");
    await bad({ payment_methods: ["bitcoin"] }, ["payment_methods", 0], "enum");
    await bad({ returns: { accepted: true, fee: "25,00" } }, ["returns", "fee"]);
    await bad({ returns: { accepted: true, fee: 25 } }, ["returns", "fee"], "string_type");
    await bad({ contact: { channel: "pigeon", value: "x" } }, ["contact", "channel"], "enum");
    const pair = KNOWLEDGE.qa[0]!;
    await bad({ qa: Array.from({ length: 51 }, () => pair) }, ["qa"]);
    await bad({ qa: [{ ...pair, keywords: [] }] }, ["qa", 0, "keywords"]);
    await bad({ qa: [{ ...pair, answer: { fr: "a\u0000b" } }] }, ["qa", 0, "answer", "fr"]);
    // Nothing was written by the refusals.
    expect((await get(a)).json()).toMatchObject(KNOWLEDGE);
  });

  it("another account's shop, an unknown shop and a bad key look alike", async () => {
    problem(await put(a, KNOWLEDGE, "nope"), "shop_not_found", 404);
    problem(await get(a, "nope"), "shop_not_found", 404);
    problem(await del(a, "nope"), "shop_not_found", 404);
    // b has a shop with the same external id and no knowledge: a's is not visible.
    problem(await get(b), "knowledge_not_configured", 404);
    const bad = await t.app.inject({ method: "GET", url: url(), headers: { authorization: "Bearer nope" } });
    problem(bad, "invalid_api_key", 401);
    const badPut = await t.app.inject({
      method: "PUT",
      url: url(),
      headers: { authorization: "Bearer nope" },
      payload: KNOWLEDGE,
    });
    problem(badPut, "invalid_api_key", 401);
  });

  it("MCP tools: set, get, delete, with the same errors", async () => {
    const set = await ok<Record<string, unknown>>(client, "set_knowledge", { shop_external_id: shop, ...KNOWLEDGE });
    expect(set).toMatchObject({ ...KNOWLEDGE, shop_external_id: shop });
    expect(await ok(client, "get_knowledge", { shop_external_id: shop })).toEqual(set);
    await fails(client, "set_knowledge", { shop_external_id: shop, payment_methods: [] }, "validation_error");
    await fails(client, "get_knowledge", { shop_external_id: "nope" }, "shop_not_found");
    expect(await ok(client, "delete_knowledge", { shop_external_id: shop })).toEqual({ deleted: true });
    await fails(client, "get_knowledge", { shop_external_id: shop }, "knowledge_not_configured");
    problem(await del(a), "knowledge_not_configured", 404);
  });

  it("an archived shop's knowledge is not reachable", async () => {
    const s = `k-${randomUUID().slice(0, 8)}`;
    await t.app.inject({
      method: "POST",
      url: "/v1/shops",
      headers: a.headers,
      payload: { external_id: s, merchant_external_id: "m1", name: "Old" },
    });
    expect((await put(a, KNOWLEDGE, s)).statusCode).toBe(200);
    await t.app.inject({ method: "DELETE", url: `/v1/shops/${s}`, headers: a.headers });
    problem(await get(a, s), "shop_not_found", 404);
  });
});
