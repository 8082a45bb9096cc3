// Lines the slow turns of a carriers run up with what the node (and the fake) were doing meanwhile: for every turn
// whose first text token took more than MS, the frames sampled on each process's main thread between the prompt's
// send and the token's receipt. From `BENCH_CPU_PROF=1 BENCH_SECTIONS=carriers npm run bench`:
//   node bench/slow-turns.ts bench/results/profiles/carriers-{node,fake}-<tag>.cpuprofile carriers-turns-<tag>.json [MS]
// The profiles' timestamps and the turns' are both CLOCK_MONOTONIC (V8's TimeTicks, process.hrtime).
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const [nodeFile, fakeFile, turnsFile, msArg] = process.argv.slice(2);
if (!nodeFile || !fakeFile || !turnsFile)
  throw new Error("usage: node bench/slow-turns.ts NODE.cpuprofile FAKE.cpuprofile TURNS.json [MS]");
const threshold = Number(msArg ?? 5);

function short(url: string): string {
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0)
    return url
      .slice(nm + 13)
      .split("/")
      .slice(0, 2)
      .join("/");
  const src = url.search(/\/(src|test|bench)\//);
  return src >= 0 ? url.slice(src + 1) : url.replace(/^file:\/\//, "");
}

function timeline(file: string) {
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const times: number[] = [];
  let t = p.startTime;
  for (const d of p.timeDeltas) times.push((t += d) / 1000);
  const label = (n: Node) =>
    `${n.callFrame.functionName || "(anon)"} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const stack = (id: number) => {
    const s: string[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) s.push(label(byId.get(cur)!));
    return s;
  };
  /** Busy milliseconds in [from, to] and the frames that took them (self, and the outermost of our own code). */
  return (from: number, to: number) => {
    let busy = 0;
    const frames = new Map<string, number>();
    for (let i = 0; i < times.length; i++) {
      if (times[i]! < from) continue;
      if (times[i]! > to + 1) break;
      const id = p.samples[i]!;
      if (byId.get(id)!.callFrame.functionName === "(idle)") continue;
      const d = (p.timeDeltas[i] ?? 0) / 1000;
      busy += d;
      const s = stack(id);
      const ours = [...s].reverse().find((f) => /src\/|test\/|bench\//.test(f));
      const key = `${s[0]}${ours && ours !== s[0] ? ` < ${ours}` : ""}`;
      frames.set(key, (frames.get(key) ?? 0) + d);
    }
    return {
      busy,
      frames: [...frames]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([k, v]) => `${k} ${v.toFixed(1)}`),
    };
  };
}

const node = timeline(nodeFile);
const fake = timeline(fakeFile);
const turns = (JSON.parse(readFileSync(turnsFile, "utf8")) as { sid: string; at: number; ms: number }[]).sort(
  (a, b) => a.at - b.at,
);
const slow = turns.filter((t) => t.ms > threshold);
console.log(`${turns.length} turns, ${slow.length} over ${threshold} ms`);
for (const t of slow.sort((a, b) => b.ms - a.ms)) {
  const n = node(t.at, t.at + t.ms);
  const f = fake(t.at, t.at + t.ms);
  console.log(
    `\n${t.ms.toFixed(1)} ms at +${((t.at - turns[0]!.at) / 1000).toFixed(2)} s: node busy ${n.busy.toFixed(1)} ms, fake busy ${f.busy.toFixed(1)} ms`,
  );
  for (const x of n.frames) console.log(`  node  ${x}`);
  for (const x of f.frames) console.log(`  fake  ${x}`);
}
