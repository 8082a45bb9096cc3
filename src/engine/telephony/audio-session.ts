// An audio carrier paired with a speech provider (issue 13): the AudioCallLeg moves 8 kHz mu-law frames, the
// SpeechProvider turns the agent's text into audio and the customer's turns into text, and this session puts them
// together behind the same CallSession the dialer drives on text carriers.
//
// Turn-taking runs on the inbound frames: a voice activity detector (speech/vad.ts) opens a turn and a recognition
// stream with it (the 200 ms before its onset included), feeds the stream frame by frame, and closes it after
// WAKHA_VAD_END_SILENCE_MS of silence; the recogniser's final result is what the dialogue hears. While the agent
// speaks, the customer stops its audio at the carrier (Media Streams `clear`) with the first interim result that
// holds a word that is not a filler, or, before any word, with WAKHA_VAD_FILLER_MS of voiced speech
// (WAKHA_VAD_BARGE_IN_MS with a recogniser that gives no interim results). A turn spoken over the agent that was
// only fillers ("mm", "euh") is a backchannel, not an answer: the dialogue does not hear it. A recogniser that
// refuses the key ends the call as failed (speech_refused); two turns in a row it could not recognise, too
// (speech_unavailable): a call must not go on deaf.
import type { Dialect } from "../dialogue/types.ts";
import { hasRealWord } from "../speech/fillers.ts";
import { pcmToMulaw } from "../speech/mulaw.ts";
import type { SpeechProvider } from "../speech/provider.ts";
import { sharedSileroModel, SileroVad } from "../speech/silero.ts";
import { EnergyVad, type VoiceActivityDetector } from "../speech/vad.ts";
import {
  type AnswerResult,
  type AudioCallLeg,
  type AudioTelephonyProvider,
  type CallProgress,
  type CallRecording,
  type CallSession,
  type CarrierRecording,
  type HangupEvent,
  type ListenOptions,
  type OriginateRequest,
  type SayOptions,
  type SayResult,
  speechLocale,
  type TelephonyProvider,
  type TransferOutcome,
  type TransferRequest,
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
  /**
   * The same bound with a recogniser that streams interim results: words stop the agent as soon as they are
   * recognised, so the duration alone only has to outlast the longest filler.
   */
  fillerMs: number;
  /** RMS (16-bit linear) under which a frame is never speech (the energy detector). */
  minRms: number;
}

/** What the configuration gives when nothing is set (index.ts turnTaking()). */
export const DEFAULT_TURN_TAKING: TurnTaking = {
  vad: "silero",
  threshold: 0.5,
  endSilenceMs: 200,
  bargeInMs: 320,
  fillerMs: 600,
  minRms: 400,
};

/** A detector for one call as turn-taking says; Silero's model is loaded once per process. */
export async function createVad(
  t: TurnTaking,
  log: (message: string, err?: unknown) => void,
): Promise<VoiceActivityDetector> {
  const energy = () => new EnergyVad({ frameMs: 20, endSilenceMs: t.endSilenceMs, minRms: t.minRms });
  if (t.vad === "energy") return energy();
  try {
    return new SileroVad(await sharedSileroModel(), {
      threshold: t.threshold,
      negThreshold: Math.max(0.01, t.threshold - 0.15),
      endSilenceMs: t.endSilenceMs,
    });
  } catch (err) {
    // A call must not go deaf: the energy detector takes over, loudly.
    log("the Silero VAD model could not be loaded; this call uses the energy detector", err);
    return energy();
  }
}

/** A turn longer than this is closed and recognised anyway (a line left open on noise must not stream for ever). */
const MAX_TURN_MS = 20_000;
/** Turns in a row the recogniser failed on (after its own reconnections) before the call gives up as deaf. */
const MAX_FAILED_TURNS = 2;
/** Audio kept before the detector's onset, so the first syllable reaches the recogniser. */
const PREROLL_MS = 200;
/** How long listen() waits past its timeout for a turn still being recognised (wall ms). */
const RECOGNITION_GRACE_MS = 10_000;

export interface AudioSessionOptions {
  leg: AudioCallLeg;
  speech: SpeechProvider;
  /** BCP 47 locale of the call's speech (ar-MA, ar-DZ, ar-TN, fr-FR). */
  locale: string;
  /** Words the call is likely to hear (the order's), for the recogniser's phrase list. */
  phrases?: readonly string[] | undefined;
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
  #failedTurns = 0;
  /**
   * The agent's last lines on the carrier's clock, and where the inbound audio being read is on that clock. On a busy
   * node the detector reads frames later than the carrier delivered them: a turn is over the agent when its audio
   * was, not when it happens to be read (a backchannel read after the line ended is still a backchannel).
   */
  readonly #lines: { from: number; until: number | null }[] = [];
  #inboundOrigin: number | null = null;
  #inboundMs = 0;
  /** Why the call cannot go on (the recogniser refused us): say() and listen() throw it, the dialer ends the call. */
  #fatal: Error | null = null;
  /** The last barge-in `clear`: how much speech it took, and whether words or duration decided. */
  lastBargeIn: { speechMs: number; by: "words" | "duration" } | null = null;

  constructor(options: AudioSessionOptions) {
    this.#o = options;
    this.#leg = options.leg;
    this.providerCallId = options.leg.providerCallId;
    this.#leg.onDigit?.((digit) => {
      this.#heard.push({ text: "", digits: digit, at: this.connectedSeconds(), durationSeconds: 0 });
      this.#wakeAll();
    });
    void this.#leg.answered().then((answer) => {
      if (answer.type === "answered")
        void this.#pump().catch((err) => this.#o.log(`call ${this.providerCallId}: the audio pump failed`, err));
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

  lineFailure(): string | null {
    return this.#leg.lineFailure?.() ?? null;
  }

  answeringMachine(): "none" | "greeting" | "ended" {
    return this.#leg.answeringMachine?.() ?? "none";
  }

  /** Issue 34: the carrier's warm transfer (Twilio Media Streams: the conference pattern); `failed` without one. */
  async transfer(request: TransferRequest): Promise<TransferOutcome> {
    if (!this.#leg.transfer) return { status: "failed", answeredAtSeconds: null, bridgedSeconds: 0 };
    return this.#leg.transfer(request);
  }

  async machineGreetingEnded(seconds: number): Promise<boolean> {
    return (await this.#leg.machineGreetingEnded?.(seconds)) ?? false;
  }

  connectedSeconds(): number {
    return this.#leg.connectedSeconds();
  }

  recording(): Promise<CallRecording | CarrierRecording | null> {
    return this.#leg.recording();
  }

  hangup(): Promise<void> {
    return this.#leg.hangup();
  }

  async say(text: string, options: SayOptions = {}): Promise<SayResult> {
    if (this.#fatal) throw this.#fatal;
    if (this.closed || !text.trim()) return { interrupted: false, spokenSeconds: 0 };
    const speech = await this.#o.speech.synthesize(text, {
      locale: options.locale ?? this.#o.locale,
      ...(this.#o.voice ? { voice: this.#o.voice } : {}),
      sampleRate: 8000,
    });
    if (this.closed) return { interrupted: false, spokenSeconds: 0 };
    const audio = speech.mulaw ?? pcmToMulaw(speech.samples);
    const started = this.connectedSeconds();
    this.#bargedIn = false;
    this.#interruptible = options.interruptible ?? true;
    this.#playing = true;
    const line = { from: started, until: null as number | null };
    this.#lines.push(line);
    if (this.#lines.length > 4) this.#lines.shift();
    try {
      const played = await this.#leg.play(audio);
      return {
        interrupted: played.interrupted || this.#bargedIn,
        spokenSeconds: Math.max(0, this.connectedSeconds() - started),
      };
    } finally {
      this.#playing = false;
      line.until = this.connectedSeconds();
    }
  }

  async listen(options: ListenOptions): Promise<Utterance | null> {
    const ready = () => this.#heard.length > 0 || this.closed || this.#fatal !== null;
    const deadline = this.connectedSeconds() + options.timeoutSeconds;
    await this.#waitFor(ready, (options.timeoutSeconds * 1000) / this.#o.speed);
    // Silence until the timeout means the audio until then was read as silence: a reader behind the carrier's clock
    // (a busy node) has not heard it yet.
    if (!ready() && this.#inboundOrigin !== null && this.#inboundSeconds() < deadline) {
      await this.#waitFor(() => ready() || this.#capturing || this.#inboundSeconds() >= deadline, RECOGNITION_GRACE_MS);
    }
    // A turn still being spoken or recognised when the time ran out is worth waiting for.
    if (!ready() && (this.#capturing || this.#recognising > 0)) {
      await this.#waitFor(() => ready() || (!this.#capturing && this.#recognising === 0), RECOGNITION_GRACE_MS);
    }
    if (this.#fatal) throw this.#fatal;
    return this.#heard.shift() ?? null;
  }

  // ---- the inbound audio ----

  async #pump(): Promise<void> {
    const t = this.#o.turnTaking;
    const frameMs = 20;
    const bytesPerMs = (this.#leg.format.sampleRate / 1000) * (this.#leg.format.encoding === "pcm16" ? 2 : 1);
    const vad = await createVad(t, this.#o.log);
    const preroll: Uint8Array[] = [];
    const prerollFrames = Math.ceil(PREROLL_MS / frameMs);
    // Words stop the agent when the recogniser streams them; the duration bound then only has to outlast fillers.
    const durationBound = this.#o.speech.partials ? t.fillerMs : t.bargeInMs;
    let turn: TurnAudio | null = null;
    for await (const frame of this.#leg.frames()) {
      this.#inboundOrigin ??= this.#leg.inboundStartSeconds?.() ?? this.connectedSeconds();
      this.#inboundMs += frame.length / bytesPerMs;
      const event = await vad.push(frame);
      if (this.#wakers.size > 0) this.#wakeAll();
      if (turn) turn.push(frame);
      else {
        preroll.push(frame);
        if (preroll.length > prerollFrames) preroll.shift();
      }
      if (event === "speech_start" && !turn) {
        this.#capturing = true;
        const frames = preroll.splice(0);
        turn = new TurnAudio(frames, Math.max(0, this.connectedSeconds() - (frames.length * frameMs) / 1000));
        this.#recognise(turn);
      }
      if (vad.speaking && vad.voicedMs >= durationBound) this.#bargeIn(vad.speechMs, "duration");
      if (turn && (event === "speech_end" || turn.frames * frameMs >= MAX_TURN_MS)) {
        this.#capturing = false;
        // The trailing silence that ended the turn is not speech.
        const spoken =
          event === "speech_end" ? Math.max(1, turn.frames - Math.floor(t.endSilenceMs / frameMs)) : turn.frames;
        turn.end((spoken * frameMs) / 1000);
        turn = null;
      }
    }
    turn?.end((turn.frames * frameMs) / 1000);
    this.#capturing = false;
    this.#wakeAll();
  }

  /** Where the frame just read sits on the carrier's clock (behind connectedSeconds() when the reader lags). */
  #inboundSeconds(): number {
    return (this.#inboundOrigin ?? 0) + this.#inboundMs / 1000;
  }

  #agentSpeakingAt(seconds: number): boolean {
    return this.#lines.some((l) => seconds >= l.from && (l.until === null || seconds < l.until));
  }

  /** Stops the agent's audio when the customer talks over it (once per line). */
  #bargeIn(speechMs: number, by: "words" | "duration"): void {
    if (!this.#playing || !this.#interruptible || this.#bargedIn) return;
    this.#bargedIn = true;
    this.lastBargeIn = { speechMs, by };
    this.#leg.clear();
  }

  // A turn's recognition runs while the customer speaks; turns are heard in the order they were spoken.
  #recognise(turn: TurnAudio): void {
    this.#recognising++;
    const overAgent = this.#playing || this.#agentSpeakingAt(this.#inboundSeconds());
    const result = (async () => {
      const texts: { text: string; confidence?: number }[] = [];
      const options = {
        locale: this.#o.locale,
        format: this.#leg.format,
        ...(this.#o.phrases?.length ? { phrases: this.#o.phrases } : {}),
      };
      for await (const r of this.#o.speech.recognize(turn.audio(), options)) {
        const text = r.text.trim();
        if (!r.final) {
          if (hasRealWord(text)) this.#bargeIn(turn.elapsedMs(), "words");
        } else if (text) {
          texts.push({ text, ...(r.confidence === undefined ? {} : { confidence: r.confidence }) });
        }
      }
      this.#failedTurns = 0;
      return texts;
    })()
      .catch((err: unknown) => {
        this.#recognitionFailed(err);
        return [];
      })
      .finally(() => turn.end(turn.frames * 0.02));
    this.#chain = this.#chain.then(async () => {
      const texts = await result;
      // Only "mm" or "euh" over the agent's voice: a backchannel, not the customer's answer.
      const backchannel = overAgent && texts.length > 0 && !texts.some((t) => hasRealWord(t.text));
      if (texts.length > 0 && !backchannel) {
        const confidences = texts.flatMap((t) => (t.confidence === undefined ? [] : [t.confidence]));
        this.#heard.push({
          text: texts.map((t) => t.text).join(" "),
          at: turn.at,
          durationSeconds: turn.durationSeconds,
          ...(confidences.length ? { confidence: Math.min(...confidences) } : {}),
        });
      }
      this.#recognising--;
      this.#wakeAll();
    });
  }

  #recognitionFailed(err: unknown): void {
    this.#o.log(`call ${this.providerCallId}: speech recognition failed`, err);
    const endReason = (err as { endReason?: unknown } | null)?.endReason;
    if (typeof endReason === "string") this.#fatal ??= err as Error;
    else if (++this.#failedTurns >= MAX_FAILED_TURNS) {
      this.#fatal ??= Object.assign(
        new Error(
          `speech recognition failed on ${this.#failedTurns} turns in a row: ${err instanceof Error ? err.message : String(err)}`,
        ),
        { endReason: "speech_unavailable" },
      );
    }
    if (this.#fatal) this.#wakeAll();
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

/** One turn's audio as the recogniser reads it: the frames so far, then each one as it arrives, until the turn ends. */
class TurnAudio {
  readonly at: number;
  durationSeconds = 0;
  frames = 0;
  readonly #queue: Uint8Array[];
  readonly #startedFrames: number;
  #ended = false;
  #wake: (() => void) | null = null;

  constructor(preroll: Uint8Array[], at: number) {
    this.#queue = preroll;
    this.frames = preroll.length;
    this.#startedFrames = preroll.length;
    this.at = at;
  }

  /** Milliseconds of audio since the detector's onset. */
  elapsedMs(): number {
    return (this.frames - this.#startedFrames) * 20;
  }

  push(frame: Uint8Array): void {
    if (this.#ended) return;
    this.#queue.push(frame);
    this.frames++;
    this.#wake?.();
  }

  end(durationSeconds: number): void {
    if (this.#ended) return;
    this.#ended = true;
    this.durationSeconds = durationSeconds;
    this.#wake?.();
  }

  async *audio(): AsyncIterable<Uint8Array> {
    for (;;) {
      const frame = this.#queue.shift();
      if (frame) {
        yield frame;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = null;
    }
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
      leg,
      speech: this.#o.speech,
      locale: speechLocale(request.language, request.dialect),
      phrases: request.phrases,
      voice: this.#o.voices[request.language === "fr" ? "fr" : request.dialect],
      speed: this.#o.speed,
      turnTaking: this.#o.turnTaking,
      log: this.#o.log,
    });
  }

  async close(): Promise<void> {
    await this.#o.carrier.close();
    await this.#o.speech.close();
  }
}
