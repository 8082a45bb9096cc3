// What streaming recognition through Microsoft's Speech SDK costs this process (issue 13): N concurrent customer
// turns, each 20 ms mu-law frames at real pace pushed through AzureSpeech.recognize (the SDK's WebSocket, a phrase
// list, interim and final results) to the Azure fake, which runs in a child process of its own so that its CPU is not
// counted. Prints CPU milliseconds per second of streamed audio (SDK and adapter), the calls one core would carry
// at that rate, the event-loop delay, and end of audio to final result (loopback: the SDK's own share, no network,
// no real recogniser).
//   node bench/azure-stt.ts [streams=50] [seconds=20]
import { spawn } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { AzureSpeech } from "../src/engine/speech/azure.ts";
import { MULAW_FRAME_BYTES } from "../src/engine/speech/mulaw.ts";
import { FakeAzureSpeech } from "../test/fakes/azure-speech.ts";

const KEY = "bench-azure-key-0123456789";
const SENTENCE = "واه صافي نأكد الطلبية ديالي";

if (process.argv[2] === "fake") {
  const fake = new FakeAzureSpeech({ key: KEY });
  fake.speak(SENTENCE); // the first sentence spoken takes the first pitch, in both processes
  console.log(await fake.start());
  process.stdin.resume();
  process.stdin.on("end", () => process.exit(0));
} else {
  await main();
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const STREAMS = Number(process.argv[2] ?? 50);
  const SECONDS = Number(process.argv[3] ?? 20);
  const child = spawn(process.execPath, [import.meta.filename, "fake"], { stdio: ["pipe", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve) =>
    child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim())),
  );
  const utterance = Buffer.concat([new FakeAzureSpeech({ key: KEY }).speak(SENTENCE), new Uint8Array(1600).fill(0xff)]);
  const speech = new AzureSpeech({ key: KEY, endpoint: url });
  const phrases = ["Test shop", "قفطان", "ربعمية و تمنية و تسعين درهم", "498"];
  const latencies: number[] = [];
  let finals = 0;
  let partials = 0;
  let wrong = 0;
  let frames = 0;
  // Each stream: a frame queue the ticker fills at real pace, and its recognition reading it.
  const streams = Array.from({ length: STREAMS }, () => ({
    queue: [] as Uint8Array[],
    offset: 0,
    ended: false,
    wake: null as (() => void) | null,
    endedAt: 0,
  }));
  const turn = async (s: (typeof streams)[number]) => {
    s.queue = [];
    s.offset = 0;
    s.ended = false;
    s.endedAt = 0; // turns cut by the end of the run are not timed
    async function* audio() {
      for (;;) {
        const f = s.queue.shift();
        if (f) yield f;
        else if (s.ended) return;
        else await new Promise<void>((r) => (s.wake = r));
      }
    }
    for await (const r of speech.recognize(audio(), {
      locale: "ar-MA",
      format: { encoding: "mulaw", sampleRate: 8000, channels: 1 },
      phrases,
    })) {
      if (!r.final) partials++;
      else {
        finals++;
        if (s.endedAt > 0) latencies.push(performance.now() - s.endedAt);
        if (r.text !== SENTENCE) wrong++;
      }
    }
  };
  const started = performance.now();
  let running = true;
  const loops = streams.map(async (s, i) => {
    await delay((i * 47) % 3000);
    while (running) await turn(s);
  });
  const eld = monitorEventLoopDelay({ resolution: 5 });
  eld.enable();
  const cpu = process.cpuUsage();
  for (let tick = 1; performance.now() - started < SECONDS * 1000; tick++) {
    for (const s of streams) {
      if (s.ended || s.offset >= utterance.length) continue;
      s.queue.push(utterance.subarray(s.offset, s.offset + MULAW_FRAME_BYTES));
      s.offset += MULAW_FRAME_BYTES;
      frames++;
      if (s.offset >= utterance.length) {
        s.ended = true;
        s.endedAt = performance.now();
      }
      s.wake?.();
    }
    await delay(Math.max(0, started + tick * 20 - performance.now()));
  }
  const used = process.cpuUsage(cpu);
  eld.disable();
  running = false;
  for (const s of streams) {
    s.ended = true;
    s.wake?.();
  }
  await Promise.race([Promise.all(loops), delay(15_000)]);
  child.stdin.end();
  const audioSeconds = (frames * 20) / 1000;
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `azure streaming recognition through the Speech SDK, ${STREAMS} concurrent turns for ${SECONDS} s (the fake in its own process):`,
  );
  console.log(
    `  ${finals} turns recognised (${wrong} wrong), ${partials} interim results; CPU ${(cpuMs / audioSeconds).toFixed(2)} ms per second of streamed audio (SDK, WebSocket, adapter), so about ${Math.floor(1000 / (cpuMs / audioSeconds))} concurrently speaking customers per core; event-loop delay p99 ${(eld.percentile(99) / 1e6).toFixed(1)} ms`,
  );
  console.log(
    `  end of audio to the final result over loopback: p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms (the SDK's share; Azure's own recognition time comes on top)`,
  );
  process.exit(0);
}
