import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("API keys", () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  beforeAll(async () => {
    t = await startApp();
    a = await newAccount(t.ctx);
    b = await newAccount(t.ctx);
  });
  afterAll(() => t.close());

  it("creates a key whose secret is shown once and works at once", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/me/api-keys",
      headers: a.headers,
      payload: { name: "worker-1" },
    });
    expect(res.statusCode).toBe(201);
    const key = res.json();
    expect(Object.keys(key).sort()).toEqual(["api_key", "created_at", "id", "name", "prefix", "status"]);
    expect(key.id).toMatch(UUID_V4);
    expect(key.status).toBe("active");
    expect(key.api_key.startsWith(key.prefix)).toBe(true);
    const me = await t.app.inject({
      method: "GET",
      url: "/v1/me",
      headers: { authorization: `Bearer ${key.api_key}` },
    });
    expect(me.json().id).toBe(a.accountId);

    const list = await t.app.inject({ method: "GET", url: "/v1/me/api-keys", headers: a.headers });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(key.api_key);
    const listed = list.json().data.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ id: key.id, name: "worker-1", status: "active", revoked_at: null });
    expect(Object.keys(listed).sort()).toEqual([
      "created_at",
      "id",
      "last_used_at",
      "name",
      "prefix",
      "revoked_at",
      "status",
    ]);
  });

  it("creates a key without a body", async () => {
    const res = await t.app.inject({ method: "POST", url: "/v1/me/api-keys", headers: a.headers });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBeNull();
  });

  it("rejects unknown fields and wrong types", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/me/api-keys",
      headers: a.headers,
      payload: { name: 3, scope: "admin" },
    });
    const body = problem(res, "validation_error", 422);
    expect(body["errors"]).toEqual([
      { loc: ["body", "name"], msg: "Input should be a valid string", type: "string_type" },
      { loc: ["body", "scope"], msg: "Extra inputs are not permitted", type: "extra_forbidden" },
    ]);
  });

  it("revokes a key, records it and lists it as revoked", async () => {
    const created = (
      await t.app.inject({ method: "POST", url: "/v1/me/api-keys", headers: a.headers, payload: {} })
    ).json();
    const del = await t.app.inject({ method: "DELETE", url: `/v1/me/api-keys/${created.id}`, headers: a.headers });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe("");
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me", headers: { authorization: `Bearer ${created.api_key}` } }),
      "invalid_api_key",
      401,
    );
    const again = await t.app.inject({ method: "DELETE", url: `/v1/me/api-keys/${created.id}`, headers: a.headers });
    expect(again.statusCode).toBe(204);
    const list = (await t.app.inject({ method: "GET", url: "/v1/me/api-keys?limit=100", headers: a.headers })).json();
    const row = list.data.find((k: { id: string }) => k.id === created.id);
    expect(row.status).toBe("revoked");
    expect(Date.parse(row.revoked_at)).not.toBeNaN();
    const events = (
      await t.app.inject({ method: "GET", url: `/v1/me/api-keys/${created.id}/events`, headers: a.headers })
    ).json();
    expect(events.data.map((e: { type: string }) => e.type)).toEqual(["revoked", "created"]);
  });

  it("tells a malformed id (400) from a missing one (404)", async () => {
    for (const bad of [
      "123",
      "not-a-uuid",
      "6f1c2d9e-0c3b-1a4b-8c5d-123456789abc",
      "6f1c2d9e0c3b4a4b8c5d123456789abc",
      "6f1c2d9e-0c3b-4a4b-7c5d-123456789abc",
    ]) {
      problem(
        await t.app.inject({ method: "DELETE", url: `/v1/me/api-keys/${bad}`, headers: a.headers }),
        "invalid_key_id",
        400,
      );
      problem(
        await t.app.inject({ method: "GET", url: `/v1/me/api-keys/${bad}/events`, headers: a.headers }),
        "invalid_key_id",
        400,
      );
    }
    problem(
      await t.app.inject({
        method: "DELETE",
        url: "/v1/me/api-keys/6f1c2d9e-0c3b-4a4b-8c5d-123456789abc",
        headers: a.headers,
      }),
      "api_key_not_found",
      404,
    );
  });

  it("makes another account's key indistinguishable from a missing one", async () => {
    const missing = "6f1c2d9e-0c3b-4a4b-8c5d-123456789abc";
    const strip = (body: Record<string, unknown>) => ({
      ...body,
      request_id: undefined,
      instance: undefined,
      detail: String(body["detail"]).replace(/[0-9a-f-]{36}/, "ID"),
    });
    for (const [method, suffix] of [
      ["DELETE", ""],
      ["GET", "/events"],
    ] as const) {
      const foreign = problem(
        await t.app.inject({ method, url: `/v1/me/api-keys/${b.keyId}${suffix}`, headers: a.headers }),
        "api_key_not_found",
        404,
      );
      const absent = problem(
        await t.app.inject({ method, url: `/v1/me/api-keys/${missing}${suffix}`, headers: a.headers }),
        "api_key_not_found",
        404,
      );
      expect(strip(foreign)).toEqual(strip(absent));
    }
    // b's key still works: a's DELETE did nothing to it.
    expect((await t.app.inject({ method: "GET", url: "/v1/me", headers: b.headers })).statusCode).toBe(200);
  });

  it("limits creation to 5 per minute per key and records each 429 on the key", async () => {
    const c = await newAccount(t.ctx);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await t.app.inject({ method: "POST", url: "/v1/me/api-keys", headers: c.headers, payload: {} });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    const body = problem(last!, "rate_limit_exceeded", 429);
    expect(body["retry_after"]).toBeGreaterThan(0);
    expect(last!.headers["retry-after"]).toBe(String(body["retry_after"]));
    expect(last!.headers["x-ratelimit-limit"]).toBe("5");
    expect(last!.headers["x-ratelimit-remaining"]).toBe("0");
    expect(Number(last!.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
    const events = (
      await t.app.inject({ method: "GET", url: `/v1/me/api-keys/${c.keyId}/events`, headers: c.headers })
    ).json();
    expect(events.data.filter((e: { type: string }) => e.type === "rate_limited")).toHaveLength(2);
    expect(events.data[0].detail).toMatchObject({ rate_class: "api_keys_create", limit: 5 });
  });

  it("paginates audit events", async () => {
    const d = await newAccount(t.ctx);
    for (let i = 0; i < 3; i++)
      await t.app.inject({ method: "POST", url: "/v1/me/api-keys", headers: d.headers, payload: {} });
    const keys = (await t.app.inject({ method: "GET", url: "/v1/me/api-keys?limit=2", headers: d.headers })).json();
    expect(keys.data).toHaveLength(2);
    expect(keys.has_more).toBe(true);
    const rest = (
      await t.app.inject({
        method: "GET",
        url: `/v1/me/api-keys?limit=2&cursor=${keys.next_cursor}`,
        headers: d.headers,
      })
    ).json();
    expect(rest.data).toHaveLength(2);
    expect(rest.has_more).toBe(false);
    expect(rest.next_cursor).toBeNull();
    const all = [...keys.data, ...rest.data].map((k: { id: string }) => k.id);
    expect(new Set(all).size).toBe(4);
    expect(all).toContain(d.keyId);
  });
});
