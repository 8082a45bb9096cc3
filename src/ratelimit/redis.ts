import { Redis } from "ioredis";
import { decide, type RateDecision, type RateLimiter, windowWeight } from "./limiter.ts";

// Check-then-increment in one atomic step, so a refused request is never counted and nodes cannot race.
const CONSUME = `
local prev = tonumber(redis.call('GET', KEYS[1]) or '0')
local curr = tonumber(redis.call('GET', KEYS[2]) or '0')
if prev * tonumber(ARGV[1]) + curr + 1 <= tonumber(ARGV[2]) then
  curr = redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  return {1, prev, curr}
end
return {0, prev, curr}`;

interface ConsumeCommand {
  wakhaConsume(
    prevKey: string,
    currKey: string,
    weight: string,
    limit: string,
    ttlMs: string,
  ): Promise<[number, number, number]>;
}

/** Counters shared by every node through Redis. */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis & ConsumeCommand;

  constructor(url: string) {
    const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    redis.defineCommand("wakhaConsume", { numberOfKeys: 2, lua: CONSUME });
    this.#redis = redis as Redis & ConsumeCommand;
  }

  async consume(bucket: string, limit: number, windowMs: number, nowMs: number): Promise<RateDecision> {
    const { current, weight } = windowWeight(windowMs, nowMs);
    // The hash tag keeps both windows of a bucket on one Redis Cluster slot.
    const tag = `wakha:rl:{${bucket}}`;
    const [allowed, prev, curr] = await this.#redis.wakhaConsume(
      `${tag}:${current - 1}`,
      `${tag}:${current}`,
      String(weight),
      String(limit),
      String(windowMs * 2),
    );
    return decide(allowed === 1, prev, curr, limit, windowMs, nowMs);
  }

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
