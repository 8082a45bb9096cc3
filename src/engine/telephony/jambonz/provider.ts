// jambonz (self-hosted or jambonz.cloud) as a TelephonyProvider (issue 12): the route for a reseller's own SIP
// trunk or GSM gateway. We create the call with the REST API; jambonz dials through its carrier, owns SIP, media
// and the speech vendor (Microsoft's ar-MA, ar-DZ, ar-TN recognisers and voices), and drives the answered call
// over the WebSocket API (src/inbound/carriers/jambonz.ts), which feeds the TextCarrierSession.
//
// REST (jambonz-api-server swagger, docs.jambonz.org/reference/rest-call-control/calls/create-call):
//   POST /v1/Accounts/{AccountSid}/Calls {from, to: {type: "phone", number}, call_hook, call_status_hook,
//   application_sid, timeout, timeLimit, tag} with `Authorization: Bearer <api key>`, 201 {sid};
//   POST /v1/Accounts/{AccountSid}/Calls/{CallSid} {call_status: "completed" | "no-answer"} updates a call;
//   GET /v1/Accounts/{AccountSid}/RecentCalls/{CallSid}/record/{YYYY}/{MM}/{DD}/{wav|mp3} is its recording.
// A Webhook is {url, method, username, password}: jambonz opens the WebSocket with HTTP basic auth from it.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Country } from "../../../domain/locale.ts";
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

export interface JambonzOptions {
  apiBaseUrl: string;
  accountSid: string;
  apiKey: string;
  /** An application whose call hook is our /carriers/jambonz/ws; without one, each call carries its own hooks. */
  applicationSid?: string | undefined;
  /** WAKHA_PUBLIC_URL. */
  publicUrl: string;
  callerIds: Partial<Record<Country | "default", string>>;
  /** Signs the status webhook (Jambonz-Signature) and derives each call's WebSocket password. */
  webhookSecret: string;
  lines: CarrierLines;
  speed: number;
  log(message: string, err?: unknown): void;
}

export const jambonzPaths = {
  status: (callId: string) => `/carriers/jambonz/calls/${callId}/status`,
  socket: (callId: string) => `/carriers/jambonz/calls/${callId}/ws`,
  // Issue 34: the person's leg of a transfer (jambonz/inbound.ts): its call_hook, the brief's end, its status.
  person: (callId: string) => `/carriers/jambonz/calls/${callId}/person`,
  whisperDone: (callId: string) => `/carriers/jambonz/calls/${callId}/whisper-done`,
  personStatus: (callId: string) => `/carriers/jambonz/calls/${callId}/person-status`,
};

/** The basic-auth password of one call's WebSocket: only jambonz, given it at create time, can open it. */
export function socketPassword(webhookSecret: string, callId: string): string {
  return createHmac("sha256", webhookSecret).update(`wakha-ws:${callId}`).digest("hex");
}

/**
 * With WAKHA_JAMBONZ_APPLICATION_SID, jambonz opens the application's one call hook with the application's one
 * basic-auth password, the same for every call (issue 30.4). What opens a call's session there is this token instead:
 * per call and short-lived, set in the create-call `tag` (it comes back as `customerData` in session:new), made of
 * its expiry (unix seconds) and an HMAC of the call id and that expiry.
 */
export function applicationCallToken(webhookSecret: string, callId: string, expiresAt: number): string {
  return `${expiresAt}.${createHmac("sha256", webhookSecret).update(`wakha-app:${callId}:${expiresAt}`).digest("hex")}`;
}

/** Whether `token` is the application-mode token of this call and has not expired. */
export function validApplicationCallToken(
  webhookSecret: string,
  callId: string,
  token: unknown,
  nowSeconds = Date.now() / 1000,
): boolean {
  if (typeof token !== "string" || !/^\d{1,12}\.[0-9a-f]{64}$/.test(token)) return false;
  const expiresAt = Number(token.slice(0, token.indexOf(".")));
  if (expiresAt < nowSeconds) return false;
  const expected = Buffer.from(applicationCallToken(webhookSecret, callId, expiresAt));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** How long an application-mode token lives past the call's own limits: the answer and the socket come well within. */
const APPLICATION_TOKEN_MARGIN_SECONDS = 60;
/** A call without a time limit is given this much for its token (jambonz reconnects within the call's life). */
const APPLICATION_TOKEN_DEFAULT_CALL_SECONDS = 3600;

/** Seconds a dropped socket has to come back before we end the call (jambonz retries up to 5 times, backing off). */
export const JAMBONZ_RECONNECT_SECONDS = 15;

export class JambonzTelephony implements TelephonyProvider {
  readonly name = "jambonz";
  readonly #o: JambonzOptions;
  readonly #api: string;

  constructor(options: JambonzOptions) {
    this.#o = { ...options, publicUrl: options.publicUrl.replace(/\/+$/, "") };
    this.#api = `${options.apiBaseUrl.replace(/\/+$/, "")}/v1/Accounts/${encodeURIComponent(options.accountSid)}`;
  }

  async #request(method: string, path: string, body?: unknown): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${this.#api}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.#o.apiKey}`, ...(body ? { "content-type": "application/json" } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new CarrierUnavailableError(
        `jambonz's REST API is unreachable: ${err instanceof Error ? err.message : String(err)}`,
        unreachableFailure("jambonz", err, undefined, this.#api),
      );
    }
    if (res.status >= 500 || res.status === 429)
      throw new CarrierUnavailableError(
        `jambonz's REST API answered ${res.status}`,
        unreachableFailure("jambonz", null, res.status),
      );
    if (!res.ok) {
      throw new CarrierRefusedError(
        `jambonz refused the request (${res.status}): ${(await res.text()).slice(0, 200)}`,
        { code: `http_${res.status}`, message: `jambonz refused to place the call (HTTP ${res.status}).` },
      );
    }
    return res;
  }

  /** Unix seconds after which the call's application-mode token opens nothing: ringing, the call's limit, a margin. */
  #tokenExpiry(request: OriginateRequest): number {
    const life =
      request.ringTimeoutSeconds +
      (request.timeLimitSeconds ?? APPLICATION_TOKEN_DEFAULT_CALL_SECONDS) +
      APPLICATION_TOKEN_MARGIN_SECONDS;
    return Math.ceil(Date.now() / 1000 + life / this.#o.speed);
  }

  async originate(request: OriginateRequest): Promise<CallSession> {
    const from = request.from ?? this.#o.callerIds[request.country] ?? this.#o.callerIds.default;
    if (!from)
      throw new CarrierRefusedError(
        `no jambonz caller id for ${request.country} (WAKHA_JAMBONZ_CALLER_IDS)`,
        noCallerNumber(request.country, "WAKHA_JAMBONZ_CALLER_IDS"),
      );
    const locale = speechLocale(request.language, request.dialect);
    const ws = `${this.#o.publicUrl.replace(/^http/, "ws")}${jambonzPaths.socket(request.callId)}`;
    const res = await this.#request("POST", "/Calls", {
      from,
      to: { type: "phone", number: request.to },
      ...(this.#o.applicationSid
        ? { application_sid: this.#o.applicationSid }
        : {
            call_hook: {
              url: ws,
              method: "GET",
              username: "wakha",
              password: socketPassword(this.#o.webhookSecret, request.callId),
            },
          }),
      call_status_hook: { url: `${this.#o.publicUrl}${jambonzPaths.status(request.callId)}`, method: "POST" },
      timeout: request.ringTimeoutSeconds,
      ...(request.timeLimitSeconds ? { timeLimit: Math.max(1, Math.floor(request.timeLimitSeconds)) } : {}),
      // Comes back as customerData in session:new: how an application-level socket finds the call, and (application
      // mode) the short-lived per-call token that lets it open the call's session.
      tag: {
        wakha_call_id: request.callId,
        ...(this.#o.applicationSid
          ? {
              wakha_call_token: applicationCallToken(this.#o.webhookSecret, request.callId, this.#tokenExpiry(request)),
            }
          : {}),
      },
    });
    const { sid } = (await res.json()) as { sid?: string };
    if (!sid) throw new CarrierRefusedError("jambonz created no call sid");
    const startedOn = new Date();
    const control: CarrierControl = {
      hangup: async (callSid, answered) => {
        await this.#request("POST", `/Calls/${encodeURIComponent(callSid)}`, {
          call_status: answered ? "completed" : "no-answer",
        });
      },
      recordingSource: (location) => this.#recordingSource(location),
      // Issue 34, the conference pattern: the person is dialled at once through the REST API; their call_hook plays
      // them the brief, then puts them in the conference (jambonz/inbound.ts), which the customer joins by a redirect.
      dialPerson: async (callId, transfer) => {
        const base = this.#o.publicUrl;
        const created = await this.#request("POST", "/Calls", {
          from: transfer.from,
          to: { type: "phone", number: transfer.to },
          call_hook: {
            url: `${base}${jambonzPaths.person(callId)}`,
            method: "POST",
            username: "wakha",
            password: socketPassword(this.#o.webhookSecret, callId),
          },
          call_status_hook: { url: `${base}${jambonzPaths.personStatus(callId)}`, method: "POST" },
          timeout: Math.max(1, Math.round(transfer.ringTimeoutSeconds)),
          tag: { wakha_call_id: callId, wakha_leg: "person" },
        });
        const { sid: personSid } = (await created.json()) as { sid?: string };
        if (!personSid) throw new CarrierRefusedError("jambonz created no call sid for the handoff number");
        return personSid;
      },
    };
    const session: TextCarrierSession = new TextCarrierSession({
      providerCallId: sid,
      callId: request.callId,
      locale,
      control,
      speed: this.#o.speed,
      // jambonz's create-call API takes no answering-machine detection: an answer is taken for a human, and the
      // dialogue recognises a voicemail greeting or a carrier announcement from what it hears.
      expectMachineVerdict: false,
      // Ringing is capped by the carrier at ringTimeoutSeconds; a minute more without any callback is a lost call.
      answerDeadlineSeconds: request.ringTimeoutSeconds + 60,
      reconnectSeconds: JAMBONZ_RECONNECT_SECONDS,
      // Issue 34: the person is dialled with the call's number; the brief's redirect marks the bridge.
      callerNumber: from,
      recordingAtEnd: () => {
        const d = startedOn;
        const pad = (n: number) => String(n).padStart(2, "0");
        return `/RecentCalls/${encodeURIComponent(sid)}/record/${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/wav`;
      },
      onError: this.#o.log,
      onFinished: () => this.#o.lines.remove(session),
    });
    this.#o.lines.add(session);
    return session;
  }

  // Recordings exist when the account records its calls; they may take a few seconds to be uploaded.
  // A 404 after the retries: the account does not record its calls.
  #recordingSource(location: string): RecordingSource {
    return {
      url: `${this.#api}${location}`,
      headers: { authorization: `Bearer ${this.#o.apiKey}` },
      contentType: "audio/wav",
      notFoundRetryMs: [1, 2, 3, 4].map((n) => (2_000 * n) / this.#o.speed),
    };
  }

  async close(): Promise<void> {}
}
