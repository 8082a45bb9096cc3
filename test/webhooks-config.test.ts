import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.ts";
import { verifyWebhook } from "../src/webhooks/signature.ts";
import { newAccount, problem, startApp, type TestApp } from "./helpers.ts";
import { startReceiver, type Receiver } from "./webhook-receiver.ts";

const ALLOW = { WAKHA_WEBHOOK_ALLOW_PRIVATE: "on" };

describe("webhook configuration (issue 6.1, CONTRACT §6 and §10)", () => {
  let t: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startApp({ env: ALLOW });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const create = (headers: object, payload: object) =>
    t.app.inject({ method: "POST", url: "/v1/me/webhooks", headers: headers as Record<string, string>, payload });

  it("creates with a whsec_ secret shown once; GET has no secret field; the secret is stored sealed", async () => {
    const a = await newAccount(t.ctx);
    const res = await create(a.headers, { url: receiver.url, description: "orders bot" });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ url: receiver.url, description: "orders bot", status: "active" });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(res.headers["x-ratelimit-limit"]).toBe("10");

    const got = await t.app.inject({ method: "GET", url: "/v1/me/webhooks", headers: a.headers });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({
      id: body.id,
      url: receiver.url,
      description: "orders bot",
      status: "active",
      created_at: body.created_at,
    });
    expect(got.body).not.toContain("secret");

    const { rows } = await t.ctx.db.query("SELECT * FROM webhooks WHERE id = $1", [body.id]);
    expect(JSON.stringify(rows)).not.toContain(body.secret);
    expect(JSON.stringify(rows)).not.toContain(body.secret.slice(6));
    expect(t.ctx.secretBox!.open(rows[0]!.secret_sealed)).toBe(body.secret);
  });

  it("allows one active webhook: 409 webhook_already_configured; delete then create rotates the secret", async () => {
    const a = await newAccount(t.ctx);
    const first = (await create(a.headers, { url: receiver.url })).json();
    problem(await create(a.headers, { url: receiver.url }), "webhook_already_configured", 409);
    const del = await t.app.inject({ method: "DELETE", url: "/v1/me/webhooks", headers: a.headers });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe("");
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/webhooks", headers: a.headers }),
      "webhook_not_configured",
      404,
    );
    problem(
      await t.app.inject({ method: "DELETE", url: "/v1/me/webhooks", headers: a.headers }),
      "webhook_not_configured",
      404,
    );
    const second = await create(a.headers, { url: receiver.url });
    expect(second.statusCode).toBe(201);
    expect(second.json().secret).not.toBe(first.secret);
    expect(second.json().id).not.toBe(first.id);
  });

  it("lets exactly one of several concurrent creations win", async () => {
    const a = await newAccount(t.ctx);
    const results = await Promise.all(Array.from({ length: 5 }, () => create(a.headers, { url: receiver.url })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const { rows } = await t.ctx.db.query("SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1", [
      a.accountId,
    ]);
    expect(rows[0]!.n).toBe(1);
  });

  it("validates the body (422) and refuses bad URLs with webhook_url_rejected and a reason", async () => {
    const a = await newAccount(t.ctx);
    problem(await create(a.headers, {}), "validation_error", 422);
    problem(await create(a.headers, { url: receiver.url, extra: 1 }), "validation_error", 422);
    problem(await create(a.headers, { url: 42 }), "validation_error", 422);
    const bad = problem(await create(a.headers, { url: "not a url" }), "webhook_url_rejected", 400);
    expect(bad["reason"]).toBe("invalid_url");
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/webhooks", headers: a.headers }),
      "webhook_not_configured",
      404,
    );
  });

  it("applies the production guard when private targets are not allowed", async () => {
    const strict = await startApp();
    try {
      const a = await newAccount(strict.ctx);
      const cases: [string, string][] = [
        ["http://example.com/hook", "scheme_not_allowed"],
        ["https://localhost/hook", "localhost_rejected"],
        ["https://2130706433/hook", "localhost_rejected"],
        ["https://169.254.169.254/latest/meta-data", "private_ip_rejected"],
        ["https://[::ffff:10.0.0.1]/", "private_ip_rejected"],
        ["https://vm/hook", "private_ip_rejected"],
        ["https://no-such-host.invalid/hook", "dns_resolution_failed"],
      ];
      for (const [url, reason] of cases) {
        const res = await strict.app.inject({
          method: "POST",
          url: "/v1/me/webhooks",
          headers: a.headers,
          payload: { url },
        });
        expect(problem(res, "webhook_url_rejected", 400)["reason"], url).toBe(reason);
      }
    } finally {
      await strict.close();
    }
  });

  it("requires WAKHA_ENCRYPTION_KEY to be 32 characters or more when set", () => {
    expect(() => loadConfig({ WAKHA_ENCRYPTION_KEY: "short" })).toThrow(
      /WAKHA_ENCRYPTION_KEY: must be at least 32 characters/,
    );
    expect(loadConfig({ WAKHA_ENCRYPTION_KEY: "k".repeat(32) }).WAKHA_ENCRYPTION_KEY).toHaveLength(32);
  });

  it("answers 503 service_unavailable without an encryption key", async () => {
    const nokey = await startApp({ env: ALLOW, encryptionKey: null });
    try {
      const a = await newAccount(nokey.ctx);
      problem(
        await nokey.app.inject({
          method: "POST",
          url: "/v1/me/webhooks",
          headers: a.headers,
          payload: { url: receiver.url },
        }),
        "service_unavailable",
        503,
      );
      problem(
        await nokey.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: a.headers }),
        "service_unavailable",
        503,
      );
    } finally {
      await nokey.close();
    }
  });

  it("keeps accounts apart: another account sees no webhook and cannot delete or test it", async () => {
    const owner = await newAccount(t.ctx);
    const other = await newAccount(t.ctx);
    expect((await create(owner.headers, { url: receiver.url })).statusCode).toBe(201);
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/webhooks", headers: other.headers }),
      "webhook_not_configured",
      404,
    );
    problem(
      await t.app.inject({ method: "DELETE", url: "/v1/me/webhooks", headers: other.headers }),
      "webhook_not_configured",
      404,
    );
    problem(
      await t.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: other.headers }),
      "webhook_url_not_configured",
      400,
    );
    expect((await t.app.inject({ method: "GET", url: "/v1/me/webhooks", headers: owner.headers })).statusCode).toBe(
      200,
    );
    const list = await t.app.inject({ method: "GET", url: "/v1/me/webhooks/deliveries", headers: other.headers });
    expect(list.json()).toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it("requires a valid key on every operation", async () => {
    for (const [method, url] of [
      ["POST", "/v1/me/webhooks"],
      ["GET", "/v1/me/webhooks"],
      ["DELETE", "/v1/me/webhooks"],
      ["POST", "/v1/me/webhooks/test"],
      ["GET", "/v1/me/webhooks/deliveries"],
    ] as const) {
      problem(await t.app.inject({ method, url, headers: { authorization: "Bearer nope" } }), "invalid_api_key", 401);
    }
  });

  it("sends a signed webhook.test now and answers 200 with the delivery after the first attempt", async () => {
    const a = await newAccount(t.ctx);
    const secret = (await create(a.headers, { url: receiver.url })).json().secret as string;
    const before = receiver.requests.length;
    const res = await t.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: a.headers });
    expect(res.statusCode).toBe(200);
    const delivery = res.json();
    expect(delivery).toMatchObject({
      status: "delivered",
      attempts: 1,
      last_status_code: 200,
      event_type: "webhook.test",
      url: receiver.url,
      last_response_excerpt: "ok",
      next_attempt_at: null,
    });
    expect(delivery.event_id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(res.headers["x-ratelimit-limit"]).toBe("10");

    const got = receiver.requests[before]!;
    expect(got.method).toBe("POST");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["user-agent"]).toBe("Wakha-Webhooks/1");
    expect(got.headers["x-service-event-id"]).toBe(delivery.event_id);
    expect(got.headers["x-service-event-type"]).toBe("webhook.test");
    expect(verifyWebhook(secret, got.headers["x-service-signature"] as string, got.body)).toBe(true);
    expect(verifyWebhook(secret, got.headers["x-service-signature"] as string, `${got.body} `)).toBe(false);
    expect(verifyWebhook("whsec_wrong", got.headers["x-service-signature"] as string, got.body)).toBe(false);
    const envelope = JSON.parse(got.body);
    expect(Object.keys(envelope)).toEqual(["id", "type", "created_at", "api_version", "data"]);
    expect(envelope).toMatchObject({ id: delivery.event_id, type: "webhook.test", api_version: "1" });
    expect(envelope.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("lists deliveries newest first with pagination and a status filter; a bad filter is 400 listing the values", async () => {
    const a = await newAccount(t.ctx);
    await create(a.headers, { url: receiver.url });
    for (let i = 0; i < 3; i++)
      expect((await t.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: a.headers })).statusCode).toBe(
        200,
      );
    const page1 = await t.app.inject({ method: "GET", url: "/v1/me/webhooks/deliveries?limit=2", headers: a.headers });
    expect(page1.statusCode).toBe(200);
    const p1 = page1.json();
    expect(p1.data).toHaveLength(2);
    expect(p1.has_more).toBe(true);
    const page2 = (
      await t.app.inject({
        method: "GET",
        url: `/v1/me/webhooks/deliveries?limit=2&cursor=${encodeURIComponent(p1.next_cursor)}`,
        headers: a.headers,
      })
    ).json();
    expect(page2.data).toHaveLength(1);
    expect(page2.has_more).toBe(false);
    const ids = [...p1.data, ...page2.data].map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(3);
    expect(p1.data[0].created_at >= p1.data[1].created_at).toBe(true);

    const delivered = (
      await t.app.inject({ method: "GET", url: "/v1/me/webhooks/deliveries?status=delivered", headers: a.headers })
    ).json();
    expect(delivered.data).toHaveLength(3);
    for (const s of ["failed", "pending"]) {
      expect(
        (
          await t.app.inject({ method: "GET", url: `/v1/me/webhooks/deliveries?status=${s}`, headers: a.headers })
        ).json().data,
      ).toEqual([]);
    }
    const bad = problem(
      await t.app.inject({ method: "GET", url: "/v1/me/webhooks/deliveries?status=done", headers: a.headers }),
      "invalid_status_filter",
      400,
    );
    expect(bad["detail"]).toMatch(/delivered, failed, pending/);
    // A cursor of the unfiltered list is not valid for a filtered one.
    problem(
      await t.app.inject({
        method: "GET",
        url: `/v1/me/webhooks/deliveries?status=delivered&cursor=${encodeURIComponent(p1.next_cursor)}`,
        headers: a.headers,
      }),
      "invalid_cursor",
      400,
    );
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/webhooks/deliveries?limit=0", headers: a.headers }),
      "validation_error",
      422,
    );
  });

  it("counts the test endpoint in the POST /v1/me/webhooks* bucket of 10 per minute", async () => {
    const a = await newAccount(t.ctx);
    await create(a.headers, { url: receiver.url });
    let last = 0;
    for (let i = 0; i < 9; i++)
      last = (await t.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: a.headers })).statusCode;
    expect(last).toBe(200);
    problem(
      await t.app.inject({ method: "POST", url: "/v1/me/webhooks/test", headers: a.headers }),
      "rate_limit_exceeded",
      429,
    );
    problem(await create(a.headers, { url: receiver.url }), "rate_limit_exceeded", 429);
  });
});
