import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { decide, MemoryRateLimiter } from "../src/ratelimit/limiter.ts";
import { RedisRateLimiter } from "../src/ratelimit/redis.ts";
import { newAccount, problem, startApp, type TestApp } from "./helpers.ts";

const redisUrl = inject("redisUrl");
const W = 60_000;

describe("sliding window arithmetic", () => {
  it("weights the previous window by its overlap", () => {
    // 10 requests last window, a quarter of the way into this one: 7.5 still count.
    const d = decide(true, 10, 1, 10, W, 15_000);
    expect(d.remaining).toBe(1); // 10 - (7.5 + 1) = 1.5
    expect(d.reset).toBe(60);
  });

  it("tells how long to wait", () => {
    // Full previous window, nothing this window, at the very start: wait until one slot decays (6 s).
    expect(decide(false, 10, 0, 10, W, 60_000).retryAfter).toBe(6);
    // Current window full: wait for the next window and then some decay.
    expect(decide(false, 0, 10, 10, W, 30_000).retryAfter).toBe(36);
  });
});

for (const store of ["memory", "redis"] as const) {
  describe.skipIf(store === "redis" && !redisUrl)(`${store} store`, () => {
    const make = () => (store === "memory" ? new MemoryRateLimiter() : new RedisRateLimiter(redisUrl!));

    it("admits exactly the limit, counts no refusal, and slides", async () => {
      const limiter = make();
      const bucket = randomUUID();
      const t0 = 120_000; // start of a window
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await limiter.consume(bucket, 3, W, t0 + i));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
      expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0, 0]);
      // Next window, halfway: previous 3 weigh 1.5, so one more fits (1.5 + 1 <= 3) but not two.
      expect((await limiter.consume(bucket, 3, W, t0 + W + W / 2)).allowed).toBe(true);
      expect((await limiter.consume(bucket, 3, W, t0 + W + W / 2)).allowed).toBe(false);
      await limiter.close();
    });

    it("holds under concurrent requests", async () => {
      const limiter = make();
      const bucket = randomUUID();
      const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.consume(bucket, 20, W, 240_000)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
      await limiter.close();
    });
  });
}

describe("rate limits over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    // Scale 0.01: reads allow 6 a minute, so the test stays small.
    t = await startApp({ env: { WAKHA_RATE_LIMIT_SCALE: "0.01" } });
  });
  afterAll(() => t.close());

  it("sends the headers on 2xx and a 429 with retry_after past the limit, per key", async () => {
    const a = await newAccount(t.ctx);
    const seen = [];
    for (let i = 0; i < 7; i++) seen.push(await t.app.inject({ method: "GET", url: "/v1/me", headers: a.headers }));
    expect(seen.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect(seen.slice(0, 6).map((r) => r.headers["x-ratelimit-remaining"])).toEqual(["5", "4", "3", "2", "1", "0"]);
    expect(seen[0]!.headers["x-ratelimit-limit"]).toBe("6");
    const body = problem(seen[6]!, "rate_limit_exceeded", 429);
    expect(Number(seen[6]!.headers["retry-after"])).toBe(body["retry_after"]);
    // Another key of the same account has its own bucket.
    const second = (
      await t.app.inject({ method: "POST", url: "/v1/me/api-keys", headers: a.headers, payload: {} })
    ).json();
    expect(
      (await t.app.inject({ method: "GET", url: "/v1/me", headers: { authorization: `Bearer ${second.api_key}` } }))
        .statusCode,
    ).toBe(200);
  });

  it("does not count 401s against anyone", async () => {
    for (let i = 0; i < 10; i++)
      problem(
        await t.app.inject({ method: "GET", url: "/v1/me", headers: { authorization: "Bearer nope" } }),
        "invalid_api_key",
        401,
      );
  });
});

describe.skipIf(!redisUrl)("rate limits across two server processes sharing Redis", () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    const env = { WAKHA_RATE_LIMIT_SCALE: "0.01", REDIS_URL: redisUrl! };
    one = await startApp({ env });
    two = await startApp({ env });
  });
  afterAll(async () => {
    await one.close();
    await two.close();
  });

  it("holds the limit across both nodes and records the 429s", async () => {
    const a = await newAccount(one.ctx);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? one : two).app.inject({ method: "GET", url: "/v1/me/balance", headers: a.headers }),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(6);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(6);
    const { rows } = await one.ctx.db.query(
      "SELECT count(*)::int AS n FROM api_key_events WHERE key_id = $1 AND type = 'rate_limited'",
      [a.keyId],
    );
    expect(rows[0]!.n).toBe(6);
  });
});
