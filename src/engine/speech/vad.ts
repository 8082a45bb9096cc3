// Voice activity detection on 8 kHz mu-law frames. Two detectors behind one interface, chosen by WAKHA_VAD:
// Silero (silero.ts, the default: a neural model that tells speech from noise, music and tones) and this
// energy detector (energy against an adaptive noise floor: a few microseconds per frame, no model, but any loud
// sound is "speech"). Both count onset and hangover in milliseconds of audio (not wall time, so they behave the
// same at any carrier time scale). Neither tells a filler ("mm") from a word by itself: barge-in also needs a
// minimum of speech (WAKHA_VAD_BARGE_IN_MS) over the agent's voice.
import { mulawRms } from "./mulaw.ts";

export interface VadOptions {
  /** Milliseconds of audio per frame (Media Streams: 20). */
  frameMs: number;
  /** RMS (16-bit linear) below which a frame is never speech, whatever the noise floor. */
  minRms: number;
  /** A frame is voiced when its RMS exceeds the noise floor times this. */
  floorRatio: number;
  /** Voiced audio needed to start speech (ms). */
  startMs: number;
  /** Silence that ends speech (ms): the end of the customer's turn. */
  endSilenceMs: number;
}

export const DEFAULT_VAD: VadOptions = { frameMs: 20, minRms: 400, floorRatio: 3, startMs: 60, endSilenceMs: 400 };

export type VadEvent = "speech_start" | "speech_end" | null;

/** A detector fed one call's inbound frames in order (the next push only after the previous one settled). */
export interface VoiceActivityDetector {
  readonly speaking: boolean;
  /** Milliseconds of audio since the current speech started (0 when silent). */
  readonly speechMs: number;
  /** Milliseconds of voiced audio in the current speech (pauses not counted): what barge-in weighs. */
  readonly voicedMs: number;
  /** Feeds one frame; says when speech started or ended on it. */
  push(frame: Uint8Array): VadEvent | Promise<VadEvent>;
}

/**
 * The turn state both detectors share: runs of voiced and silent audio, and when speech starts (after `startMs` of
 * voice) and ends (after `endSilenceMs` of silence).
 */
export class TurnTracker {
  readonly #startMs: number;
  readonly #endSilenceMs: number;
  #voicedRun = 0;
  #silentRun = 0;
  #speaking = false;
  /** Milliseconds of audio since the current speech started (0 when silent). */
  speechMs = 0;
  /** Milliseconds of voiced audio in the current speech. */
  voicedMs = 0;

  constructor(startMs: number, endSilenceMs: number) {
    this.#startMs = startMs;
    this.#endSilenceMs = endSilenceMs;
  }

  get speaking(): boolean {
    return this.#speaking;
  }

  /** Accounts `ms` of audio, voiced or not; says when speech started or ended with it. */
  step(voiced: boolean, ms: number): VadEvent {
    if (voiced) {
      this.#voicedRun += ms;
      this.#silentRun = 0;
    } else {
      this.#silentRun += ms;
      this.#voicedRun = 0;
    }
    if (this.#speaking) {
      this.speechMs += ms;
      if (voiced) this.voicedMs += ms;
    }
    if (!this.#speaking && this.#voicedRun >= this.#startMs) {
      this.#speaking = true;
      this.speechMs = this.#voicedRun;
      this.voicedMs = this.#voicedRun;
      return "speech_start";
    }
    if (this.#speaking && this.#silentRun >= this.#endSilenceMs) {
      this.#speaking = false;
      this.speechMs = 0;
      this.voicedMs = 0;
      return "speech_end";
    }
    return null;
  }
}

export class EnergyVad implements VoiceActivityDetector {
  readonly #o: VadOptions;
  readonly #turn: TurnTracker;
  #floor = 100;

  constructor(options: Partial<VadOptions> = {}) {
    this.#o = { ...DEFAULT_VAD, ...options };
    this.#turn = new TurnTracker(this.#o.startMs, this.#o.endSilenceMs);
  }

  get speaking(): boolean {
    return this.#turn.speaking;
  }

  /** Milliseconds of audio since the current speech started (0 when silent). */
  get speechMs(): number {
    return this.#turn.speechMs;
  }

  get voicedMs(): number {
    return this.#turn.voicedMs;
  }

  /** Feeds one frame; says when speech started or ended on it. */
  push(frame: Uint8Array): VadEvent {
    const rms = mulawRms(frame);
    const voiced = rms > this.#o.minRms && rms > this.#floor * this.#o.floorRatio;
    // The floor follows quiet frames quickly and loud ones very slowly, so speech does not raise it much.
    if (!voiced) this.#floor = Math.max(1, this.#floor * 0.95 + rms * 0.05);
    else this.#floor = this.#floor * 0.999 + rms * 0.001;
    return this.#turn.step(voiced, this.#o.frameMs);
  }
}
