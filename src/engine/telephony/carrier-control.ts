// What a text-carrier session needs from its carrier: the errors an adapter's REST calls raise, the REST
// operations (CarrierControl) and the WebSocket (TextChannel), each carrier's adapter implementing them.
import type { RecordingSource } from "../../storage/recording-download.ts";

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
  /** Where and how to fetch a finished recording that a callback announced (the recording-transfer thread downloads it). */
  recordingSource(location: string): RecordingSource;
}
