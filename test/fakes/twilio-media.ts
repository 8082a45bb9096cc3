// The Media Streams side of the Twilio fake (issue 13): for a call whose TwiML is <Connect><Stream url>, Twilio
// opens the signed WebSocket and streams the callee's audio as the documented messages
// (https://www.twilio.com/docs/voice/media-streams/websocket-messages): `connected`, `start` (mediaFormat
// audio/x-mulaw, 8000 Hz, 1 channel), one `media` frame of 20 ms base64 mu-law after another at the real pace (the
// fake's clock, compressed by `speed`), `dtmf`, `mark` (echoed once the audio sent before it has played, or when a
// `clear` drops it) and `stop`. It plays what our server sends (`media`, `mark`, `clear`) at the same pace.
//
// The callee is the simulator's customer: it hears the agent's audio through a voice (the Azure fake's, whose
// audio carries its sentence), answers with customer.reply(), and speaks its answer as audio the same way.
import { randomBytes } from "node:crypto";
import { WebSocket } from "ws";
import { type Hostility, sendHostileFrames } from "./hostile-frames.ts";
import type { SimulatedCustomer } from "../../src/engine/dialogue/types.ts";
import { cueOf } from "../../src/engine/telephony/simulator/customer.ts";

const FRAME = 160;
const SILENCE = new Uint8Array(FRAME).fill(0xff);
/** Wall milliseconds between clock ticks (each sends the frames that fell due). */
const TICK_MS = 5;

/** What a customer speaks and hears with. */
export interface MediaVoice {
  speak(text: string, seconds?: number): Uint8Array;
  hear(mulaw: Uint8Array): string | null;
}

export interface MediaCallStats {
  framesIn: number;
  framesOut: number;
  clears: number;
  /** Frame number (20 ms each) at which the customer started talking over the agent, and when `clear` came. */
  bargeIn: { speechFrame: number; clearFrame: number | null } | null;
  /** Milliseconds of carrier time from the end of each customer turn to the agent's next audio. */
  turnGapsMs: number[];
  /** The keys the customer pressed (`dtmf` messages sent), in order. */
  digitsSent: string;
  /** Frame at which the customer's filler over the agent began (MediaStreamRun.filler). */
  fillerFrame: number | null;
}

export interface MediaStreamRun {
  url: string;
  signature: string;
  accountSid: string;
  callSid: string;
  from: string;
  to: string;
  speed: number;
  customer: SimulatedCustomer;
  lang: string;
  voice: MediaVoice;
  customParameters: Record<string, string>;
  /** The customer talks over the agent's first line. */
  bargeIn: boolean;
  /** The customer mumbles until offered the keypad, then presses these keys (TwilioScenario.keypad). */
  keypad: string | null;
  /** The customer says this short filler halfway through the agent's first line, then answers it as usual. */
  filler: string | null;
  /** Hostile frames right after `start` (issue 30.3; hostile-frames.ts). */
  hostile?: Hostility | null;
  transcript: { speaker: "agent" | "customer"; text: string }[];
  messages: Record<string, unknown>[];
  stats: MediaCallStats;
  onSocket(socket: WebSocket): void;
  onRefused(status: number): void;
  /** The stream ended (the customer hung up, or our side closed it): the call completes. */
  onEnd(): void;
}

type Outbound =
  | { kind: "audio"; bytes: Uint8Array }
  | { kind: "mark"; name: string; text: string | null; answered: boolean };

export function runMediaStream(run: MediaStreamRun): void {
  const socket = new WebSocket(run.url, { headers: { "x-twilio-signature": run.signature } });
  run.onSocket(socket);
  const streamSid = `MZ${randomBytes(16).toString("hex")}`;
  let sequence = 0;
  let frame = 0;
  let started = 0;
  let timer: NodeJS.Timeout | null = null;
  let ended = false;
  let turn = 0;
  let speaking: Uint8Array = new Uint8Array(0);
  let lastCustomerEnd: number | null = null;
  const events: { at: number; run: () => void }[] = [];
  const playback: Outbound[] = [];
  let agentAudio: Uint8Array[] = [];
  const machine = run.customer.pickup === "voicemail";
  const send = (m: Record<string, unknown>) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ ...m, sequenceNumber: String(++sequence) }));
  };
  const at = (frames: number, fn: () => void) => events.push({ at: frame + Math.max(0, Math.round(frames)), run: fn });
  const say = (text: string, seconds?: number) => {
    run.transcript.push({ speaker: "customer", text });
    const audio = run.voice.speak(text, seconds);
    const joined = new Uint8Array(speaking.length + audio.length);
    joined.set(speaking);
    joined.set(audio, speaking.length);
    speaking = joined;
    return audio.length / FRAME;
  };
  const end = () => {
    if (ended) return;
    ended = true;
    if (timer) clearInterval(timer);
    send({ event: "stop", streamSid, stop: { accountSid: run.accountSid, callSid: run.callSid } });
    socket.close();
  };
  // The customer's answer to a line of the agent's, once it has been heard (in full, or cut off by the customer).
  const answer = (text: string | null, bargeInAfterFrames?: number) => {
    if (machine || text === null) return;
    const persona = run.customer.reply(text, turn++);
    const cue = cueOf(text);
    const reply =
      run.keypad === null || !["keypad", "confirm", "check"].includes(cue)
        ? persona
        : cue === "keypad"
          ? { text: null, digits: run.keypad, hangup: false, thinkSeconds: 1 }
          : { text: "euh...", hangup: false, thinkSeconds: 1 };
    at(bargeInAfterFrames ?? Math.max(0, reply.thinkSeconds) * 50, () => {
      for (const digit of reply.digits ?? "") {
        send({ event: "dtmf", streamSid, dtmf: { track: "inbound_track", digit } });
        run.stats.digitsSent += digit;
      }
      const frames = reply.text ? say(reply.text) : 0;
      if (reply.text && run.stats.bargeIn && run.stats.bargeIn.speechFrame < 0) run.stats.bargeIn.speechFrame = frame;
      if (reply.hangup) at(frames + 10, end);
    });
  };
  const step = () => {
    for (const e of events.splice(0).sort((a, b) => a.at - b.at)) {
      if (e.at <= frame) e.run();
      else events.push(e);
    }
    // The customer's side: speech, or the line's silence.
    let out: Uint8Array = SILENCE;
    if (speaking.length > 0) {
      out = speaking.subarray(0, FRAME);
      speaking = speaking.subarray(FRAME);
      if (speaking.length === 0) lastCustomerEnd = frame;
      if (out.length < FRAME) {
        const padded = new Uint8Array(FRAME).fill(0xff);
        padded.set(out);
        out = padded;
      }
    }
    send({
      event: "media",
      streamSid,
      media: {
        track: "inbound",
        chunk: String(frame + 1),
        timestamp: String(frame * 20),
        payload: Buffer.from(out).toString("base64"),
      },
    });
    run.stats.framesIn++;
    // The agent's side: one frame of audio played, and the marks it reaches.
    let budget = FRAME;
    while (playback.length > 0) {
      const head = playback[0]!;
      if (head.kind === "mark") {
        playback.shift();
        send({ event: "mark", streamSid, mark: { name: head.name } });
        if (!head.answered) answer(head.text);
        continue;
      }
      if (budget === 0) break;
      const take = Math.min(budget, head.bytes.length);
      head.bytes = head.bytes.subarray(take);
      budget -= take;
      if (head.bytes.length === 0) playback.shift();
    }
    frame++;
  };
  socket.on("unexpected-response", (_req, res) => {
    run.onRefused(res.statusCode ?? 0);
    ended = true;
    run.onEnd();
  });
  socket.on("error", () => {});
  socket.on("open", () => {
    socket.send(JSON.stringify({ event: "connected", protocol: "Call", version: "1.0.0" }));
    send({
      event: "start",
      streamSid,
      start: {
        streamSid,
        accountSid: run.accountSid,
        callSid: run.callSid,
        tracks: ["inbound"],
        customParameters: run.customParameters,
        mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
      },
    });
    if (run.hostile) void sendHostileFrames(socket, "media", run.hostile);
    started = performance.now();
    timer = setInterval(() => {
      const due = Math.floor(((performance.now() - started) * run.speed) / 20);
      while (frame < due && !ended) step();
    }, TICK_MS);
    if (machine) {
      const greeting =
        run.customer.announcement?.text ??
        (run.lang.startsWith("fr")
          ? "Bonjour, laissez votre message après le bip."
          : "مرحبا، المرجو ترك رسالتكم بعد الإشارة.");
      at(10, () => {
        const frames = say(greeting);
        if (run.customer.announcement?.closesLine) at(frames + 50, end);
      });
    }
  });
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    if (message["event"] !== "media") run.messages.push(message);
    switch (message["event"]) {
      case "media": {
        const payload = Buffer.from(String((message["media"] as Record<string, unknown>)?.["payload"] ?? ""), "base64");
        if (agentAudio.length === 0 && lastCustomerEnd !== null) {
          run.stats.turnGapsMs.push((frame - lastCustomerEnd) * 20);
          lastCustomerEnd = null;
        }
        agentAudio.push(payload);
        playback.push({ kind: "audio", bytes: payload });
        run.stats.framesOut++;
        return;
      }
      case "mark": {
        const text = run.voice.hear(Buffer.concat(agentAudio));
        agentAudio = [];
        if (text) run.transcript.push({ speaker: "agent", text });
        const name = String((message["mark"] as Record<string, unknown>)?.["name"] ?? "");
        // Talking over the agent's first line, a third of the way into it.
        const cutIn = run.bargeIn && turn === 0 && !machine && text !== null;
        if (cutIn) {
          const queued = playback.reduce((n, p) => n + (p.kind === "audio" ? p.bytes.length : 0), 0) / FRAME;
          run.stats.bargeIn = { speechFrame: -1, clearFrame: null };
          answer(text, queued / 3);
        }
        if (run.filler && turn === 0 && !machine && text !== null && run.stats.fillerFrame === null) {
          const queued = playback.reduce((n, p) => n + (p.kind === "audio" ? p.bytes.length : 0), 0) / FRAME;
          run.stats.fillerFrame = -1;
          at(queued / 2, () => {
            run.stats.fillerFrame = frame;
            say(run.filler!, 0.3);
          });
        }
        playback.push({ kind: "mark", name, text, answered: cutIn });
        return;
      }
      case "clear": {
        run.stats.clears++;
        if (run.stats.bargeIn && run.stats.bargeIn.clearFrame === null) run.stats.bargeIn.clearFrame = frame;
        // The buffered audio is dropped; its marks come back at once.
        for (const p of playback.splice(0))
          if (p.kind === "mark") send({ event: "mark", streamSid, mark: { name: p.name } });
        return;
      }
      default:
        return;
    }
  });
  socket.on("close", () => {
    ended = true;
    if (timer) clearInterval(timer);
    run.onEnd();
  });
}
