// The messages Twilio sends on its WebSockets, as documented: each is parsed before a field is read (issue 30.3).
import { z } from "zod";

// ---- Twilio ConversationRelay (https://www.twilio.com/docs/voice/conversationrelay/websocket-messages) ----

export const relaySetup = z.looseObject({ type: z.literal("setup"), callSid: z.string() });
export const relayPrompt = z.looseObject({
  type: z.literal("prompt"),
  voicePrompt: z.string().max(100_000).optional(),
  lang: z.string().optional(),
  last: z.boolean().optional(),
});
export const relayDtmf = z.looseObject({ type: z.literal("dtmf"), digit: z.string() });
export const relayError = z.looseObject({ type: z.literal("error"), description: z.unknown().optional() });

// ---- Twilio Media Streams (https://www.twilio.com/docs/voice/media-streams/websocket-messages) ----

export const mediaStart = z.looseObject({
  event: z.literal("start"),
  streamSid: z.string().optional(),
  start: z.looseObject({
    streamSid: z.string().optional(),
    callSid: z.string().optional(),
    mediaFormat: z
      .looseObject({ encoding: z.string().optional(), sampleRate: z.union([z.number(), z.string()]).optional() })
      .optional(),
  }),
});
export const mediaMedia = z.looseObject({
  event: z.literal("media"),
  media: z.looseObject({ payload: z.string(), track: z.string().optional() }),
});
export const mediaDtmf = z.looseObject({ event: z.literal("dtmf"), dtmf: z.looseObject({ digit: z.string() }) });
export const mediaMark = z.looseObject({ event: z.literal("mark"), mark: z.looseObject({ name: z.string() }) });
