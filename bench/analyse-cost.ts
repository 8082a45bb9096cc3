// The signal analysis (signals.ts analyse) over every fixture utterance: its CPU per utterance and a digest of its
// output, to check that a change to the analysis keeps every result identical.
//   node bench/analyse-cost.ts [--dump file]
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { analyse } from "../src/engine/dialogue/signals.ts";
import type { Country } from "../src/engine/dialogue/lexicon/index.ts";

const dir = path.join(import.meta.dirname, "..", "test", "fixtures");
const items: { country: Country; text: string }[] = [];
for (const f of readdirSync(dir).filter((f) => f.endsWith(".jsonl"))) {
  for (const line of readFileSync(path.join(dir, f), "utf8").split("\n")) {
    if (!line.trim()) continue;
    const o = JSON.parse(line) as { country?: string; text?: string };
    if (typeof o.text === "string" && ["MA", "DZ", "TN", "FR"].includes(o.country ?? ""))
      items.push({ country: o.country as Country, text: o.text });
  }
}
const out: string[] = items.map((i) => JSON.stringify(analyse(i.text, i.country)));
const digest = createHash("sha256").update(out.join("\n")).digest("hex").slice(0, 16);
const dump = process.argv.indexOf("--dump");
if (dump > 0) writeFileSync(process.argv[dump + 1]!, out.join("\n"));
const times: number[] = [];
for (let round = 0; round < 5; round++) {
  for (const i of items) {
    const t0 = performance.now();
    analyse(i.text, i.country);
    if (round >= 2) times.push(performance.now() - t0);
  }
}
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!.toFixed(3);
const sum = times.reduce((a, b) => a + b, 0);
console.log(
  `${items.length} utterances, digest ${digest}; warm analyse: mean ${(sum / times.length).toFixed(3)} ms, p50 ${pct(50)}, p99 ${pct(99)}, max ${times.at(-1)!.toFixed(2)} ms`,
);
