// What the two text carriers share (Twilio ConversationRelay, jambonz): a CallSession driven by the
// carrier's signed callbacks (call progress, answering-machine verdict, recording) and by one WebSocket that
// carries recognised text in and text to speak out. The carrier adapters only translate their wire format
// into the calls below; the inbound routes find a live session in CarrierLines by our call id.
//
// Time: a carrier's clock is the wall clock. `speed` > 1 compresses it for the local fakes only
// (WAKHA_CARRIER_TIME_SCALE), the way WAKHA_SIMULATOR_SPEED does for the simulator.
import { setTimeout as delay } from "node:timers/promises";
import type { CarrierControl, TextChannel } from "./carrier-control.ts";
import type {
  AnsweredBy,
  AnswerResult,
  CallProgress,
  CallRecording,
  CallSession,
  HangupEvent,
  ListenOptions,
  SayOptions,
  SayResult,
  CarrierRecording,
  TransferOutcome,
  TransferRequest,
  Utterance,
} from "./provider.ts";

export {
  CarrierRefusedError,
  CarrierUnavailableError,
  type CarrierControl,
  type TextChannel,
} from "./carrier-control.ts";

/** Seconds of speech per word when the carrier does not report playback (150 words a minute), as the dialer budgets. */
const SECONDS_PER_WORD = 0.4;
/** How long hangup() waits for the carrier's final callback before settling on our own clock (wall seconds). */
const FINAL_CALLBACK_WAIT_MS = 10_000;
/** How long recording() waits for the recording callback after the call ended (wall seconds). */
const RECORDING_WAIT_MS = 60_000;

export function spokenSeconds(text: string): number {
  return text.split(/\s+/).filter(Boolean).length * SECONDS_PER_WORD + 0.3;
}

/** Rank of a progress callback: anything at or below the current rank is a duplicate or out of order. */
export type CarrierStatus = "initiated" | "ringing" | "answered" | "ended";
const RANK: Record<CarrierStatus, number> = { initiated: 0, ringing: 1, answered: 2, ended: 3 };

export interface TextSessionOptions {
  providerCallId: string;
  callId: string;
  locale: string;
  control: CarrierControl;
  /** Wall-clock compression for the fakes; 1 in production. */
  speed: number;
  /** Whether an answering-machine verdict will come (Twilio AsyncAmd); otherwise an answer is a human. */
  expectMachineVerdict: boolean;
  /**
   * Carrier seconds a dropped WebSocket may take to come back (jambonz reconnects and sends
   * session:reconnect); 0 when the carrier ends the call on a drop (ConversationRelay, error 64105).
   */
  reconnectSeconds?: number;
  /**
   * Carrier seconds after which a call that neither answered nor failed is given up (its callbacks are not
   * reaching this node): it is ended at the carrier and settles as failed, `carrier_no_response`.
   */
  answerDeadlineSeconds?: number;
  /** Where the recording of a connected call is, known without a callback (jambonz's recent-calls API). */
  recordingAtEnd?: () => string;
  /** The number the call shows (its caller id): a transfer dials the person with it unless told otherwise. */
  callerNumber?: string;
  onError?: (message: string, err?: unknown) => void;
  /** Called once the session needs no more callbacks (ended and its recording settled). */
  onFinished?: () => void;
}

export class TextCarrierSession implements CallSession {
  readonly providerCallId: string;
  readonly callId: string;
  /** The call's speech locale (ar-MA, ar-DZ, ar-TN, fr-FR). */
  readonly locale: string;
  /** Both text carriers report keypresses (ConversationRelay `dtmf`, jambonz gather `digits`). */
  readonly carriesDigits = true;
  readonly #o: TextSessionOptions;
  readonly #listeners = new Set<(event: CallProgress) => void>();
  readonly #answer: Promise<AnswerResult>;
  #settleAnswer!: (r: AnswerResult) => void;
  readonly #end: Promise<HangupEvent>;
  #settleEnd!: (e: HangupEvent) => void;
  readonly #startedAt = performance.now();
  #rank = -1;
  #answeredAt: number | null = null;
  #verdict: AnsweredBy | null = null;
  #settled = false;
  #ended = false;
  #channel: TextChannel | null = null;
  #channelSeen = false;
  #channelLost = false;
  #reconnectTimer: NodeJS.Timeout | null = null;
  #hangupRequested = false;
  #carrierSeconds: number | null = null;
  readonly #heard: Utterance[] = [];
  readonly #wakers = new Set<() => void>();
  #interrupted = false;
  #recordingLocation: string | null | undefined = undefined;
  #recordingWaiters = new Set<() => void>();
  #recording: Promise<CallRecording | CarrierRecording | null> | null = null;
  #refusedSockets = 0;
  #machine: "none" | "greeting" | "ended" = "none";
  /** Issue 34: the warm transfer under way, if any. */
  #transfer: PendingTransfer | null = null;
  /** The carrier ended our socket to transfer (ConversationRelay's `end`): a new one may attach afterwards. */
  #reattach = false;

  constructor(options: TextSessionOptions) {
    this.#o = options;
    this.providerCallId = options.providerCallId;
    this.callId = options.callId;
    this.locale = options.locale;
    this.#answer = new Promise((resolve) => (this.#settleAnswer = resolve));
    this.#end = new Promise((resolve) => (this.#settleEnd = resolve));
    if (options.answerDeadlineSeconds) {
      const deadline = setTimeout(() => void this.#giveUp(), (options.answerDeadlineSeconds * 1000) / options.speed);
      deadline.unref();
      void this.#answer.then(() => clearTimeout(deadline));
    }
  }

  // Never a call live forever: no progress from the carrier at all means its callbacks do not reach us.
  async #giveUp(): Promise<void> {
    if (this.#settled || this.#answeredAt !== null) return;
    this.#o.onError?.(`call ${this.callId}: no answer nor failure from the carrier in time; ending it`);
    await this.#o.control.hangup(this.providerCallId, false).catch(() => {});
    if (this.#settled || this.#answeredAt !== null) return;
    this.#rank = RANK.ended;
    this.#endUnanswered({ type: "failed", reason: "carrier_no_response", seconds: this.#elapsed() });
  }

  // ---- CallSession (the dialer's side) ----

  get closed(): boolean {
    return this.#ended || this.#channelLost || (this.#settled && this.#answeredAt === null);
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
    if (this.#carrierSeconds !== null) return this.#carrierSeconds;
    if (this.#answeredAt === null) return 0;
    return Math.round(((performance.now() - this.#answeredAt) / 1000) * this.#o.speed * 1000) / 1000;
  }

  async say(text: string, options: SayOptions = {}): Promise<SayResult> {
    if (this.closed || this.#answeredAt === null || !text) return { interrupted: false, spokenSeconds: 0 };
    if (!this.#channel && !(await this.#waitFor(() => this.#channel !== null || this.closed, 5)))
      return { interrupted: false, spokenSeconds: 0 };
    if (!this.#channel || this.closed) return { interrupted: false, spokenSeconds: 0 };
    this.#interrupted = false;
    const started = this.connectedSeconds();
    const machineBefore = this.#machine;
    this.#channel.speak(text, {
      locale: options.locale ?? this.#o.locale,
      interruptible: options.interruptible ?? true,
    });
    // The carrier does not report the end of playback: wait the speaking time unless the customer cuts in, has
    // already answered (ConversationRelay sends a prompt only once the caller has finished speaking, and queues our
    // next tokens itself: the answer is not held on our estimate of the playback, issue 30.7), or a machine is
    // reported (the dialogue stops talking to it). A line that may not be interrupted (the voicemail message) is
    // waited out whatever is heard: a hang-up right after it must not cut it.
    const heardBefore = this.#heard.length;
    const mayCut = options.interruptible !== false;
    await this.#waitFor(
      () =>
        this.#interrupted ||
        this.closed ||
        (mayCut && this.#heard.length > heardBefore) ||
        this.#machine !== machineBefore,
      spokenSeconds(text),
    );
    return { interrupted: this.#interrupted, spokenSeconds: Math.max(0, this.connectedSeconds() - started) };
  }

  async listen(options: ListenOptions): Promise<Utterance | null> {
    if (this.#answeredAt === null) return null;
    const machineBefore = this.#machine;
    await this.#waitFor(
      () => this.#heard.length > 0 || this.closed || this.#machine !== machineBefore,
      options.timeoutSeconds,
    );
    return this.#heard.shift() ?? null;
  }

  async hangup(): Promise<void> {
    if (this.#ended || (this.#settled && this.#answeredAt === null)) return;
    this.#hangupRequested = true;
    const answered = this.#answeredAt !== null;
    // During a transfer the carrier runs the dial, not our socket: the carrier's REST API ends the call (both legs).
    // The conference pattern: the person's leg is a call of its own, ended through the REST API with the customer's.
    const t = this.#transfer;
    let person: Promise<void> | null = null;
    if (t?.personLeg && !t.personEnded) {
      t.personEnded = true;
      person = this.#o.control
        .hangup(t.personLeg, t.answeredAt !== null)
        .catch((err) => this.#o.onError?.(`call ${this.callId}: the carrier refused the handoff leg's hang-up`, err));
    }
    if (answered && this.#channel && !this.#channelLost && !this.#transferring()) this.#channel.end();
    else {
      await this.#o.control
        .hangup(this.providerCallId, answered)
        .catch((err) => this.#o.onError?.(`call ${this.callId}: the carrier refused the hang-up`, err));
    }
    await person;
    const settledInTime = await Promise.race([
      (answered ? this.#end : this.#answer).then(() => true),
      delay(FINAL_CALLBACK_WAIT_MS, false, { ref: false }),
    ]);
    if (settledInTime) return;
    // No final callback: end it on the carrier again (best effort) and settle on our own clock.
    if (answered) await this.#o.control.hangup(this.providerCallId, true).catch(() => {});
    if (answered) this.#finish(this.connectedSeconds());
    else this.#settle({ type: "canceled", seconds: this.#elapsed() });
  }

  /** Where the carrier's recording is (the dialer has it downloaded into the store). */
  recording(): Promise<CallRecording | CarrierRecording | null> {
    this.#recording ??= this.#fetchRecording();
    return this.#recording;
  }

  lineFailure(): string | null {
    return this.#refusedSockets > 0 && !this.#channelSeen ? "carrier_auth_failed" : null;
  }

  /**
   * Issue 34: a warm transfer as a conference (CarrierControl.dialPerson, then TextChannel.transfer or
   * joinConference). Resolves once it ended: not taken (busy, no_answer, failed; the person hanging up during the
   * brief is no_answer), or bridged and over (the line is then closed, or closing). Never throws.
   */
  async transfer(request: TransferRequest): Promise<TransferOutcome> {
    const none = { answeredAtSeconds: null, bridgedSeconds: 0 };
    const channel = this.#channel;
    const from = request.from ?? this.#o.callerNumber;
    const control = this.#o.control;
    // The conference pattern: the person dialled at once through the REST API, and a way to move the customer into the
    // conference afterwards (the socket's own hand-over, or the REST update of the live call).
    const canJoin = channel?.transfer !== undefined || control.joinConference !== undefined;
    if (
      this.closed ||
      this.#answeredAt === null ||
      !channel ||
      !control.dialPerson ||
      !canJoin ||
      !from ||
      this.#transfer
    )
      return { status: "failed", ...none };
    let settle!: (outcome: TransferOutcome) => void;
    const settled = new Promise<TransferOutcome>((resolve) => (settle = resolve));
    const { spoken, ...asked } = request;
    const pending: PendingTransfer = {
      request: { ...asked, from },
      spoken: spoken ?? Promise.resolve(),
      personLeg: null,
      personEnded: false,
      ringingAt: null,
      answeredAt: null,
      bridgedAt: null,
      done: false,
      settle,
    };
    this.#transfer = pending;
    // Dial the person now: their phone rings while the agent says its put-through line to the customer.
    try {
      pending.personLeg = await control.dialPerson(this.callId, pending.request);
    } catch (err) {
      this.#o.onError?.(`call ${this.callId}: the carrier refused to dial the handoff number`, err);
      this.#settleTransfer(pending, { status: "failed", ...none });
    }
    // Nothing from the carrier long after the ring timeout, before anyone answered: the dial is lost.
    const deadline = setTimeout(
      () => {
        if (pending.answeredAt === null) this.#settleTransfer(pending, { status: "failed", ...none });
      },
      ((request.ringTimeoutSeconds + 60) * 1000) / this.#o.speed,
    );
    deadline.unref();
    const ended = this.#end.then((): TransferOutcome => {
      // The call ended during the transfer (someone hung up, or the dialer cut it): bridged if the brief was over.
      const bridgedAt = pending.bridgedAt;
      if (bridgedAt === null || this.connectedSeconds() <= bridgedAt)
        return { status: "failed", answeredAtSeconds: pending.answeredAt, bridgedSeconds: 0 };
      return {
        status: "bridged",
        answeredAtSeconds: pending.answeredAt,
        bridgedSeconds: Math.max(0, Math.round(this.connectedSeconds() - bridgedAt)),
      };
    });
    const outcome = await Promise.race([settled, ended]);
    clearTimeout(deadline);
    pending.done = true;
    // A person leg still up once the transfer is decided without them (the customer hung up while it rang, or it was
    // lost): end it on the carrier.
    if (pending.personLeg && !pending.personEnded && outcome.status !== "bridged") {
      pending.personEnded = true;
      await control
        .hangup(pending.personLeg, pending.answeredAt !== null)
        .catch((err) => this.#o.onError?.(`call ${this.callId}: the handoff leg could not be ended`, err));
    }
    this.#reattach = false;
    return outcome;
  }

  /**
   * Whether a callback with `sid` is the person's leg of the transfer running (the conference pattern): its sid once
   * the carrier returned it, any sid while the dial request is still on its way (the carrier's first callbacks may
   * come before its answer).
   */
  isTransferLeg(sid: string | undefined): boolean {
    const t = this.#transfer;
    if (!t || !sid) return false;
    return t.personLeg === null ? !t.done : t.personLeg === sid;
  }

  /** True when the person heard the brief and waits in the transfer's conference for the customer. */
  conferenceReady(): boolean {
    const t = this.#transfer;
    return t !== null && !t.done && t.bridgedAt !== null;
  }

  /** The person's phone rings (their leg's `ringing` status; noted on the transfer); false when nothing changed. */
  transferRinging(): boolean {
    const t = this.#transfer;
    if (!t || t.done || t.ringingAt !== null) return false;
    t.ringingAt = this.connectedSeconds();
    return true;
  }

  /** The person picked up: the brief is played to them only. The transfer, or null when none runs. */
  transferAnswered(): (TransferRequest & { from: string }) | null {
    const t = this.#transfer;
    if (!t || t.done) return null;
    t.answeredAt ??= this.connectedSeconds();
    return t.request;
  }

  /** The person heard the whole brief and is bridged with the customer; false when nothing changed. */
  transferBridged(): boolean {
    const t = this.#transfer;
    if (!t || t.done || t.answeredAt === null || t.bridgedAt !== null) return false;
    t.bridgedAt = this.connectedSeconds();
    // The person waits in the conference; the customer joins once the agent's line is said.
    void this.#joinConference(t);
    return true;
  }

  async #joinConference(t: PendingTransfer): Promise<void> {
    await t.spoken.catch(() => {});
    if (t.done || this.#ended) return;
    const channel = this.#channel;
    if (channel?.transfer) return channel.transfer(t.request);
    await this.#o.control.joinConference?.(this.providerCallId, this.callId).catch((err) => {
      this.#o.onError?.(`call ${this.callId}: the customer could not be put into the conference`, err);
    });
  }

  /**
   * The dial ended with the carrier's status (Twilio DialCallStatus, jambonz dial_call_status: completed, busy,
   * no-answer, failed, canceled) and the dialled leg's seconds; false when no transfer was running.
   */
  transferEnded(status: string, legSeconds: number | null): TransferOutcome["status"] | null {
    const t = this.#transfer;
    if (!t || t.done) return null;
    t.personEnded = true;
    const seconds = legSeconds !== null && Number.isFinite(legSeconds) && legSeconds >= 0 ? legSeconds : null;
    const none = { answeredAtSeconds: t.answeredAt, bridgedSeconds: 0 };
    let outcome: TransferOutcome;
    if (status === "completed") {
      // The person leg's seconds: the carrier's when its status reports them (it may not), else our clock's since the
      // person answered.
      const leg = seconds ?? (t.answeredAt !== null ? this.connectedSeconds() - t.answeredAt : null);
      if (t.answeredAt === null) t.answeredAt = Math.max(0, this.connectedSeconds() - (leg ?? 0));
      const whisper = t.bridgedAt !== null ? t.bridgedAt - t.answeredAt : spokenSeconds(t.request.whisper);
      const bridged = t.bridgedAt !== null;
      const ours = this.connectedSeconds() - (t.bridgedAt ?? t.answeredAt + whisper);
      outcome = bridged
        ? {
            status: "bridged",
            answeredAtSeconds: t.answeredAt,
            bridgedSeconds: Math.max(0, Math.round(leg === null ? ours : leg - whisper)),
          }
        : // Answered, but gone before the end of the brief: the person refused the transfer.
          { status: "no_answer", answeredAtSeconds: t.answeredAt, bridgedSeconds: 0 };
    } else if (status === "busy") outcome = { status: "busy", ...none };
    else if (status === "no-answer") outcome = { status: "no_answer", ...none };
    else outcome = { status: "failed", ...none };
    this.#settleTransfer(t, outcome);
    return outcome.status;
  }

  #transferring(): boolean {
    return this.#transfer !== null && !this.#transfer.done;
  }

  #settleTransfer(t: PendingTransfer, outcome: TransferOutcome): void {
    if (t.done) return;
    t.done = true;
    t.settle(outcome);
  }

  // ---- carrier events (the adapters' side) ----

  /**
   * A socket for this call was refused for its signature or password (issue 30.6). It changes nothing while a genuine
   * socket is or was attached (a forger cannot end a live call); if none ever attaches, the call ends failed,
   * `carrier_auth_failed`, instead of reading as the customer hanging up.
   */
  socketRefused(): void {
    this.#refusedSockets++;
  }

  /** A progress callback; false when it was a duplicate or arrived after a later one (nothing changes). */
  progress(status: CarrierStatus): boolean {
    if (RANK[status] <= this.#rank) return false;
    this.#rank = RANK[status];
    if (status === "ringing") this.#emit({ type: "ringing", seconds: this.#elapsed() });
    if (status === "answered") this.#onAnswered();
    return true;
  }

  /** The answering-machine verdict (AnsweredBy); false when one was already taken. */
  machineVerdict(by: AnsweredBy): boolean {
    if (this.#verdict !== null) return false;
    this.#verdict = by;
    if (by === "machine") this.#machine = "ended";
    if (this.#answeredAt !== null) this.#settle({ type: "answered", by, seconds: this.#elapsed() });
    this.#wakeAll();
    return true;
  }

  /**
   * Twilio's AnsweredBy with asynchronous detection (issue 30.1/30.2). The call already talks (answered() settled on
   * the answer as a human): `human`, `unknown` change nothing; `machine_start` stops the dialogue until the greeting
   * ends; `machine_end_beep|silence|other` (DetectMessageEnd) say it has ended, the moment to leave the message;
   * `fax` is a machine that will not take one. False when nothing changed (a duplicate, or out of order).
   */
  answeredByVerdict(value: string): boolean {
    if (value.startsWith("machine_end_") || value === "fax") {
      if (this.#machine === "ended") return false;
      this.#machine = "ended";
    } else if (value === "machine_start") {
      if (this.#machine !== "none") return false;
      this.#machine = "greeting";
    } else {
      if (this.#verdict !== null || this.#machine !== "none") return false;
      this.#verdict = "human";
      return true;
    }
    this.#verdict = "machine";
    // Before the answer callback (it can come second): the answer settles as a machine.
    if (this.#answeredAt !== null) this.#settle({ type: "answered", by: "machine", seconds: this.#elapsed() });
    this.#wakeAll();
    return true;
  }

  answeringMachine(): "none" | "greeting" | "ended" {
    return this.#machine;
  }

  async machineGreetingEnded(seconds: number): Promise<boolean> {
    return this.#waitFor(() => this.#machine === "ended" || this.closed, seconds).then(() => this.#machine === "ended");
  }

  /** A terminal callback for a call that never connected. */
  unanswered(type: "busy" | "no_answer" | "failed" | "canceled", reason: string = type): boolean {
    if (this.#rank >= RANK.ended) return false;
    this.#rank = RANK.ended;
    this.#endUnanswered(
      type === "failed" ? { type, reason, seconds: this.#elapsed() } : { type, seconds: this.#elapsed() },
    );
    return true;
  }

  /** The terminal callback of a call that connected: the carrier's own connected seconds. */
  completed(carrierSeconds: number): boolean {
    if (this.#rank >= RANK.ended) return false;
    // A duration that is not a number (NaN from a garbled field, 1e999 read as Infinity) is not the carrier's word.
    if (!Number.isFinite(carrierSeconds)) carrierSeconds = this.connectedSeconds();
    this.#rank = RANK.ended;
    if (this.#answeredAt === null) {
      // Completed without an answer callback we saw: take the carrier's word that it connected, if it says so.
      if (carrierSeconds <= 0) {
        this.#endUnanswered({ type: this.#hangupRequested ? "canceled" : "no_answer", seconds: this.#elapsed() });
        return true;
      }
      this.#answeredAt = performance.now();
      this.#settle({ type: "answered", by: this.#verdict ?? "human", seconds: this.#elapsed() });
    }
    this.#finish(carrierSeconds);
    return true;
  }

  /** The WebSocket opened for this call; false when one is already attached or the call is over (refuse it). */
  attach(channel: TextChannel): boolean {
    if (this.#ended || this.#channelLost || this.#channel) return false;
    // A second socket is only a carrier's reconnection after a drop, never a newcomer while one is open.
    if (this.#channelSeen && this.#reconnectTimer === null && !this.#reattach) return false;
    this.#reattach = false;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = null;
    this.#channelSeen = true;
    this.#channel = channel;
    this.#wakeAll();
    return true;
  }

  /** A final transcript of the customer's words. */
  heard(text: string, confidence?: number): void {
    if (this.#ended || !text.trim()) return;
    const duration = spokenSeconds(text);
    const at = Math.max(0, this.connectedSeconds() - duration);
    this.#heard.push({ text, at, durationSeconds: duration, ...(confidence === undefined ? {} : { confidence }) });
    this.#wakeAll();
  }

  /** A keypad digit (DTMF) the customer pressed: listen() reports it as an utterance with `digits`. */
  digit(digit: string): void {
    if (this.#ended || !/^[0-9*#]$/.test(digit)) return;
    this.#heard.push({ text: "", digits: digit, at: this.connectedSeconds(), durationSeconds: 0 });
    this.#wakeAll();
  }

  /** The customer talked over our speech (barge-in). */
  interrupted(): void {
    this.#interrupted = true;
    this.#wakeAll();
  }

  /** The WebSocket closed. Both carriers end the call then (the final callback brings the seconds). */
  channelClosed(channel?: TextChannel): void {
    if (this.#channelLost || !this.#channel || (channel && channel !== this.#channel)) return;
    this.#channel = null;
    // ConversationRelay ends its session to hand the call over (issue 34): the call goes on at the carrier.
    if (this.#transfer && !this.#transfer.done && !this.#ended) {
      this.#reattach = true;
      this.#wakeAll();
      return;
    }
    const grace = this.#o.reconnectSeconds ?? 0;
    if (grace > 0 && !this.#ended) {
      this.#reconnectTimer = setTimeout(() => this.#lose(), (grace * 1000) / this.#o.speed);
      this.#reconnectTimer.unref();
      return;
    }
    this.#lose();
  }

  #lose(): void {
    this.#reconnectTimer = null;
    if (this.#channelLost) return;
    this.#channelLost = true;
    this.#wakeAll();
    if (this.#ended) return;
    void (async () => {
      // Without a final callback in time, end the call on the carrier ourselves and bill our own clock.
      const done = await Promise.race([
        this.#end.then(() => true),
        delay(FINAL_CALLBACK_WAIT_MS, false, { ref: false }),
      ]);
      if (done || this.#ended) return;
      await this.#o.control.hangup(this.providerCallId, true).catch(() => {});
      this.#finish(this.connectedSeconds());
    })();
  }

  /** Where the finished recording can be fetched (null: the carrier made none). */
  recordingReady(location: string | null): boolean {
    if (this.#recordingLocation !== undefined) return false;
    this.#settleRecording(location);
    return true;
  }

  // ---- internals ----

  #endUnanswered(result: Exclude<AnswerResult, { type: "answered" }>): void {
    this.#settle(result);
    this.#ended = true;
    this.#wakeAll();
    this.#settleRecording(null);
  }

  #onAnswered(): void {
    if (this.#answeredAt !== null) return;
    this.#answeredAt = performance.now();
    // The call talks at once (issue 30.1): asynchronous detection runs while the greeting plays, and a machine
    // verdict that comes later stops the dialogue (answeringMachine()). Only one known already decides the answer.
    this.#settle({ type: "answered", by: this.#verdict ?? "human", seconds: this.#elapsed() });
  }

  #finish(carrierSeconds: number): void {
    if (this.#ended) return;
    this.#carrierSeconds = Math.max(0, carrierSeconds);
    this.#ended = true;
    const by = this.#hangupRequested ? "agent" : this.#channelLost ? "carrier" : "customer";
    const event: HangupEvent = { type: "hangup", by, connectedSeconds: this.#carrierSeconds, seconds: this.#elapsed() };
    this.#emit(event);
    this.#settleEnd(event);
    this.#wakeAll();
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    if (this.#o.recordingAtEnd) this.#settleRecording(this.#o.recordingAtEnd());
    // A recording is announced after the call ends; give up on it after a while.
    else setTimeout(() => this.#settleRecording(null), RECORDING_WAIT_MS).unref();
  }

  #settle(result: AnswerResult): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#emit(result);
    this.#settleAnswer(result);
  }

  #settleRecording(location: string | null): void {
    if (this.#recordingLocation !== undefined) return;
    this.#recordingLocation = location;
    for (const wake of this.#recordingWaiters) wake();
    this.#recordingWaiters.clear();
    this.#o.onFinished?.();
  }

  async #fetchRecording(): Promise<CallRecording | CarrierRecording | null> {
    if (this.#answeredAt === null) return null;
    if (this.#recordingLocation === undefined)
      await new Promise<void>((resolve) => this.#recordingWaiters.add(resolve));
    if (!this.#recordingLocation) return null;
    return { source: this.#o.control.recordingSource(this.#recordingLocation) };
  }

  #elapsed(): number {
    return Math.round(((performance.now() - this.#startedAt) / 1000) * this.#o.speed * 1000) / 1000;
  }

  #emit(event: CallProgress): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (err) {
        this.#o.onError?.(`call ${this.callId}: a progress listener failed`, err);
      }
    }
  }

  /** Waits until `done()` or `seconds` of carrier time pass; true when `done()` became true. */
  async #waitFor(done: () => boolean, seconds: number): Promise<boolean> {
    if (done()) return true;
    await new Promise<void>((resolve) => {
      const wake = () => {
        if (!done() && timer) return;
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer: NodeJS.Timeout = setTimeout(
        () => {
          this.#wakers.delete(wake);
          resolve();
        },
        (seconds * 1000) / this.#o.speed,
      );
      this.#wakers.add(wake);
    });
    return done();
  }

  #wakeAll(): void {
    for (const wake of [...this.#wakers]) wake();
  }
}

interface PendingTransfer {
  request: TransferRequest & { from: string };
  /** The agent's put-through line (TransferRequest.spoken). */
  spoken: Promise<unknown>;
  /** That call's id once the carrier returned it; whether it has ended. */
  personLeg: string | null;
  personEnded: boolean;
  /** connectedSeconds() when the person's phone rang, picked up, and was bridged after the brief. */
  ringingAt: number | null;
  answeredAt: number | null;
  bridgedAt: number | null;
  done: boolean;
  settle(outcome: TransferOutcome): void;
}

/**
 * The live text-carrier sessions of one node, by our call id: the inbound routes deliver callbacks and
 * WebSocket messages to them. A callback for a call that is not here (another node's, or a node that
 * restarted) is recorded in the database by the route instead (calls.carrier_seconds, for the sweep).
 */
export class CarrierLines {
  readonly #sessions = new Map<string, TextCarrierSession>();

  add(session: TextCarrierSession): void {
    this.#sessions.set(session.callId, session);
  }

  get(callId: string): TextCarrierSession | undefined {
    return this.#sessions.get(callId);
  }

  remove(session: TextCarrierSession): void {
    if (this.#sessions.get(session.callId) === session) this.#sessions.delete(session.callId);
  }

  get size(): number {
    return this.#sessions.size;
  }
}
