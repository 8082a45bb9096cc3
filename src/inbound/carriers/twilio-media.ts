// Twilio's Media Streams WebSocket (issue 13), beside the ConversationRelay one in twilio.ts: the status, AMD and
// recording callbacks are twilio.ts's own, shared. The handshake must carry a valid X-Twilio-Signature
// (https://www.twilio.com/docs/global-infrastructure/firewall-configurations/media-streams-configuration: "validate
// the X-Twilio-Signature header"), computed as for the relay socket over the wss:// URL with no parameters.
// Messages: https://www.twilio.com/docs/voice/media-streams/websocket-messages (see media-streams.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import twilio from "twilio";
import type { WebSocket } from "ws";
import type { MediaStreamLeg, MediaStreamLines } from "../../engine/telephony/twilio/media-streams.ts";
import { twilioPaths } from "../../engine/telephony/twilio/provider.ts";
import { mediaDtmf, mediaMark, mediaMedia, mediaStart, parseFrame, parseMessage, RefusedFrames } from "./frames.ts";
import { HIDDEN, UUID } from "./shared.ts";

export interface TwilioMediaInboundOptions {
  authToken: string;
  publicUrl: string;
  media: MediaStreamLines;
}

export function twilioMediaRoutes(app: FastifyInstance, options: TwilioMediaInboundOptions): void {
  const wsUrl = options.publicUrl.replace(/\/+$/, "").replace(/^http/, "ws");
  const refuse = (request: FastifyRequest, reply: FastifyReply, status: number, detail: string) => {
    request.log.warn({ carrier: "twilio", path: request.url.split("?")[0], status }, `carrier request refused: ${detail}`);
    return reply.code(status).send({ detail });
  };
  app.get("/carriers/twilio/calls/:callId/media", {
    ...HIDDEN,
    websocket: true,
    preValidation: async (request: FastifyRequest<{ Params: { callId: string } }>, reply) => {
      const { callId } = request.params;
      if (!UUID.test(callId)) return refuse(request, reply, 404, "unknown call");
      const header = request.headers["x-twilio-signature"];
      const valid = typeof header === "string" && header.length > 0 && twilio.validateRequest(options.authToken, header, `${wsUrl}${twilioPaths.media(callId)}`, {});
      if (!valid) {
        // A security event: logged as one, and the call, if it never gets a genuine stream, ends carrier_auth_failed.
        const leg = options.media.get(callId);
        leg?.socketRefused();
        request.log.warn({ carrier: "twilio", security: true, event: "carrier_auth_failed", live_call: leg !== undefined }, "Media Streams socket refused: invalid X-Twilio-Signature");
        return refuse(request, reply, 403, "invalid X-Twilio-Signature");
      }
      if (!options.media.get(callId)) return refuse(request, reply, 404, "no live call here");
    },
  }, (socket: WebSocket, request: FastifyRequest<{ Params: { callId: string } }>) => {
    mediaStream(socket, request, options.media.get(request.params.callId));
  });
}

function mediaStream(socket: WebSocket, request: FastifyRequest, leg: MediaStreamLeg | undefined): void {
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
    if (refused.note(reason)) request.log.warn({ carrier: "twilio", refused: refused.count }, `Media Streams sent ${reason}: ignored`);
  };
  // No frame may raise out of here (issue 30.3): each is parsed before a field is read; the rest is logged and ignored.
  socket.on("message", (data, isBinary) => {
    const frame = parseFrame(data, isBinary, "event");
    if (!frame.ok) return ignore(frame.reason);
    try {
      onMediaMessage(frame.message);
    } catch (err) {
      request.log.error({ carrier: "twilio", err }, "a Media Streams message could not be handled: ignored");
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
        if (format.encoding !== undefined && (format.encoding !== "audio/x-mulaw" || Number(format.sampleRate) !== 8000)) {
          request.log.warn({ carrier: "twilio", format }, "Media Streams started in a format other than 8 kHz mu-law: closing");
          socket.close(1003, "unsupported media format");
          return;
        }
        if (started) return ignore("a second start");
        started = leg.streamStarted(wrapped, { streamSid, callSid: start.callSid ?? "" });
        if (!started) {
          request.log.warn({ carrier: "twilio" }, "carrier request refused: a Media Stream for another call, or a second one");
          socket.close(1008, "not this call");
        }
        return;
      }
      case "media": {
        const parsed = parseMessage(mediaMedia, message);
        if (!parsed.ok) return ignore(parsed.reason);
        const media = parsed.message.media;
        // Only the customer's side: a bidirectional stream carries the inbound track.
        if (started && (media.track === undefined || media.track === "inbound")) leg.media(Buffer.from(media.payload, "base64"));
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
