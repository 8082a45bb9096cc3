// What a text-carrier session needs from its carrier: the errors an adapter's REST calls raise, the REST
// operations (CarrierControl) and the WebSocket (TextChannel), each carrier's adapter implementing them.
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import type { CallRecording, StreamedRecording } from "./provider.ts";

/** The carrier's REST API could not be reached or answered 5xx: the call fails with end_reason carrier_unavailable. */
export class CarrierUnavailableError extends Error {
  readonly endReason = "carrier_unavailable";
}

/** The carrier answered the request with a refusal (4xx): nothing rang. */
export class CarrierRefusedError extends Error {
  readonly endReason = "carrier_refused";
}

/** The WebSocket side of one call, as the adapter wraps it. */
export interface TextChannel {
  /** Sends words to speak (ConversationRelay `text` tokens, a jambonz `gather` with a nested `say`). */
  speak(text: string, options: { locale: string; interruptible: boolean }): void;
  /** Asks the carrier to end the call from our side (ConversationRelay `end`, a jambonz `call:status` command). */
  end(): void;
}

/** REST operations a session needs from its carrier. */
export interface CarrierControl {
  /** Ends the call on the carrier (cancel while ringing, hang up once answered). */
  hangup(providerCallId: string, answered: boolean): Promise<void>;
  /** Downloads a finished recording that a callback announced (streamed when the carrier gives its length). */
  fetchRecording(location: string): Promise<CallRecording | StreamedRecording | null>;
}

/**
 * A carrier's recording download as the store will read it: streamed when the response says its length (the
 * store needs it up front), else read whole.
 */
export async function recordingBody(res: Response, contentType: string): Promise<CallRecording | StreamedRecording> {
  const size = Number(res.headers.get("content-length") ?? NaN);
  if (res.body && Number.isSafeInteger(size) && size >= 0) {
    return { contentType, size, stream: Readable.fromWeb(res.body as ReadableStream<Uint8Array>) };
  }
  return { contentType, bytes: new Uint8Array(await res.arrayBuffer()) };
}
