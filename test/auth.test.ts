import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";

describe("authentication (spec part 5)", () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await startApp();
    acct = await newAccount(t.ctx, 100);
  });
  afterAll(() => t.close());

  it("accepts the exact Bearer key", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/me", headers: acct.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(acct.accountId);
  });

  const bad: [string, Record<string, string>][] = [
    ["no header", {}],
    ["no Bearer prefix", { authorization: "KEY" }],
    ["lower-case scheme", { authorization: "bearer KEY" }],
    ["Basic scheme", { authorization: "Basic KEY" }],
    ["empty key", { authorization: "Bearer " }],
    ["two spaces", { authorization: "Bearer  KEY" }],
    ["unknown key", { authorization: "Bearer wakha_sk_doesnotexist" }],
    ["key with a character appended", { authorization: "Bearer KEYx" }],
    ["upper-cased key", { authorization: "Bearer UPPER" }],
  ];
  it.each(bad)("answers 401 invalid_api_key for %s", async (_name, headers) => {
    const h = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [
        k,
        v.replace("KEY", acct.apiKey).replace("UPPER", acct.apiKey.toUpperCase()),
      ]),
    );
    const res = await t.app.inject({ method: "GET", url: "/v1/me", headers: h });
    const body = problem(res, "invalid_api_key", 401);
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(body["instance"]).toBe("/v1/me");
  });

  it("rejects a revoked key at once", async () => {
    const other = await newAccount(t.ctx);
    expect((await t.app.inject({ method: "GET", url: "/v1/me", headers: other.headers })).statusCode).toBe(200);
    const del = await t.app.inject({ method: "DELETE", url: `/v1/me/api-keys/${other.keyId}`, headers: other.headers });
    expect(del.statusCode).toBe(204);
    problem(await t.app.inject({ method: "GET", url: "/v1/me", headers: other.headers }), "invalid_api_key", 401);
  });

  it("protects every /v1 route", async () => {
    const routes = [
      ["GET", "/v1/me"],
      ["GET", "/v1/me/balance"],
      ["GET", "/v1/me/usage"],
      ["GET", "/v1/me/transactions"],
      ["POST", "/v1/me/api-keys"],
      ["GET", "/v1/me/api-keys"],
      ["DELETE", `/v1/me/api-keys/${acct.keyId}`],
      ["GET", `/v1/me/api-keys/${acct.keyId}/events`],
    ] as const;
    for (const [method, url] of routes) {
      problem(await t.app.inject({ method, url }), "invalid_api_key", 401);
    }
  });

  it("never stores the secret in clear", async () => {
    const { rows } = await t.ctx.db.query("SELECT key_hash, prefix FROM api_keys WHERE id = $1", [acct.keyId]);
    expect(rows[0]!.key_hash).toHaveLength(32);
    expect(JSON.stringify(rows[0])).not.toContain(acct.apiKey);
  });
});

describe("logging", () => {
  it("masks credentials sent in a query string before the URL is logged", async () => {
    const { redactQuerySecrets } = await import("../src/app.ts");
    expect(redactQuerySecrets("/mcp?api_key=wakha_sk_secret&limit=2&Token=t0k")).toBe(
      "/mcp?api_key=[REDACTED]&limit=2&Token=[REDACTED]",
    );
    expect(redactQuerySecrets("/v1/calls?status=queued")).toBe("/v1/calls?status=queued");
  });
});
