// Migration 022 dropped the foreign keys of calls, orders and idempotency_keys to accounts, shops and orders: they hold
// because those rows are never deleted. This keeps it so: a DELETE of them anywhere in src/ fails here first.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SRC = path.join(import.meta.dirname, "..", "src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.(ts|sql)$/.test(name) ? [full] : [];
  });
}

describe("parent rows of a call (migration 022)", () => {
  it("no code or migration deletes accounts, shops or orders", () => {
    const deleting = files(SRC).filter((f) =>
      /\b(DELETE\s+FROM|TRUNCATE)\s+(ONLY\s+)?(public\.)?(accounts|shops|orders)\b/i.test(readFileSync(f, "utf8")),
    );
    expect(deleting.map((f) => path.relative(SRC, f))).toEqual([]);
  });
});
