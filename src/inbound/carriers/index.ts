// The carriers' signed endpoints under /carriers, outside /v1 (issue 12): each configured carrier's callbacks
// and WebSocket. Registered only for the carriers a channel uses; bodies are small and form- or JSON-encoded.
import websocket from "@fastify/websocket";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.ts";
import type { AppContext } from "../../context.ts";
import { carrierLinesFor } from "../../engine/telephony/text-carrier.ts";
import { jambonzRoutes } from "./jambonz.ts";
import { twilioRoutes } from "./twilio.ts";
import { twilioMediaRoutes } from "./twilio-media.ts";
import { mediaLinesFor } from "../../engine/telephony/twilio/media-streams.ts";

/** Carrier callbacks are a few hundred bytes; anything much larger is not a carrier's. */
const CARRIER_BODY_LIMIT = 64 * 1024;

/** The carriers the open channels use (config.telephony). */
export function carriersInUse(config: Pick<Config, "telephony">): Set<string> {
  return new Set([...config.telephony.values()].filter((name) => name !== "simulator"));
}

export async function carrierRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const used = carriersInUse(ctx.config);
  if (used.size === 0) return;
  const config = ctx.config;
  // jambonz asks for the subprotocol ws.jambonz.org; ConversationRelay asks for none.
  await app.register(websocket, {
    options: { maxPayload: CARRIER_BODY_LIMIT, handleProtocols: (protocols) => (protocols.has("ws.jambonz.org") ? "ws.jambonz.org" : false) },
  });
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: CARRIER_BODY_LIMIT }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  // JSON callbacks are verified over their raw bytes (Jambonz-Signature), so the raw body is kept.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: CARRIER_BODY_LIMIT }, (request, body, done) => {
    (request as typeof request & { rawBody?: string }).rawBody = body as string;
    try {
      done(null, JSON.parse(body as string));
    } catch (err) {
      (err as { statusCode?: number }).statusCode = 400;
      done(err as Error, undefined);
    }
  });
  const lines = carrierLinesFor(config);
  // Media Streams calls share ConversationRelay's status, AMD and recording callbacks.
  if (used.has("twilio") || used.has("twilio-media")) {
    twilioRoutes(app, ctx, { authToken: config.WAKHA_TWILIO_AUTH_TOKEN!, publicUrl: config.WAKHA_PUBLIC_URL!, lines });
  }
  if (used.has("twilio-media")) {
    twilioMediaRoutes(app, { authToken: config.WAKHA_TWILIO_AUTH_TOKEN!, publicUrl: config.WAKHA_PUBLIC_URL!, media: mediaLinesFor(config) });
  }
  if (used.has("jambonz")) {
    jambonzRoutes(app, ctx, {
      webhookSecret: config.WAKHA_JAMBONZ_WEBHOOK_SECRET!, lines, voices: config.WAKHA_JAMBONZ_VOICES ?? {},
      ttsVendor: config.WAKHA_JAMBONZ_TTS_VENDOR, sttVendor: config.WAKHA_JAMBONZ_STT_VENDOR,
    });
  }
}
