// Offline speech synthesis with espeak-ng (Debian package `espeak-ng`, voices `ar` and `fr`). Used to render
// the simulator's recordings; a bounded pool of child processes keeps 500 concurrent calls from spawning 500.
import { execFile, spawn } from "node:child_process";
import type { AudioFormat } from "../telephony/provider.ts";
import type { Recognition, SpeechProvider, SynthesizedSpeech } from "./provider.ts";
import { decodeWav } from "./wav.ts";

/** A counting semaphore: at most `limit` tasks run at once, the rest wait in order. */
export class Limiter {
  readonly #limit: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#running++;
    try {
      return await task();
    } finally {
      this.#running--;
      this.#waiting.shift()?.();
    }
  }
}

/** Whether the espeak-ng binary runs here (checked once per process by the caller). */
export function espeakAvailable(binary = "espeak-ng"): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(binary, ["--version"], { timeout: 5_000 }, (err) => resolve(!err));
  });
}

export interface EspeakOptions {
  binary?: string;
  /** Concurrent espeak-ng processes; synthesis of recordings waits its turn beyond that. */
  concurrency?: number;
  /** Words per minute (espeak-ng's default is 175). */
  wordsPerMinute?: number;
}

/** espeak-ng behind the SpeechProvider interface: synthesis only. */
export class EspeakSpeech implements SpeechProvider {
  readonly name = "espeak-ng";
  readonly #binary: string;
  readonly #limiter: Limiter;
  readonly #wpm: number;

  constructor(options: EspeakOptions = {}) {
    this.#binary = options.binary ?? "espeak-ng";
    this.#limiter = new Limiter(options.concurrency ?? 2);
    this.#wpm = options.wordsPerMinute ?? 160;
  }

  synthesize(text: string, options: { locale: string; voice?: string }): Promise<SynthesizedSpeech> {
    const voice = options.voice ?? (options.locale.startsWith("fr") ? "fr" : "ar");
    return this.#limiter.run(() => this.#run(text, voice));
  }

  #run(text: string, voice: string): Promise<SynthesizedSpeech> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.#binary, ["-v", voice, "-s", String(this.#wpm), "--stdout", "--stdin"], { stdio: ["pipe", "pipe", "ignore"] });
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
      child.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        if (code !== 0) return reject(new Error(`espeak-ng exited with ${code}`));
        try {
          resolve(decodeWav(Buffer.concat(chunks)));
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
      child.stdin.on("error", () => {}); // a dead child is reported by 'close'
      child.stdin.end(text.replace(/\s+/g, " "));
    });
  }

  // eslint-disable-next-line require-yield
  async *recognize(_audio: AsyncIterable<Uint8Array>, _options: { locale: string; format: AudioFormat }): AsyncIterable<Recognition> {
    throw new Error("espeak-ng does not recognise speech; pair audio carriers with a recognising speech provider");
  }

  async close(): Promise<void> {}
}
