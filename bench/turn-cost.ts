// Wall time of the dialogue's reply to one customer turn (dialogue.hear: classifier, slots, the next line), as the
// dialer runs it, without a database or a carrier: the CPU a turn costs on the event loop before its first text
// token can go out. Plays BENCH_TURN_CALLS simulated calls per dialect twice (cold, then warm) and prints percentiles.
//   node [--max-semi-space-size=256] bench/turn-cost.ts [calls] [--warm]
// Each line also says what a turn allocated on the heap (the node's scavenges are paid per megabyte allocated).
import { createDialogue } from "../src/engine/dialogue/flow.ts";
import { ModelIntentClassifier } from "../src/engine/dialogue/model/model.ts";
import { warmDialogue } from "../src/engine/dialogue/warm-up.ts";
import type { Dialect, DialogueOrder } from "../src/engine/dialogue/types.ts";
import { createSimulatedCustomer, seededRandom } from "../src/engine/telephony/simulator/customer.ts";

const ORDER: DialogueOrder = {
  shopName: "Shop",
  customerName: "Client",
  country: "MA",
  language: "ar",
  dialect: "ma",
  amount: "100.00",
  currency: "MAD",
  items: [{ name: "Item", variant: null, quantity: 1, unit_price: "100.00" }],
};
const DIALECTS: [Dialect, string, DialogueOrder["country"], string][] = [
  ["ma", "+2126123456", "MA", "ar"],
  ["dz", "+2135512345", "DZ", "ar"],
  ["tn", "+216201234", "TN", "ar"],
  ["fr", "+336123456", "FR", "fr"],
];
const calls = Number(process.argv[2] ?? 200);
// --warm: the engine's start-up warm-up first (src/engine/dialogue/warm-up.ts), as a node does before its first calls.
if (process.argv.includes("--warm")) await warmDialogue();
const classifier = new ModelIntentClassifier();

async function round(): Promise<{ ms: number; text: string; kb: number }[]> {
  const out: { ms: number; text: string; kb: number }[] = [];
  for (let n = 0; n < calls; n++) {
    const [dialect, prefix, country, language] = DIALECTS[n % 4]!;
    const phone = `${prefix}${["01", "06", "08", "09", "10"][n % 5]}`;
    const customer = createSimulatedCustomer(phone, dialect, seededRandom(n));
    const d = createDialogue(
      { ...ORDER, country, dialect, language: language as "ar" | "fr" },
      { classifier, now: new Date() },
    );
    let turn = d.opening();
    for (let i = 0; i < 20 && !turn.end; i++) {
      const reply = customer.reply(turn.text, i);
      if (reply.hangup || reply.text === null) break;
      const h0 = process.memoryUsage().heapUsed;
      const t0 = performance.now();
      turn = await d.hear(reply.text, i * 5);
      const ms = performance.now() - t0;
      out.push({ ms, text: reply.text, kb: (process.memoryUsage().heapUsed - h0) / 1024 });
    }
  }
  return out;
}
const pct = (v: number[], p: number) =>
  [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.ceil((p / 100) * v.length) - 1)]!;
for (const name of ["cold", "warm", "warm"]) {
  const r = await round();
  const ms = r.map((x) => x.ms);
  // Heap growth across the turn: what it allocated, unless a scavenge ran inside it (negative: left out). Run with
  // --max-semi-space-size=256 so that few do.
  const kb = r.map((x) => x.kb).filter((k) => k >= 0);
  const alloc = `allocated per turn mean ${(kb.reduce((a, b) => a + b, 0) / kb.length).toFixed(1)} KB, p99 ${pct(kb, 99).toFixed(1)} KB`;
  const worst = [...r].sort((a, b) => b.ms - a.ms).slice(0, 3);
  console.log(
    `${name}: ${alloc}; ${r.length} turns, p50 ${pct(ms, 50).toFixed(3)} ms, p99 ${pct(ms, 99).toFixed(3)} ms, max ${Math.max(...ms).toFixed(2)} ms; slowest: ${worst.map((w) => `${w.ms.toFixed(1)} ms "${w.text.slice(0, 40)}"`).join(" | ")}`,
  );
}
