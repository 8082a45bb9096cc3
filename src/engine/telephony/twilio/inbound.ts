// Twilio's inbound side (issue 12), outside /v1: the status, answering-machine and recording callbacks, and the
// ConversationRelay WebSocket. Every request must carry a valid X-Twilio-Signature over the public URL
// Twilio was given (https://www.twilio.com/docs/usage/webhooks/webhooks-security); the official `twilio`
// package's validateRequest checks it. The WebSocket handshake is signed the same way, over the wss:// URL
// with no parameters (https://www.twilio.com/docs/voice/conversationrelay/onboarding).
//
// Twilio signs no timestamp, so a replayed callback is refused by what it would change: a status at or
// below the call's current one, a second machine verdict, a second recording, a second WebSocket.
import twilio from "twilio";
import type { WebSocket } from "ws";
import { parseFrame, parseMessage, RefusedFrames } from "../frames.ts";
import {
  CALL_ID,
  type CarrierAnswer,
  type CarrierInbound,
  type CarrierLog,
  type CarrierReports,
  type CarrierRequest,
  header,
  refusal,
} from "../inbound.ts";
import type { CarrierLines, TextCarrierSession, TextChannel } from "../text-carrier.ts";
import { relayDtmf, relayError, relayPrompt, relaySetup } from "./frames.ts";
import { twilioPaths } from "./provider.ts";
import {
  conferenceTwiml,
  emptyTwiml,
  hangupTwiml,
  isTransferHandoff,
  TRANSFER_HANDOFF,
  whisperTwiml,
} from "./transfer.ts";

export interface TwilioInboundOptions {
  authToken: string;
  publicUrl: string;
  lines: CarrierLines;
  reports: CarrierReports;
}

type Params = Record<string, string>;

/**
 * StatusCallback CallStatus values: queued, initiated, ringing, in-progress, completed, busy, failed,
 * no-answer, canceled (https://www.twilio.com/docs/voice/api/call-resource#statuscallback). CallDuration
 * (seconds, on the terminal callback) is what Twilio bills: the connected time.
 */
function applyStatus(session: TextCarrierSession, p: Params): boolean {
  switch (p["CallStatus"]) {
    case "queued":
    case "initiated":
      return session.progress("initiated");
    case "ringing":
      return session.progress("ringing");
    case "in-progress":
      return session.progress("answered");
    case "completed":
      return session.completed(Number(p["CallDuration"] ?? 0));
    case "busy":
      return session.unanswered("busy");
    case "no-answer":
      return session.unanswered("no_answer");
    case "canceled":
      return session.unanswered("canceled");
    case "failed":
      return session.unanswered("failed", `carrier_failed${p["SipResponseCode"] ? `_${p["SipResponseCode"]}` : ""}`);
    default:
      return false;
  }
}

/** Twilio's signature over the public URL it was given, not the one this node sees behind a proxy. */
export function twilioSigned(authToken: string, request: CarrierRequest, url: string, params: Params): boolean {
  const signature = header(request, "x-twilio-signature");
  return signature !== undefined && signature.length > 0 && twilio.validateRequest(authToken, signature, url, params);
}

/** Params of a form-encoded callback: only its string fields (the generic route parses the form). */
function formParams(body: unknown): Params {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return {};
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).filter(([, v]) => typeof v === "string"),
  ) as Params;
}

/** The status, AMD and recording callbacks and the ConversationRelay socket. */
export function twilioInbound(options: TwilioInboundOptions): CarrierInbound {
  const publicUrl = options.publicUrl.replace(/\/+$/, "");
  const wsUrl = publicUrl.replace(/^http/, "ws");
  const refuse = (request: CarrierRequest, log: CarrierLog, status: number, detail: string) =>
    refusal("twilio", request, log, status, detail);

  const callback =
    (
      kind: "status" | "amd" | "recording",
      handle: (session: TextCarrierSession, p: Params) => boolean,
      persist?: (callId: string, p: Params) => Promise<void>,
    ) =>
    async (request: CarrierRequest, log: CarrierLog): Promise<CarrierAnswer> => {
      const callId = request.params["callId"] ?? "";
      const p = formParams(request.body);
      if (!CALL_ID.test(callId)) return refuse(request, log, 404, "unknown call");
      if (!twilioSigned(options.authToken, request, `${publicUrl}${twilioPaths[kind](callId)}`, p))
        return refuse(request, log, 403, "invalid X-Twilio-Signature");
      const session = options.lines.get(callId);
      const changed = session && session.providerCallId === p["CallSid"] ? handle(session, p) : false;
      if (persist) await persist(callId, p);
      if (session && !changed)
        log.info(
          { carrier: "twilio", kind, status: p["CallStatus"] },
          "duplicate or out-of-order callback: nothing changed",
        );
      return { status: 204 };
    };

  // Issue 34: the transfer's callbacks answer TwiML. The customer's call sends the <Connect> action (its CallSid); the
  // person's leg, a call of its own dialled through the REST API, sends its Url, the whisper's redirect and its status.
  const twimlCallback =
    (
      kind: "relayEnded" | "whisper" | "whisperDone" | "personStatus",
      leg: "customer" | "person",
      handle: (session: TextCarrierSession | null, p: Params) => string,
    ) =>
    async (request: CarrierRequest, log: CarrierLog): Promise<CarrierAnswer> => {
      const callId = request.params["callId"] ?? "";
      const p = formParams(request.body);
      if (!CALL_ID.test(callId)) return refuse(request, log, 404, "unknown call");
      if (!twilioSigned(options.authToken, request, `${publicUrl}${twilioPaths[kind](callId)}`, p))
        return refuse(request, log, 403, "invalid X-Twilio-Signature");
      const found = options.lines.get(callId);
      const session =
        found && (leg === "customer" ? p["CallSid"] === found.providerCallId : found.isTransferLeg(p["CallSid"]))
          ? found
          : null;
      const body = handle(session, p);
      return { status: 200, body, contentType: "text/xml" };
    };

  return {
    carrier: "twilio",
    callbacks: [
      // The relay session ended: our transfer's HandoffData, once the person waits in the room, joins the customer to
      // it; any other end hangs up.
      {
        method: "POST",
        path: "/carriers/twilio/calls/:callId/relay-ended",
        handle: twimlCallback("relayEnded", "customer", (session, p) =>
          isTransferHandoff(p["HandoffData"]) && session?.conferenceReady()
            ? conferenceTwiml(session.callId)
            : hangupTwiml(),
        ),
      },
      // The person answered: the brief, to them only. No transfer running: their leg hangs up.
      {
        method: "POST",
        path: "/carriers/twilio/calls/:callId/whisper",
        handle: twimlCallback("whisper", "person", (session) => {
          const transfer = session?.transferAnswered();
          return transfer && session
            ? whisperTwiml(transfer, `${publicUrl}${twilioPaths.whisperDone(session.callId)}`)
            : hangupTwiml();
        }),
      },
      // The brief played in full: the person enters the room; the customer follows once the agent's line is said.
      {
        method: "POST",
        path: "/carriers/twilio/calls/:callId/whisper-done",
        handle: twimlCallback("whisperDone", "person", (session) =>
          session?.transferBridged() ? conferenceTwiml(session.callId) : hangupTwiml(),
        ),
      },
      // The person leg's progress: `ringing` (the bench's time to the handoff number ringing), then its end: CallStatus
      // completed (with CallDuration), busy, no-answer, failed or canceled.
      {
        method: "POST",
        path: "/carriers/twilio/calls/:callId/person-status",
        handle: twimlCallback("personStatus", "person", (session, p) => {
          const status = p["CallStatus"] ?? "";
          if (status === "ringing") session?.transferRinging();
          else if (["completed", "busy", "no-answer", "failed", "canceled"].includes(status)) {
            const duration = p["CallDuration"] === undefined ? null : Number(p["CallDuration"]);
            session?.transferEnded(status, duration);
          }
          return emptyTwiml();
        }),
      },
      {
        method: "POST",
        path: "/carriers/twilio/calls/:callId/status",
        handle: callback("status", applyStatus, async (callId, p) => {
          // Kept on the row whoever holds the call, so a restarted node's sweep bills the carrier's seconds.
          if (p["CallStatus"] === "completed")
            await options.reports.carrierSeconds(callId, Number(p["CallDuration"] ?? 0));
        }),
      },
      // AnsweredBy: human, machine_start, machine_end_beep, machine_end_silence, machine_end_other, fax, unknown.
      {
        method: "POST",
        path: "/carriers/twilio/calls/:callId/amd",
        handle: callback("amd", (session, p) => session.answeredByVerdict(p["AnsweredBy"] ?? "")),
      },
      // RecordingStatus: in-progress, completed, absent (https://www.twilio.com/docs/voice/api/recording#recordingstatuscallback).
      {
        method: "POST",
        path: "/carriers/twilio/calls/:callId/recording",
        handle: callback("recording", (session, p) => {
          if (p["RecordingStatus"] === "completed" && p["RecordingUrl"])
            return session.recordingReady(p["RecordingUrl"]);
          if (p["RecordingStatus"] === "absent" || p["RecordingStatus"] === "failed")
            return session.recordingReady(null);
          return false;
        }),
      },
    ],
    sockets: [
      {
        path: "/carriers/twilio/calls/:callId/relay",
        authorize(request, log) {
          const callId = request.params["callId"] ?? "";
          if (!CALL_ID.test(callId)) return refuse(request, log, 404, "unknown call");
          if (!twilioSigned(options.authToken, request, `${wsUrl}${twilioPaths.relay(callId)}`, {})) {
            // A security event: logged as one, and the call, if it never gets a genuine socket, ends carrier_auth_failed.
            const session = options.lines.get(callId);
            session?.socketRefused();
            log.warn(
              { carrier: "twilio", security: true, event: "carrier_auth_failed", live_call: session !== undefined },
              "ConversationRelay socket refused: invalid X-Twilio-Signature",
            );
            return refuse(request, log, 403, "invalid X-Twilio-Signature");
          }
          if (!options.lines.get(callId)) return refuse(request, log, 404, "no live call here");
          return undefined;
        },
        open: (socket, request, log) => relay(socket, log, options.lines.get(request.params["callId"] ?? "")),
      },
    ],
  };
}

/**
 * One ConversationRelay session. From Twilio: setup, prompt {voicePrompt, lang, last}, interrupt
 * {utteranceUntilInterrupt, durationUntilInterruptMs}, dtmf {digit}, error {description}. To Twilio: text
 * {token, last, lang, interruptible}, end {handoffData}
 * (https://www.twilio.com/docs/voice/conversationrelay/websocket-messages).
 */
function relay(socket: WebSocket, log: CarrierLog, session: TextCarrierSession | undefined): void {
  const send = (message: object) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const channel: TextChannel = {
    speak: (text, { locale, interruptible }) =>
      send({ type: "text", token: text, last: true, lang: locale, interruptible }),
    end: () => send({ type: "end", handoffData: JSON.stringify({ reason: "agent_hangup" }) }),
    // Issue 34: the relay session ends with our transfer's handoffData; the <Connect> action then dials the person.
    transfer: () => send({ type: "end", handoffData: TRANSFER_HANDOFF }),
  };
  const attached = session?.attach(channel);
  if (!session || !attached) {
    log.warn({ carrier: "twilio" }, "carrier request refused: a second ConversationRelay socket for the call");
    socket.close(1008, "call already connected");
    return;
  }
  let partial = "";
  const refused = new RefusedFrames();
  const ignore = (reason: string) => {
    if (refused.note(reason))
      log.warn({ carrier: "twilio", refused: refused.count }, `ConversationRelay sent ${reason}: ignored`);
  };
  // No frame may raise out of here (issue 30.3): each is parsed before a field is read, and what is not as
  // documented is logged and ignored (ConversationRelay itself answers unknown messages with an error and goes on).
  socket.on("message", (data, isBinary) => {
    const frame = parseFrame(data, isBinary, "type");
    if (!frame.ok) return ignore(frame.reason);
    try {
      onRelayMessage(frame.message);
    } catch (err) {
      log.error({ carrier: "twilio", err }, "a ConversationRelay message could not be handled: ignored");
    }
  });
  const onRelayMessage = (message: Record<string, unknown> & { type: string }) => {
    switch (message.type) {
      case "setup": {
        const setup = parseMessage(relaySetup, message);
        if (!setup.ok || setup.message.callSid !== session.providerCallId) {
          log.warn({ carrier: "twilio" }, "ConversationRelay setup for another CallSid: closing");
          socket.close(1008, "wrong call");
        }
        return;
      }
      case "prompt": {
        const prompt = parseMessage(relayPrompt, message);
        if (!prompt.ok) return ignore(prompt.reason);
        // Partial prompts (last: false) are accumulated; the final one carries the whole utterance when they are off.
        partial = (partial + (prompt.message.voicePrompt ?? "")).slice(-100_000);
        if (prompt.message.last !== false) {
          session.heard(partial);
          partial = "";
        }
        return;
      }
      case "interrupt":
        session.interrupted();
        return;
      case "dtmf": {
        const dtmf = parseMessage(relayDtmf, message);
        if (!dtmf.ok) return ignore(dtmf.reason);
        session.digit(dtmf.message.digit);
        return;
      }
      case "error": {
        const description = parseMessage(relayError, message);
        const text =
          description.ok && typeof description.message.description === "string"
            ? description.message.description.slice(0, 500)
            : "(no description)";
        if (refused.note(`error ${text}`))
          log.warn({ carrier: "twilio", description: text }, "ConversationRelay reported an error");
        return;
      }
      default:
        return;
    }
  };
  socket.on("close", () => session.channelClosed(channel));
  socket.on("error", () => session.channelClosed(channel));
}
