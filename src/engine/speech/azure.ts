// Azure Speech as a SpeechProvider (issue 13): synthesis over its documented REST endpoint, recognition over its
// WebSocket protocol:
// - Text to speech: POST https://{region}.tts.speech.microsoft.com/cognitiveservices/v1 with headers
//   Ocp-Apim-Subscription-Key, Content-Type: application/ssml+xml, X-Microsoft-OutputFormat and User-Agent, and an
//   SSML body <speak version="1.0" xml:lang><voice name>...</voice></speak>; the body of the answer is the audio
//   (https://learn.microsoft.com/azure/ai-services/speech-service/rest-text-to-speech). We ask for
//   raw-8khz-8bit-mono-mulaw: telephone audio as Media Streams carries it, so nothing is resampled to play it.
// - Speech to text: streaming recognition over the service's WebSocket protocol through Microsoft's SDK, one stream
//   per customer turn, with interim and final results, confidence and the order's phrase list (azure-recognition.ts).
//   The REST API for short audio that the first version used (final results only, no phrase lists) is gone.
import { AzureSpeechError, recognizeWithAzure } from "./azure-recognition.ts";
import { mulawToPcm } from "./mulaw.ts";
import type { Recognition, RecognizeOptions, SpeechProvider, SynthesizedSpeech } from "./provider.ts";
import { resample } from "./wav.ts";

export { AzureSpeechError };

/** The documented output format name for 8 kHz 8-bit mono mu-law without a header. */
export const AZURE_MULAW_FORMAT = "raw-8khz-8bit-mono-mulaw";
const TTS_PATH = "/cognitiveservices/v1";
const TTS_CACHE_ENTRIES = 500;

/** Voices per dialect that Azure lists for the locales (ma ar-MA, dz ar-DZ, tn ar-TN, fr fr-FR). */
export const DEFAULT_AZURE_VOICES: Record<"ma" | "dz" | "tn" | "fr", string> = {
  ma: "ar-MA-MounaNeural",
  dz: "ar-DZ-AminaNeural",
  tn: "ar-TN-ReemNeural",
  fr: "fr-FR-DeniseNeural",
};

export interface AzureSpeechOptions {
  key: string;
  /** The Speech resource's region (westeurope...): builds the two documented hosts. */
  region?: string | undefined;
  /** One origin for both APIs instead (a sovereign cloud, or the local fake in tests). */
  endpoint?: string | undefined;
  /** Milliseconds before a request (or a recognition's final result, counted from the end of its audio) is given up. */
  timeoutMs?: number;
}

/** Escapes text for an SSML element. */
export function ssmlText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export function ssml(text: string, locale: string, voice: string): string {
  return (
    `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${ssmlText(locale)}">` +
    `<voice name="${ssmlText(voice)}">${ssmlText(text)}</voice></speak>`
  );
}

export class AzureSpeech implements SpeechProvider {
  readonly name = "azure";
  readonly partials = true;
  readonly #key: string;
  readonly #region: string | undefined;
  readonly #tts: string;
  /** ws(s):// origin of recognition when an endpoint is configured; the SDK builds the region's host otherwise. */
  readonly #sttHost: string | undefined;
  readonly #timeoutMs: number;
  // The agent's fixed lines (greetings, the keypad offer, goodbyes) repeat across calls: synthesised once, billed once.
  readonly #cache = new Map<string, Promise<Uint8Array>>();

  constructor(options: AzureSpeechOptions) {
    const origin = options.endpoint?.replace(/\/+$/, "");
    if (!origin && !options.region) throw new Error("Azure Speech needs a region or an endpoint");
    this.#key = options.key;
    this.#tts = `${origin ?? `https://${options.region}.tts.speech.microsoft.com`}${TTS_PATH}`;
    this.#region = options.region;
    this.#sttHost = origin?.replace(/^http/, "ws");
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  async synthesize(
    text: string,
    options: { locale: string; voice?: string; sampleRate?: number },
  ): Promise<SynthesizedSpeech> {
    const voice = options.voice ?? defaultVoice(options.locale);
    const key = `${voice}|${options.locale}|${text}`;
    let audio = this.#cache.get(key);
    if (audio) {
      this.#cache.delete(key); // most recently used goes last
    } else {
      audio = this.#fetch(this.#tts, {
        method: "POST",
        headers: {
          "Ocp-Apim-Subscription-Key": this.#key,
          "Content-Type": "application/ssml+xml",
          "X-Microsoft-OutputFormat": AZURE_MULAW_FORMAT,
          "User-Agent": "wakha",
        },
        body: ssml(text, options.locale, voice),
      }).then(async (res) => new Uint8Array(await res.arrayBuffer()));
      audio.catch(() => this.#cache.delete(key));
    }
    this.#cache.set(key, audio);
    if (this.#cache.size > TTS_CACHE_ENTRIES) this.#cache.delete(this.#cache.keys().next().value!);
    const mulaw = await audio;
    const samples = mulawToPcm(mulaw);
    if (options.sampleRate && options.sampleRate !== 8000)
      return { sampleRate: options.sampleRate, samples: resample(samples, 8000, options.sampleRate) };
    return { sampleRate: 8000, samples, mulaw };
  }

  /** Streams the audio to the service as it comes; interim results, then the final ones (azure-recognition.ts). */
  recognize(audio: AsyncIterable<Uint8Array>, options: RecognizeOptions): AsyncIterable<Recognition> {
    return recognizeWithAzure(
      { key: this.#key, region: this.#region, host: this.#sttHost, finalTimeoutMs: this.#timeoutMs },
      audio,
      options,
    );
  }

  async #fetch(url: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(this.#timeoutMs) });
    } catch (err) {
      // The agent's next line cannot be spoken: the call ends as speech_unavailable, not as our error (issue 30.8).
      throw new AzureSpeechError(
        `Azure Speech is unreachable: ${err instanceof Error ? err.message : String(err)}`,
        undefined,
        "speech_unavailable",
      );
    }
    if (!res.ok) {
      const detail = (await res.text().catch(() => "")).slice(0, 200);
      const down = res.status >= 500 || res.status === 429;
      throw new AzureSpeechError(
        `Azure Speech answered ${res.status}${detail ? `: ${detail}` : ""}`,
        res.status,
        down ? "speech_unavailable" : undefined,
      );
    }
    return res;
  }

  async close(): Promise<void> {}
}

function defaultVoice(locale: string): string {
  const dialect = locale === "fr-FR" ? "fr" : (locale.slice(3).toLowerCase() as "ma" | "dz" | "tn");
  return DEFAULT_AZURE_VOICES[dialect] ?? DEFAULT_AZURE_VOICES.fr;
}
