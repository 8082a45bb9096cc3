// What an adversary (or a broken carrier) can put on a signed carrier WebSocket (issue 30.3): frames that are not the
// documented JSON object, known messages with fields of the wrong type, a binary frame, a flood of 1,000 frames in
// a second, and a 1 MB frame. The fakes send them on the live call's own socket, between the real messages.
import type { WebSocket } from "ws";

/** `junk`: every bad frame then the flood, the call going on; `oversized`: one 1 MB frame (the socket is closed for it). */
export type Hostility = "junk" | "oversized";

const NOT_OBJECTS = ["null", "true", "false", "0", "-1e999", "[]", "[{}]", '"x"', "", "{", "\u0000", "{}"];

/** Known message types with fields of the wrong type, per socket; none of them may end or change the call. */
export const WRONG_FIELDS = {
  relay: [
    { type: 5 },
    { type: null },
    { type: "prompt", voicePrompt: 5, last: true },
    { type: "prompt", voicePrompt: { a: 1 }, last: "yes" },
    { type: "prompt", voicePrompt: null },
    { type: "dtmf", digit: null },
    { type: "dtmf", digit: ["1"] },
    { type: "dtmf" },
    { type: "error", description: { nested: [1, 2] } },
    { type: "error" },
    { type: "unknown-type" },
    { type: "__proto__" },
  ],
  media: [
    { event: 5 },
    { event: "start", start: null },
    { event: "start", start: "x" },
    { event: "start", start: { mediaFormat: null, callSid: 5 } },
    { event: "media", media: null },
    { event: "media", media: { payload: 5 } },
    { event: "media", media: "x" },
    { event: "dtmf", dtmf: "x" },
    { event: "dtmf", dtmf: { digit: 1 } },
    { event: "mark", mark: null },
    { event: "mark", mark: { name: {} } },
  ],
  jambonz: [
    { type: 5 },
    { type: "verb:hook", msgid: 5 },
    { type: "verb:hook", data: null },
    { type: "verb:hook", data: [] },
    { type: "verb:hook", data: "x" },
    { type: "verb:hook", msgid: "m1", data: { speech: { transcripts: [{ alternatives: [{ transcript: 5 }] }] } } },
    { type: "verb:hook", msgid: "m2", data: { speech: { transcripts: "x" }, digits: 7 } },
    { type: "verb:hook", msgid: "m3", data: { speech: null } },
    { type: "verb:hook", msgid: "m4", data: { speech: { alternatives: [{ transcript: { a: 1 } }] } } },
    { type: "call:status", data: null },
    { type: "call:status", data: { call_status: 5 } },
    { type: "jambonz:error", data: "x" },
    { type: "session:new", data: null },
  ],
} as const;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the hostile frames on an open socket; resolves when all are sent (or the socket closed). */
export async function sendHostileFrames(
  socket: WebSocket,
  kind: keyof typeof WRONG_FIELDS,
  hostility: Hostility,
): Promise<void> {
  const open = () => socket.readyState === socket.OPEN;
  if (hostility === "oversized") {
    if (open()) socket.send("x".repeat(1024 * 1024));
    return;
  }
  for (const frame of NOT_OBJECTS) if (open()) socket.send(frame);
  for (const message of WRONG_FIELDS[kind]) if (open()) socket.send(JSON.stringify(message));
  if (open()) socket.send(Buffer.from([0xff, 0x00, 0x7b, 0x7d]), { binary: true });
  // 1,000 frames in a second: ten bursts of a hundred.
  for (let burst = 0; burst < 10 && open(); burst++) {
    for (let i = 0; i < 100 && open(); i++)
      socket.send(i % 2 ? "null" : JSON.stringify(WRONG_FIELDS[kind][i % WRONG_FIELDS[kind].length]));
    await pause(100);
  }
}
