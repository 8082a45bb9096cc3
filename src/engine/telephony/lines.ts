// A node's live carrier sessions, shared by the providers that dial and the inbound adapters that hear the carrier.
import { CarrierLines } from "./text-carrier.ts";
import { MediaStreamLines } from "./twilio/media-streams.ts";

/**
 * A node's live carrier sessions, by our call id: built once by the composition root and given both to the carriers'
 * providers (which add each call they dial) and to their inbound adapters (which deliver callbacks and frames to it).
 */
export interface NodeLines {
  /** Text carriers' sessions (ConversationRelay, jambonz). */
  text: CarrierLines;
  /** Media Streams legs. */
  media: MediaStreamLines;
}

/** Empty lines for a node. */
export function nodeLines(): NodeLines {
  return { text: new CarrierLines(), media: new MediaStreamLines() };
}
