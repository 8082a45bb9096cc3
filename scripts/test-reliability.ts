// `npm run test:reliability`: the reliability suite (vitest.reliability.config.ts) in two lanes at once, each a vitest
// run of its own (its own fresh database from test/global-setup.ts, its files one at a time), so no lane's workers
// take the other's jobs. Most of the suite's time is waiting (kill -9 recoveries, 30 s request timeouts, webhook
// retry delays), so the lanes overlap those waits instead of adding them up. The busy files (several `wakha`
// processes placing hundreds of calls, the fuzzer) share one lane; the other holds files that mostly wait, with one
// or a few processes doing little, which keeps both lanes together well under PostgreSQL's 100 connections.
// With arguments (`npm run test:reliability -- test/reliability/fuzz.reliability.ts`) it is one plain vitest run.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const VITEST = path.join(ROOT, "node_modules", "vitest", "vitest.mjs");
const CONFIG = "vitest.reliability.config.ts";
const DIR = "test/reliability";
/** The busy lane; every other reliability file (a new one too) runs in the waiting lane. */
const BUSY = ["engine.reliability.ts", "fuzz.reliability.ts", "processes.reliability.ts"];

function run(args: string[], prefix: string | null): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VITEST, "run", "--config", CONFIG, ...args], {
      cwd: ROOT,
      stdio: prefix === null ? "inherit" : ["ignore", "pipe", "pipe"],
    });
    if (prefix !== null) {
      for (const [stream, out] of [
        [child.stdout!, process.stdout],
        [child.stderr!, process.stderr],
      ] as const) {
        let rest = "";
        stream.on("data", (chunk: Buffer) => {
          const lines = (rest + chunk.toString("utf8")).split("\n");
          rest = lines.pop()!;
          for (const line of lines) out.write(`${prefix} ${line}\n`);
        });
        stream.on("end", () => rest && out.write(`${prefix} ${rest}\n`));
      }
    }
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const extra = process.argv.slice(2);
if (extra.length > 0) {
  process.exitCode = await run(extra, null);
} else {
  const files = readdirSync(path.join(ROOT, DIR))
    .filter((f) => f.endsWith(".reliability.ts"))
    .sort();
  const busy = files.filter((f) => BUSY.includes(f)).map((f) => `${DIR}/${f}`);
  const waiting = files.filter((f) => !BUSY.includes(f)).map((f) => `${DIR}/${f}`);
  const codes = await Promise.all([run(busy, "[busy]"), run(waiting, "[waits]")]);
  process.stdout.write(`reliability lanes: busy exited ${codes[0]}, waits exited ${codes[1]}\n`);
  process.exitCode = codes.some((c) => c !== 0) ? 1 : 0;
}
