// Offline speech synthesis with espeak-ng (Debian package `espeak-ng`, voices `ar` and `fr`), used to render
// the simulator's recordings. Spawning from a large Node process costs ~15 ms of event loop each (measured:
// 30 s of main-thread time for 250 calls), so a few long-lived shells run espeak-ng for us instead: we write
// one request line, they answer one base64 WAV line. Repeated lines (the agent's, the phrase banks') are
// served from a bounded cache.
import { type ChildProcessByStdio, execFile, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { AudioFormat } from "./audio-format.ts";
import type { Recognition, SpeechProvider, SynthesizedSpeech } from "./provider.ts";
import { decodeWav, resample } from "./wav.ts";

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

/** Whether the espeak-ng binary runs here (checked once per node by the caller). */
export function espeakAvailable(binary = "espeak-ng"): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(binary, ["--version"], { timeout: 5_000 }, (err) => resolve(!err));
  });
}

export interface EspeakOptions {
  binary?: string;
  /** Shells (so espeak-ng processes) working at once; further requests wait their turn. */
  concurrency?: number;
  /** Words per minute (espeak-ng's default is 175). */
  wordsPerMinute?: number;
  /** Synthesised lines kept for reuse. */
  cacheEntries?: number;
}

// Reads "voice<TAB>text" lines; answers each with the WAV in base64 on one line (empty when espeak-ng failed).
// The text only ever travels as data ("$text"), never as shell code.
const SHELL_LOOP = `while IFS=$'\\t' read -r voice text; do
  printf '%s' "$text" | "$0" -v "$voice" -s "$1" --stdout --stdin 2>/dev/null | base64 -w0
  echo
done`;

/** One long-lived bash running espeak-ng per request line; requests are answered in order. */
class SynthesisShell {
  readonly #child: ChildProcessByStdio<Writable, Readable, null>;
  readonly #pending: { resolve: (wav: Buffer) => void; reject: (err: Error) => void }[] = [];
  #buffer = "";
  dead = false;

  constructor(binary: string, wpm: number) {
    this.#child = spawn("bash", ["-c", SHELL_LOOP, binary, String(wpm)], { stdio: ["pipe", "pipe", "ignore"] });
    this.#child.stdout.setEncoding("latin1");
    this.#child.stdout.on("data", (chunk: string) => this.#read(chunk));
    this.#child.stdin.on("error", () => {});
    this.#child.on("error", (err) => this.#fail(err));
    this.#child.on("exit", () => this.#fail(new Error("the synthesis shell exited")));
    // An idle shell must not keep the process alive (pending requests are awaited by calls that do).
    this.#child.unref();
    for (const pipe of [this.#child.stdin, this.#child.stdout] as unknown as { unref?: () => void }[]) pipe.unref?.();
  }

  request(voice: string, text: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      if (this.dead) return reject(new Error("the synthesis shell exited"));
      this.#pending.push({ resolve, reject });
      this.#child.stdin.write(`${voice}\t${text.replace(/[\t\r\n\\]+/g, " ")}\n`);
    });
  }

  #read(chunk: string): void {
    this.#buffer += chunk;
    let newline = this.#buffer.indexOf("\n");
    while (newline >= 0) {
      const line = this.#buffer.slice(0, newline);
      this.#buffer = this.#buffer.slice(newline + 1);
      const waiter = this.#pending.shift();
      if (line.length === 0) waiter?.reject(new Error("espeak-ng produced no audio"));
      else waiter?.resolve(Buffer.from(line, "base64"));
      newline = this.#buffer.indexOf("\n");
    }
  }

  #fail(err: Error): void {
    this.dead = true;
    for (const waiter of this.#pending.splice(0)) waiter.reject(err);
  }

  close(): void {
    this.dead = true;
    this.#child.stdin.end();
    this.#child.kill();
  }
}

/** espeak-ng behind the SpeechProvider interface: synthesis only. */
export class EspeakSpeech implements SpeechProvider {
  readonly name = "espeak-ng";
  readonly #binary: string;
  readonly #wpm: number;
  readonly #shells: (SynthesisShell | null)[];
  readonly #idle: number[];
  readonly #limiter: Limiter;
  readonly #cache = new Map<string, Promise<SynthesizedSpeech>>();
  readonly #cacheEntries: number;

  constructor(options: EspeakOptions = {}) {
    this.#binary = options.binary ?? "espeak-ng";
    this.#wpm = options.wordsPerMinute ?? 160;
    const concurrency = options.concurrency ?? 2;
    this.#shells = Array.from({ length: concurrency }, () => null);
    this.#idle = Array.from({ length: concurrency }, (_, i) => i);
    this.#limiter = new Limiter(concurrency);
    this.#cacheEntries = options.cacheEntries ?? 2_000;
  }

  synthesize(
    text: string,
    options: { locale: string; voice?: string; sampleRate?: number },
  ): Promise<SynthesizedSpeech> {
    const voice = options.voice ?? (options.locale.startsWith("fr") ? "fr" : "ar");
    const key = `${voice}|${options.sampleRate ?? 0}|${text}`;
    const cached = this.#cache.get(key);
    if (cached) {
      this.#cache.delete(key); // most recently used goes last
      this.#cache.set(key, cached);
      return cached;
    }
    const made = this.#limiter
      .run(() => this.#synthesize(voice, text))
      .then((speech) => {
        if (!options.sampleRate || options.sampleRate === speech.sampleRate) return speech;
        return {
          sampleRate: options.sampleRate,
          samples: resample(speech.samples, speech.sampleRate, options.sampleRate),
        };
      });
    made.catch(() => this.#cache.delete(key));
    this.#cache.set(key, made);
    if (this.#cache.size > this.#cacheEntries) this.#cache.delete(this.#cache.keys().next().value!);
    return made;
  }

  async #synthesize(voice: string, text: string): Promise<SynthesizedSpeech> {
    const slot = this.#idle.pop()!;
    try {
      let shell = this.#shells[slot];
      if (!shell || shell.dead) {
        shell = new SynthesisShell(this.#binary, this.#wpm);
        this.#shells[slot] = shell;
      }
      return decodeWav(await shell.request(voice, text));
    } finally {
      this.#idle.push(slot);
    }
  }

  // eslint-disable-next-line require-yield
  async *recognize(
    _audio: AsyncIterable<Uint8Array>,
    _options: { locale: string; format: AudioFormat },
  ): AsyncIterable<Recognition> {
    throw new Error("espeak-ng does not recognise speech; pair audio carriers with a recognising speech provider");
  }

  async close(): Promise<void> {
    for (const shell of this.#shells) shell?.close();
  }
}
