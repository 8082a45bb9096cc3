// The simulator's audio mode (WAKHA_SIMULATOR_AUDIO=1, issue 13): the whole audio path offline. The simulated
// customer speaks through espeak-ng (voices `ar` and `fr`) into 8 kHz mu-law frames sent at the pace of the
// simulated clock, the agent is synthesised by the same local voice, and the real AudioCallSession runs its voice
// activity detection, turn ends and barge-in on them. Only recognition is faked, at its interface: it answers the
// text the customer actually spoke in the audio it is given (each utterance's frames are views of one buffer, so
// the audio itself says which utterance it is). The customers keep their habits: pauses before answering, now and
// then talking over the agent or a short "hm" while it speaks. The recording is the real mixed audio of both sides.
import type { Dialect, SimulatedCustomer } from "../../dialogue/types.ts";
import { MULAW_FRAME_BYTES, MULAW_SILENCE, mulawToPcm, pcmToMulaw } from "../../speech/mulaw.ts";
import type { Recognition, RecognizeOptions, SpeechProvider, SynthesizedSpeech } from "../../speech/provider.ts";
import { Timeline, tone } from "../../speech/wav.ts";
import type {
  AnswerResult,
  AudioCallLeg,
  AudioTelephonyProvider,
  CallProgress,
  CallRecording,
  HangupCause,
  HangupEvent,
  OriginateRequest,
} from "../provider.ts";
import { speechLocale } from "../provider.ts";
import { type CustomerFactory, seededRandom } from "./provider.ts";

const FRAME_SECONDS = 0.02;
/** The customer's backchannel over a long line. */
const FILLER = "ah";
const SILENT_FRAME = new Uint8Array(MULAW_FRAME_BYTES).fill(MULAW_SILENCE);
const VOICEMAIL_GREETING = {
  ar: "مرحبا، المخاطب غير متوفر حاليا. المرجو ترك رسالتكم بعد سماع الإشارة الصوتية.",
  fr: "Bonjour, vous êtes bien sur la messagerie de votre correspondant. Laissez votre message après le bip.",
} as const;

export interface SimulatedAudioOptions {
  customers: CustomerFactory;
  /** Simulated seconds per wall second (WAKHA_SIMULATOR_SPEED). */
  speed: number;
  /** The local voice (espeak-ng); null speaks a tone per word instead. */
  voice: SpeechProvider | null;
  /** Share of the agent's longer lines the customer talks over (a third of the way in). */
  bargeInRate?: number;
  /** Share of the agent's lines during which the customer says a short "hm" (shorter than a barge-in). */
  fillerRate?: number;
  onError?: (message: string, err: unknown) => void;
}

/** What was spoken, known from the audio buffer itself: the simulator's only stand-in (recognition). */
class SpokenTexts {
  readonly agent = new WeakMap<ArrayBufferLike, string>();
  readonly customer = new WeakMap<ArrayBufferLike, string>();
  readonly heard = new WeakSet<ArrayBufferLike>();
}

/** The simulated line's speech: the local voice for the agent, recognition by the audio's own identity. */
class SimulatedSpeech implements SpeechProvider {
  readonly name = "simulator";
  readonly partials = true;
  readonly #texts: SpokenTexts;
  readonly #voice: (text: string, locale: string) => Promise<Uint8Array>;

  constructor(texts: SpokenTexts, voice: (text: string, locale: string) => Promise<Uint8Array>) {
    this.#texts = texts;
    this.#voice = voice;
  }

  async synthesize(text: string, options: { locale: string }): Promise<SynthesizedSpeech> {
    const mulaw = (await this.#voice(text, options.locale)).slice(); // a buffer of its own: it names the line
    this.#texts.agent.set(mulaw.buffer, text);
    return { sampleRate: 8000, samples: mulawToPcm(mulaw), mulaw };
  }

  /**
   * Interim results as the audio comes (the words of each utterance up to the frame reached, a word per equal share
   * of its audio, as a streaming recogniser grows its hypothesis), then the turn's words as the final result.
   */
  async *recognize(audio: AsyncIterable<Uint8Array>, _options: RecognizeOptions): AsyncIterable<Recognition> {
    const texts: string[] = [];
    type Utterance = { buffer: ArrayBufferLike; words: string[]; said: number };
    let current = null as Utterance | null;
    let frames = 0;
    for await (const frame of audio) {
      frames++;
      const text = this.#texts.customer.get(frame.buffer);
      if (text === undefined) continue;
      if (current?.buffer !== frame.buffer) {
        if (this.#texts.heard.has(frame.buffer)) continue;
        this.#texts.heard.add(frame.buffer); // a turn the detector cut in two is heard once
        texts.push(text);
        current = { buffer: frame.buffer, words: text.split(/\s+/).filter(Boolean), said: 0 };
      }
      const reached = Math.ceil(((frame.byteOffset + frame.length) / frame.buffer.byteLength) * current.words.length);
      if (reached > current.said) {
        current.said = reached;
        yield {
          text: [...texts.slice(0, -1), current.words.slice(0, reached).join(" ")].join(" "),
          final: false,
          startSeconds: 0,
          durationSeconds: frames * FRAME_SECONDS,
        };
      }
    }
    if (texts.length)
      yield {
        text: texts.join(" "),
        final: true,
        confidence: 0.9,
        startSeconds: 0,
        durationSeconds: frames * FRAME_SECONDS,
      };
  }

  async close(): Promise<void> {}
}

export class SimulatedAudioTelephony implements AudioTelephonyProvider {
  readonly name = "simulator";
  /** Pair the legs with this: the agent's voice and the recognition of the customer's. */
  readonly speech: SpeechProvider;
  readonly #o: SimulatedAudioOptions;
  readonly #texts = new SpokenTexts();
  readonly #legs = new Set<SimulatedAudioLeg>();
  readonly #cache = new Map<string, Promise<Uint8Array>>();
  #ticker: NodeJS.Timeout | null = null;

  constructor(options: SimulatedAudioOptions) {
    this.#o = options;
    this.speech = new SimulatedSpeech(this.#texts, (text, locale) => this.voice(text, locale));
  }

  /** The local voice as 8 kHz mu-law (cached per line: agents repeat themselves). */
  voice(text: string, locale: string): Promise<Uint8Array> {
    const key = `${locale}|${text}`;
    let made = this.#cache.get(key);
    if (!made) {
      made = this.#render(text, locale);
      made.catch(() => this.#cache.delete(key));
      this.#cache.set(key, made);
      if (this.#cache.size > 2000) this.#cache.delete(this.#cache.keys().next().value!);
    }
    return made;
  }

  async #render(text: string, locale: string): Promise<Uint8Array> {
    if (this.#o.voice) {
      try {
        const speech = await this.#o.voice.synthesize(text, { locale, sampleRate: 8000 });
        return speech.mulaw ?? pcmToMulaw(speech.samples);
      } catch (err) {
        this.#o.onError?.("the local voice failed; a tone stands for the line", err);
      }
    }
    return pcmToMulaw(tone(locale.startsWith("fr") ? 300 : 260, text.split(/\s+/).filter(Boolean).length * 0.4 + 0.3));
  }

  async originate(request: OriginateRequest): Promise<SimulatedAudioLeg> {
    const random = seededRandom(request.callId);
    const customer = this.#o.customers(request.to, request.dialect, random);
    const leg = new SimulatedAudioLeg(request, customer, random, this.#o, this, this.#texts);
    this.#legs.add(leg);
    void leg.ended().then(() => this.#legs.delete(leg));
    void leg.answered().then((a) => a.type !== "answered" && this.#legs.delete(leg));
    leg.start();
    this.#ticker ??= setInterval(() => this.#tick(), Math.max(5, Math.min(20, 20 / this.#o.speed)));
    return leg;
  }

  #tick(): void {
    for (const leg of this.#legs) leg.catchUp();
    if (this.#legs.size === 0 && this.#ticker) {
      clearInterval(this.#ticker);
      this.#ticker = null;
    }
  }

  async close(): Promise<void> {
    if (this.#ticker) clearInterval(this.#ticker);
    this.#ticker = null;
  }
}

type Spoken = { side: "agent" | "customer"; atFrame: number; bytes: Uint8Array };

export class SimulatedAudioLeg implements AudioCallLeg {
  readonly providerCallId: string;
  readonly format = { encoding: "mulaw" as const, sampleRate: 8000, channels: 1 as const };
  readonly carriesDigits = true;
  /** bargeInDelaysMs: from the first voiced frame of a talk-over to the agent's `clear` (simulated ms; the bench). */
  readonly stats = { clears: 0, bargeIns: 0, fillers: 0, bargeInDelaysMs: [] as number[] };
  #talkOverFrame: number | null = null;
  readonly #request: OriginateRequest;
  readonly #customer: SimulatedCustomer;
  readonly #random: () => number;
  readonly #o: SimulatedAudioOptions;
  readonly #provider: SimulatedAudioTelephony;
  readonly #texts: SpokenTexts;
  readonly #locale: string;
  readonly #listeners = new Set<(event: CallProgress) => void>();
  readonly #digitListeners = new Set<(digit: string) => void>();
  readonly #answer: Promise<AnswerResult>;
  #settleAnswer!: (r: AnswerResult) => void;
  readonly #end: Promise<HangupEvent>;
  #settleEnd!: (e: HangupEvent) => void;
  readonly #startedAt = performance.now();
  #answeredWall: number | null = null;
  #frame = 0;
  #settled = false;
  #closed = false;
  readonly #events: { at: number; run: () => void }[] = [];
  readonly #inbound: Uint8Array[] = [];
  #wakeFrames: (() => void) | null = null;
  #speaking: Uint8Array = new Uint8Array(0);
  #playing: {
    audio: Uint8Array;
    offset: number;
    text: string | null;
    answered: boolean;
    spoken: Spoken;
    resolve: (r: { interrupted: boolean }) => void;
  } | null = null;
  readonly #spoken: Spoken[] = [];
  #turn = 0;
  #recording: Promise<CallRecording | null> | null = null;

  constructor(
    request: OriginateRequest,
    customer: SimulatedCustomer,
    random: () => number,
    options: SimulatedAudioOptions,
    provider: SimulatedAudioTelephony,
    texts: SpokenTexts,
  ) {
    this.providerCallId = `SIMA${request.callId.replaceAll("-", "")}`;
    this.#request = request;
    this.#customer = customer;
    this.#random = random;
    this.#o = options;
    this.#provider = provider;
    this.#texts = texts;
    this.#locale = speechLocale(request.language, request.dialect as Dialect);
    this.#answer = new Promise((resolve) => (this.#settleAnswer = resolve));
    this.#end = new Promise((resolve) => (this.#settleEnd = resolve));
  }

  get closed(): boolean {
    return this.#closed || (this.#settled && this.#answeredWall === null);
  }

  /** Rings on the simulated clock, then settles per the customer's pickup (as the text simulator does). */
  start(): void {
    const { pickup } = this.#customer;
    const ring = Math.max(0, this.#customer.ringSeconds);
    const timeout = this.#request.ringTimeoutSeconds;
    // The customer's filler is rendered while the phone rings (once per carrier), ready before the first line plays.
    if (pickup === "answer" && this.#o.voice && (this.#o.fillerRate ?? 0.1) > 0)
      void this.#provider.voice(FILLER, "fr-FR").catch(() => {});
    this.#after(1, () => {
      if (this.#settled) return;
      if (pickup === "busy")
        return this.#after(Math.min(ring, 3), () => this.#settle({ type: "busy", seconds: this.#elapsed() }));
      this.#emit({ type: "ringing", seconds: this.#elapsed() });
      const rings = pickup === "no_answer" ? Math.max(ring, timeout) : ring;
      this.#after(Math.min(rings, timeout), () => {
        if (this.#settled) return;
        if (pickup === "no_answer" || rings > timeout)
          return this.#settle({ type: "no_answer", seconds: this.#elapsed() });
        this.#answeredWall = performance.now();
        const by = this.#customer.announcement?.answeredBy ?? (pickup === "voicemail" ? "machine" : "human");
        this.#settle({ type: "answered", by, seconds: this.#elapsed() });
        if (pickup === "voicemail") this.#greet();
      });
    });
  }

  on(listener: (event: CallProgress) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onDigit(listener: (digit: string) => void): () => void {
    this.#digitListeners.add(listener);
    return () => this.#digitListeners.delete(listener);
  }

  answered(): Promise<AnswerResult> {
    return this.#answer;
  }

  ended(): Promise<HangupEvent> {
    return this.#end;
  }

  /** The first inbound frame is the answer's. */
  inboundStartSeconds(): number | null {
    return this.#answeredWall === null ? null : 0;
  }

  /** The simulated clock: frames of audio since the answer. */
  connectedSeconds(): number {
    return Math.round(this.#frame * FRAME_SECONDS * 1000) / 1000;
  }

  async *frames(): AsyncIterable<Uint8Array> {
    for (;;) {
      const frame = this.#inbound.shift();
      if (frame) {
        yield frame;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => (this.#wakeFrames = resolve));
      this.#wakeFrames = null;
    }
  }

  play(audio: Uint8Array): Promise<{ interrupted: boolean }> {
    if (this.closed || this.#answeredWall === null || audio.length === 0)
      return Promise.resolve({ interrupted: false });
    this.#playing?.resolve({ interrupted: true });
    const text = this.#texts.agent.get(audio.buffer) ?? null;
    const spoken: Spoken = { side: "agent", atFrame: this.#frame, bytes: audio.subarray(0, 0) };
    this.#spoken.push(spoken);
    return new Promise((resolve) => {
      this.#playing = { audio, offset: 0, text, answered: false, spoken, resolve };
      const human = this.#customer.pickup === "answer";
      const frames = audio.length / MULAW_FRAME_BYTES;
      // Habits: now and then the customer cuts in on a longer line, or says "hm" while it plays.
      if (human && text && frames > 100 && this.#random() < (this.#o.bargeInRate ?? 0.1)) {
        this.#playing.answered = true;
        this.stats.bargeIns++;
        this.#answerLine(text, Math.round(frames / 3));
      } else if (human && frames > 100 && this.#random() < (this.#o.fillerRate ?? 0.1)) {
        // The filler is espeak-ng's French "ah" whatever the line's language (a sound, not a word): Silero hears about
        // 280 ms of voice in it, under the duration bound, and the recogniser writes it "ah", a filler, so it neither
        // stops the agent nor reaches the dialogue as an answer. Without espeak-ng it is a short hum. It is said over
        // the line or not at all: a voice rendered too late on a loaded machine (the line over, the customer's answer
        // queued behind it) would be a turn of its own, heard as the answer's first word.
        const line = this.#playing;
        const filler = this.#o.voice
          ? this.#provider.voice(FILLER, "fr-FR")
          : Promise.resolve(pcmToMulaw(tone(180, 0.12, 8000, 5000)));
        this.#at(Math.round(frames / 2), () => {
          void filler.then(
            (audio) => {
              if (this.#playing !== line || this.#closed) return;
              this.stats.fillers++;
              this.#say(this.#o.voice ? FILLER : "hm", audio);
            },
            (err) => this.#o.onError?.("the customer's voice failed", err),
          );
        });
      }
    });
  }

  clear(): void {
    const playing = this.#playing;
    if (!playing) return;
    this.stats.clears++;
    if (this.#talkOverFrame !== null && this.#frame >= this.#talkOverFrame)
      this.stats.bargeInDelaysMs.push((this.#frame - this.#talkOverFrame) * 20);
    this.#talkOverFrame = null;
    this.#playing = null;
    playing.resolve({ interrupted: true });
  }

  async hangup(): Promise<void> {
    if (this.#closed) return;
    if (!this.#settled) {
      this.#closed = true;
      this.#settle({ type: "canceled", seconds: this.#elapsed() });
      return;
    }
    this.#close("agent");
  }

  recording(): Promise<CallRecording | null> {
    this.#recording ??= this.#answeredWall === null ? Promise.resolve(null) : this.#render();
    return this.#recording;
  }

  // ---- the clock ----

  /** Runs the frames that fell due since the answer (the provider's ticker calls this). */
  catchUp(): void {
    if (this.#answeredWall === null || this.#closed) return;
    const due = Math.floor(((performance.now() - this.#answeredWall) * this.#o.speed) / 1000 / FRAME_SECONDS);
    while (this.#frame < due && !this.#closed) this.#step();
  }

  #step(): void {
    const ready = this.#events.filter((e) => e.at <= this.#frame);
    if (ready.length) {
      for (const e of ready) this.#events.splice(this.#events.indexOf(e), 1);
      for (const e of ready.sort((a, b) => a.at - b.at)) e.run();
    }
    let frame: Uint8Array = SILENT_FRAME;
    if (this.#speaking.length > 0) {
      frame = this.#speaking.subarray(0, MULAW_FRAME_BYTES);
      this.#speaking = this.#speaking.subarray(MULAW_FRAME_BYTES);
    }
    this.#inbound.push(frame);
    this.#wakeFrames?.();
    const playing = this.#playing;
    if (playing) {
      playing.offset = Math.min(playing.audio.length, playing.offset + MULAW_FRAME_BYTES);
      playing.spoken.bytes = playing.audio.subarray(0, playing.offset);
      if (playing.offset >= playing.audio.length) {
        this.#playing = null;
        playing.resolve({ interrupted: false });
        if (!playing.answered && playing.text) this.#answerLine(playing.text, null);
      }
    }
    this.#frame++;
  }

  #at(frames: number, run: () => void): void {
    this.#events.push({ at: this.#frame + Math.max(0, frames), run });
  }

  // Wall-clock wait for the pre-answer phase (setup and ringing), on the simulated clock.
  #after(seconds: number, run: () => void): void {
    setTimeout(run, (seconds * 1000) / this.#o.speed).unref();
  }

  // ---- the customer ----

  #answerLine(text: string, cutInAfterFrames: number | null): void {
    if (this.#customer.pickup !== "answer") return;
    const reply = this.#customer.reply(text, this.#turn++);
    this.#at(cutInAfterFrames ?? Math.round(Math.max(0, reply.thinkSeconds) / FRAME_SECONDS), () => {
      for (const digit of reply.digits ?? "") for (const listener of this.#digitListeners) listener(digit);
      if (!reply.text) {
        if (reply.hangup) this.#at(25, () => this.#close("customer"));
        return;
      }
      void this.#provider.voice(reply.text, this.#locale).then(
        (audio) => {
          const queued = Math.ceil(this.#speaking.length / MULAW_FRAME_BYTES);
          const frames = this.#say(reply.text, audio);
          if (cutInAfterFrames !== null)
            this.#talkOverFrame =
              this.#frame +
              queued +
              Math.floor(mulawToPcm(audio).findIndex((v) => Math.abs(v) > 1000) / MULAW_FRAME_BYTES);
          if (reply.hangup) this.#at(frames + 25, () => this.#close("customer"));
        },
        (err) => this.#o.onError?.("the customer's voice failed", err),
      );
    });
  }

  /** Queues the customer's speech; returns its length in frames. `text` null: a sound that is not words. */
  #say(text: string | null, audio: Uint8Array): number {
    const own = audio.slice(); // its buffer names the utterance for the recogniser
    if (text) this.#texts.customer.set(own.buffer, text);
    this.#spoken.push({
      side: "customer",
      atFrame: this.#frame + this.#speaking.length / MULAW_FRAME_BYTES,
      bytes: own,
    });
    // Frames must stay views of `own`: speech already queued plays first, then this one.
    const queued = this.#speaking;
    if (queued.length === 0) this.#speaking = own;
    else this.#at(Math.ceil(queued.length / MULAW_FRAME_BYTES), () => (this.#speaking = own));
    return Math.ceil((queued.length + own.length) / MULAW_FRAME_BYTES);
  }

  #greet(): void {
    const announcement = this.#customer.announcement;
    const text = announcement?.text ?? VOICEMAIL_GREETING[this.#request.language];
    this.#at(25, () => {
      void this.#provider.voice(text, this.#locale).then((audio) => {
        const frames = this.#say(text, audio);
        if (announcement?.closesLine) this.#at(frames + 50, () => this.#close("carrier"));
        else this.#at(frames + 10, () => this.#say(null, pcmToMulaw(tone(1000, 0.5))));
      });
    });
  }

  // ---- the line ----

  #close(by: HangupCause): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#playing?.resolve({ interrupted: false });
    this.#playing = null;
    const event: HangupEvent = {
      type: "hangup",
      by,
      connectedSeconds: this.connectedSeconds(),
      seconds: this.#elapsed(),
    };
    this.#emit(event);
    this.#settleEnd(event);
    this.#wakeFrames?.();
  }

  #settle(result: AnswerResult): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#emit(result);
    this.#settleAnswer(result);
    if (result.type !== "answered") this.#wakeFrames?.();
  }

  #elapsed(): number {
    return Math.round(((performance.now() - this.#startedAt) / 1000) * this.#o.speed * 1000) / 1000;
  }

  #emit(event: CallProgress): void {
    for (const listener of this.#listeners) listener(event);
  }

  // Both sides as they were heard on the line, mixed at the frame they started, as long as the connected time.
  async #render(): Promise<CallRecording> {
    const timeline = new Timeline(Math.max(1, Math.ceil(this.connectedSeconds())), 8000);
    for (const s of this.#spoken) timeline.place(s.atFrame * FRAME_SECONDS, mulawToPcm(s.bytes), 8000);
    return { contentType: "audio/wav", bytes: timeline.toWav() };
  }
}
