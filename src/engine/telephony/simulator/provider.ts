// The default telephony provider (WAKHA_TELEPHONY=simulator, CONTRACT §5): a simulated line whose far end is
// a SimulatedCustomer (pickup, ring time and replies from its own phrase bank). Time runs on a simulated
// clock: every second of ringing, speech and thinking is counted in simulated seconds (those are billed),
// and WAKHA_SIMULATOR_SPEED only divides the wall-clock waits. Nothing is spawned while a call runs: the
// recording is rendered lazily, when recording() is asked for, through a bounded synthesiser pool.
import { createHash } from "node:crypto";
import type { Dialect, SimulatedCustomer } from "../../dialogue/types.ts";
import type { SpeechProvider } from "../../speech/provider.ts";
import { RECORDING_SAMPLE_RATE, Timeline, tone } from "../../speech/wav.ts";
import { behaviourFor } from "./customer.ts";
import { HANDOFF_NUMBER_BEHAVIOURS, simulateTransfer } from "./transfer.ts";
import {
  type TransferOutcome,
  type TransferRequest,
  type AnswerResult,
  type CallProgress,
  type CallRecording,
  type CallSession,
  type HangupCause,
  type HangupEvent,
  type ListenOptions,
  type OriginateRequest,
  type SayResult,
  speechLocale,
  type TelephonyProvider,
  type Utterance,
} from "../provider.ts";

/** How the simulator gets its customers: createSimulatedCustomer in simulator/customer.ts. */
export type CustomerFactory = (phone: string, dialect: Dialect, random: () => number) => SimulatedCustomer;

export interface SimulatorOptions {
  customers: CustomerFactory;
  /** WAKHA_SIMULATOR_SPEED: simulated seconds per wall second. */
  speed: number;
  /** Renders speech into recordings; null writes a tone per turn at the turn's real timing. */
  speech: SpeechProvider | null;
  /** Talk time: simulated seconds per spoken word (0.4 s is 150 words a minute, a calm phone voice). */
  secondsPerWord?: number;
  /** Seconds from originate to the first ring (network setup). */
  setupSeconds?: number;
  /** Recording rendering failures (the call is unaffected; the recording falls back to tones). */
  onError?: (message: string, err: unknown) => void;
}

/** What a voicemail box says before the beep, in the call's language. */
const VOICEMAIL_GREETING = {
  ar: "مرحبا، المخاطب غير متوفر حاليا. المرجو ترك رسالتكم بعد سماع الإشارة الصوتية.",
  fr: "Bonjour, vous êtes bien sur la messagerie de votre correspondant. Laissez votre message après le bip.",
} as const;

const AGENT_TONE_HZ = 440;
const CUSTOMER_TONE_HZ = 330;
const BEEP_HZ = 1000;

type ResolvedOptions = SimulatorOptions & { secondsPerWord: number; setupSeconds: number };

interface SpokenTurn {
  speaker: "agent" | "customer";
  text: string;
  /** Seconds since answer. */
  at: number;
  seconds: number;
}

/** A small deterministic PRNG (mulberry32) seeded from the call id, so a call's timings are reproducible. */
export function seededRandom(seed: string): () => number {
  let a = createHash("sha256").update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** The simulator as a TelephonyProvider: one instance serves every concurrent call of the node. */
export class SimulatedTelephony implements TelephonyProvider {
  readonly name = "simulator";
  readonly #options: ResolvedOptions;

  constructor(options: SimulatorOptions) {
    this.#options = { secondsPerWord: 0.4, setupSeconds: 1, ...options };
  }

  async originate(request: OriginateRequest): Promise<CallSession> {
    const random = seededRandom(request.callId);
    const customer = this.#options.customers(request.to, request.dialect, random);
    const session = new SimulatedSession(request, customer, this.#options);
    session.start();
    return session;
  }

  async close(): Promise<void> {
    await this.#options.speech?.close();
  }
}

class SimulatedSession implements CallSession {
  readonly providerCallId: string;
  /** A GSM line carries keypad tones: the simulated customer can press digits. */
  readonly carriesDigits = true;
  readonly #request: OriginateRequest;
  readonly #customer: SimulatedCustomer;
  readonly #options: ResolvedOptions;
  readonly #listeners = new Set<(event: CallProgress) => void>();
  readonly #turns: SpokenTurn[] = [];
  readonly #answer: Promise<AnswerResult>;
  #settleAnswer!: (result: AnswerResult) => void;
  readonly #end: Promise<HangupEvent>;
  #settleEnd!: (event: HangupEvent) => void;
  readonly #wakers = new Set<() => void>();
  /** Simulated seconds since originate. */
  #clock = 0;
  #answeredAtClock: number | null = null;
  #answeredBy: "human" | "machine" | null = null;
  #settled = false;
  #closed = false;
  #lastAgentText = "";
  #customerTurn = 0;
  #greeted = false;
  #recording: Promise<CallRecording | null> | null = null;

  constructor(request: OriginateRequest, customer: SimulatedCustomer, options: ResolvedOptions) {
    this.providerCallId = `SIM${request.callId.replaceAll("-", "")}`;
    this.#request = request;
    this.#customer = customer;
    this.#options = options;
    this.#answer = new Promise((resolve) => (this.#settleAnswer = resolve));
    this.#end = new Promise((resolve) => (this.#settleEnd = resolve));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Rings, then settles per the customer's pickup (CONTRACT §5: 03 no answer, 04 busy, 05 voicemail). */
  start(): void {
    void (async () => {
      await this.#sleep(this.#options.setupSeconds);
      if (this.#closed) return;
      const { pickup } = this.#customer;
      const timeout = this.#request.ringTimeoutSeconds;
      const ring = Math.max(0, this.#customer.ringSeconds);
      if (pickup === "busy") {
        await this.#sleep(Math.min(ring, 3)); // a busy tone comes back before any ringing to speak of
        return this.#settle({ type: "busy", seconds: this.#clock });
      }
      this.#emit({ type: "ringing", seconds: this.#clock });
      const rings = pickup === "no_answer" ? Math.max(ring, timeout) : ring;
      await this.#sleep(Math.min(rings, timeout));
      if (this.#closed) return;
      if (pickup === "no_answer" || rings > timeout) return this.#settle({ type: "no_answer", seconds: this.#clock });
      this.#answeredAtClock = this.#clock;
      this.#answeredBy = this.#customer.announcement?.answeredBy ?? (pickup === "voicemail" ? "machine" : "human");
      this.#settle({ type: "answered", by: this.#answeredBy, seconds: this.#clock });
    })();
  }

  on(listener: (event: CallProgress) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  answered(): Promise<AnswerResult> {
    return this.#answer;
  }

  ended(): Promise<HangupEvent> {
    return this.#end;
  }

  connectedSeconds(): number {
    return this.#answeredAtClock === null ? 0 : Math.round((this.#clock - this.#answeredAtClock) * 1000) / 1000;
  }

  async say(text: string): Promise<SayResult> {
    if (this.#closed || this.#answeredAtClock === null) return { interrupted: false, spokenSeconds: 0 };
    const seconds = this.#talkSeconds(text);
    this.#turns.push({ speaker: "agent", text, at: this.connectedSeconds(), seconds });
    this.#lastAgentText = text;
    await this.#sleep(seconds);
    return { interrupted: false, spokenSeconds: seconds };
  }

  async listen(options: ListenOptions): Promise<Utterance | null> {
    if (this.#closed || this.#answeredAtClock === null) return null;
    if (this.#customer.pickup === "voicemail") return this.#listenToMachine(options);
    const reply = this.#customer.reply(this.#lastAgentText, this.#customerTurn++);
    const think = Math.max(0, reply.thinkSeconds);
    if (reply.digits) {
      await this.#sleep(think + 0.3 * reply.digits.length); // a key press is a short tone
      if (this.#closed) return null;
      return {
        text: "",
        digits: reply.digits,
        at: this.connectedSeconds(),
        durationSeconds: 0.3 * reply.digits.length,
        confidence: 1,
      };
    }
    if (reply.text === null || think > options.timeoutSeconds) {
      await this.#sleep(Math.min(think, options.timeoutSeconds));
      if (reply.hangup) this.#close("customer");
      return null;
    }
    await this.#sleep(think);
    if (this.#closed) return null;
    const at = this.connectedSeconds();
    const seconds = this.#talkSeconds(reply.text);
    this.#turns.push({ speaker: "customer", text: reply.text, at, seconds });
    await this.#sleep(seconds);
    if (reply.hangup) this.#close("customer");
    return { text: reply.text, at, durationSeconds: seconds, confidence: 0.9 };
  }

  // A voicemail box plays its greeting and a beep once, then records whatever is said until we hang up; a
  // carrier announcement plays once and the carrier closes the line.
  async #listenToMachine(options: ListenOptions): Promise<Utterance | null> {
    if (this.#greeted) {
      const closes = this.#customer.announcement?.closesLine === true;
      await this.#sleep(closes ? Math.min(2, options.timeoutSeconds) : options.timeoutSeconds);
      if (closes) this.#close("carrier"); // the announcement was played; the carrier drops the line
      return null;
    }
    this.#greeted = true;
    const announcement = this.#customer.announcement;
    const text = announcement?.text ?? VOICEMAIL_GREETING[this.#request.language];
    const at = this.connectedSeconds();
    const beep = announcement?.closesLine ? 0 : 1;
    const seconds = this.#talkSeconds(text) + beep;
    this.#turns.push({ speaker: "customer", text, at, seconds: seconds - beep });
    await this.#sleep(seconds);
    return { text, at, durationSeconds: seconds, confidence: 1 };
  }

  /** Issue 34: the shop's simulated person (simulator/transfer.ts); the bridged conversation ends the line. */
  async transfer(request: TransferRequest): Promise<TransferOutcome> {
    // The simulated line dials once the agent's put-through line is said.
    await request.spoken?.catch(() => {});
    const behaviour = behaviourFor(this.#request.to);
    const handoff = (Object.values(HANDOFF_NUMBER_BEHAVIOURS) as string[]).includes(behaviour)
      ? (behaviour as (typeof HANDOFF_NUMBER_BEHAVIOURS)[string])
      : null;
    const outcome = await simulateTransfer(
      {
        sleep: (s) => this.#sleep(s),
        connectedSeconds: () => this.connectedSeconds(),
        talkSeconds: (t) => this.#talkSeconds(t),
        closed: () => this.#closed,
      },
      handoff,
      this.#request.language,
      request,
    );
    for (const t of outcome.bridgedTurns ?? []) this.#turns.push({ ...t, seconds: this.#talkSeconds(t.text) });
    if (outcome.status === "bridged") this.#close("customer");
    return outcome;
  }

  async hangup(): Promise<void> {
    if (this.#closed) return;
    if (!this.#settled) {
      this.#closed = true;
      this.#settle({ type: "canceled", seconds: this.#clock });
      this.#wakeAll();
      return;
    }
    this.#close("agent");
  }

  recording(): Promise<CallRecording | null> {
    this.#recording ??= this.#answeredAtClock === null ? Promise.resolve(null) : this.#render();
    return this.#recording;
  }

  // The conversation on a telephone-quality timeline as long as the connected time: each turn is spoken by
  // the synthesiser at the second it was said, or stands as a tone of its real length without one.
  async #render(): Promise<CallRecording> {
    const duration = Math.max(1, Math.ceil(this.connectedSeconds()));
    const timeline = new Timeline(duration);
    const locale = speechLocale(this.#request.language, this.#request.dialect);
    for (const turn of this.#turns) {
      await new Promise((resolve) => setImmediate(resolve)); // a turn at a time: 500 calls share this event loop
      const spoken = this.#options.speech ? await this.#synthesize(turn.text, locale) : null;
      if (spoken) timeline.place(turn.at, spoken.samples, spoken.sampleRate);
      else timeline.place(turn.at, tone(turn.speaker === "agent" ? AGENT_TONE_HZ : CUSTOMER_TONE_HZ, turn.seconds));
      if (
        this.#customer.pickup === "voicemail" &&
        !this.#customer.announcement?.closesLine &&
        turn.speaker === "customer"
      ) {
        timeline.place(turn.at + turn.seconds, tone(BEEP_HZ, 0.5));
      }
    }
    return { contentType: "audio/wav", bytes: timeline.toWav() };
  }

  async #synthesize(text: string, locale: string) {
    try {
      return await this.#options.speech!.synthesize(text, { locale, sampleRate: RECORDING_SAMPLE_RATE });
    } catch (err) {
      this.#options.onError?.("speech synthesis failed for a recording; using a tone for the turn", err);
      return null;
    }
  }

  #talkSeconds(text: string): number {
    return Math.round((countWords(text) * this.#options.secondsPerWord + 0.3) * 10) / 10;
  }

  #settle(result: AnswerResult): void {
    if (this.#settled) return;
    this.#settled = true;
    if (result.type !== "answered") this.#closed = true;
    this.#emit(result);
    this.#settleAnswer(result);
  }

  #close(by: HangupCause): void {
    if (this.#closed) return;
    this.#closed = true;
    const event: HangupEvent = { type: "hangup", by, connectedSeconds: this.connectedSeconds(), seconds: this.#clock };
    this.#emit(event);
    this.#settleEnd(event);
    this.#wakeAll();
  }

  #emit(event: CallProgress): void {
    for (const listener of this.#listeners) listener(event);
  }

  // Advances the simulated clock by `seconds`, waiting seconds / speed of wall time (cut short if the line closes).
  async #sleep(seconds: number): Promise<void> {
    if (seconds <= 0) return;
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, (seconds * 1000) / this.#options.speed);
      this.#wakers.add(wake);
    });
    const elapsed = ((performance.now() - started) / 1000) * this.#options.speed;
    this.#clock = Math.round((this.#clock + (this.#closed ? Math.min(seconds, elapsed) : seconds)) * 1000) / 1000;
  }

  #wakeAll(): void {
    for (const wake of [...this.#wakers]) wake();
  }
}
