// Issue 32.7: the README's "First call in five minutes" runs as written. Its `npm start` block is run as the
// server (spawned, on the embedded PostgreSQL a newcomer gets), then every other shell block of the section, in
// order, in one bash session (so the variables they set carry on), against it: drift between the README and the API
// fails here. The only change made to the text is the port in the one line that sets BASE.
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * A free port below the range the OS hands out for port 0 (Linux's ip_local_port_range starts at 32768). Picked from
 * that range, the port was free when chosen but another file's server could take it while `npm start` set up its
 * database; the README's script then talked to that server (a clean-clone CI run, round 31: 401 on the new key).
 */
async function quietPort(): Promise<number> {
  for (;;) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(candidate, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return candidate;
  }
}

/** The ```sh blocks of the README section `title`, in order. */
function shellBlocks(title: string): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README has no section "${title}"`);
  const next = readme.indexOf("\n## ", start + 4);
  const section = readme.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe("the README's first call, run as written (issue 32.7)", () => {
  let dir: string;
  let port: number;
  let server: ReturnType<typeof spawn>;
  let serverLog = "";
  const blocks = shellBlocks("First call in five minutes");
  const env = () => ({
    PATH: process.env["PATH"] ?? "",
    HOME: process.env["HOME"] ?? dir,
    WAKHA_DATA_DIR: path.join(dir, "data"),
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "wakha-readme-"));
    await chmod(dir, 0o755);
    port = await quietPort();
    // The README's start block, as the server (calls at any hour, and ten times faster, as the README suggests).
    const startBlock = blocks.find((b) => /^npm start\b/m.test(b));
    expect(startBlock).toBeDefined();
    server = spawn("npm", ["start"], {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...env(), PORT: String(port), WAKHA_CALLING_HOURS: "off", WAKHA_SIMULATOR_SPEED: "10", LOG_LEVEL: "warn" },
    });
    server.stdout!.on("data", (c: Buffer) => (serverLog += c.toString()));
    server.stderr!.on("data", (c: Buffer) => (serverLog += c.toString()));
    const deadline = Date.now() + 90_000;
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${port}/openapi.json`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline || server.exitCode !== null) throw new Error(`npm start did not serve: ${serverLog}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) {
      const exited = new Promise((r) => server.once("exit", r));
      process.kill(-server.pid, "SIGINT"); // the process group npm started: wakha and its embedded PostgreSQL
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it("every shell block after `npm start` runs in order and ends with the call's outcome", async () => {
    const rest = blocks.filter((b) => !/^npm (install|start)\b/m.test(b));
    expect(rest.length).toBeGreaterThanOrEqual(5);
    const script = rest.join("\n");
    // BASE is set once, in one line; only its port changes here.
    expect(script.match(/^export BASE=http:\/\/127\.0\.0\.1:8080\b/gm)).toHaveLength(1);
    const commands = script
      .split("\n")
      .filter((l) => !/^\s*#/.test(l))
      .join("\n");
    expect(commands).not.toMatch(/127\.0\.0\.1:8080\/v1/); // no command hard-codes the address
    const run = `set -eu -o pipefail\n${script.replace(/^export BASE=http:\/\/127\.0\.0\.1:8080\b/m, `export BASE=http://127.0.0.1:${port}`)}`;
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        "bash",
        ["-c", run],
        { cwd: ROOT, env: env(), timeout: 240_000, maxBuffer: 10 * 1024 * 1024 },
        (err, out, errOut) =>
          resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout: out, stderr: errOut }),
      );
    });
    expect(code, `${stderr}\n${stdout}\n${serverLog}`).toBe(0);
    expect(stdout).not.toContain("/docs/errors/"); // no step answered a problem
    expect(stdout).toMatch(/"api_key":"wakha_sk_/);
    expect(stdout).toMatch(/"balance_seconds":600,"required_seconds":10,"can_start_call":true/);
    expect(stdout).toMatch(/"status":"queued"/);
    expect(stdout).toMatch(/"status":"completed","outcome":"confirmed","end_reason":"completed"/);
    expect(stdout).toMatch(/"name":"worker-1"[^}]*"api_key":"wakha_sk_/); // the worker's key, last block
    // the credit reached the server's database: 600 s, less the call's, plus 3,600
    expect(Number(/balance of [0-9a-f-]+: (\d+) s/.exec(stdout)?.[1])).toBeGreaterThan(3600);
  }, 300_000);
});

// Issue 32.1: the README's install command works as written on a machine that reaches only the npm registry, and CI
// installs with exactly that command, so CI fails whenever a newcomer's first command would.
describe("the README's install command (issue 32.1)", () => {
  it("is what .ci/run runs, with no environment override, and .npmrc skips onnxruntime-node's GPU download", () => {
    const first = shellBlocks("Two commands")[0]!.split("\n")[0]!.replace(/#.*$/, "").trim();
    expect(first).toBe("npm install");
    const ci = readFileSync(path.join(ROOT, ".ci/run"), "utf8")
      .split("\n")
      .map((l) => l.replace(/#.*$/, "").trim())
      .filter(Boolean);
    const installs = ci.filter((l) => /\bnpm (install|ci|i)\b/.test(l));
    expect(installs).toEqual([first]);
    expect(ci.join("\n")).not.toMatch(/ONNXRUNTIME_NODE_INSTALL|onnxruntime[-_]node[-_]install/i);
    const npmrc = readFileSync(path.join(ROOT, ".npmrc"), "utf8")
      .split("\n")
      .map((l) => l.trim());
    expect(npmrc).toContain("onnxruntime-node-install=skip");
  });
});
