import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, ERRORS } from "../src/errors.ts";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";

describe("error model (spec 7)", () => {
  let t: TestApp;
  let a: TestAccount;
  beforeAll(async () => {
    t = await startApp({
      env: { WAKHA_DOCS_URL: "https://docs.wakha.test" },
      routes: (app) => {
        app.get("/v1/test/boom", async () => {
          throw new Error("secret internal detail at /srv/wakha/x.ts:12");
        });
        app.get("/v1/test/teapot", async () => {
          throw Object.assign(new Error("short and stout"), { statusCode: 418 });
        });
        app.get("/v1/test/slug", async () => {
          throw new ApiError("insufficient_balance", "Balance 3 s, 10 s needed.", {
            extensions: { balance_seconds: 3, required_seconds: 10 },
          });
        });
        app.get("/elsewhere/boom", async () => {
          throw new ApiError("payload_too_large", "Body over 256 KiB.");
        });
      },
    });
    a = await newAccount(t.ctx);
  });
  afterAll(() => t.close());

  it("renders RFC 7807 with every field of spec 7.1", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/test/slug?x=1" });
    const body = problem(res, "insufficient_balance", 402);
    expect(body).toEqual({
      type: "https://docs.wakha.test/errors/insufficient_balance",
      title: ERRORS.insufficient_balance.title,
      status: 402,
      detail: "Balance 3 s, 10 s needed.",
      instance: "/v1/test/slug",
      request_id: res.headers["x-request-id"],
      balance_seconds: 3,
      required_seconds: 10,
    });
    expect(res.headers["x-api-version"]).toBe("1");
  });

  it("answers not_found for an unknown /v1 route", async () => {
    problem(await t.app.inject({ method: "GET", url: "/v1/nothing/here", headers: a.headers }), "not_found", 404);
    problem(await t.app.inject({ method: "PUT", url: "/v1/me" }), "not_found", 404);
  });

  it("turns a crash into internal_error without leaking it", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/test/boom" });
    const body = problem(res, "internal_error", 500);
    expect(res.body).not.toContain("secret internal detail");
    expect(res.body).not.toContain("x.ts");
    expect(body["detail"]).toContain(String(body["request_id"]));
  });

  it("maps an unmapped status to http_error with the real code", async () => {
    const body = problem(await t.app.inject({ method: "GET", url: "/v1/test/teapot" }), "http_error", 418);
    expect(body["status"]).toBe(418);
  });

  it("answers malformed JSON with a 422 json_invalid entry", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/me/api-keys",
      headers: { ...a.headers, "content-type": "application/json" },
      payload: '{"name": ',
    });
    const body = problem(res, "validation_error", 422);
    expect(body["errors"]).toEqual([expect.objectContaining({ loc: ["body"], type: "json_invalid" })]);
    const empty = await t.app.inject({
      method: "POST",
      url: "/v1/me/api-keys",
      headers: { ...a.headers, "content-type": "application/json" },
      payload: "",
    });
    expect((problem(empty, "validation_error", 422)["errors"] as { type: string }[])[0]!.type).toBe("json_invalid");
  });

  it("rejects a body that is not an object", async () => {
    const res = await t.app.inject({ method: "POST", url: "/v1/me/api-keys", headers: a.headers, payload: [1, 2] });
    expect(problem(res, "validation_error", 422)["errors"]).toEqual([
      { loc: ["body"], msg: "Input should be a valid dictionary or object", type: "model_type" },
    ]);
  });

  it("rejects an unsupported media type with http_error 415", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/me/api-keys",
      headers: { ...a.headers, "content-type": "text/csv" },
      payload: "a,b",
    });
    problem(res, "http_error", 415);
  });

  it("answers NUL characters with a 422, not a database error", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/me/api-keys",
      headers: a.headers,
      payload: { name: "bad\u0000name" },
    });
    // Refused by the schema, with the field's own loc (issue 20), rather than by the database.
    expect((problem(res, "validation_error", 422)["errors"] as { loc: string[]; type: string }[])[0]).toMatchObject({
      loc: ["body", "name"],
      type: "string_pattern_mismatch",
    });
  });

  it("answers malformed URLs and over-long path parameters in the problem shape", async () => {
    const long = await t.app.inject({
      method: "GET",
      url: `/v1/me/api-keys/${"a".repeat(600)}/events`,
      headers: a.headers,
    });
    problem(long, "http_error", 414);
    expect(long.headers["x-api-version"]).toBe("1");
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/api-keys/%E0%A4%A/events", headers: a.headers }),
      "bad_request",
      400,
    );
  });

  it("keeps the legacy {detail} shape outside /v1", async () => {
    const res = await t.app.inject({ method: "GET", url: "/elsewhere/boom" });
    expect(res.statusCode).toBe(413);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ detail: "Body over 256 KiB." });
    const missing = await t.app.inject({ method: "GET", url: "/nowhere" });
    expect(missing.statusCode).toBe(404);
    expect(Object.keys(missing.json())).toEqual(["detail"]);
    expect(missing.headers["x-api-version"]).toBeUndefined();
  });

  it("gives every slug a status, a title and a remedy", () => {
    for (const [slug, e] of Object.entries(ERRORS)) {
      expect(e.title.length, slug).toBeGreaterThan(3);
      expect(e.remedy.length, slug).toBeGreaterThan(10);
    }
    expect(Object.keys(ERRORS)).toHaveLength(47);
  });
});
