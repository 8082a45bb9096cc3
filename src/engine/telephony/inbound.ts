// What a carrier sends us, framework-free (issue 29): each carrier's adapter (engine/telephony/<vendor>/) describes
// its signed callbacks and WebSockets here, in its own wire format, and inbound/carriers.ts serves them over HTTP
// for whichever carriers the node's channels use. The adapter checks the vendor's signature, parses every field it
// reads (issue 30.3: no frame or body may raise) and hands what it understood to the live call's session.
import type { WebSocket } from "ws";

/** One request from a carrier: the path's parameters, the parsed body and the raw one (for signatures over bytes). */
export interface CarrierRequest {
  params: Record<string, string>;
  body: unknown;
  rawBody: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** The path without its query, for the logs. */
  path: string;
}

/** The route's logger (pino's shape): a line per refusal, security event or ignored frame. */
export interface CarrierLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The answer to a callback, or the refusal of a socket's handshake. */
export interface CarrierAnswer {
  status: number;
  body?: unknown;
  /** The body's media type when it is not JSON (Twilio's TwiML documents: text/xml). */
  contentType?: string;
}

export interface CarrierCallback {
  method: "GET" | "POST";
  /** A route path with `:name` parameters, e.g. /carriers/twilio/calls/:callId/status. */
  path: string;
  handle(request: CarrierRequest, log: CarrierLog): Promise<CarrierAnswer>;
}

export interface CarrierSocket {
  path: string;
  /** Checks the handshake: undefined accepts it, an answer refuses it with that status. */
  authorize(request: CarrierRequest, log: CarrierLog): CarrierAnswer | undefined;
  /** Serves an accepted socket until it closes; never throws. */
  open(socket: WebSocket, request: CarrierRequest, log: CarrierLog): void;
}

/** A carrier's inbound side: its callbacks and sockets, and the WebSocket subprotocol it asks for, if any. */
export interface CarrierInbound {
  carrier: string;
  callbacks: CarrierCallback[];
  sockets: CarrierSocket[];
  subprotocol?: string;
}

/** What a carrier reports that must outlive this node: kept on the call's row by calls/ (the sweep bills it). */
export interface CarrierReports {
  /** The carrier's connected seconds of a finished call, whichever node holds it. */
  carrierSeconds(callId: string, seconds: number): Promise<void>;
}

/** Our call ids are UUIDs: anything else in a carrier path is an unknown call. */
export const CALL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A header's single value. */
export function header(request: CarrierRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === "string" ? value : undefined;
}

/** A refusal, logged with the carrier and the path. */
export function refusal(
  carrier: string,
  request: CarrierRequest,
  log: CarrierLog,
  status: number,
  detail: string,
): CarrierAnswer {
  log.warn({ carrier, path: request.path, status }, `carrier request refused: ${detail}`);
  return { status, body: { detail } };
}
