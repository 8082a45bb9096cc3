// Issue 20, finding 7: a real argument parser. --help and --version on every command and subcommand answer
// without side effects (no server, no worker, no migration, no database at all); a wrong option shows usage.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../src/cli-args.ts";

const run = promisify(execFile);
const VERSION = (await import("../package.json", { with: { type: "json" } })).default.version;

/** Runs bin/wakha.js against a database that cannot be reached: anything that touched it would fail or hang. */
async function wakha(args: string[]) {
  const started = Date.now();
  try {
    const { stdout, stderr } = await run(process.execPath, ["bin/wakha.js", ...args], {
      env: {
        PATH: process.env["PATH"] ?? "",
        DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none",
        LOG_LEVEL: "silent",
        PORT: "1",
      },
      timeout: 10_000,
    });
    return { code: 0, stdout, stderr, ms: Date.now() - started };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, ms: Date.now() - started };
  }
}

const COMMANDS = [
  [],
  ["serve"],
  ["worker"],
  ["migrate"],
  ["accounts"],
  ["accounts", "create"],
  ["accounts", "credit"],
  ["classify"],
  ["doctor"],
];

describe("wakha --help and --version (no side effects)", () => {
  it.each(
    COMMANDS.flatMap((c) => [
      [...c, "--help"],
      [...c, "-h"],
    ]),
  )("wakha %s prints usage and exits 0", async (...args) => {
    const res = await wakha(args as string[]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/Usage/);
    expect(res.stderr).not.toMatch(/ECONNREFUSED|migrat|listening|workers running/i);
  });

  it.each(
    COMMANDS.flatMap((c) => [
      [...c, "--version"],
      [...c, "-V"],
    ]),
  )("wakha %s prints the version and exits 0", async (...args) => {
    const res = await wakha(args as string[]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe(`wakha ${VERSION}`);
  });

  it("help wins over other options, even invalid ones", async () => {
    expect((await wakha(["accounts", "create", "--bogus", "--help"])).code).toBe(0);
    expect((await wakha(["serve", "--port", "9", "-h"])).stdout).toMatch(/Usage: wakha serve/);
  });
});

describe("usage errors (exit 2, the command's usage on stderr)", () => {
  it.each([
    [["serve", "--frob"], /Unknown option '--frob'/, /Usage: wakha serve/],
    [["worker", "extra"], /unexpected argument "extra"/, /Usage: wakha worker/],
    [["migrate", "--dry-run"], /--dry-run/, /Usage: wakha migrate/],
    [["accounts"], null, null],
    [["accounts", "delete"], /unknown accounts command "delete"/, /wakha accounts credit/],
    [["accounts", "create", "--name", "x", "--bogus"], /--bogus/, /Usage: wakha accounts create/],
    [
      ["accounts", "create", "--name", "x", "--balance-seconds", "lots"],
      /whole number/,
      /Usage: wakha accounts create/,
    ],
    [["accounts", "create", "--name"], /--name/, /Usage: wakha accounts create/],
    [["accounts", "credit", "--seconds", "5"], /missing argument/, /Usage: wakha accounts credit/],
    [["accounts", "credit", "id", "--seconds", "1.5"], /whole number/, /Usage: wakha accounts credit/],
    [["--frob"], /unknown option "--frob"/, /Usage:/],
    [["frobnicate"], /unknown command "frobnicate"/, /Usage:/],
  ] as [string[], RegExp | null, RegExp | null][])("wakha %s", async (args, message, usage) => {
    const res = await wakha(args);
    if (message === null) {
      // `wakha accounts` alone is a request for that group's usage.
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/wakha accounts create/);
      return;
    }
    expect(res.code, res.stdout).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stderr).toMatch(usage!);
  });

  it("parses in-process without running anything", () => {
    expect(parseCommandLine(["accounts", "credit", "acc", "--seconds", "5", "--json"])).toMatchObject({
      kind: "run",
      command: "accounts credit",
      positionals: ["acc"],
      values: { seconds: "5", json: true },
    });
    expect(() => parseCommandLine(["serve", "--x"])).toThrow(UsageError);
    expect(parseCommandLine(["classify", "--country", "MA"])).toMatchObject({
      kind: "run",
      command: "classify",
      rest: ["--country", "MA"],
    });
  });
});

describe("Ctrl-C", () => {
  it("stops `wakha serve` quietly: exit 0 and no error lines, even as the embedded PostgreSQL gets the signal too", async () => {
    const { spawn } = await import("node:child_process");
    const { mkdtemp, chmod, rm } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const { freePort } = await import("../bench/processes.ts");
    const dir = await mkdtemp(path.join(tmpdir(), "wakha-ctrlc-"));
    await chmod(dir, 0o755);
    const port = await freePort();
    try {
      const child = spawn(process.execPath, ["bin/wakha.js", "serve"], {
        env: {
          PATH: process.env["PATH"] ?? "",
          WAKHA_DATA_DIR: dir,
          PORT: String(port),
          LOG_LEVEL: "warn",
          NODE_NO_WARNINGS: "1",
        },
        // Its own process group, signalled as a whole the way a terminal's Ctrl-C is.
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr!.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const up = await fetch(`http://127.0.0.1:${port}/openapi.json`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await new Promise((r) => setTimeout(r, 500));
      process.kill(-child.pid!, "SIGINT");
      expect(await exited).toBe(0);
      const after = stderr.slice(stderr.indexOf("SIGINT"));
      // Nothing after the one line that says it is stopping.
      expect(after.trim()).toBe("SIGINT: shutting down");
      expect(stderr).not.toMatch(/error|Error|at .*\.ts:\d+/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
