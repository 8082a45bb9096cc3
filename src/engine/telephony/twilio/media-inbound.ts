// Twilio's Media Streams WebSocket (issue 13), beside the ConversationRelay one in inbound.ts: the status, AMD and
// recording callbacks are inbound.ts's own, shared. The handshake must carry a valid X-Twilio-Signature
// (https://www.twilio.com/docs/global-infrastructure/firewall-configurations/media-streams-configuration: "validate
// the X-Twilio-Signature header"), computed as for the relay socket over the wss:// URL with no parameters.
// Messages: https://www.twilio.com/docs/voice/media-streams/websocket-messages (see media-streams.ts).
import type { WebSocket } from "ws";
import { parseFrame, parseMessage, RefusedFrames } from "../frames.ts";
import { CALL_ID, type CarrierInbound, type CarrierLog, refusal } from "../inbound.ts";
import { mediaDtmf, mediaMark, mediaMedia, mediaStart } from "./frames.ts";
import { twilioSigned } from "./inbound.ts";
import type { MediaStreamLeg, MediaStreamLines } from "./media-streams.ts";
import { twilioPaths } from "./provider.ts";

export interface TwilioMediaInboundOptions {
  authToken: string;
  publicUrl: string;
  media: MediaStreamLines;
}

/** The Media Streams socket (the status, AMD and recording callbacks are the relay adapter's, shared). */
export function twilioMediaInbound(options: TwilioMediaInboundOptions): CarrierInbound {
  const wsUrl = options.publicUrl.replace(/\/+$/, "").replace(/^http/, "ws");
  return {
    carrier: "twilio",
    callbacks: [],
    sockets: [
      {
        path: "/carriers/twilio/calls/:callId/media",
        authorize(request, log) {
          const callId = request.params["callId"] ?? "";
          if (!CALL_ID.test(callId)) return refusal("twilio", request, log, 404, "unknown call");
          if (!twilioSigned(options.authToken, request, `${wsUrl}${twilioPaths.media(callId)}`, {})) {
            // A security event: logged as one, and the call, if it never gets a genuine stream, ends carrier_auth_failed.
            const leg = options.media.get(callId);
            leg?.socketRefused();
            log.warn(
              { carrier: "twilio", security: true, event: "carrier_auth_failed", live_call: leg !== undefined },
              "Media Streams socket refused: invalid X-Twilio-Signature",
            );
            return refusal("twilio", request, log, 403, "invalid X-Twilio-Signature");
          }
          if (!options.media.get(callId)) return refusal("twilio", request, log, 404, "no live call here");
          return undefined;
        },
        open: (socket, request, log) => mediaStream(socket, log, options.media.get(request.params["callId"] ?? "")),
      },
    ],
  };
}

function mediaStream(socket: WebSocket, log: CarrierLog, leg: MediaStreamLeg | undefined): void {
  if (!leg) {
    socket.close(1008, "no live call here");
    return;
  }
  let started = false;
  const wrapped = {
    send: (message: object) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    },
    close: () => socket.close(),
  };
  const refused = new RefusedFrames();
  const ignore = (reason: string) => {
    if (refused.note(reason))
      log.warn({ carrier: "twilio", refused: refused.count }, `Media Streams sent ${reason}: ignored`);
  };
  // No frame may raise out of here (issue 30.3): each is parsed before a field is read; the rest is logged and ignored.
  socket.on("message", (data, isBinary) => {
    const frame = parseFrame(data, isBinary, "event");
    if (!frame.ok) return ignore(frame.reason);
    try {
      onMediaMessage(frame.message);
    } catch (err) {
      log.error({ carrier: "twilio", err }, "a Media Streams message could not be handled: ignored");
    }
  });
  const onMediaMessage = (message: Record<string, unknown> & { event: string }) => {
    switch (message.event) {
      case "connected":
        return;
      case "start": {
        const parsed = parseMessage(mediaStart, message);
        if (!parsed.ok) return ignore(parsed.reason);
        const start = parsed.message.start;
        const format = start.mediaFormat ?? {};
        const streamSid = start.streamSid ?? parsed.message.streamSid ?? "";
        if (
          format.encoding !== undefined &&
          (format.encoding !== "audio/x-mulaw" || Number(format.sampleRate) !== 8000)
        ) {
          log.warn({ carrier: "twilio", format }, "Media Streams started in a format other than 8 kHz mu-law: closing");
          socket.close(1003, "unsupported media format");
          return;
        }
        if (started) return ignore("a second start");
        started = leg.streamStarted(wrapped, { streamSid, callSid: start.callSid ?? "" });
        if (!started) {
          log.warn({ carrier: "twilio" }, "carrier request refused: a Media Stream for another call, or a second one");
          socket.close(1008, "not this call");
        }
        return;
      }
      case "media": {
        const parsed = parseMessage(mediaMedia, message);
        if (!parsed.ok) return ignore(parsed.reason);
        const media = parsed.message.media;
        // Only the customer's side: a bidirectional stream carries the inbound track.
        if (started && (media.track === undefined || media.track === "inbound"))
          leg.media(Buffer.from(media.payload, "base64"));
        return;
      }
      case "dtmf": {
        const parsed = parseMessage(mediaDtmf, message);
        if (!parsed.ok) return ignore(parsed.reason);
        if (started) leg.digit(parsed.message.dtmf.digit);
        return;
      }
      case "mark": {
        const parsed = parseMessage(mediaMark, message);
        if (!parsed.ok) return ignore(parsed.reason);
        if (started) leg.markPlayed(parsed.message.mark.name);
        return;
      }
      case "stop":
        if (started) leg.streamClosed();
        return;
      default:
        return;
    }
  };
  socket.on("close", () => started && leg.streamClosed());
  socket.on("error", () => started && leg.streamClosed());
}
