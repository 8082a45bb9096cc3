// A local fake of Azure Speech at its documented boundaries (issue 13):
// - POST /cognitiveservices/v1 (text to speech): Ocp-Apim-Subscription-Key, Content-Type application/ssml+xml,
//   X-Microsoft-OutputFormat, an SSML body <speak xml:lang><voice name>text</voice></speak>; answers the audio
//   (https://learn.microsoft.com/azure/ai-services/speech-service/rest-text-to-speech).
// - GET /speech/recognition/conversation/cognitiveservices/v1 upgraded to a WebSocket: streaming recognition in the
//   service's WebSocket protocol, as the Speech SDK speaks it (azure-speech-ws.ts).
// - GET /cognitiveservices/voices/list: the voices, with ShortName and Locale.
// 401 on a bad key, 400 on a bad SSML, voice, format or locale.
//
// The fake's "speech" is a tone whose pitch stands for the sentence (one pitch per distinct sentence, spoken as
// long as a person would say it), so recognising it is exact: the recogniser measures the pitch of what it is
// sent, after mu-law and VAD cutting, and answers the sentence. The Twilio fake's customers speak and hear through
// the same voice (speak(), hear()), so a call's words survive the real audio path end to end.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mulawToPcm, pcmToMulaw } from "../../src/engine/speech/mulaw.ts";
import { FakeRecognitionEndpoint, type RecognitionHost } from "./azure-speech-ws.ts";

export const AZURE_VOICES: Record<string, string> = {
  "ar-MA-JamalNeural": "ar-MA",
  "ar-MA-MounaNeural": "ar-MA",
  "ar-DZ-AminaNeural": "ar-DZ",
  "ar-DZ-IsmaelNeural": "ar-DZ",
  "ar-TN-HediNeural": "ar-TN",
  "ar-TN-ReemNeural": "ar-TN",
  "fr-FR-DeniseNeural": "fr-FR",
  "fr-FR-HenriNeural": "fr-FR",
};
const STT_LOCALES = new Set(["ar-MA", "ar-DZ", "ar-TN", "fr-FR"]);
const SECONDS_PER_WORD = 0.4;
const BASE_HZ = 300;
const STEP_HZ = 10;
const SLOTS = 300;
const AMPLITUDE = 8000;

/** Seconds a sentence takes to say (as the other fakes count it). */
export const sayingSeconds = (text: string) => text.split(/\s+/).filter(Boolean).length * SECONDS_PER_WORD + 0.3;

function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

export class FakeAzureSpeech implements RecognitionHost {
  readonly key: string;
  /** Every synthesis: the voice, locale, text and output format asked for. */
  readonly syntheses: { voice: string; locale: string; text: string; format: string }[] = [];
  /** Every recognition: the language asked for and the text answered ("" for NoMatch). */
  readonly recognitions: { language: string; text: string; status: string }[] = [];
  readonly refusals: { path: string; status: number; detail: string }[] = [];
  readonly sttLocales: ReadonlySet<string> = STT_LOCALES;
  /** The WebSocket recognition endpoint: its sockets, phrase lists, and knobs (recognitionKey, dropNext). */
  readonly stt: FakeRecognitionEndpoint;
  /** While set, text to speech answers this status (503: the service is down) instead of audio. */
  ttsOutage: number | null = null;
  readonly #sentences: string[] = [];
  readonly #slots = new Map<string, number>();
  readonly #server: http.Server;
  #url = "";

  constructor(options: { key: string }) {
    this.key = options.key;
    this.#server = http.createServer(
      (req, res) => void this.#handle(req, res).catch((err) => res.writeHead(500).end(String(err))),
    );
    this.stt = new FakeRecognitionEndpoint(this);
    this.#server.on("upgrade", (req, socket, head) => {
      if (!this.stt.upgrade(req, socket, head)) socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n");
    });
  }

  get url(): string {
    return this.#url;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.#url;
  }

  async close(): Promise<void> {
    this.stt.close();
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  // ---- the voice ----

  #slot(text: string): number {
    const key = text.trim();
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = this.#sentences.length % SLOTS;
      this.#sentences[slot] = key;
      this.#slots.set(key, slot);
    }
    return slot;
  }

  /** The sentence as 8 kHz mu-law speech. */
  speak(text: string, seconds = sayingSeconds(text)): Uint8Array {
    const hz = BASE_HZ + STEP_HZ * this.#slot(text);
    const n = Math.round(seconds * 8000);
    const pcm = new Int16Array(n);
    const fade = 80;
    for (let i = 0; i < n; i++) {
      const env = Math.min(1, i / fade, (n - 1 - i) / fade);
      pcm[i] = Math.round(AMPLITUDE * env * Math.sin((2 * Math.PI * hz * i) / 8000));
    }
    return pcmToMulaw(pcm);
  }

  /** What a listener makes of 8 kHz mu-law audio: the sentence, or null for silence and noise. */
  hear(mulaw: Uint8Array): string | null {
    return this.recognisePcm(mulawToPcm(mulaw), 8000);
  }

  /** The sentence a stretch of 16-bit audio says, or null for silence and noise. */
  recognisePcm(pcm: Int16Array, rate: number): string | null {
    let first = -1;
    let last = -1;
    for (let i = 0; i < pcm.length; i++) {
      if (Math.abs(pcm[i]!) > 1500) {
        if (first < 0) first = i;
        last = i;
      }
    }
    if (first < 0 || last - first < rate / 10) return null;
    let crossings = 0;
    for (let i = first + 1; i <= last; i++) if (pcm[i - 1]! < 0 !== pcm[i]! < 0) crossings++;
    const hz = crossings / 2 / ((last - first) / rate);
    const slot = Math.round((hz - BASE_HZ) / STEP_HZ);
    if (slot < 0 || slot >= SLOTS || Math.abs(hz - (BASE_HZ + STEP_HZ * slot)) > STEP_HZ / 3) return null;
    return this.#sentences[slot] ?? null;
  }

  // ---- HTTP ----

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", "http://fake");
    const refuse = (status: number, detail: string) => {
      this.refusals.push({ path: url.pathname, status, detail });
      res.writeHead(status, { "content-type": "text/plain" }).end(detail);
    };
    if (req.headers["ocp-apim-subscription-key"] !== this.key)
      return refuse(401, "Access denied due to invalid subscription key or wrong API endpoint.");
    if (req.method === "GET" && url.pathname === "/cognitiveservices/voices/list") {
      const list = Object.entries(AZURE_VOICES).map(([name, locale]) => ({
        Name: `Microsoft Server Speech Text to Speech Voice (${locale}, ${name.slice(6)})`,
        ShortName: name,
        Locale: locale,
        VoiceType: "Neural",
        Status: "GA",
      }));
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(list));
    }
    if (req.method !== "POST") return refuse(405, "method not allowed");
    if (url.pathname === "/cognitiveservices/v1" && this.ttsOutage !== null)
      return refuse(this.ttsOutage, "Service Unavailable");
    if (url.pathname === "/cognitiveservices/v1") return this.#synthesize(req, body.toString("utf8"), res, refuse);
    return refuse(404, "not found");
  }

  #synthesize(
    req: http.IncomingMessage,
    ssml: string,
    res: http.ServerResponse,
    refuse: (s: number, d: string) => void,
  ): void {
    if (!(req.headers["content-type"] ?? "").startsWith("application/ssml+xml"))
      return refuse(400, "Content-Type must be application/ssml+xml");
    const format = String(req.headers["x-microsoft-outputformat"] ?? "");
    if (format !== "raw-8khz-8bit-mono-mulaw")
      return refuse(400, `output format ${format || "(none)"} is not served by this fake`);
    if (!req.headers["user-agent"]) return refuse(400, "User-Agent is required");
    const speak = /<speak\b([^>]*)>([\s\S]*)<\/speak>/.exec(ssml);
    const lang = /\sxml:lang="([^"]+)"/.exec(speak?.[1] ?? "")?.[1];
    const voice = /<voice\b[^>]*\sname="([^"]+)"[^>]*>([\s\S]*?)<\/voice>/.exec(speak?.[2] ?? "");
    if (!speak || !lang || !voice || !/\sversion="1\.0"/.test(speak[1] ?? "")) return refuse(400, "invalid SSML");
    const name = voice[1]!;
    if (!AZURE_VOICES[name]) return refuse(400, `unknown voice ${name}`);
    if (AZURE_VOICES[name] !== lang) return refuse(400, `voice ${name} does not speak ${lang}`);
    const text = unescapeXml(voice[2]!.replace(/<[^>]+>/g, "")).trim();
    this.syntheses.push({ voice: name, locale: lang, text, format });
    res.writeHead(200, { "content-type": "audio/basic" }).end(Buffer.from(this.speak(text)));
  }
}
