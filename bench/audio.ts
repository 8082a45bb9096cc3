// Issue 13's audio bench, offline: N concurrent audio calls on this process, each an AudioCallSession over an
// in-memory audio leg fed at real pace (one 20 ms mu-law frame per call every 20 ms, as Twilio sends them) and an
// instant speech provider (synthesis from a cache, recognition answering at once), so what is measured is our
// turn-taking and framing: the voice activity detector, the turn's hand-off, and the agent's first frame.
//   node bench/audio.ts [calls=100] [seconds=30] [endSilenceMs=400] [vad=silero|energy]
// The customer's turn is espeak-ng speech (Silero hears tones as what they are: not speech), trimmed of its
// leading and trailing silence so "the end of the customer's speech" is the last voiced sample.
// Prints: turn latency (end of the customer's speech to the agent's first frame sent) p50/p99, event-loop delay
// p99, and CPU milliseconds per second of call audio (with the calls' count one core would carry at that rate).
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { AudioCallSession } from "../src/engine/telephony/audio-session.ts";
import type { AnswerResult, AudioCallLeg, HangupEvent } from "../src/engine/telephony/provider.ts";
import type { Recognition, SpeechProvider, SynthesizedSpeech } from "../src/engine/speech/provider.ts";
import { MULAW_FRAME_BYTES, MULAW_SILENCE, pcmToMulaw } from "../src/engine/speech/mulaw.ts";
import { EnergyVad, type VoiceActivityDetector } from "../src/engine/speech/vad.ts";
import { sharedSileroModel, SileroVad } from "../src/engine/speech/silero.ts";
import { EspeakSpeech, espeakAvailable } from "../src/engine/speech/espeak.ts";
import { SimulatedAudioTelephony } from "../src/engine/telephony/simulator/audio.ts";
import { createSimulatedCustomer } from "../src/engine/telephony/simulator/customer.ts";

const CALLS = Number(process.argv[2] ?? 100);
const SECONDS = Number(process.argv[3] ?? 30);
const END_SILENCE_MS = Number(process.argv[4] ?? 400);
const VAD = (process.argv[5] ?? "silero") as "silero" | "energy";
const TURN_TAKING = {
  vad: VAD,
  threshold: 0.5,
  endSilenceMs: END_SILENCE_MS,
  bargeInMs: 160,
  fillerMs: 600,
  minRms: 400,
};

function toneMulaw(seconds: number, hz: number): Uint8Array {
  const pcm = new Int16Array(Math.round(seconds * 8000));
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / 8000));
  return pcmToMulaw(pcm);
}
const AGENT_LINE = toneMulaw(1.5, 440);
const CUSTOMER_TURN = await customerTurn();

/** "wakha safi, nconfirmi" in espeak-ng's Arabic voice, without its leading and trailing silence. */
async function customerTurn(): Promise<Uint8Array> {
  if (!(await espeakAvailable())) {
    if (VAD === "silero") throw new Error("the audio bench with Silero needs espeak-ng for the customer's speech");
    return toneMulaw(1.2, 330);
  }
  const voice = new EspeakSpeech({ concurrency: 1 });
  const keep = setInterval(() => {}, 1000);
  const speech = await voice.synthesize("wakha safi, nconfirmi la commande", { locale: "ar-MA", sampleRate: 8000 });
  clearInterval(keep);
  await voice.close();
  const s = speech.samples;
  let first = 0;
  let last = s.length - 1;
  while (first < last && Math.abs(s[first]!) < 300) first++;
  while (last > first && Math.abs(s[last]!) < 300) last--;
  return pcmToMulaw(s.subarray(first, last + 1));
}
const SILENT_FRAME = new Uint8Array(MULAW_FRAME_BYTES).fill(MULAW_SILENCE);

/** Synthesis from a cache and recognition that answers as soon as the turn's audio ends. */
class InstantSpeech implements SpeechProvider {
  readonly name = "instant";
  async synthesize(): Promise<SynthesizedSpeech> {
    return { sampleRate: 8000, samples: new Int16Array(0), mulaw: AGENT_LINE };
  }
  async *recognize(audio: AsyncIterable<Uint8Array>): AsyncIterable<Recognition> {
    for await (const _ of audio) {
      /* drain */
    }
    yield { text: "wakha", final: true, confidence: 1, startSeconds: 0, durationSeconds: 1.2 };
  }
  async close(): Promise<void> {}
}

/** A leg in memory: frames pushed by the clock, played audio timed at 8 bytes per millisecond. */
class MemoryLeg implements AudioCallLeg {
  readonly providerCallId: string;
  readonly format = { encoding: "mulaw" as const, sampleRate: 8000, channels: 1 as const };
  closed = false;
  readonly #answeredAt = performance.now();
  readonly #queue: Uint8Array[] = [];
  #wake: (() => void) | null = null;
  #playing: { resolve: (r: { interrupted: boolean }) => void; timer: NodeJS.Timeout } | null = null;
  /** When the last voiced frame of the customer's turn was pushed; the next play() measures from it. */
  speechEndedAt: number | null = null;
  onPlay: (() => void) | null = null;
  readonly latencies: number[];
  constructor(id: string, latencies: number[]) {
    this.providerCallId = id;
    this.latencies = latencies;
  }
  on(): () => void {
    return () => {};
  }
  answered(): Promise<AnswerResult> {
    return Promise.resolve({ type: "answered", by: "human", seconds: 0 });
  }
  ended(): Promise<HangupEvent> {
    return new Promise(() => {});
  }
  push(frame: Uint8Array): void {
    this.#queue.push(frame);
    this.#wake?.();
  }
  async *frames(): AsyncIterable<Uint8Array> {
    while (!this.closed) {
      const f = this.#queue.shift();
      if (f) yield f;
      else await new Promise<void>((r) => (this.#wake = r));
    }
  }
  play(audio: Uint8Array): Promise<{ interrupted: boolean }> {
    if (this.speechEndedAt !== null) this.latencies.push(performance.now() - this.speechEndedAt);
    this.speechEndedAt = null;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#playing = null;
        resolve({ interrupted: false });
        this.onPlay?.();
      }, audio.length / 8);
      this.#playing = { resolve, timer };
    });
  }
  clear(): void {
    if (!this.#playing) return;
    clearTimeout(this.#playing.timer);
    this.#playing.resolve({ interrupted: true });
    this.#playing = null;
  }
  async hangup(): Promise<void> {
    this.closed = true;
    this.#wake?.();
  }
  connectedSeconds(): number {
    return (performance.now() - this.#answeredAt) / 1000;
  }
  async recording() {
    return null;
  }
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function turnTaking(): Promise<void> {
  const latencies: number[] = [];
  const legs: { leg: MemoryLeg; speaking: Uint8Array }[] = [];
  let frames = 0;
  for (let i = 0; i < CALLS; i++) {
    const leg = new MemoryLeg(`call-${i}`, latencies);
    const call: { leg: MemoryLeg; speaking: Uint8Array } = { leg, speaking: new Uint8Array(0) };
    legs.push(call);
    const session = new AudioCallSession({
      leg,
      speech: new InstantSpeech(),
      locale: "ar-MA",
      speed: 1,
      log: () => {},
      turnTaking: TURN_TAKING,
    });
    // The customer answers each agent line after 300 ms; the agent answers each turn: a conversation loop.
    leg.onPlay = () => setTimeout(() => (call.speaking = CUSTOMER_TURN), 300 + (i % 10) * 13);
    void (async () => {
      await delay((i * 20) % 1000);
      await session.say("salam");
      while (!leg.closed) {
        const heard = await session.listen({ timeoutSeconds: 10 });
        if (heard) await session.say("wakha");
      }
    })();
  }
  const eld = monitorEventLoopDelay({ resolution: 5 });
  eld.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let tick = 0;
  while (performance.now() - started < SECONDS * 1000) {
    tick++;
    for (const call of legs) {
      if (call.speaking.length > 0) {
        call.leg.push(call.speaking.subarray(0, MULAW_FRAME_BYTES));
        call.speaking = call.speaking.subarray(MULAW_FRAME_BYTES);
        if (call.speaking.length === 0) call.leg.speechEndedAt = performance.now();
      } else call.leg.push(SILENT_FRAME);
      frames++;
    }
    const next = started + tick * 20;
    await delay(Math.max(0, next - performance.now()));
  }
  const used = process.cpuUsage(cpu);
  eld.disable();
  for (const call of legs) await call.leg.hangup();
  const audioSeconds = (frames * 20) / 1000;
  const cpuMs = (used.user + used.system) / 1000;
  console.log(
    `audio turn-taking, ${CALLS} concurrent calls for ${SECONDS} s (${VAD} VAD, end-of-turn silence ${END_SILENCE_MS} ms, instant recogniser and synthesiser):`,
  );
  console.log(
    `  turn latency, end of the customer's speech to the agent's first frame: p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms over ${latencies.length} turns (the end-of-turn silence is ${END_SILENCE_MS} ms of it)`,
  );
  console.log(`  event-loop delay p99 ${(eld.percentile(99) / 1e6).toFixed(1)} ms (max ${(eld.max / 1e6).toFixed(1)})`);
  console.log(
    `  CPU ${(cpuMs / audioSeconds).toFixed(3)} ms per second of call audio (whole process: sessions, VAD, clock), so about ${Math.floor(1000 / (cpuMs / audioSeconds))} concurrent calls per core`,
  );
}

async function framing(): Promise<void> {
  // Media Streams framing as the route does it (JSON.parse, base64) plus the VAD, per second of audio. Silero is
  // measured one call alone (every window its own inference: the worst case) and 100 calls side by side (windows
  // batched as on a busy node).
  for (const calls of VAD === "silero" ? [1, 100] : [1]) await framingFor(calls);
}

async function framingFor(calls: number): Promise<void> {
  const vads: VoiceActivityDetector[] = [];
  for (let i = 0; i < calls; i++)
    vads.push(VAD === "silero" ? new SileroVad(await sharedSileroModel()) : new EnergyVad());
  const message = JSON.stringify({
    event: "media",
    sequenceNumber: "1",
    streamSid: `MZ${"0".repeat(32)}`,
    media: {
      track: "inbound",
      chunk: "1",
      timestamp: "20",
      payload: Buffer.from(CUSTOMER_TURN.subarray(0, MULAW_FRAME_BYTES)).toString("base64"),
    },
  });
  const n = VAD === "silero" ? 30_000 : 180_000; // 10 min (1 h) of audio in all
  const cpu = process.cpuUsage();
  for (let i = 0; i < n / calls; i++) {
    await Promise.all(
      vads.map((vad) => {
        const m = JSON.parse(message) as { media: { payload: string } };
        return vad.push(Buffer.from(m.media.payload, "base64"));
      }),
    );
  }
  const used = process.cpuUsage(cpu);
  const perSecond = (used.user + used.system) / 1000 / ((n * 20) / 1000);
  console.log(
    `  framing + VAD alone (${calls} call${calls > 1 ? "s" : ""} at once): ${(perSecond * 1000).toFixed(1)} µs CPU per second of audio (JSON.parse, base64, ${VAD} VAD), so about ${Math.floor(1000 / perSecond)} calls per core for these`,
  );
}

// The same sessions on the audio simulator (WAKHA_SIMULATOR_AUDIO's legs): espeak-ng voices for both sides, the
// simulated customers' replies and habits, the simulator's clock at real pace.
async function audioSimulator(): Promise<void> {
  const voice = (await espeakAvailable()) ? new EspeakSpeech({ concurrency: 2 }) : null;
  const carrier = new SimulatedAudioTelephony({ customers: createSimulatedCustomer, speed: 1, voice });
  const lines = [
    "Salam, m3ak Wakha, kan3ayto 3la wed la commande dyalk.",
    "Wach nconfirmiw lik la commande b 498 dirham?",
    "Safi, chokran, nhar zwin.",
  ];
  let turns = 0;
  let clears = 0;
  const by = { words: 0, duration: 0 };
  const bargeInDelays: number[] = [];
  const sessions: AudioCallSession[] = [];
  const eld = monitorEventLoopDelay({ resolution: 5 });
  eld.enable();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CALLS }, async (_, i) => {
      await delay((i * 37) % 2000);
      const leg = await carrier.originate({
        callId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        to: `+2126123456${String(i % 100).padStart(2, "0")}`,
        country: "MA",
        language: "ar",
        dialect: "ma",
        ringTimeoutSeconds: 30,
        machineDetection: false,
        record: true,
      });
      const session = new AudioCallSession({
        leg,
        speech: carrier.speech,
        locale: "ar-MA",
        speed: 1,
        turnTaking: TURN_TAKING,
        log: () => {},
      });
      sessions.push(session);
      if ((await session.answered()).type !== "answered") return;
      for (let n = 0; performance.now() - started < SECONDS * 1000 && !session.closed; n++) {
        const said = await session.say(lines[n % lines.length]!);
        if (said.interrupted) {
          clears++;
          if (session.lastBargeIn) by[session.lastBargeIn.by]++;
        }
        if (await session.listen({ timeoutSeconds: 8 })) turns++;
      }
      await session.hangup();
      bargeInDelays.push(...leg.stats.bargeInDelaysMs);
    }),
  );
  const used = process.cpuUsage(cpu);
  eld.disable();
  const wall = (performance.now() - started) / 1000;
  await carrier.close();
  await voice?.close();
  console.log(
    `audio simulator, ${CALLS} calls at real pace for about ${wall.toFixed(0)} s (espeak-ng ${voice ? "on" : "absent: tones"}):`,
  );
  console.log(
    `  barge-in (the simulator's recogniser gives a word's interim result as its audio arrives): ${by.words} lines cut by words, ${by.duration} by ${TURN_TAKING.fillerMs} ms of voice; first voiced frame of the talk-over to \`clear\` p50 ${pct(bargeInDelays, 50).toFixed(0)} ms, p99 ${pct(bargeInDelays, 99).toFixed(0)} ms over ${bargeInDelays.length}`,
  );
  console.log(
    `  ${turns} customer turns heard, ${clears} agent lines cut by barge-in; event-loop delay p99 ${(eld.percentile(99) / 1e6).toFixed(1)} ms (max ${(eld.max / 1e6).toFixed(1)}); this process's CPU ${((used.user + used.system) / 1000 / wall).toFixed(0)} ms per wall second (espeak-ng runs in its own processes)`,
  );
}

await turnTaking();
await framing();
if (process.env["AUDIO_BENCH_SIMULATOR"] !== "0") await audioSimulator();
process.exit(0);
