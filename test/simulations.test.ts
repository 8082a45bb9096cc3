// Issue 37.3: rehearsals, POST /v1/simulations and simulate_call: the real dialogue with the shop's knowledge, no phone,
// no billing; limits (20 turns, 20 a minute per key), Idempotency-Key replays, security; and a rehearsal gives what a
// simulator call gives for the same lines.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelIntentClassifier } from "../src/engine/dialogue/model/model.ts";
import { newAccount, problem, type TestAccount } from "./helpers.ts";
import { connect, fails, ok, type ListeningApp, startListening } from "./mcp-client.ts";
import { createEngineDatabase, type EngineApp, startEngineApp, waitForEnd } from "./engine-fixtures.ts";
import { SHOP_KNOWLEDGE } from "./knowledge-fixtures.ts";

const uid = (p: string) => `${p}-${randomUUID().slice(0, 8)}`;
const body = (shop: string, more: Record<string, unknown> = {}) => ({
  shop_external_id: shop,
  customer: { name: "Fatima Zahra", phone_number: "+212612345601" },
  amount: "690.00",
  country: "MA",
  order: { external_id: uid("o"), items: [{ name: "Caftan", unit_price: "690.00" }] },
  ...more,
});
const LINES = ["iyeh ana", "wach n9der nkhalas b lkart?", "wach kayn chi magasin f marrakech?", "iyeh, wakha, sifto"];

describe("POST /v1/simulations", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let b: TestAccount;
  let client: Client;
  const shop = uid("s");
  beforeAll(async () => {
    t = await startListening();
    a = await newAccount(t.ctx, 100);
    b = await newAccount(t.ctx, 100);
    client = await connect(t.url, a.apiKey);
    for (const acct of [a, b])
      await t.app.inject({
        method: "POST",
        url: "/v1/shops",
        headers: acct.headers,
        payload: { external_id: shop, merchant_external_id: "m", name: "Dar Lbahja" },
      });
    const put = await t.app.inject({
      method: "PUT",
      url: `/v1/shops/${shop}/knowledge`,
      headers: a.headers,
      payload: SHOP_KNOWLEDGE as object,
    });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });
  const post = (acct: TestAccount, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: "POST",
      url: "/v1/simulations",
      headers: { ...acct.headers, ...headers },
      payload: payload as object,
    });

  it("plays the lines through the real dialogue: answers from the knowledge, records the unanswered, decides like a call; no call, no billing", async () => {
    const calls = (await t.ctx.db.query("SELECT 1 FROM calls WHERE account_id = $1", [a.accountId])).rowCount;
    const res = await post(a, body(shop, { customer_turns: LINES }));
    expect(res.statusCode, res.body).toBe(200);
    const sim = res.json();
    expect(sim).toMatchObject({
      shop_external_id: shop,
      country: "MA",
      language: "ar",
      dialect: "ma",
      outcome: "confirmed",
      end_reason: "completed",
      billed_seconds: 0,
      outcome_details: { unanswered_questions: ["wach kayn chi magasin f marrakech?"] },
    });
    const customer = sim.transcript.filter((e: { speaker: string }) => e.speaker === "customer");
    expect(customer.map((e: { text: string }) => e.text)).toEqual(LINES);
    expect(customer[1]).toMatchObject({ intent: "question", decision: "act", answered_from: "payment" });
    expect(customer[2]).toMatchObject({ intent: "question", answered_from: "unanswered" });
    expect(customer[3]).toMatchObject({ intent: "confirm", decision: "act" });
    expect(customer[3].confidence).toBeGreaterThan(0.5);
    const agent = sim.transcript
      .filter((e: { speaker: string }) => e.speaker === "agent")
      .map((e: { text: string }) => e.text);
    expect(agent[2]).toContain("بالكارط عند الليفرور");
    expect((await t.ctx.db.query("SELECT 1 FROM calls WHERE account_id = $1", [a.accountId])).rowCount).toBe(calls);
    const balance = await t.app.inject({ method: "GET", url: "/v1/me/balance", headers: a.headers });
    expect(balance.json().balance_seconds).toBe(100);
  });

  it("lines that run out before the agent ends are a hang-up, with the outcome a call would keep", async () => {
    const res = await post(a, body(shop, { customer_turns: ["iyeh ana"] }));
    expect(res.json()).toMatchObject({ outcome: "no_decision", end_reason: "customer_hangup", turns: 1 });
  });

  it("a persona speaks instead of lines, in the profile's words; French and another country too", async () => {
    const res = await post(a, body(shop, { persona: "question_then_confirm" }));
    expect(res.json()).toMatchObject({ outcome: "confirmed", end_reason: "completed" });
    const declined = await post(
      a,
      body(shop, {
        persona: "decline",
        country: "FR",
        customer: { name: "Julie", phone_number: "+33612345602" },
        amount: "49.90",
      }),
    );
    expect(declined.json()).toMatchObject({ outcome: "declined", dialect: "fr", language: "fr" });
    // Neither lines nor persona: the simulator's persona of the number (01 confirms).
    expect((await post(a, body(shop))).json()).toMatchObject({ outcome: "confirmed" });
  });

  it("validates: 21 turns, lines and persona together, an unknown persona, FR in Arabic, an unknown product", async () => {
    problem(
      await post(a, body(shop, { customer_turns: Array.from({ length: 21 }, () => "iyeh") })),
      "validation_error",
      422,
    );
    problem(await post(a, body(shop, { customer_turns: ["iyeh"], persona: "confirm" })), "validation_error", 422);
    problem(await post(a, body(shop, { persona: "pirate" })), "validation_error", 422);
    problem(await post(a, body(shop, { customer_turns: [""] })), "validation_error", 422);
    problem(
      await post(
        a,
        body(shop, { country: "FR", language: "ar", customer: { name: "J", phone_number: "+33612345601" } }),
      ),
      "language_not_supported_for_country",
      422,
    );
    problem(
      await post(a, body(shop, { order: { external_id: "x", items: [{ product_external_id: "nope" }] } })),
      "order_item_unknown_product",
      422,
    );
  });

  it("replays on an Idempotency-Key, byte for byte; another body under the key is a conflict", async () => {
    const key = randomUUID();
    const payload = body(shop, { customer_turns: LINES });
    const first = await post(a, payload, { "idempotency-key": key });
    const again = await post(a, payload, { "idempotency-key": key });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers["x-idempotent-replay"]).toBe("true");
    expect(first.headers["x-idempotent-replay"]).toBeUndefined();
    problem(await post(a, { ...payload, amount: "1.00" }, { "idempotency-key": key }), "idempotency_key_conflict", 409);
    problem(await post(a, payload, { "idempotency-key": "" }), "idempotency_key_empty", 400);
    // The same key on another account is another key.
    expect((await post(b, payload, { "idempotency-key": key })).statusCode).toBe(200);
  });

  it("security: another account's shop is not found, its knowledge unused; a bad key is 401", async () => {
    const other = await post(b, body(shop, { customer_turns: LINES }));
    // b's shop of the same id has no knowledge: the payment question is unanswered there.
    expect(other.json().outcome_details.unanswered_questions).toContain("wach n9der nkhalas b lkart?");
    problem(await post(a, body("nope", { customer_turns: LINES })), "shop_not_found", 404);
    problem(
      await t.app.inject({
        method: "POST",
        url: "/v1/simulations",
        headers: { authorization: "Bearer nope" },
        payload: body(shop),
      }),
      "invalid_api_key",
      401,
    );
  });

  it("simulate_call over MCP gives the REST answer", async () => {
    const payload = body(shop, { customer_turns: LINES });
    const rest = (await post(a, payload)).json();
    const tool = await ok<Record<string, unknown>>(client, "simulate_call", payload);
    expect({ ...tool, created_at: null }).toEqual({ ...rest, created_at: null });
    await fails(client, "simulate_call", body(shop, { customer_turns: ["a"], persona: "confirm" }), "validation_error");
  });

  it("the console's \"Try a conversation\" page plays typed lines and shows the agent's answers", async () => {
    const jar = new Map<string, string>();
    const keep = (res: Awaited<ReturnType<typeof t.app.inject>>) => {
      for (const c of res.cookies as { name: string; value: string }[]) jar.set(c.name, c.value);
      return res;
    };
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const csrf = (body: string) => [...body.matchAll(/name="_csrf" value="([^"]+)"/g)].at(-1)![1]!;
    const form = (url: string, fields: Record<string, string>) =>
      t.app
        .inject({
          method: "POST",
          url,
          payload: new URLSearchParams(fields).toString(),
          headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
        })
        .then(keep);
    const signIn = keep(await t.app.inject({ method: "GET", url: "/console/sign-in" }));
    await form("/console/sign-in", { _csrf: csrf(signIn.body), api_key: a.apiKey, next: "/console/rehearsal" });
    const page = keep(await t.app.inject({ method: "GET", url: "/console/rehearsal", headers: { cookie: cookie() } }));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="lines"');
    const played = await form("/console/rehearsal", {
      _csrf: csrf(page.body),
      shop,
      country: "MA",
      name: "Fatima Zahra",
      item: "Caftan",
      amount: "690.00",
      lines: LINES.join("\n"),
    });
    expect(played.statusCode, played.body.slice(0, 500)).toBe(200);
    expect(played.body).toContain('data-outcome="confirmed"');
    expect(played.body).toContain("بالكارط عند الليفرور");
    expect(played.body).toContain("wach kayn chi magasin f marrakech?");
  });

  it("20 rehearsals a minute per key: the 21st is rate_limit_exceeded", async () => {
    const c = await newAccount(t.ctx);
    await t.app.inject({
      method: "POST",
      url: "/v1/shops",
      headers: c.headers,
      payload: { external_id: shop, merchant_external_id: "m", name: "X" },
    });
    for (let i = 0; i < 20; i++)
      expect((await post(c, body(shop, { customer_turns: ["iyeh ana"] }))).statusCode).toBe(200);
    const refused = problem(await post(c, body(shop, { customer_turns: ["iyeh ana"] })), "rate_limit_exceeded", 429);
    expect(refused["retry_after"]).toBeGreaterThan(0);
  });
});

describe("a rehearsal gives what a simulator call gives for the same lines (issue 37.3)", () => {
  let db: { url: string; drop(): Promise<void> };
  let t: EngineApp;
  let a: TestAccount;
  const shop = uid("s");
  beforeAll(async () => {
    db = await createEngineDatabase();
    t = await startEngineApp({ databaseUrl: db.url, parts: { classifier: new ModelIntentClassifier() } });
    await t.startWorkers();
    a = await newAccount(t.ctx, 3600);
    await t.app.inject({
      method: "POST",
      url: "/v1/shops",
      headers: a.headers,
      payload: { external_id: shop, merchant_external_id: "m", name: "Dar Lbahja" },
    });
    await t.app.inject({
      method: "PUT",
      url: `/v1/shops/${shop}/knowledge`,
      headers: a.headers,
      payload: SHOP_KNOWLEDGE as object,
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it.each([
    ["MA", "+2126123456", "08"],
    ["DZ", "+2135512345", "09"],
    ["TN", "+216201234", "02"],
    ["FR", "+336123456", "06"],
    ["MA", "+2126123456", "10"],
  ])(
    "%s, number ending %s%s",
    async (country, base, suffix) => {
      const payload = {
        shop_external_id: shop,
        customer: { name: "Client", phone_number: `${base}${suffix}` },
        amount: "690.00",
        country,
        order: { external_id: uid("o"), items: [{ name: "Caftan", unit_price: "690.00" }] },
      };
      const created = await t.app.inject({
        method: "POST",
        url: "/v1/calls",
        headers: { ...a.headers, "idempotency-key": randomUUID() },
        payload,
      });
      expect(created.statusCode, created.body).toBe(201);
      const call = await waitForEnd(t, a, created.json().id);
      expect(call.status).toBe("completed");
      const transcript = (
        await t.app.inject({ method: "GET", url: `/v1/calls/${call.id}/transcript`, headers: a.headers })
      ).json();
      const said = transcript.turns.filter((e: { speaker: string }) => e.speaker === "customer");
      const lines = said.map((e: { text: string }) => e.text.replace(/^DTMF /, ""));
      const res = await t.app.inject({
        method: "POST",
        url: "/v1/simulations",
        headers: a.headers,
        payload: { ...payload, customer_turns: lines },
      });
      expect(res.statusCode, res.body).toBe(200);
      const sim = res.json();
      expect(sim.outcome).toBe(call.outcome);
      expect(sim.end_reason).toBe(call.end_reason);
      const { callback_at: _c, ...simDetails } = sim.outcome_details;
      const { callback_at: _d, ...callDetails } = call.outcome_details as Record<string, unknown>;
      expect(simDetails).toEqual(callDetails);
      const heard = sim.transcript.filter((e: { speaker: string }) => e.speaker === "customer");
      expect(heard.map((e: { intent: string; confidence: number }) => [e.intent, e.confidence])).toEqual(
        said.map((e: { intent: string; confidence: number }) => [e.intent, e.confidence]),
      );
      expect(sim.transcript.filter((e: { speaker: string }) => e.speaker === "agent").length).toBe(
        transcript.turns.filter((e: { speaker: string }) => e.speaker === "agent").length,
      );
    },
    40_000,
  );
});
