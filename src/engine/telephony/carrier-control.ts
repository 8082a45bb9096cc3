// What a text-carrier session needs from its carrier: the errors an adapter's REST calls raise, the REST
// operations (CarrierControl) and the WebSocket (TextChannel), each carrier's adapter implementing them.
import type { CallFailure } from "../../domain/end-reasons.ts";
import type { RecordingSource } from "../../domain/recording-source.ts";
import type { TransferRequest } from "./provider.ts";

/** The carrier's REST API could not be reached or answered 5xx: the call fails with end_reason carrier_unavailable. */
export class CarrierUnavailableError extends Error {
  readonly endReason = "carrier_unavailable";
  /** What the call shows as `outcome_details.error` (issue 32.4): no secret, unlike `message`, which goes to the log. */
  readonly failure: CallFailure | undefined;
  constructor(message: string, failure?: CallFailure) {
    super(message);
    this.failure = failure;
  }
}

/** The carrier answered the request with a refusal (4xx): nothing rang. */
export class CarrierRefusedError extends Error {
  readonly endReason = "carrier_refused";
  /** What the call shows as `outcome_details.error` (issue 32.4): no secret, unlike `message`, which goes to the log. */
  readonly failure: CallFailure | undefined;
  constructor(message: string, failure?: CallFailure) {
    super(message);
    this.failure = failure;
  }
}

/** The WebSocket side of one call, as the adapter wraps it. */
export interface TextChannel {
  /** Sends words to speak (ConversationRelay `text` tokens, a jambonz `gather` with a nested `say`). */
  speak(text: string, options: { locale: string; interruptible: boolean }): void;
  /** Asks the carrier to end the call from our side (ConversationRelay `end`, a jambonz `call:status` command). */
  end(): void;
  /**
   * Issue 34: once the person heard the brief, moves the customer into the transfer's conference from the socket
   * (ConversationRelay `end` with `handoffData`, then the <Connect> action answers <Dial><Conference>; a jambonz
   * `redirect` command to the `conference` verb). Absent: CarrierControl.joinConference does it (Twilio Media Streams).
   */
  transfer?(request: TransferRequest & { from: string }): void;
}

/** REST operations a session needs from its carrier. */
export interface CarrierControl {
  /** Ends the call on the carrier (cancel while ringing, hang up once answered). */
  hangup(providerCallId: string, answered: boolean): Promise<void>;
  /** Where and how to fetch a finished recording that a callback announced (the recording-transfer thread downloads it). */
  recordingSource(location: string): RecordingSource;
  /**
   * Issue 34, the conference pattern: dials the shop's person at once as a call of its own (Twilio's Calls create with
   * the whisper as its `Url`; jambonz's POST /Calls with the whisper's call_hook), while the agent goes on with the
   * customer; returns the person leg's id. Absent: the carrier cannot transfer.
   */
  dialPerson?(callId: string, request: TransferRequest & { from: string }): Promise<string>;
  /**
   * Issue 34: moves the customer's live call into the transfer's conference (Twilio: update the call with new TwiML).
   * Used when the socket cannot hand the call over itself (Media Streams; TextChannel.transfer absent).
   */
  joinConference?(providerCallId: string, callId: string): Promise<void>;
}

/** The system error codes a failed connection carries (on the error or its `cause`), named for a person. */
const NETWORK_CODES: Record<string, [string, string]> = {
  ENOTFOUND: ["dns_failure", "its address did not resolve (DNS)"],
  EAI_AGAIN: ["dns_failure", "its address did not resolve (DNS, temporary failure)"],
  ECONNREFUSED: ["connection_refused", "the connection was refused"],
  ECONNRESET: ["connection_reset", "the connection was reset"],
  ETIMEDOUT: ["timeout", "the connection timed out"],
  UND_ERR_CONNECT_TIMEOUT: ["timeout", "the connection timed out"],
  TimeoutError: ["timeout", "it did not answer within 10 seconds"],
};

/**
 * The `outcome_details.error` of a carrier API that could not be reached (issue 32.4): the network error's code and
 * host, or the HTTP status; never the request, its URL's credentials or the carrier's words.
 */
export function unreachableFailure(carrier: string, err: unknown, status?: unknown, apiUrl?: string): CallFailure {
  for (
    let e = err as { code?: unknown; name?: unknown; hostname?: unknown; cause?: unknown } | null, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    const known =
      NETWORK_CODES[typeof e.code === "string" ? e.code : ""] ??
      NETWORK_CODES[typeof e.name === "string" ? e.name : ""];
    if (known) {
      const name =
        typeof e.hostname === "string"
          ? e.hostname
          : apiUrl && URL.canParse(apiUrl)
            ? new URL(apiUrl).hostname
            : undefined;
      const host = name && /^[a-z0-9.-]{1,253}$/i.test(name) ? ` (${name})` : "";
      return { code: known[0], message: `${carrier}'s API could not be reached: ${known[1]}${host}.` };
    }
  }
  if (typeof status === "number")
    return {
      code: `http_${status}`,
      message: `${carrier}'s API answered HTTP ${status}: it is unavailable or rate-limits this account.`,
    };
  return { code: "carrier_unreachable", message: `${carrier}'s API could not be reached.` };
}

/** No caller number for the call's country on this node: the node cannot dial it (issue 32.4). */
export function noCallerNumber(country: string, variable: string): CallFailure {
  return {
    code: "no_caller_number",
    message: `No caller number for ${country} is configured on this node (${variable}).`,
  };
}
