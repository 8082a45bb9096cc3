// The telephony provider interface: what the dialer needs from a carrier, written against the documented
// models of the carriers we target, so each real provider is an adapter and the dialer never changes.
//
// Two kinds of carrier sit behind it (DESIGN.md):
// - Text carriers do speech themselves. Twilio Programmable Voice with ConversationRelay: the call is created
//   with the REST Calls API (StatusCallback events queued, ringing, in-progress, completed, busy, no-answer,
//   failed, canceled; AnsweredBy human / machine_start / machine_end_* / fax / unknown with MachineDetection),
//   then a WebSocket carries `setup` (call started), `prompt` {voicePrompt, last} (recognised caller speech),
//   `interrupt` {utteranceUntilInterrupt, durationUntilInterruptMs} (the caller talked over our speech) to us,
//   and `text` {token, last} (words to speak) and `end` (hang up) from us. A session maps one to one:
//   say() sends text tokens, listen() waits for the next final prompt, hangup() sends `end`.
// - Audio carriers move sound only: Twilio Media Streams (`media` frames of base64 8 kHz mu-law, `mark`,
//   `clear`, `stop`) or a SIP trunk to a GSM gateway (RTP, G.711). Such a provider implements AudioCallLeg
//   below and is paired with a SpeechProvider (src/engine/speech/provider.ts) that turns text into audio
//   and audio into text; the pair is then exposed as the same CallSession.
//
// Seconds on the carrier's clock: the simulator runs a simulated clock (WAKHA_SIMULATOR_SPEED compresses
// wall time only), a real carrier's clock is the wall clock. Billing always uses these seconds.
import type { RecordingSource } from "../../domain/recording-source.ts";
import type { Country, Language } from "../../domain/locale.ts";
import type { Dialect } from "../dialogue/types.ts";
import type { AudioFormat } from "../speech/audio-format.ts";

/** Who picked up, from answering-machine detection (Twilio AnsweredBy: human, or machine_* / fax as machine). */
export type AnsweredBy = "human" | "machine";

/** Why a line closed: the far end hung up, we did (hangup()), or the carrier dropped it. */
export type HangupCause = "customer" | "agent" | "carrier";

/**
 * Progress of one call, in order. Exactly one settling event ends the pre-answer phase (answered, busy,
 * no_answer, failed, canceled); `hangup` closes an answered call. Twilio's `queued` and `initiated` are not surfaced:
 * the dialer's own status is already `ringing` when it originates.
 */
export type CallProgress =
  | { type: "ringing"; seconds: number }
  | { type: "answered"; by: AnsweredBy; seconds: number }
  | { type: "busy"; seconds: number }
  | { type: "no_answer"; seconds: number }
  | { type: "failed"; reason: string; seconds: number }
  /** We hung up before anyone answered (Twilio `canceled`). */
  | { type: "canceled"; seconds: number }
  /** `connectedSeconds`: from answer to hang-up on the carrier's clock (what is billed). */
  | { type: "hangup"; by: HangupCause; connectedSeconds: number; seconds: number };

export type AnswerResult = Extract<CallProgress, { type: "answered" | "busy" | "no_answer" | "failed" | "canceled" }>;
export type HangupEvent = Extract<CallProgress, { type: "hangup" }>;

/** What the dialer asks the carrier to dial. */
export interface OriginateRequest {
  /** Our call id: a real provider sends it as a custom parameter, so its webhooks find the call again. */
  callId: string;
  /** E.164. */
  to: string;
  /**
   * The caller number the dialer took a line of (issue 15: a number with a limit of simultaneous calls); omitted, the
   * provider shows its configured number for the country.
   */
  from?: string;
  country: Country;
  language: Language;
  dialect: Dialect;
  /** Seconds to let it ring before giving up with no_answer (Twilio `Timeout`). */
  ringTimeoutSeconds: number;
  /** Detect answering machines (Twilio `MachineDetection=Enable`). */
  machineDetection: boolean;
  /** Carrier-side hard cap on connected seconds (Twilio `TimeLimit`); the agent closes politely before it. */
  timeLimitSeconds?: number;
  /** Record both legs (Twilio `Record=true`, dual channel). */
  record: boolean;
  /**
   * Words this call is likely to hear: the order's products, the shop's name, the amount as the agent says it. Audio
   * carriers pass them to the recogniser's phrase list (Azure); text carriers may ignore them.
   */
  phrases?: readonly string[];
}

/** The customer's recognised words (ConversationRelay `prompt` with `last: true`). */
export interface Utterance {
  /** Empty when the customer pressed keys instead of speaking (`digits`). */
  text: string;
  /** Keypad digits (DTMF) the customer pressed, on carriers that carry them (`CallSession.carriesDigits`). */
  digits?: string;
  /** 0 to 1 when the recogniser reports one. */
  confidence?: number;
  /** Seconds since answer when the customer started speaking. */
  at: number;
  /** How long the customer spoke. */
  durationSeconds: number;
}

export interface SayOptions {
  /** BCP 47 voice language, for example `ar-MA` or `fr-FR`; the session's language when omitted. */
  locale?: string;
  /** Whether the customer's speech may cut it short (ConversationRelay `interruptible`). */
  interruptible?: boolean;
}

/** How a say() went: spoken in full, or cut short by the customer (ConversationRelay `interrupt`). */
export interface SayResult {
  interrupted: boolean;
  /** Seconds of speech actually played. */
  spokenSeconds: number;
}

export interface ListenOptions {
  /** Seconds of silence after which listen() gives up with null. */
  timeoutSeconds: number;
}

/** A call's audio as the carrier or the simulator stored it. */
export interface CallRecording {
  /** For example `audio/wav` (the simulator) or `audio/mpeg` (Twilio's .mp3). */
  contentType: string;
  bytes: Uint8Array;
}

/**
 * A carrier's recording, still at the carrier: where it is and how to ask for it. The dialer has it downloaded
 * straight into the recording store by the node's recording-transfer thread (storage/recording-transfer.ts), so
 * its megabytes never pass through the thread that runs the calls (they triggered the collector's full
 * collections between customers' words and the agent's answers in the carriers bench, issue 12).
 */
export interface CarrierRecording {
  source: RecordingSource;
}

/**
 * One call on the line. Every method may be called after the line closed: say() then resolves at once
 * with nothing spoken, listen() with null, hangup() does nothing.
 */
export interface CallSession {
  /** The carrier's id for the call (Twilio CallSid); internal, never shown in the API. */
  readonly providerCallId: string;
  /** Subscribes to progress events (see CallProgress); returns the unsubscribe function. */
  on(listener: (event: CallProgress) => void): () => void;
  /** Resolves with the settling event: answered (by human or machine), busy, no_answer, failed or canceled. */
  answered(): Promise<AnswerResult>;
  /** Resolves once an answered line closes, whoever closed it. Never resolves for an unanswered call. */
  ended(): Promise<HangupEvent>;
  /** True once the line is closed (or never opened). */
  readonly closed: boolean;
  /** The line carries keypad digits (DTMF), which listen() then reports as `digits`; absent means no. */
  readonly carriesDigits?: boolean;
  /** Speaks text to the customer; resolves when it has been played (or interrupted, or the line closed). */
  say(text: string, options?: SayOptions): Promise<SayResult>;
  /** The customer's next utterance; null on silence until the timeout, or when the line closed. */
  listen(options: ListenOptions): Promise<Utterance | null>;
  /** Closes the line from our side (ConversationRelay `end`, a BYE on SIP); before answer it cancels the dialling. */
  hangup(): Promise<void>;
  /** Seconds since answer on the carrier's clock (0 before answer). */
  connectedSeconds(): number;
  /** The call's audio once the line is closed; null when nothing was recorded (unanswered calls). */
  recording(): Promise<CallRecording | CarrierRecording | null>;
  /**
   * Why the line failed on the carrier's side, when the conversation could not happen for a reason of the line
   * itself: `carrier_auth_failed` when the carrier's socket for the call was refused (bad signature or password) and
   * no genuine one ever attached (issue 30.6). Null or absent: the call ends as its dialogue says.
   */
  lineFailure?(): string | null;
  /**
   * Asynchronous answering-machine detection while the call already talks (issue 30.1/30.2): `none` until a machine
   * is reported, `greeting` while its greeting plays (Twilio machine_start), `ended` once the greeting is over
   * (machine_end_beep, machine_end_silence, machine_end_other: the moment to leave a message). Absent: the carrier
   * reports the machine (if at all) through answered()'s `by`.
   */
  answeringMachine?(): "none" | "greeting" | "ended";
  /** Waits until the machine's greeting has ended (see answeringMachine), at most `seconds`; true when it did. */
  machineGreetingEnded?(seconds: number): Promise<boolean>;
  /**
   * Issue 34: a warm transfer. Dials `to` with the call's caller id while the customer waits, plays `whisper` to the
   * person only, then bridges them with the customer; resolves once the bridged conversation ended (the line is then
   * closed), or at once with why not (no_answer within the ring timeout, busy, failed; the person hanging up during the
   * whisper is no_answer). Absent: the carrier cannot transfer (the dialer treats it as `failed`).
   */
  transfer?(request: TransferRequest): Promise<TransferOutcome>;
}

export interface TransferRequest {
  /** The shop's handoff number, E.164. */
  to: string;
  /** The call's caller number; the carrier's configured one when absent. */
  from?: string;
  ringTimeoutSeconds: number;
  /** The brief the person hears before being bridged; the customer never hears it. */
  whisper: string;
  /** BCP 47 locale of the whisper. */
  whisperLocale: string;
  /**
   * The agent's put-through line being said: the transfer starts alongside it (the person's phone rings meanwhile) and
   * the customer leaves the agent only once it is said. A carrier that cannot dial alongside waits for it first.
   */
  spoken?: Promise<unknown>;
}

export interface TransferOutcome {
  status: "bridged" | "no_answer" | "busy" | "failed";
  /** connectedSeconds() of the call when the person picked up; null when nobody did. */
  answeredAtSeconds: number | null;
  /** Seconds the customer and the person were bridged. */
  bridgedSeconds: number;
  /** What was said on the bridged line, when the carrier transcribes it (the simulator does). */
  bridgedTurns?: { speaker: "agent" | "customer"; text: string; at: number }[];
  /** The simulator's person records a decision on the order (as a real person would with PUT .../resolution). */
  decision?: { value: "confirmed" | "declined" | "rescheduled" | "change_requested"; note: string };
}

/** A carrier: dials numbers and hands back live sessions. One instance serves many concurrent calls. */
export interface TelephonyProvider {
  /** Short name used in WAKHA_TELEPHONY, for example `simulator`. */
  readonly name: string;
  /** Starts dialling. Rejects only when the carrier refused the request itself (then nothing rang). */
  originate(request: OriginateRequest): Promise<CallSession>;
  /** Releases timers, sockets and child processes. */
  close(): Promise<void>;
}

// Speech owns the audio vocabulary; a carrier that moves audio speaks it (speech never imports telephony).
export type { AudioFormat } from "../speech/audio-format.ts";

/**
 * The audio side of an audio carrier (Twilio Media Streams over a WebSocket, a SIP/RTP leg through a GSM
 * gateway). It carries frames, not words: an adapter pairs it with a SpeechProvider to offer a CallSession.
 */
export interface AudioCallLeg {
  readonly providerCallId: string;
  readonly format: AudioFormat;
  on(listener: (event: CallProgress) => void): () => void;
  answered(): Promise<AnswerResult>;
  ended(): Promise<HangupEvent>;
  /** Inbound audio frames (Media Streams `media` payloads, about 20 ms each), until the line closes. */
  frames(): AsyncIterable<Uint8Array>;
  /**
   * Where the first inbound frame sits on connectedSeconds()' clock, once it has arrived (a reader on a busy node
   * may take it later). Absent: the session takes the clock when it reads the first frame.
   */
  inboundStartSeconds?(): number | null;
  /** Queues outbound audio; resolves when the carrier reports it played (Media Streams `mark`). */
  play(audio: Uint8Array): Promise<{ interrupted: boolean }>;
  /** Drops queued outbound audio at once, for barge-in (Media Streams `clear`). */
  clear(): void;
  /** The line reports keypad digits (Media Streams `dtmf`); onDigit() then delivers them. */
  readonly carriesDigits?: boolean;
  /** Subscribes to keypad digits; returns the unsubscribe function. */
  onDigit?(listener: (digit: string) => void): () => void;
  /** True once the line is closed (or never opened). */
  readonly closed: boolean;
  hangup(): Promise<void>;
  connectedSeconds(): number;
  recording(): Promise<CallRecording | CarrierRecording | null>;
  /** Asynchronous answering-machine detection, as CallSession.answeringMachine (issue 30.1/30.2). */
  answeringMachine?(): "none" | "greeting" | "ended";
  /** As CallSession.lineFailure (issue 30.6). */
  lineFailure?(): string | null;
  machineGreetingEnded?(seconds: number): Promise<boolean>;
  /** Issue 34: a warm transfer on the carrier (CallSession.transfer); absent when the carrier cannot transfer. */
  transfer?(request: TransferRequest): Promise<TransferOutcome>;
}

/** An audio carrier: dials and returns the audio leg. */
export interface AudioTelephonyProvider {
  readonly name: string;
  originate(request: OriginateRequest): Promise<AudioCallLeg>;
  close(): Promise<void>;
}

/** The BCP 47 locale a call's speech uses: the dialect's for Arabic (ar-MA, ar-DZ, ar-TN), fr-FR for French. */
export function speechLocale(language: Language, dialect: Dialect): string {
  if (language === "fr") return "fr-FR";
  return dialect === "fr" ? "ar-MA" : `ar-${dialect.toUpperCase()}`;
}

/** The providers of a node, one per open channel. */
export interface Telephony {
  forChannel(channel: string): TelephonyProvider;
  close(): Promise<void>;
}
