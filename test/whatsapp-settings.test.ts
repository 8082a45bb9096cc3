// Issue 16: the WhatsApp fallback's settings, /v1/me/whatsapp and its MCP tools: the token sealed, never shown.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretBox } from "../src/crypto/secret-box.ts";
import { ENCRYPTION_KEY, newAccount, problem, startApp, type TestAccount } from "./helpers.ts";
import { connect, fails, ok, type ListeningApp, startListening } from "./mcp-client.ts";

const TOKEN = "EAAGm0PX4ZCpsBAtestTokenForWakha1234wxyz";
const settings = (overrides: Record<string, unknown> = {}) => ({
  phone_number_id: "106540352242922",
  access_token: TOKEN,
  templates: { ar: { name: "wakha_order_ar" }, fr: { name: "wakha_order_fr", language: "fr" } },
  ...overrides,
});

describe("/v1/me/whatsapp", () => {
  let t: ListeningApp;
  let a: TestAccount;
  let b: TestAccount;
  let client: Client;
  beforeAll(async () => {
    t = await startListening();
    a = await newAccount(t.ctx);
    b = await newAccount(t.ctx);
    client = await connect(t.url, a.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });
  const put = (acct: TestAccount, body: unknown) =>
    t.app.inject({ method: "PUT", url: "/v1/me/whatsapp", headers: acct.headers, payload: body as object });
  const get = (acct: TestAccount) => t.app.inject({ method: "GET", url: "/v1/me/whatsapp", headers: acct.headers });

  it("404 whatsapp_not_configured before any PUT", async () => {
    problem(await get(a), "whatsapp_not_configured", 404);
    problem(
      await t.app.inject({ method: "DELETE", url: "/v1/me/whatsapp", headers: a.headers }),
      "whatsapp_not_configured",
      404,
    );
  });

  it("PUT stores the settings, the token sealed at rest and never returned; GET shows the same", async () => {
    const res = await put(a, settings());
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      phone_number_id: "106540352242922",
      access_token_last4: "wxyz",
      fallback: "after_last_attempt",
      templates: { ar: { name: "wakha_order_ar", language: "ar" }, fr: { name: "wakha_order_fr", language: "fr" } },
    });
    expect(res.body).not.toContain(TOKEN);
    const again = await get(a);
    expect(again.json()).toEqual(body);
    const row = (
      await t.ctx.db.query<{ access_token_sealed: string }>(
        "SELECT access_token_sealed FROM whatsapp_settings WHERE account_id = $1",
        [a.accountId],
      )
    ).rows[0]!;
    expect(row.access_token_sealed).not.toContain(TOKEN);
    expect(new SecretBox(ENCRYPTION_KEY).open(row.access_token_sealed)).toBe(TOKEN);
  });

  it("PUT replaces the settings as a whole (a template left out is gone), twice the same leaves one row", async () => {
    await put(a, settings({ templates: { fr: { name: "only_fr" } }, fallback: "immediately" }));
    const res = await put(a, settings({ templates: { fr: { name: "only_fr" } }, fallback: "immediately" }));
    expect(res.json()).toMatchObject({
      templates: { ar: null, fr: { name: "only_fr", language: "fr" } },
      fallback: "immediately",
    });
    const n = (await t.ctx.db.query("SELECT 1 FROM whatsapp_settings WHERE account_id = $1", [a.accountId])).rowCount;
    expect(n).toBe(1);
  });

  it("422 on bad input, nothing written", async () => {
    const before = (await get(a)).body;
    for (const bad of [
      settings({ phone_number_id: "abc" }),
      settings({ access_token: "short" }),
      settings({ templates: {} }),
      settings({ templates: { en: { name: "x" } } }),
      settings({ templates: { ar: { name: "Has Spaces" } } }),
      settings({ fallback: "sometimes" }),
      { ...settings(), extra: 1 },
    ]) {
      const res = await put(a, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
    }
    expect((await get(a)).body).toBe(before);
  });

  it("is the account's own: another account sees 404 and its PUT does not touch ours; a bad key is 401", async () => {
    problem(await get(b), "whatsapp_not_configured", 404);
    await put(b, settings({ phone_number_id: "999" }));
    expect((await get(a)).json().phone_number_id).toBe("106540352242922");
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/whatsapp", headers: { authorization: "Bearer wk_live_nope" } }),
      "invalid_api_key",
      401,
    );
    problem(await t.app.inject({ method: "PUT", url: "/v1/me/whatsapp", payload: settings() }), "invalid_api_key", 401);
  });

  it("DELETE removes it (204), then 404", async () => {
    expect((await t.app.inject({ method: "DELETE", url: "/v1/me/whatsapp", headers: b.headers })).statusCode).toBe(204);
    problem(await get(b), "whatsapp_not_configured", 404);
    expect((await get(a)).statusCode).toBe(200);
  });

  it("503 without an encryption key: the token is never stored in clear", async () => {
    const bare = await startApp({ encryptionKey: null });
    try {
      const c = await newAccount(bare.ctx);
      problem(
        await bare.app.inject({ method: "PUT", url: "/v1/me/whatsapp", headers: c.headers, payload: settings() }),
        "service_unavailable",
        503,
      );
      problem(
        await bare.app.inject({ method: "GET", url: "/v1/me/whatsapp", headers: c.headers }),
        "whatsapp_not_configured",
        404,
      );
    } finally {
      await bare.close();
    }
  });

  it("MCP: set_whatsapp, get_whatsapp, delete_whatsapp mirror the REST API", async () => {
    const set = await ok(client, "set_whatsapp", settings({ fallback: "after_last_attempt" }));
    expect(set).toMatchObject({ access_token_last4: "wxyz", fallback: "after_last_attempt" });
    expect(JSON.stringify(set)).not.toContain(TOKEN);
    expect(await ok(client, "get_whatsapp")).toEqual(set);
    expect(await ok(client, "delete_whatsapp")).toEqual({ deleted: true });
    await fails(client, "get_whatsapp", {}, "whatsapp_not_configured");
  });
});
