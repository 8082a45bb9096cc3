// Preloaded into a Wakha child with `node --import bench/eld-probe.ts`: records the event-loop delay and
// writes its percentiles (ms) to BENCH_ELD_FILE every half second and at exit, so a node that had to be
// killed during its shutdown (SIGKILL runs no exit handler) still leaves the figures of its run.
// SIGUSR2 restarts the histogram (end of start-up). The garbage collector's pauses (count, total and longest
// per kind) go in the same file: a pause is an event-loop delay of its own.
// Worker threads inherit the --import (the node's recording-transfer thread): only the main thread, whose loop
// runs the calls, is measured; a thread's own figures would overwrite the file.
import { rename, writeFile, writeFileSync } from "node:fs";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

if (isMainThread) probe();

function probe(): void {
  const file = process.env["BENCH_ELD_FILE"];
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const KINDS: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
  };
  let gc: Record<string, { n: number; ms: number; max: number; over5: number }> = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = KINDS[((e as { detail?: unknown }).detail as { kind?: number } | null)?.kind ?? -1] ?? "other";
      const g = (gc[kind] ??= { n: 0, ms: 0, max: 0, over5: 0 });
      g.n++;
      g.ms += e.duration;
      g.max = Math.max(g.max, e.duration);
      if (e.duration > 5) g.over5++;
    }
  }).observe({ entryTypes: ["gc"] });
  const ms = (ns: number) => ns / 1e6;
  const figures = () =>
    JSON.stringify({
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      mean: ms(histogram.mean),
      gc,
      heapMiB: Math.round(process.memoryUsage().heapUsed / 1048576),
    });
  // The periodic write goes through the thread pool: a synchronous one blocked the loop it measures for up to 68 ms
  // on the shared machine (seen in a profile of the carriers bench). At exit it has to be synchronous.
  let writing = false;
  const write = () => {
    if (!file || histogram.count === 0 || writing) return;
    writing = true;
    // A temporary file renamed over the last one: the bench never reads half a write.
    writeFile(`${file}.tmp`, figures(), (err) => {
      if (err) writing = false;
      else rename(`${file}.tmp`, file, () => (writing = false));
    });
  };
  const writeNow = () => {
    if (file && histogram.count > 0) writeFileSync(file, figures());
  };
  process.on("SIGUSR2", () => {
    histogram.reset();
    gc = {};
  });
  setInterval(write, 500).unref();
  process.on("exit", () => {
    writeNow();
    histogram.disable();
  });
}
