// Issue 32.2: `npm start` on a taken port says what to do (PORT=...), exits non-zero, and stops the embedded
// PostgreSQL it started: no orphaned postmaster is left behind. Spawned as a newcomer runs it (no DATABASE_URL).
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Pids of the processes whose command line names `dir` (a postmaster is started with its data directory). */
function processesNaming(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(dir)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe("npm start on a taken port (issue 32.2)", () => {
  let dir: string;
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "wakha-port-"));
    await chmod(dir, 0o755); // the embedded PostgreSQL's user must traverse it (FIELD-NOTES)
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((r) => holder.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  it("says to set PORT, exits 1 and leaves no embedded PostgreSQL running", async () => {
    const dataDir = path.join(dir, "data");
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["bin/wakha.js", "serve"],
        {
          env: { PATH: process.env["PATH"] ?? "", LOG_LEVEL: "silent", PORT: String(port), WAKHA_DATA_DIR: dataDir },
          timeout: 120_000,
        },
        (err, _stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stderr }),
      );
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect(result.stderr).toMatch(/PORT=\d+ npm start/);
    expect(result.stderr).not.toContain("EADDRINUSE");
    // It did start the embedded PostgreSQL (its data directory exists), and stopped it.
    expect(existsSync(path.join(dataDir, "pg"))).toBe(true);
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);
    expect(processesNaming(path.join(dataDir, "pg"))).toEqual([]);
  }, 150_000);
});
