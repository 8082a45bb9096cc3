// Summarises a V8 .cpuprofile (from `BENCH_CPU_PROF=1 npm run bench`): self time by function and by
// package or source file, to explain where a Wakha process spends its CPU.
//   node bench/profile-summary.ts bench/results/profiles/wakha-<id>.cpuprofile [top]
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
}

const file = process.argv[2];
const top = Number(process.argv[3] ?? 25);
if (!file) throw new Error("usage: node bench/profile-summary.ts FILE.cpuprofile [top]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

function where(url: string): string {
  if (!url) return "(native/V8)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const src = url.indexOf("/src/");
  if (src >= 0) return url.slice(src + 1);
  return url.startsWith("node:") ? url : url.replace(/^file:\/\//, "");
}

const fn = new Map<string, number>();
const pkg = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  const name = `${n.callFrame.functionName || "(anonymous)"} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  fn.set(name, (fn.get(name) ?? 0) + us);
  pkg.set(where(n.callFrame.url), (pkg.get(where(n.callFrame.url)) ?? 0) + us);
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1)}%`.padStart(6);
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (self time, ${(total / 1e6).toFixed(1)} s sampled)`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
};
print("by package or file", pkg);
print("by function", fn);

// `--long MS` (fourth argument): the busy stretches of the main thread longer than MS (consecutive samples that are
// not "(idle)": an event-loop turn that delays everything queued behind it), with what ran in each, inclusive of
// callers, so a long synchronous task is named by the Wakha function that started it.
//   node bench/profile-summary.ts FILE.cpuprofile 25 --long 5
if (process.argv[4] === "--long") {
  const threshold = Number(process.argv[5] ?? 5) * 1000;
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: Node) =>
    `${n.callFrame.functionName || "(anonymous)"} ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const stacks = new Map<number, string[]>();
  const stackOf = (id: number): string[] => {
    let s = stacks.get(id);
    if (!s) {
      s = [];
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) s.push(label(byId.get(cur)!));
      stacks.set(id, s);
    }
    return s;
  };
  const stretches: { start: number; us: number; samples: number[] }[] = [];
  let t = 0;
  let open: { start: number; us: number; samples: number[] } | null = null;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    const idle = byId.get(id)!.callFrame.functionName === "(idle)";
    if (idle) {
      if (open && open.us >= threshold) stretches.push(open);
      open = null;
      return;
    }
    open ??= { start: t - dt, us: 0, samples: [] };
    open.us += dt;
    open.samples.push(i);
  });
  const buckets = [5, 10, 20, 50, 100].map((ms) => ({ ms, n: 0, us: 0 }));
  for (const s of stretches) for (const b of buckets) if (s.us >= b.ms * 1000) b.n++, (b.us += s.us);
  console.log(
    `\nbusy stretches >= ${threshold / 1000} ms: ${stretches.length}; ${buckets.map((b) => `>=${b.ms} ms: ${b.n} (${(b.us / 1e6).toFixed(2)} s)`).join(", ")}`,
  );
  // What the long stretches spend their time in, summed over all of them (inclusive: every frame on the stack).
  const incl = new Map<string, number>();
  const selfLong = new Map<string, number>();
  for (const s of stretches) {
    for (const i of s.samples) {
      const dt = profile.timeDeltas[i] ?? 0;
      const stack = stackOf(profile.samples[i]!);
      selfLong.set(stack[0]!, (selfLong.get(stack[0]!) ?? 0) + dt);
      for (const f of new Set(stack)) incl.set(f, (incl.get(f) ?? 0) + dt);
    }
  }
  const longTotal = stretches.reduce((a, s) => a + s.us, 0);
  const show = (title: string, m: Map<string, number>, n: number) => {
    console.log(`\n${title} (of ${(longTotal / 1e6).toFixed(2)} s in long stretches)`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n))
      console.log(`${((100 * v) / longTotal).toFixed(1).padStart(5)}%  ${k}`);
  };
  show("self, in long stretches", selfLong, top);
  show("inclusive, in long stretches", incl, top * 2);
  console.log("\nthe longest stretches:");
  for (const s of [...stretches].sort((a, b) => b.us - a.us).slice(0, 8)) {
    const m = new Map<string, number>();
    for (const i of s.samples)
      for (const f of new Set(stackOf(profile.samples[i]!)))
        if (f.includes("src/") || f.includes("(garbage")) m.set(f, (m.get(f) ?? 0) + (profile.timeDeltas[i] ?? 0));
    console.log(
      `  at ${(s.start / 1e6).toFixed(2)} s: ${(s.us / 1000).toFixed(1)} ms: ${[...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
        .join(" | ")}`,
    );
  }
}
