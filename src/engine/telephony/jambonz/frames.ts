// The messages jambonz sends on its WebSocket, as documented: each is parsed before a field is read (issue 30.3).
import { z } from "zod";

// ---- jambonz WebSocket API (https://docs.jambonz.org/reference/websocket-api/call-control/overview) ----

/** Every message from jambonz carries a msgid (acked) and, on session and hook messages, a data object. */
export const jambonzMessage = z.looseObject({
  type: z.string(),
  msgid: z.string().max(256).optional(),
  call_sid: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
