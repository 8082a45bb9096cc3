// Preloaded into a Wakha child with `node --import bench/eld-probe.ts`: records the event-loop delay and
// writes its percentiles (ms) to BENCH_ELD_FILE at exit. SIGUSR2 restarts the histogram (end of start-up).
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env["BENCH_ELD_FILE"];
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
process.on("SIGUSR2", () => histogram.reset());
process.on("exit", () => {
  histogram.disable();
  if (!file) return;
  const ms = (ns: number) => ns / 1e6;
  writeFileSync(file, JSON.stringify({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean) }));
});
