// An audio carrier paired with a speech provider (issue 13): the AudioCallLeg moves 8 kHz mu-law frames, the
// SpeechProvider turns the agent's text into audio and the customer's turns into text, and this session puts them
// together behind the same CallSession the dialer drives on text carriers.
//
// Turn-taking runs on the inbound frames: a voice activity detector (speech/vad.ts) opens a turn, ends it after
// WAKHA_VAD_END_SILENCE_MS of silence and hands the turn's audio to the recogniser; while the agent speaks, a
// customer talking for WAKHA_VAD_BARGE_IN_MS cuts the agent's audio at the carrier (Media Streams `clear`).
import type { Dialect } from "../dialogue/types.ts";
import { pcmToMulaw } from "../speech/mulaw.ts";
import type { SpeechProvider } from "../speech/provider.ts";
import { sharedSileroModel, SileroVad } from "../speech/silero.ts";
import { EnergyVad, type VoiceActivityDetector } from "../speech/vad.ts";
import {
  type AnswerResult, type AudioCallLeg, type AudioTelephonyProvider, type CallProgress, type CallRecording, type CallSession, type StreamedRecording,
  type HangupEvent, type ListenOptions, type OriginateRequest, type SayOptions, type SayResult, speechLocale, type TelephonyProvider,
  type Utterance,
} from "./provider.ts";

export interface TurnTaking {
  /** The detector: Silero (a neural model, the default) or energy against the noise floor (WAKHA_VAD). */
  vad: "silero" | "energy";
  /** Silero's speech probability threshold (WAKHA_VAD_THRESHOLD). */
  threshold: number;
  /** Silence that ends the customer's turn (ms of audio). */
  endSilenceMs: number;
  /** Voiced speech over the agent's voice that stops it (ms of audio); shorter sounds (a cough, "mm") do not. */
  bargeInMs: number;
  /** RMS (16-bit linear) under which a frame is never speech (the energy detector). */
  minRms: number;
}

/** What the configuration gives when nothing is set (index.ts turnTaking()). */
export const DEFAULT_TURN_TAKING: TurnTaking = { vad: "silero", threshold: 0.5, endSilenceMs: 200, bargeInMs: 320, minRms: 400 };

/** A detector for one call as turn-taking says; Silero's model is loaded once per process. */
export async function createVad(t: TurnTaking, log: (message: string, err?: unknown) => void): Promise<VoiceActivityDetector> {
  const energy = () => new EnergyVad({ frameMs: 20, endSilenceMs: t.endSilenceMs, minRms: t.minRms });
  if (t.vad === "energy") return energy();
  try {
    return new SileroVad(await sharedSileroModel(), { threshold: t.threshold, negThreshold: Math.max(0.01, t.threshold - 0.15), endSilenceMs: t.endSilenceMs });
  } catch (err) {
    // A call must not go deaf: the energy detector takes over, loudly.
    log("the Silero VAD model could not be loaded; this call uses the energy detector", err);
    return energy();
  }
}

/** A turn longer than this is cut and recognised anyway (the short-audio APIs take up to 60 s). */
const MAX_TURN_MS = 20_000;
/** Audio kept before the detector's onset, so the first syllable reaches the recogniser. */
const PREROLL_MS = 200;
/** How long listen() waits past its timeout for a turn still being recognised (wall ms). */
const RECOGNITION_GRACE_MS = 10_000;

export interface AudioSessionOptions {
  leg: AudioCallLeg;
  speech: SpeechProvider;
  /** BCP 47 locale of the call's speech (ar-MA, ar-DZ, ar-TN, fr-FR). */
  locale: string;
  voice?: string | undefined;
  /** Carrier seconds per wall second (the fakes' time compression; 1 in production). */
  speed: number;
  turnTaking: TurnTaking;
  log(message: string, err?: unknown): void;
}

export class AudioCallSession implements CallSession {
  readonly providerCallId: string;
  readonly #o: AudioSessionOptions;
  readonly #leg: AudioCallLeg;
  readonly #heard: Utterance[] = [];
  readonly #wakers = new Set<() => void>();
  #recognising = 0;
  #capturing = false;
  #playing = false;
  #interruptible = true;
  #bargedIn = false;
  #chain: Promise<void> = Promise.resolve();
  /** Wall time of the last barge-in `clear`, for the latency tests and the bench. */
  lastBargeIn: { speechMs: number } | null = null;

  constructor(options: AudioSessionOptions) {
    this.#o = options;
    this.#leg = options.leg;
    this.providerCallId = options.leg.providerCallId;
    this.#leg.onDigit?.((digit) => {
      this.#heard.push({ text: "", digits: digit, at: this.connectedSeconds(), durationSeconds: 0 });
      this.#wakeAll();
    });
    void this.#leg.answered().then((answer) => {
      if (answer.type === "answered") void this.#pump().catch((err) => this.#o.log(`call ${this.providerCallId}: the audio pump failed`, err));
    });
  }

  get closed(): boolean {
    return this.#leg.closed;
  }

  get carriesDigits(): boolean {
    return this.#leg.carriesDigits === true;
  }

  on(listener: (event: CallProgress) => void): () => void {
    return this.#leg.on(listener);
  }

  answered(): Promise<AnswerResult> {
    return this.#leg.answered();
  }

  ended(): Promise<HangupEvent> {
    return this.#leg.ended();
  }

  connectedSeconds(): number {
    return this.#leg.connectedSeconds();
  }

  recording(): Promise<CallRecording | StreamedRecording | null> {
    return this.#leg.recording();
  }

  hangup(): Promise<void> {
    return this.#leg.hangup();
  }

  async say(text: string, options: SayOptions = {}): Promise<SayResult> {
    if (this.closed || !text.trim()) return { interrupted: false, spokenSeconds: 0 };
    const speech = await this.#o.speech.synthesize(text, { locale: options.locale ?? this.#o.locale, ...(this.#o.voice ? { voice: this.#o.voice } : {}), sampleRate: 8000 });
    if (this.closed) return { interrupted: false, spokenSeconds: 0 };
    const audio = speech.mulaw ?? pcmToMulaw(speech.samples);
    const started = this.connectedSeconds();
    this.#bargedIn = false;
    this.#interruptible = options.interruptible ?? true;
    this.#playing = true;
    try {
      const played = await this.#leg.play(audio);
      return { interrupted: played.interrupted || this.#bargedIn, spokenSeconds: Math.max(0, this.connectedSeconds() - started) };
    } finally {
      this.#playing = false;
    }
  }

  async listen(options: ListenOptions): Promise<Utterance | null> {
    const ready = () => this.#heard.length > 0 || this.closed;
    await this.#waitFor(ready, (options.timeoutSeconds * 1000) / this.#o.speed);
    // A turn still being spoken or recognised when the time ran out is worth waiting for.
    if (!ready() && (this.#capturing || this.#recognising > 0)) {
      await this.#waitFor(() => ready() || (!this.#capturing && this.#recognising === 0), RECOGNITION_GRACE_MS);
    }
    return this.#heard.shift() ?? null;
  }

  // ---- the inbound audio ----

  async #pump(): Promise<void> {
    const t = this.#o.turnTaking;
    const format = this.#leg.format;
    const frameMs = 20;
    const vad = await createVad(t, this.#o.log);
    const preroll: Uint8Array[] = [];
    const prerollFrames = Math.ceil(PREROLL_MS / frameMs);
    let turn: Uint8Array[] = [];
    let turnAt = 0;
    for await (const frame of this.#leg.frames()) {
      const event = await vad.push(frame);
      if (this.#capturing) turn.push(frame);
      else {
        preroll.push(frame);
        if (preroll.length > prerollFrames) preroll.shift();
      }
      if (event === "speech_start") {
        this.#capturing = true;
        turn = preroll.splice(0);
        turnAt = Math.max(0, this.connectedSeconds() - (turn.length * frameMs) / 1000);
      }
      if (vad.speaking && this.#playing && this.#interruptible && !this.#bargedIn && vad.voicedMs >= t.bargeInMs) {
        this.#bargedIn = true;
        this.lastBargeIn = { speechMs: vad.speechMs };
        this.#leg.clear();
      }
      if (this.#capturing && (event === "speech_end" || turn.length * frameMs >= MAX_TURN_MS)) {
        this.#capturing = false;
        // The trailing silence that ended the turn is not speech.
        const spoken = event === "speech_end" ? turn.slice(0, Math.max(1, turn.length - Math.floor(t.endSilenceMs / frameMs))) : turn;
        this.#recognise(spoken, turnAt, (spoken.length * frameMs) / 1000, format);
        turn = [];
      }
    }
    this.#capturing = false;
    this.#wakeAll();
  }

  // Turns are recognised in the order they were spoken, each as soon as it ends.
  #recognise(frames: Uint8Array[], at: number, durationSeconds: number, format: AudioCallLeg["format"]): void {
    this.#recognising++;
    const result = (async () => {
      const texts: { text: string; confidence?: number }[] = [];
      async function* audio() {
        yield* frames;
      }
      for await (const r of this.#o.speech.recognize(audio(), { locale: this.#o.locale, format })) {
        if (r.final && r.text.trim()) texts.push({ text: r.text.trim(), ...(r.confidence === undefined ? {} : { confidence: r.confidence }) });
      }
      return texts;
    })().catch((err) => {
      this.#o.log(`call ${this.providerCallId}: speech recognition failed`, err);
      return [];
    });
    this.#chain = this.#chain.then(async () => {
      const texts = await result;
      if (texts.length > 0) {
        const confidences = texts.flatMap((t) => (t.confidence === undefined ? [] : [t.confidence]));
        this.#heard.push({
          text: texts.map((t) => t.text).join(" "), at, durationSeconds,
          ...(confidences.length ? { confidence: Math.min(...confidences) } : {}),
        });
      }
      this.#recognising--;
      this.#wakeAll();
    });
  }

  async #waitFor(done: () => boolean, wallMs: number): Promise<void> {
    if (done()) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, wallMs);
      function finish(this: void) {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      }
      const wakers = this.#wakers;
      const wake = () => {
        if (done()) finish();
      };
      wakers.add(wake);
      // The line closing ends every wait.
      void this.#leg.ended().then(wake);
    });
  }

  #wakeAll(): void {
    for (const wake of [...this.#wakers]) wake();
  }
}

export interface PairedTelephonyOptions {
  name: string;
  carrier: AudioTelephonyProvider;
  speech: SpeechProvider;
  /** Voice per dialect (`fr` for French calls); the speech provider's default for the locale when absent. */
  voices: Partial<Record<Dialect, string>>;
  speed: number;
  turnTaking: TurnTaking;
  log(message: string, err?: unknown): void;
}

/** An audio carrier and a speech provider as one TelephonyProvider: what the dialer sees. */
export class PairedTelephony implements TelephonyProvider {
  readonly name: string;
  readonly #o: PairedTelephonyOptions;

  constructor(options: PairedTelephonyOptions) {
    this.#o = options;
    this.name = options.name;
    // The model loads while the first call rings (a failure is logged on the call, which then uses energy).
    if (options.turnTaking.vad === "silero") sharedSileroModel().catch(() => {});
  }

  async originate(request: OriginateRequest): Promise<AudioCallSession> {
    const leg = await this.#o.carrier.originate(request);
    return new AudioCallSession({
      leg, speech: this.#o.speech, locale: speechLocale(request.language, request.dialect),
      voice: this.#o.voices[request.language === "fr" ? "fr" : request.dialect], speed: this.#o.speed,
      turnTaking: this.#o.turnTaking, log: this.#o.log,
    });
  }

  async close(): Promise<void> {
    await this.#o.carrier.close();
    await this.#o.speech.close();
  }
}
