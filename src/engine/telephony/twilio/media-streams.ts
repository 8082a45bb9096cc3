// Twilio Programmable Voice with bidirectional Media Streams as an AudioTelephonyProvider (issue 13). The call
// is created exactly as for ConversationRelay (TwilioTelephony.startCall: the same REST request, status, AMD
// and recording callbacks, the same TextCarrierSession behind the same signed routes); only its TwiML differs:
// <Connect><Stream url="wss://.../media"> opens a bidirectional stream (https://www.twilio.com/docs/voice/twiml/stream:
// "<Connect><Stream> creates a bidirectional Stream"), and this leg carries its audio.
//
// WebSocket messages (https://www.twilio.com/docs/voice/media-streams/websocket-messages):
// from Twilio `connected` {protocol, version}; `start` {sequenceNumber, streamSid, start: {streamSid, accountSid,
// callSid, tracks, customParameters, mediaFormat: {encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1}}};
// `media` {streamSid, media: {track, chunk, timestamp, payload (base64 mu-law)}}; `dtmf` {streamSid, dtmf: {track,
// digit}}; `mark` {streamSid, mark: {name}} once the audio sent before our mark has played (or was cleared);
// `stop` {streamSid, stop: {accountSid, callSid}}. To Twilio: `media` {streamSid, media: {payload}}, `mark`
// {streamSid, mark: {name}}, `clear` {streamSid} (drops the audio buffered for playback).
import twilio from "twilio";
import type { AudioFormat } from "../../speech/audio-format.ts";
import { MULAW_FRAME_BYTES } from "../../speech/mulaw.ts";
import type {
  AnswerResult,
  AudioCallLeg,
  AudioTelephonyProvider,
  CallProgress,
  CallRecording,
  HangupEvent,
  OriginateRequest,
  CarrierRecording,
  TransferOutcome,
  TransferRequest,
} from "../provider.ts";
import type { TextCarrierSession, TextChannel } from "../text-carrier.ts";
import { TwilioTelephony, type TwilioOptions, twilioPaths } from "./provider.ts";

const MULAW_8K: AudioFormat = { encoding: "mulaw", sampleRate: 8000, channels: 1 };
/** Inbound frames kept for a consumer that falls behind (60 s); older ones are dropped. */
const MAX_QUEUED_FRAMES = 3000;
/** How long play() waits for the stream to start after the answer (wall seconds, scaled by the carrier's speed). */
const STREAM_WAIT_SECONDS = 5;

/** The WebSocket as the inbound route wraps it: JSON out, and close. */
export interface MediaStreamSocket {
  send(message: object): void;
  close(): void;
}

/** One call's audio on a Media Stream; progress, AMD, hang-up and recording come from the shared TextCarrierSession. */
export class MediaStreamLeg implements AudioCallLeg {
  readonly providerCallId: string;
  readonly callId: string;
  readonly format = MULAW_8K;
  readonly carriesDigits = true;
  readonly #session: TextCarrierSession;
  readonly #speed: number;
  readonly #endCall: () => Promise<void>;
  #socket: MediaStreamSocket | null = null;
  #streamSid = "";
  #inboundStart: number | null = null;
  #streamEnded = false;
  readonly #frames: Uint8Array[] = [];
  #frameWaiter: (() => void) | null = null;
  readonly #digitListeners = new Set<(digit: string) => void>();
  readonly #marks = new Map<string, (interrupted: boolean) => void>();
  #markCount = 0;
  #streamWaiters = new Set<() => void>();
  /** Counters for the tests and the bench. */
  readonly stats = { framesIn: 0, framesOut: 0, clears: 0 };

  constructor(session: TextCarrierSession, options: { speed: number; endCall: () => Promise<void> }) {
    this.#session = session;
    this.providerCallId = session.providerCallId;
    this.callId = session.callId;
    this.#speed = options.speed;
    this.#endCall = options.endCall;
    void session.ended().then(() => this.#endStream());
    void session.answered().then((a) => a.type !== "answered" && this.#endStream());
  }

  get closed(): boolean {
    return this.#session.closed;
  }

  on(listener: (event: CallProgress) => void): () => void {
    return this.#session.on(listener);
  }

  answered(): Promise<AnswerResult> {
    return this.#session.answered();
  }

  lineFailure(): string | null {
    return this.#session.lineFailure();
  }

  /** The Media Stream's socket for this call was refused for its signature (issue 30.6; TextCarrierSession.socketRefused). */
  socketRefused(): void {
    this.#session.socketRefused();
  }

  answeringMachine(): "none" | "greeting" | "ended" {
    return this.#session.answeringMachine();
  }

  machineGreetingEnded(seconds: number): Promise<boolean> {
    return this.#session.machineGreetingEnded(seconds);
  }

  /**
   * Issue 34: the conference pattern, as on ConversationRelay (twilio/transfer.ts): the person dialled through the
   * REST API at once; once they heard the brief, the customer's live call is updated with the conference's TwiML
   * (the stream ends, the call goes on in the room).
   */
  transfer(request: TransferRequest): Promise<TransferOutcome> {
    return this.#session.transfer(request);
  }

  ended(): Promise<HangupEvent> {
    return this.#session.ended();
  }

  connectedSeconds(): number {
    return this.#session.connectedSeconds();
  }

  recording(): Promise<CallRecording | CarrierRecording | null> {
    return this.#session.recording();
  }

  inboundStartSeconds(): number | null {
    return this.#inboundStart;
  }

  hangup(): Promise<void> {
    return this.#session.hangup();
  }

  onDigit(listener: (digit: string) => void): () => void {
    this.#digitListeners.add(listener);
    return () => this.#digitListeners.delete(listener);
  }

  async *frames(): AsyncIterable<Uint8Array> {
    for (;;) {
      const frame = this.#frames.shift();
      if (frame) {
        yield frame;
        continue;
      }
      if (this.#streamEnded) return;
      await new Promise<void>((resolve) => (this.#frameWaiter = resolve));
      this.#frameWaiter = null;
    }
  }

  async play(audio: Uint8Array): Promise<{ interrupted: boolean }> {
    if (!this.#socket && !this.#streamEnded) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, (STREAM_WAIT_SECONDS * 1000) / this.#speed);
        this.#streamWaiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const socket = this.#socket;
    if (!socket || this.#streamEnded || audio.length === 0) return { interrupted: false };
    for (let at = 0; at < audio.length; at += MULAW_FRAME_BYTES) {
      socket.send({
        event: "media",
        streamSid: this.#streamSid,
        media: { payload: Buffer.from(audio.subarray(at, at + MULAW_FRAME_BYTES)).toString("base64") },
      });
      this.stats.framesOut++;
    }
    const name = `wakha-${++this.#markCount}`;
    const played = new Promise<boolean>((resolve) => this.#marks.set(name, resolve));
    socket.send({ event: "mark", streamSid: this.#streamSid, mark: { name } });
    return { interrupted: await played };
  }

  clear(): void {
    if (!this.#socket || this.#streamEnded) return;
    this.#socket.send({ event: "clear", streamSid: this.#streamSid });
    this.stats.clears++;
    // Twilio answers the marks of the dropped audio too; whatever was playing ends now, interrupted.
    for (const [name, settle] of this.#marks) {
      this.#marks.delete(name);
      settle(true);
    }
  }

  // ---- the stream (the inbound route's side) ----

  /** The `start` message: false when the stream is for another call or a stream is already attached (refuse it). */
  streamStarted(socket: MediaStreamSocket, start: { streamSid: string; callSid: string }): boolean {
    if (start.callSid !== this.providerCallId || this.#socket || this.#streamEnded) return false;
    const channel: TextChannel = {
      speak: () => {},
      // Media Streams has no hang-up message: end the call on the REST API (the final callback brings the seconds).
      end: () => void this.#endCall().catch(() => socket.close()),
    };
    if (!this.#session.attach(channel)) return false;
    this.#channel = channel;
    this.#socket = socket;
    this.#streamSid = start.streamSid;
    for (const wake of this.#streamWaiters) wake();
    this.#streamWaiters.clear();
    return true;
  }

  #channel: TextChannel | null = null;

  /** A `media` frame of the customer's audio (the inbound track). */
  media(payload: Uint8Array): void {
    if (this.#streamEnded) return;
    this.#inboundStart ??= this.connectedSeconds();
    this.stats.framesIn++;
    this.#frames.push(payload);
    if (this.#frames.length > MAX_QUEUED_FRAMES) this.#frames.shift();
    this.#frameWaiter?.();
  }

  digit(digit: string): void {
    if (!/^[0-9*#]$/.test(digit)) return;
    for (const listener of this.#digitListeners) listener(digit);
  }

  /** Twilio played (or cleared) the audio before our mark. */
  markPlayed(name: string): void {
    const settle = this.#marks.get(name);
    this.#marks.delete(name);
    settle?.(false);
  }

  /** `stop`, or the socket closed: the stream is over (the call ends with it: <Hangup/> follows). */
  streamClosed(): void {
    const channel = this.#channel;
    this.#endStream();
    if (channel) this.#session.channelClosed(channel);
  }

  #endStream(): void {
    if (this.#streamEnded) return;
    this.#streamEnded = true;
    this.#socket?.close();
    this.#socket = null;
    for (const [name, settle] of this.#marks) {
      this.#marks.delete(name);
      settle(false);
    }
    for (const wake of this.#streamWaiters) wake();
    this.#streamWaiters.clear();
    this.#frameWaiter?.();
  }
}

/** The live Media Streams legs of a node, by our call id (the inbound media route finds them here). */
export class MediaStreamLines {
  readonly #legs = new Map<string, MediaStreamLeg>();
  add(leg: MediaStreamLeg): void {
    this.#legs.set(leg.callId, leg);
  }
  get(callId: string): MediaStreamLeg | undefined {
    return this.#legs.get(callId);
  }
  remove(leg: MediaStreamLeg): void {
    if (this.#legs.get(leg.callId) === leg) this.#legs.delete(leg.callId);
  }
  get size(): number {
    return this.#legs.size;
  }
}

export interface TwilioMediaOptions extends TwilioOptions {
  media: MediaStreamLines;
}

export class TwilioMediaStreams implements AudioTelephonyProvider {
  readonly name = "twilio-media";
  readonly #o: TwilioMediaOptions;
  readonly #twilio: TwilioTelephony;

  constructor(options: TwilioMediaOptions) {
    this.#o = { ...options, publicUrl: options.publicUrl.replace(/\/+$/, "") };
    this.#twilio = new TwilioTelephony(options);
  }

  /** <Connect><Stream> to our media WebSocket; when the stream ends, <Hangup/>. */
  twiml(request: OriginateRequest): string {
    const response = new twilio.twiml.VoiceResponse();
    const stream = response
      .connect()
      .stream({ url: `${this.#o.publicUrl.replace(/^http/, "ws")}${twilioPaths.media(request.callId)}` });
    stream.parameter({ name: "call_id", value: request.callId });
    response.hangup();
    return response.toString();
  }

  async originate(request: OriginateRequest): Promise<MediaStreamLeg> {
    const session = await this.#twilio.startCall(request, this.twiml(request));
    const leg = new MediaStreamLeg(session, {
      speed: this.#o.speed,
      endCall: () => this.#twilio.control.hangup(session.providerCallId, true),
    });
    this.#o.media.add(leg);
    const remove = () => this.#o.media.remove(leg);
    void session.ended().then(remove);
    void session.answered().then((a) => a.type !== "answered" && remove());
    return leg;
  }

  async close(): Promise<void> {
    await this.#twilio.close();
  }
}
