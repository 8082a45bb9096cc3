// Issue 20, finding 5: secrets are redacted from logs by their shape wherever they appear, and a key in the query
// string is refused on /v1 as on /mcp.
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config/config.ts";
import { redactSecrets, refuseKeyInQuery } from "../src/http/secrets.ts";
import { createRoot, type Root } from "../src/root/root.ts";
import { CURSOR_SECRET, ENCRYPTION_KEY, newAccount, problem, testDatabaseUrl, type TestAccount } from "./helpers.ts";

describe("redactSecrets (by shape)", () => {
  it.each([
    ["/v1/me?x-api-key=wakha_sk_AbC123-_xyz", "wakha_sk_AbC123-_xyz"],
    ["/v1/me?q=wakha_sk_AbC123", "wakha_sk_AbC123"],
    ["/v1/calls/wakha_sk_AbC123/cancel", "wakha_sk_AbC123"],
    ["/v1/me?q=wakha%5Fsk%5FAbC123", "AbC123"],
    ["/v1/me?s=whsec_Zm9vYmFy", "whsec_Zm9vYmFy"],
    ["/v1/me?h=Bearer%20sometoken123", "sometoken123"],
    ["/v1/me?h=Bearer+sometoken123", "sometoken123"],
    ["Authorization: Bearer sometoken123", "sometoken123"],
    ["/v1/me?auth=plainvalue", "plainvalue"],
    ["/v1/me?access-token=plainvalue", "plainvalue"],
    ["/v1/me?bearer=plainvalue", "plainvalue"],
    ['{"url":"/x?token=abc"}', "abc"],
    ["/connectors/shopify/cn_9f8e7d6c5b4a3210?x=1", "cn_9f8e7d6c5b4a3210"],
    ['{"url":"/connectors/woocommerce/Zm9vYmFyYmF6"}', "Zm9vYmFyYmF6"],
  ])("masks the secret in %s", (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain("[REDACTED]");
  });

  it("leaves ordinary URLs alone", () => {
    for (const url of [
      "/v1/calls?status=queued&limit=2",
      "/v1/shops/boutique-atlas/products",
      "/v1/calls?merchant_id=merchant-42",
    ]) {
      expect(redactSecrets(url)).toBe(url);
    }
  });

  it.each([
    "/v1/me?x-api-key=1",
    "/v1/me?auth=1",
    "/v1/me?bearer=1",
    "/v1/me?access-token=1",
    "/v1/me?q=wakha_sk_abc",
    "/v1/me?q=Bearer%20x",
    "/v1/me?Token=1",
  ])("refuses a credential in the query string: %s", (url) =>
    expect(() => refuseKeyInQuery(url)).toThrow(/never accepted in the query string/),
  );
});

describe("no secret reaches the logs (issue 20, finding 5)", () => {
  let app: FastifyInstance;
  let ctx: Root;
  let a: TestAccount;
  const lines: string[] = [];
  beforeAll(async () => {
    const config = loadConfig({ LOG_LEVEL: "info", DATABASE_URL: testDatabaseUrl() });
    ctx = await createRoot(config, {
      databaseUrl: testDatabaseUrl(),
      cursorSecret: CURSOR_SECRET,
      encryptionKey: ENCRYPTION_KEY,
    });
    app = await buildApp(ctx, { logStream: { write: (line: string) => void lines.push(line) } });
    await app.ready();
    a = await newAccount(ctx, 10);
  });
  afterAll(async () => {
    await app.close();
    await ctx.close();
  });

  it("refuses a key in the query string on /v1 with 400, before authentication, and logs none of it", async () => {
    const key = a.apiKey;
    for (const query of [
      `x-api-key=${key}`,
      `auth=${key}`,
      `bearer=${key}`,
      `access-token=${key}`,
      `q=${key}`,
      `api_key=${key}`,
    ]) {
      const withAuth = await app.inject({ method: "GET", url: `/v1/me?${query}`, headers: a.headers });
      expect(problem(withAuth, "bad_request", 400)["detail"]).toMatch(/never accepted in the query string/);
      problem(await app.inject({ method: "GET", url: `/v1/me?${query}` }), "bad_request", 400);
    }
    const logs = lines.join("");
    expect(logs).toContain("/v1/me?");
    expect(logs).not.toContain(key.slice("wakha_sk_".length));
  });

  it("logs no key pasted into a path, nor a Bearer value or whsec_ secret anywhere in the URL", async () => {
    const secret = "whsec_c2VjcmV0c2VjcmV0c2VjcmV0";
    await app.inject({ method: "GET", url: `/v1/calls/${a.apiKey}`, headers: a.headers });
    await app.inject({ method: "GET", url: `/v1/shops/${secret}`, headers: a.headers });
    await app.inject({ method: "GET", url: `/v1/shops/x?note=Bearer%20${a.apiKey.slice(9)}`, headers: a.headers });
    const logs = lines.join("");
    expect(logs).toContain("/v1/calls/wakha_sk_[REDACTED]");
    expect(logs).not.toContain(a.apiKey.slice("wakha_sk_".length));
    expect(logs).not.toContain(secret.slice(6));
  });
});
