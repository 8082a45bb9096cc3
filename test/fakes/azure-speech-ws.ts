// The recognition side of the Azure Speech fake: the service's WebSocket protocol
// (https://docs.microsoft.com/en-us/azure/cognitive-services/Speech/api-reference-rest/websocketprotocol), as
// microsoft-cognitiveservices-speech-sdk 1.52 speaks it (read in its source: common.speech/SpeechConnectionFactory,
// ServiceRecognizerBase, SpeechServiceRecognizer, WebsocketMessageFormatter, DynamicGrammarBuilder):
// - Upgrade: GET /speech/recognition/{conversation|interactive|dictation}/cognitiveservices/v1?language=ar-MA&
//   format=detailed with Ocp-Apim-Subscription-Key (or Authorization: Bearer) and X-ConnectionId. A bad key is a
//   401 on the upgrade, an unsupported language a 400.
// - Client text messages: header lines `Path`, `X-RequestId` (32 hex digits), `X-Timestamp` (ISO 8601),
//   `Content-Type: application/json`, a blank line, a JSON body. `speech.config` (context.system, os, audio
//   source), `speech.context` (the phrase list as dgi.groups[{type: "Generic", items: [{text}]}], phraseDetection,
//   phraseOutput), `telemetry` (after each turn).
// - Client binary messages: a 2-byte big-endian header length, the same header lines with `Path: audio`, the body.
//   The first audio message of a turn has Content-Type audio/x-wav and a RIFF header as body (format tag 1 PCM or 7
//   mu-law, the sample rate); then the raw audio; an empty body ends the audio.
// - Service text messages, each with `X-RequestId` of the turn, `Path`, `Content-Type: application/json;
//   charset=utf-8`: `turn.start` {context: {serviceTag}}, `speech.startDetected` {Offset}, `speech.hypothesis`
//   {Text, Offset, Duration}, `speech.endDetected` {Offset}, `speech.phrase` {RecognitionStatus, DisplayText, Offset,
//   Duration} (with format=detailed: NBest[{Confidence, Lexical, ITN, MaskedITN, Display}]), `turn.end`. Offsets
//   and durations in 100-ns ticks from the start of the turn's audio.
// What was said comes from the shared voice (azure-speech.ts): a tone whose pitch names the sentence. Interim
// results grow by a word per 0.4 s of speech, as the voice says them.
import type http from "node:http";
import type { Duplex } from "node:stream";
import { randomBytes } from "node:crypto";
import { WebSocket, WebSocketServer } from "ws";
import { mulawToPcm } from "../../src/engine/speech/mulaw.ts";

const STT_PATHS = new Set(
  ["conversation", "interactive", "dictation"].map((m) => `/speech/recognition/${m}/cognitiveservices/v1`),
);
const LOUD = 1500;
const TICKS = 10_000_000;
/** Silence inside a turn that ends a phrase (the service's segmentation). */
const SEGMENT_SILENCE_S = 0.5;
const SECONDS_PER_WORD = 0.4;

export interface RecognitionSocket {
  language: string;
  format: string;
  /** The phrase list received in speech.context. */
  phrases: string[];
  config: unknown;
  /** Paths of the client's messages, in order. */
  received: string[];
  /** Paths and bodies of what the fake sent. */
  sent: { path: string; body: Record<string, unknown> }[];
  audioBytes: number;
  dropped: boolean;
}

export interface RecognitionHost {
  readonly key: string;
  readonly sttLocales: ReadonlySet<string>;
  recognisePcm(pcm: Int16Array, rate: number): string | null;
  recognitions: { language: string; text: string; status: string }[];
  refusals: { path: string; status: number; detail: string }[];
}

/** Parses one client message (text or binary framing) into headers (lower-cased names) and body. */
function parse(data: Buffer, binary: boolean): { headers: Record<string, string>; body: Buffer } {
  let head: string;
  let body: Buffer;
  if (binary) {
    const length = data.readUInt16BE(0);
    head = data.subarray(2, 2 + length).toString("latin1");
    body = data.subarray(2 + length);
  } else {
    const text = data.toString("utf8");
    const split = text.indexOf("\r\n\r\n");
    head = split < 0 ? text : text.slice(0, split);
    body = Buffer.from(split < 0 ? "" : text.slice(split + 4), "utf8");
  }
  const headers: Record<string, string> = {};
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

export class FakeRecognitionEndpoint {
  readonly #host: RecognitionHost;
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly sockets: RecognitionSocket[] = [];
  /** The key recognition accepts (the speech key unless a test makes them differ). */
  recognitionKey: string | null = null;
  /** Drop this many of the next recognition sockets (abruptly, no close frame) after their fifth audio message. */
  dropNext = 0;

  constructor(host: RecognitionHost) {
    this.#host = host;
  }

  /** Recognition sockets still open (a client that closes each turn's socket leaves none). */
  get openSockets(): number {
    return this.#wss.clients.size;
  }

  /** Takes the upgrade when it is for recognition; false leaves it to others. */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? "/", "http://fake");
    if (!STT_PATHS.has(url.pathname)) return false;
    const refuse = (status: number, detail: string) => {
      this.#host.refusals.push({ path: url.pathname, status, detail });
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? "Unauthorized" : "Bad Request"}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(detail)}\r\nconnection: close\r\n\r\n${detail}`,
      );
    };
    // The SDK sends its headers both as headers and in the query string (browsers cannot set WebSocket headers).
    const header = (name: string) => String(req.headers[name.toLowerCase()] ?? url.searchParams.get(name) ?? "");
    const key = header("Ocp-Apim-Subscription-Key") || header("Authorization").replace(/^Bearer /, "");
    if (key !== (this.recognitionKey ?? this.#host.key))
      return (refuse(401, "Access denied due to invalid subscription key or wrong API endpoint."), true);
    const language = url.searchParams.get("language") ?? "";
    if (!this.#host.sttLocales.has(language)) return (refuse(400, `unsupported language ${language}`), true);
    if (!/^[0-9A-Fa-f]{32}$/.test(header("X-ConnectionId"))) return (refuse(400, "X-ConnectionId is required"), true);
    this.#wss.handleUpgrade(req, socket, head, (ws) =>
      this.#serve(ws, language, url.searchParams.get("format") ?? "simple"),
    );
    return true;
  }

  close(): void {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
  }

  #serve(ws: WebSocket, language: string, format: string): void {
    const rec: RecognitionSocket = {
      language,
      format,
      phrases: [],
      config: null,
      received: [],
      sent: [],
      audioBytes: 0,
      dropped: false,
    };
    this.sockets.push(rec);
    const host = this.#host;
    const drop = this.dropNext > 0;
    if (drop) this.dropNext--;
    let audioMessages = 0;
    // The current turn: its request id, audio format and samples, and the phrase being spoken.
    let requestId = "";
    let rate = 8000;
    let encoding: "mulaw" | "pcm" = "mulaw";
    let samples = new Int16Array(0);
    let turnOpen = false;
    let segment: { start: number; lastLoud: number; text: string | null; said: string; started: boolean } | null = null;
    const send = (path: string, body: Record<string, unknown>) => {
      rec.sent.push({ path, body });
      if (ws.readyState !== WebSocket.OPEN) return;
      ws.send(
        `X-RequestId: ${requestId}\r\nContent-Type: application/json; charset=utf-8\r\nPath: ${path}\r\n\r\n${JSON.stringify(body)}`,
      );
    };
    const ticks = (sample: number) => Math.round((sample / rate) * TICKS);
    const close = (code: number, reason: string) => {
      host.refusals.push({ path: "websocket", status: code, detail: reason });
      ws.close(code, reason);
    };
    const endSegment = () => {
      if (!segment) return;
      const s = segment;
      segment = null;
      if (!s.started) return;
      const text = host.recognisePcm(samples.subarray(s.start, s.lastLoud + 1), rate);
      send("speech.endDetected", { Offset: ticks(s.lastLoud + 1) });
      const base = { Offset: ticks(s.start), Duration: ticks(s.lastLoud + 1 - s.start) };
      host.recognitions.push({ language, text: text ?? "", status: text ? "Success" : "NoMatch" });
      if (!text) return send("speech.phrase", { RecognitionStatus: "NoMatch", ...base });
      const phrase: Record<string, unknown> = { RecognitionStatus: "Success", DisplayText: text, ...base };
      if (format === "detailed") {
        const lexical = text.toLowerCase();
        phrase["NBest"] = [
          {
            Confidence: rec.phrases.some((p) => text.includes(p)) ? 0.97 : 0.93,
            Lexical: lexical,
            ITN: lexical,
            MaskedITN: lexical,
            Display: text,
          },
        ];
      }
      send("speech.phrase", phrase);
    };
    // Follows the turn's audio from `from`: phrases open on loud audio and close on the service's segmentation silence.
    const listen = (from: number) => {
      for (let i = from; i < samples.length; i++) {
        const loud = Math.abs(samples[i]!) > LOUD;
        if (loud) {
          segment ??= { start: i, lastLoud: i, text: null, said: "", started: false };
          segment.lastLoud = i;
        } else if (segment && i - segment.lastLoud > SEGMENT_SILENCE_S * rate) {
          endSegment();
        }
      }
      const s = segment;
      if (!s || s.lastLoud - s.start < rate / 10) return;
      s.text ??= host.recognisePcm(samples.subarray(s.start, s.lastLoud + 1), rate);
      if (!s.started) {
        s.started = true;
        send("speech.startDetected", { Offset: ticks(s.start) });
      }
      if (!s.text) return;
      const words = s.text.split(/\s+/).filter(Boolean);
      const heard = words.slice(0, Math.max(1, Math.ceil((s.lastLoud - s.start) / rate / SECONDS_PER_WORD))).join(" ");
      if (heard !== s.said) {
        s.said = heard;
        send("speech.hypothesis", { Text: heard, Offset: ticks(s.start), Duration: ticks(s.lastLoud + 1 - s.start) });
      }
    };
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      const { headers, body } = parse(data, isBinary);
      const path = headers["path"] ?? "";
      rec.received.push(path);
      if (!/^[0-9A-Fa-f]{32}$/.test(headers["x-requestid"] ?? ""))
        return close(1007, `${path}: X-RequestId missing or malformed`);
      if (Number.isNaN(Date.parse(headers["x-timestamp"] ?? "")))
        return close(1007, `${path}: X-Timestamp missing or malformed`);
      requestId = headers["x-requestid"]!;
      if (!isBinary) {
        if (!(headers["content-type"] ?? "").startsWith("application/json"))
          return close(1007, `${path}: Content-Type must be application/json`);
        let json: Record<string, unknown>;
        try {
          json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
        } catch {
          return close(1007, `${path}: the body is not JSON`);
        }
        if (path === "speech.config") rec.config = json;
        if (path === "speech.context") {
          const groups =
            (json["dgi"] as { groups?: { type?: string; items?: { text?: string }[] }[] } | undefined)?.groups ?? [];
          rec.phrases = groups
            .filter((g) => g.type === "Generic")
            .flatMap((g) => (g.items ?? []).map((i) => String(i.text ?? "")));
        }
        return;
      }
      if (path !== "audio") return close(1007, `unexpected binary message ${path}`);
      audioMessages++;
      if (drop && audioMessages === 5) {
        rec.dropped = true;
        return ws.terminate();
      }
      if (headers["content-type"] === "audio/x-wav") {
        // A turn's first message: the RIFF header of its audio.
        if (body.length < 44 || body.toString("latin1", 0, 4) !== "RIFF" || body.toString("latin1", 8, 12) !== "WAVE")
          return close(1007, "audio/x-wav without a RIFF header");
        const tag = body.readUInt16LE(20);
        const bits = body.readUInt16LE(34);
        if (!((tag === 7 && bits === 8) || (tag === 1 && bits === 16)) || body.readUInt16LE(22) !== 1)
          return close(1007, `unsupported audio format tag ${tag}/${bits} bits`);
        encoding = tag === 7 ? "mulaw" : "pcm";
        rate = body.readUInt32LE(24);
        samples = new Int16Array(0);
        segment = null;
        if (!turnOpen) {
          turnOpen = true;
          send("turn.start", { context: { serviceTag: randomBytes(16).toString("hex") } });
        }
        return;
      }
      if (!turnOpen) return close(1007, "audio before its audio/x-wav header");
      if (body.length === 0) {
        // The end of the audio: the last phrase, and the turn is over.
        endSegment();
        turnOpen = false;
        return send("turn.end", {});
      }
      rec.audioBytes += body.length;
      const pcm =
        encoding === "mulaw"
          ? mulawToPcm(new Uint8Array(body))
          : new Int16Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.length - (body.length % 2)));
      const from = samples.length;
      const joined = new Int16Array(from + pcm.length);
      joined.set(samples);
      joined.set(pcm, from);
      samples = joined;
      listen(from);
    });
    ws.on("error", () => {});
  }
}
