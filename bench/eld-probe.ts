// Preloaded into a Wakha child with `node --import bench/eld-probe.ts`: records the event-loop delay and
// writes its percentiles (ms) to BENCH_ELD_FILE every half second and at exit, so a node that had to be
// killed during its shutdown (SIGKILL runs no exit handler) still leaves the figures of its run.
// SIGUSR2 restarts the histogram (end of start-up).
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env["BENCH_ELD_FILE"];
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const ms = (ns: number) => ns / 1e6;
const write = () => {
  if (!file || histogram.count === 0) return;
  writeFileSync(file, JSON.stringify({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean) }));
};
process.on("SIGUSR2", () => histogram.reset());
setInterval(write, 500).unref();
process.on("exit", () => {
  write();
  histogram.disable();
});
