// `node bench/classifier.ts`: the intent classifier's throughput and per-utterance latency over the
// development set, on one core. BENCH_SECONDS sets the measuring time (default 3).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { classifyIntent, type Country } from "../src/engine/dialogue/classifier.ts";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const fixture = path.join(root, "test/fixtures/intents-dev.jsonl");
const inputs = readFileSync(fixture, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { country: Country; text: string });
const seconds = Number(process.env["BENCH_SECONDS"] ?? 3);

const coldStart = performance.now();
classifyIntent("wakha", "MA"); // compiles the lexicon
const compileMs = performance.now() - coldStart;
for (const u of inputs) classifyIntent(u.text, u.country); // warm-up

let n = 0;
const started = performance.now();
while (performance.now() - started < seconds * 1000) {
  for (const u of inputs) classifyIntent(u.text, u.country);
  n += inputs.length;
}
const elapsed = (performance.now() - started) / 1000;

const latencies: number[] = [];
for (let pass = 0; pass < 5; pass++) {
  for (const u of inputs) {
    const t0 = performance.now();
    classifyIntent(u.text, u.country);
    latencies.push((performance.now() - t0) * 1000);
  }
}
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;

console.log(
  `classifier: ${(n / elapsed).toFixed(0)} utterances/s over ${inputs.length} utterances of test/fixtures/intents-dev.jsonl (${elapsed.toFixed(1)} s, one core)`,
);
console.log(
  `latency per utterance (5 passes): p50 ${at(0.5).toFixed(0)} µs, p99 ${at(0.99).toFixed(0)} µs, max ${at(1).toFixed(0)} µs; lexicon compiled in ${compileMs.toFixed(0)} ms at first use`,
);
