import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Every test, and every wakha child it spawns with the test's environment, rings at any hour of the run: calling
    // hours (issue 15) would hold a call made at night. Tests of the hours themselves turn them on explicitly.
    env: { WAKHA_CALLING_HOURS: "off" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
