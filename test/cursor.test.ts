import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditAccount } from "../src/services/accounts.ts";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";

const LISTS = (a: TestAccount) => ["/v1/me/transactions", "/v1/me/api-keys", `/v1/me/api-keys/${a.keyId}/events`];

describe("cursor pagination (CONTRACT §3)", () => {
  let clock = Date.now();
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let cursor: string;
  beforeAll(async () => {
    t = await startApp({ now: () => clock });
    a = await newAccount(t.ctx, 1);
    b = await newAccount(t.ctx, 1);
    for (let i = 0; i < 4; i++) await creditAccount(t.ctx.db, a.accountId, 1);
    cursor = (await t.app.inject({ method: "GET", url: "/v1/me/transactions?limit=2", headers: a.headers })).json()
      .next_cursor;
  });
  afterAll(() => t.close());

  it("walks every row exactly once", async () => {
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const res = await t.app.inject({
        method: "GET",
        url: "/v1/me/transactions",
        query: { limit: "2", ...(next ? { cursor: next } : {}) },
        headers: a.headers,
      });
      const page: { data: { id: string }[]; has_more: boolean; next_cursor: string | null } = res.json();
      seen.push(...page.data.map((x) => x.id));
      next = page.next_cursor;
      expect(page.has_more).toBe(next !== null);
    } while (next);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });

  it("rejects a tampered cursor", async () => {
    const [body, sig] = cursor.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), p: 1 }),
    ).toString("base64url");
    for (const bad of [`${forged}.${sig}`, `${body}.${sig}x`, "garbage", `${body}`, `${body}.${sig}.x`, "a.b"]) {
      problem(
        await t.app.inject({ method: "GET", url: "/v1/me/transactions", query: { cursor: bad }, headers: a.headers }),
        "invalid_cursor",
        400,
      );
    }
  });

  it("rejects a cursor from another account or another list", async () => {
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/transactions", query: { cursor }, headers: b.headers }),
      "invalid_cursor",
      400,
    );
    problem(
      await t.app.inject({ method: "GET", url: "/v1/me/api-keys", query: { cursor }, headers: a.headers }),
      "invalid_cursor",
      400,
    );
  });

  it("rejects a cursor signed before a key rotation", async () => {
    const rotated = await startApp({ cursorSecret: "another-secret-after-rotation-0123456789abcdef" });
    try {
      problem(
        await rotated.app.inject({ method: "GET", url: "/v1/me/transactions", query: { cursor }, headers: a.headers }),
        "invalid_cursor",
        400,
      );
    } finally {
      await rotated.close();
    }
  });

  it("expires cursors after 24 hours", async () => {
    const saved = clock;
    try {
      clock = saved + 24 * 3600 * 1000 - 1000;
      expect(
        (await t.app.inject({ method: "GET", url: "/v1/me/transactions", query: { cursor }, headers: a.headers }))
          .statusCode,
      ).toBe(200);
      clock = saved + 24 * 3600 * 1000 + 1000;
      problem(
        await t.app.inject({ method: "GET", url: "/v1/me/transactions", query: { cursor }, headers: a.headers }),
        "cursor_expired",
        400,
      );
    } finally {
      clock = saved;
    }
  });

  it.each(["0", "101", "-1", "abc", "2.5"])("rejects limit=%s with a 422 on query.limit", async (limit) => {
    const body = problem(
      await t.app.inject({ method: "GET", url: "/v1/me/transactions", query: { limit }, headers: a.headers }),
      "validation_error",
      422,
    );
    expect((body["errors"] as { loc: string[] }[])[0]!.loc).toEqual(["query", "limit"]);
  });

  it("answers 503 on every list when no signing secret is configured", async () => {
    const unsigned = await startApp({ cursorSecret: null });
    try {
      for (const url of LISTS(a)) {
        problem(await unsigned.app.inject({ method: "GET", url, headers: a.headers }), "service_unavailable", 503);
      }
      expect((await unsigned.app.inject({ method: "GET", url: "/v1/me", headers: a.headers })).statusCode).toBe(200);
    } finally {
      await unsigned.close();
    }
  });
});
