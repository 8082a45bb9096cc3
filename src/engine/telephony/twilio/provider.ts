// Twilio Programmable Voice with ConversationRelay as a TelephonyProvider (issue 12). The call is created
// with the REST Calls API through the official SDK; its TwiML connects the answered call to our
// ConversationRelay WebSocket (src/inbound/carriers/twilio.ts), which feeds the TextCarrierSession.
//
// Calls create parameters: https://www.twilio.com/docs/voice/api/call-resource#create-a-call-resource
// Answering machine detection (MachineDetection, AsyncAmd, AsyncAmdStatusCallback, AnsweredBy values):
//   https://www.twilio.com/docs/voice/answering-machine-detection
// <ConversationRelay> attributes: https://www.twilio.com/docs/voice/twiml/connect/conversationrelay
import twilio from "twilio";
import type { Country } from "../../../domain/locale.ts";
import type { Dialect } from "../../dialogue/types.ts";
import type { RecordingSource } from "../../../domain/recording-source.ts";
import { type CallSession, type OriginateRequest, speechLocale, type TelephonyProvider } from "../provider.ts";
import {
  type CarrierControl,
  type CarrierLines,
  CarrierRefusedError,
  CarrierUnavailableError,
  TextCarrierSession,
} from "../text-carrier.ts";
import { noCallerNumber, unreachableFailure } from "../carrier-control.ts";
import { conferenceTwiml } from "./transfer.ts";

export const TWILIO_API_URL = "https://api.twilio.com";

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** Where the REST API is; https://api.twilio.com except against the local fake. */
  apiBaseUrl: string;
  /** WAKHA_PUBLIC_URL: where Twilio reaches our callbacks and WebSocket. */
  publicUrl: string;
  /** Caller number per country (E.164, a Twilio number or verified caller id); `default` for the others. */
  callerIds: Partial<Record<Country | "default", string>>;
  /** TTS voice per dialect (and `fr` for French calls); the provider's default voice for the language when absent. */
  voices: Partial<Record<Dialect, string>>;
  /** ConversationRelay ttsProvider and transcriptionProvider (for example Google). */
  ttsProvider?: string | undefined;
  transcriptionProvider?: string | undefined;
  lines: CarrierLines;
  speed: number;
  log(message: string, err?: unknown): void;
}

/** Paths of our Twilio endpoints under the public URL (src/inbound/carriers/twilio.ts serves them). */
export const twilioPaths = {
  status: (callId: string) => `/carriers/twilio/calls/${callId}/status`,
  amd: (callId: string) => `/carriers/twilio/calls/${callId}/amd`,
  recording: (callId: string) => `/carriers/twilio/calls/${callId}/recording`,
  relay: (callId: string) => `/carriers/twilio/calls/${callId}/relay`,
  media: (callId: string) => `/carriers/twilio/calls/${callId}/media`,
  // Issue 34: the <Connect> action (the relay session ended), the person leg's Url (the whisper) and its end, and the
  // person leg's StatusCallback (twilio/transfer.ts).
  relayEnded: (callId: string) => `/carriers/twilio/calls/${callId}/relay-ended`,
  whisper: (callId: string) => `/carriers/twilio/calls/${callId}/whisper`,
  whisperDone: (callId: string) => `/carriers/twilio/calls/${callId}/whisper-done`,
  personStatus: (callId: string) => `/carriers/twilio/calls/${callId}/person-status`,
};

/** The SDK's HTTP client, pointed at another API origin (the local fake in tests); requests time out at 10 s. */
class RelocatedRequestClient extends twilio.RequestClient {
  readonly #origin: string | null;
  constructor(apiBaseUrl: string) {
    super({ timeout: 10_000 });
    this.#origin = apiBaseUrl.replace(/\/+$/, "") === TWILIO_API_URL ? null : apiBaseUrl.replace(/\/+$/, "");
  }
  override request<TData>(opts: Parameters<twilio.RequestClient["request"]>[0]) {
    if (this.#origin) opts = { ...opts, uri: opts.uri.replace(/^https:\/\/[^/]+/, this.#origin) };
    return super.request<TData>(opts as never);
  }
}

/** What a failed REST request means for the call: an outage (retry later) or a refusal (nothing rang). */
export function classifyTwilioError(err: unknown, apiUrl?: string): Error {
  const status = (err as { status?: unknown }).status;
  if (typeof status === "number" && status < 500 && status !== 429) {
    const code = (err as { code?: unknown }).code;
    return new CarrierRefusedError(
      `Twilio refused the call (${status}${code ? `, error ${String(code)}` : ""}): ${(err as Error).message}`,
      {
        code: `http_${status}`,
        message: `Twilio refused to place the call (HTTP ${status}${typeof code === "number" || typeof code === "string" ? `, Twilio error ${String(code).slice(0, 10)}` : ""}).`,
      },
    );
  }
  return new CarrierUnavailableError(
    `Twilio's REST API is unavailable: ${err instanceof Error ? err.message : String(err)}`,
    unreachableFailure("Twilio", err, status, apiUrl),
  );
}

/** How long Twilio's answering-machine detection may listen before answering `unknown` (docs/going-live.md). */
export const MACHINE_DETECTION_TIMEOUT_SECONDS = 20;

export class TwilioTelephony implements TelephonyProvider {
  readonly name = "twilio";
  readonly #o: TwilioOptions;
  readonly #client: twilio.Twilio;
  /** Hang-up and recording download on Twilio's REST API; the Media Streams leg (media-streams.ts) ends calls with it too. */
  readonly control: CarrierControl;

  constructor(options: TwilioOptions) {
    this.#o = { ...options, publicUrl: options.publicUrl.replace(/\/+$/, "") };
    this.#client = twilio(options.accountSid, options.authToken, {
      httpClient: new RelocatedRequestClient(options.apiBaseUrl),
    });
    this.control = {
      hangup: async (sid, answered) => {
        // Update a call: `canceled` ends a queued or ringing call, `completed` an answered one.
        await this.#client.calls(sid).update({ status: answered ? "completed" : "canceled" });
      },
      recordingSource: (location) => this.#recordingSource(location),
      // Issue 34, the conference pattern (twilio/transfer.ts): the person is dialled at once, the whisper as the Url.
      dialPerson: async (callId, request) => {
        const base = this.#o.publicUrl;
        try {
          const call = await this.#client.calls.create({
            to: request.to,
            from: request.from,
            url: `${base}${twilioPaths.whisper(callId)}`,
            method: "POST",
            timeout: Math.max(5, Math.min(600, Math.round(request.ringTimeoutSeconds))),
            statusCallback: `${base}${twilioPaths.personStatus(callId)}`,
            statusCallbackMethod: "POST",
            statusCallbackEvent: ["initiated", "ringing", "answered", "completed"],
          });
          return call.sid;
        } catch (err) {
          throw classifyTwilioError(err, this.#o.apiBaseUrl);
        }
      },
      // Media Streams: the customer's live call gets the conference's TwiML (the stream ends).
      joinConference: async (sid, callId) => {
        await this.#client.calls(sid).update({ twiml: conferenceTwiml(callId) });
      },
    };
  }

  /**
   * The TwiML of an answered call: ConversationRelay on our WebSocket. When the session ends Twilio requests the
   * <Connect> action (issue 34): a transfer's HandoffData is answered with the conference, anything else with <Hangup/>.
   */
  twiml(request: OriginateRequest): string {
    const locale = speechLocale(request.language, request.dialect);
    const response = new twilio.twiml.VoiceResponse();
    const connect = response.connect({
      action: `${this.#o.publicUrl}${twilioPaths.relayEnded(request.callId)}`,
      method: "POST",
    });
    const relay = connect.conversationRelay({
      url: `${this.#o.publicUrl.replace(/^http/, "ws")}${twilioPaths.relay(request.callId)}`,
      language: locale,
      ...(this.#o.voices[request.language === "fr" ? "fr" : request.dialect]
        ? { voice: this.#o.voices[request.language === "fr" ? "fr" : request.dialect]! }
        : {}),
      ...(this.#o.ttsProvider ? { ttsProvider: this.#o.ttsProvider } : {}),
      ...(this.#o.transcriptionProvider ? { transcriptionProvider: this.#o.transcriptionProvider } : {}),
      // Keypresses arrive as `dtmf` messages; the customer's speech may cut our speech short.
      dtmfDetection: true,
      interruptible: "any",
    });
    relay.parameter({ name: "call_id", value: request.callId });
    return response.toString();
  }

  originate(request: OriginateRequest): Promise<CallSession> {
    return this.startCall(request, this.twiml(request));
  }

  /**
   * Creates the call with `twiml` and the status, AMD and recording callbacks, and returns the session they drive.
   * ConversationRelay (originate) and Media Streams (media-streams.ts) differ only in the TwiML.
   */
  async startCall(request: OriginateRequest, twiml: string): Promise<TextCarrierSession> {
    const from = request.from ?? this.#o.callerIds[request.country] ?? this.#o.callerIds.default;
    if (!from)
      throw new CarrierRefusedError(
        `no Twilio caller number for ${request.country} (WAKHA_TWILIO_CALLER_IDS)`,
        noCallerNumber(request.country, "WAKHA_TWILIO_CALLER_IDS"),
      );
    const base = this.#o.publicUrl;
    let sid: string;
    try {
      const call = await this.#client.calls.create({
        to: request.to,
        from,
        twiml,
        statusCallback: `${base}${twilioPaths.status(request.callId)}`,
        statusCallbackMethod: "POST",
        statusCallbackEvent: ["initiated", "ringing", "answered", "completed"],
        timeout: request.ringTimeoutSeconds,
        ...(request.timeLimitSeconds ? { timeLimit: Math.max(1, Math.floor(request.timeLimitSeconds)) } : {}),
        ...(request.machineDetection
          ? // DetectMessageEnd: a machine's verdict comes once its greeting has ended (the beep), the moment to leave a
            // message; asynchronous, so the call talks meanwhile (issue 30.1/30.2). Detection gives up after
            // MACHINE_DETECTION_TIMEOUT_SECONDS with `unknown` (Twilio's default is 30 s): the call just goes on.
            {
              machineDetection: "DetectMessageEnd",
              machineDetectionTimeout: MACHINE_DETECTION_TIMEOUT_SECONDS,
              asyncAmd: "true",
              asyncAmdStatusCallback: `${base}${twilioPaths.amd(request.callId)}`,
              asyncAmdStatusCallbackMethod: "POST",
            }
          : {}),
        ...(request.record
          ? {
              record: true,
              recordingChannels: "dual",
              recordingStatusCallback: `${base}${twilioPaths.recording(request.callId)}`,
              recordingStatusCallbackMethod: "POST",
              recordingStatusCallbackEvent: ["completed", "absent"],
            }
          : {}),
      });
      sid = call.sid;
    } catch (err) {
      throw classifyTwilioError(err, this.#o.apiBaseUrl);
    }
    const session: TextCarrierSession = new TextCarrierSession({
      providerCallId: sid,
      callId: request.callId,
      locale: speechLocale(request.language, request.dialect),
      control: this.control,
      speed: this.#o.speed,
      expectMachineVerdict: request.machineDetection,
      // Ringing is capped by the carrier at ringTimeoutSeconds; a minute more without any callback is a lost call.
      answerDeadlineSeconds: request.ringTimeoutSeconds + 60,
      // Issue 34: the person is dialled with the call's number; the whisper's redirect marks the bridge.
      callerNumber: from,
      onError: this.#o.log,
      onFinished: () => this.#o.lines.remove(session),
    });
    this.#o.lines.add(session);
    return session;
  }

  // RecordingUrl has no extension; `.wav` asks for WAV (https://www.twilio.com/docs/voice/api/recording#fetch-a-recording-media-file).
  // Only the API's own origin is fetched, with the account's credentials (media may require HTTP basic auth).
  #recordingSource(location: string): RecordingSource {
    const api = new URL(this.#o.apiBaseUrl);
    const url = new URL(`${location}.wav`, api);
    if (url.origin !== api.origin) throw new Error(`recording URL ${url.origin} is not Twilio's API (${api.origin})`);
    return {
      url: url.href,
      headers: {
        authorization: `Basic ${Buffer.from(`${this.#o.accountSid}:${this.#o.authToken}`).toString("base64")}`,
      },
    };
  }

  async close(): Promise<void> {}
}
