// Per-key sliding-window rate limiting: the previous fixed window's count, weighted by how much of it
// still overlaps the sliding window, plus the current window's count (CONTRACT §10).

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  reset: number;
  /** Seconds to wait before a retry can succeed (0 when allowed). */
  retryAfter: number;
}

/** A counter store; the in-process one serves a single node, the Redis one any number of nodes. */
export interface RateLimiter {
  /** Counts one request in `bucket` if it fits under `limit` per `windowMs`; a refused request is not counted. */
  consume(bucket: string, limit: number, windowMs: number, nowMs: number): Promise<RateDecision>;
  close(): Promise<void>;
}

/** Turns the two window counts into the decision and its headers; shared by every store. */
export function decide(
  allowed: boolean,
  prev: number,
  curr: number,
  limit: number,
  windowMs: number,
  nowMs: number,
): RateDecision {
  const windowStart = Math.floor(nowMs / windowMs) * windowMs;
  const elapsed = nowMs - windowStart;
  const weight = (windowMs - elapsed) / windowMs;
  const used = prev * weight + curr;
  const reset = Math.ceil((windowStart + windowMs) / 1000);
  if (allowed) {
    return { allowed, limit, remaining: Math.max(0, Math.floor(limit - used)), reset, retryAfter: 0 };
  }
  let waitMs: number;
  const room = limit - 1 - curr;
  if (room >= 0 && prev > 0) {
    // Still this window: wait until the previous window's weight has decayed enough.
    waitMs = windowMs - elapsed - (room * windowMs) / prev;
  } else {
    // Next window: the current count becomes the decaying one.
    const after = curr > 0 ? windowMs - ((limit - 1) * windowMs) / curr : 0;
    waitMs = windowMs - elapsed + Math.max(0, after);
  }
  return { allowed, limit, remaining: 0, reset, retryAfter: Math.max(1, Math.ceil(waitMs / 1000)) };
}

export function windowWeight(windowMs: number, nowMs: number): { current: number; weight: number } {
  const current = Math.floor(nowMs / windowMs);
  return { current, weight: (windowMs - (nowMs - current * windowMs)) / windowMs };
}

/** Counters in this process: right for one node; use Redis (REDIS_URL) as soon as there are several. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #counts = new Map<string, number>();
  #sweptWindow = 0;

  async consume(bucket: string, limit: number, windowMs: number, nowMs: number): Promise<RateDecision> {
    const { current, weight } = windowWeight(windowMs, nowMs);
    this.#sweep(current);
    const prev = this.#counts.get(`${bucket}|${current - 1}`) ?? 0;
    let curr = this.#counts.get(`${bucket}|${current}`) ?? 0;
    const allowed = prev * weight + curr + 1 <= limit;
    if (allowed) this.#counts.set(`${bucket}|${current}`, ++curr);
    return decide(allowed, prev, curr, limit, windowMs, nowMs);
  }

  // Drops counters of windows that can no longer weigh in, once per window.
  #sweep(current: number): void {
    if (current === this.#sweptWindow) return;
    this.#sweptWindow = current;
    for (const key of this.#counts.keys()) {
      if (Number(key.slice(key.lastIndexOf("|") + 1)) < current - 1) this.#counts.delete(key);
    }
  }

  async close(): Promise<void> {}
}
