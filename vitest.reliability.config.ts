import { defineConfig } from "vitest/config";

// `npm run test:reliability` (issue 8): concurrency, several processes, fuzzing, crashes. Within a run, files go one
// at a time, since most of them start `wakha` child processes and measure what those do together. The npm script
// (scripts/test-reliability.ts) starts two such runs at once, each on a database of its own: the busy files in
// one lane, those that mostly wait (timeouts, a kill -9 recovery on the production clock, retry delays) in the other.
export default defineConfig({
  test: {
    // Not `*.test.ts`: the main suite (vitest.config.ts) must not pick these up.
    include: ["test/reliability/*.reliability.ts"],
    // The shared setup: a fresh database per run.
    globalSetup: ["test/global-setup.ts"],
    // Every test, and every wakha child it spawns with the test's environment, rings at any hour of the run: calling
    // hours (issue 15) would hold a call made at night. Tests of the hours themselves turn them on explicitly.
    env: { WAKHA_CALLING_HOURS: "off", WAKHA_NUMBER_DAILY_LIMIT: "0" },
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
