import { defineConfig } from "vitest/config";

// Files that run real-time audio (Silero VAD, espeak-ng, 20 ms frames at the pace of a phone line) measure what
// they hear against the clock: they run after the others, one at a time, with the machine to themselves. Every
// other file runs four at a time (each on a database or accounts of its own; test/global-setup.ts makes four). Most
// of them wait on sockets, child processes and timers: on two cores, two at a time kept the CPU about 43% busy and
// took 768 s; four at a time took 639 s. Six took 537 s, but under that load a check that the first words come
// within a second failed, and the files past the fourth slot found no database.
const REALTIME = [
  "test/audio-simulator.test.ts",
  "test/media-streams.test.ts",
  "test/engine-simulator.test.ts",
  "test/vad.test.ts",
];

export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    // Every test, and every wakha child it spawns with the test's environment, rings at any hour of the run: calling
    // hours (issue 15) would hold a call made at night. Tests of the hours themselves turn them on explicitly.
    env: { WAKHA_CALLING_HOURS: "off", WAKHA_NUMBER_DAILY_LIMIT: "0" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 4,
    projects: [
      {
        extends: true,
        test: {
          name: "main",
          include: ["test/**/*.test.ts", "src/**/*.test.ts"],
          exclude: REALTIME,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: "realtime", include: REALTIME, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
