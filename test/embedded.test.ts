import { spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "../src/db/embedded.ts";

async function select1(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query("SELECT 1 AS one")).rows[0].one;
  } finally {
    await client.end();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("embedded PostgreSQL (no DATABASE_URL)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "wakha-embedded-"));
    await chmod(dir, 0o755);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("starts, survives a stale postmaster.pid, and joins a postmaster orphaned by a killed parent", async () => {
    const dataDir = path.join(dir, "data");
    const first = await startEmbeddedPostgres(dataDir);
    expect(await select1(first.url)).toBe(1);
    await first.stop();

    // A pid file whose process is gone (a crash) must not stop the next start.
    const pidFile = path.join(dataDir, "pg", "postmaster.pid");
    await writeFile(pidFile, `2147483600\n${dataDir}/pg\n0\n5999\n\n127.0.0.1\n0 0\nready\n`);
    const second = await startEmbeddedPostgres(dataDir);
    expect(await select1(second.url)).toBe(1);
    await second.stop();

    // A parent killed with SIGKILL leaves its postmaster running: the next start reuses it.
    const script = path.join(dir, "start.ts");
    await writeFile(
      script,
      `import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve("src/db/embedded.ts"))};
await startEmbeddedPostgres(${JSON.stringify(dataDir)});
process.stdout.write("up\\n");
setInterval(() => {}, 1000);\n`,
    );
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => d.toString().includes("up") && resolve());
      child.on("exit", (code) => reject(new Error(`child exited ${code}`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const orphan = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
    expect(alive(orphan)).toBe(true);

    const third = await startEmbeddedPostgres(dataDir);
    expect(await select1(third.url)).toBe(1);
    await third.stop(); // adopted: left running
    expect(alive(orphan)).toBe(true);
    process.kill(orphan, "SIGINT");
    for (let i = 0; i < 100 && alive(orphan); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(orphan)).toBe(false);
  });
});
