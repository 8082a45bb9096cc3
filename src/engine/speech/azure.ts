// Azure Speech as a SpeechProvider (issue 13), over its documented REST endpoints:
// - Text to speech: POST https://{region}.tts.speech.microsoft.com/cognitiveservices/v1 with headers
//   Ocp-Apim-Subscription-Key, Content-Type: application/ssml+xml, X-Microsoft-OutputFormat and User-Agent, and an
//   SSML body <speak version="1.0" xml:lang><voice name>...</voice></speak>; the body of the answer is the audio
//   (https://learn.microsoft.com/azure/ai-services/speech-service/rest-text-to-speech). We ask for
//   raw-8khz-8bit-mono-mulaw: telephone audio as Media Streams carries it, so nothing is resampled to play it.
// - Speech to text, REST API for short audio: POST https://{region}.stt.speech.microsoft.com/speech/recognition/
//   conversation/cognitiveservices/v1?language=ar-MA&format=detailed, Content-Type: audio/wav; codecs=audio/pcm;
//   samplerate=16000 (the only WAV it takes: 16 kHz PCM mono), up to 60 s of audio, final results only; the answer
//   has RecognitionStatus, DisplayText, Offset and Duration (100-ns ticks) and, with format=detailed, NBest[] with
//   Confidence, Lexical, ITN, MaskedITN, Display
//   (https://learn.microsoft.com/azure/ai-services/speech-service/rest-speech-to-text-short).
// The voice activity detector cuts the customer's turn, so one turn is one short-audio request; interim results and
// phrase lists need the Speech SDK's WebSocket protocol, which this adapter does not speak (docs/going-live.md).
import type { AudioFormat } from "./audio-format.ts";
import { mulawToPcm } from "./mulaw.ts";
import type { Recognition, SpeechProvider, SynthesizedSpeech } from "./provider.ts";
import { encodeWav, resample } from "./wav.ts";

/** The documented output format name for 8 kHz 8-bit mono mu-law without a header. */
export const AZURE_MULAW_FORMAT = "raw-8khz-8bit-mono-mulaw";
const STT_PATH = "/speech/recognition/conversation/cognitiveservices/v1";
const TTS_PATH = "/cognitiveservices/v1";
const TICKS_PER_SECOND = 10_000_000;
const TTS_CACHE_ENTRIES = 500;

/** Voices per dialect that Azure lists for the locales (ma ar-MA, dz ar-DZ, tn ar-TN, fr fr-FR). */
export const DEFAULT_AZURE_VOICES: Record<"ma" | "dz" | "tn" | "fr", string> = {
  ma: "ar-MA-MounaNeural", dz: "ar-DZ-AminaNeural", tn: "ar-TN-ReemNeural", fr: "fr-FR-DeniseNeural",
};

export interface AzureSpeechOptions {
  key: string;
  /** The Speech resource's region (westeurope...): builds the two documented hosts. */
  region?: string | undefined;
  /** One origin for both APIs instead (a sovereign cloud, or the local fake in tests). */
  endpoint?: string | undefined;
  /** Milliseconds before a request is given up. */
  timeoutMs?: number;
}

export class AzureSpeechError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

/** Escapes text for an SSML element. */
export function ssmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

export function ssml(text: string, locale: string, voice: string): string {
  return `<speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="${ssmlText(locale)}">`
    + `<voice name="${ssmlText(voice)}">${ssmlText(text)}</voice></speak>`;
}

interface ShortAudioResult {
  RecognitionStatus?: string;
  DisplayText?: string;
  Offset?: number;
  Duration?: number;
  NBest?: { Confidence?: number; Display?: string; Lexical?: string }[];
}

export class AzureSpeech implements SpeechProvider {
  readonly name = "azure";
  readonly #key: string;
  readonly #tts: string;
  readonly #stt: string;
  readonly #timeoutMs: number;
  // The agent's fixed lines (greetings, the keypad offer, goodbyes) repeat across calls: synthesised once, billed once.
  readonly #cache = new Map<string, Promise<Uint8Array>>();

  constructor(options: AzureSpeechOptions) {
    const origin = options.endpoint?.replace(/\/+$/, "");
    if (!origin && !options.region) throw new Error("Azure Speech needs a region or an endpoint");
    this.#key = options.key;
    this.#tts = `${origin ?? `https://${options.region}.tts.speech.microsoft.com`}${TTS_PATH}`;
    this.#stt = `${origin ?? `https://${options.region}.stt.speech.microsoft.com`}${STT_PATH}`;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  async synthesize(text: string, options: { locale: string; voice?: string; sampleRate?: number }): Promise<SynthesizedSpeech> {
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
    if (options.sampleRate && options.sampleRate !== 8000) return { sampleRate: options.sampleRate, samples: resample(samples, 8000, options.sampleRate) };
    return { sampleRate: 8000, samples, mulaw };
  }

  /** Collects the turn's audio (the VAD ends the iterable), then one short-audio request: one final result. */
  async *recognize(audio: AsyncIterable<Uint8Array>, options: { locale: string; format: AudioFormat }): AsyncIterable<Recognition> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of audio) chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    if (bytes.length === 0) return;
    const pcm = options.format.encoding === "mulaw"
      ? mulawToPcm(bytes)
      : new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length - (bytes.length % 2)));
    const wav = encodeWav(resample(pcm, options.format.sampleRate, 16_000), 16_000);
    const url = `${this.#stt}?language=${encodeURIComponent(options.locale)}&format=detailed`;
    const res = await this.#fetch(url, {
      method: "POST",
      headers: {
        "Ocp-Apim-Subscription-Key": this.#key,
        "Content-Type": "audio/wav; codecs=audio/pcm; samplerate=16000",
        Accept: "application/json",
      },
      body: wav,
    });
    const result = (await res.json()) as ShortAudioResult;
    // NoMatch, InitialSilenceTimeout, BabbleTimeout: nothing was understood; the dialogue hears silence.
    if (result.RecognitionStatus !== "Success") return;
    const best = result.NBest?.[0];
    const text = (best?.Display ?? result.DisplayText ?? "").trim();
    if (!text) return;
    yield {
      text,
      final: true,
      ...(typeof best?.Confidence === "number" ? { confidence: best.Confidence } : {}),
      startSeconds: (result.Offset ?? 0) / TICKS_PER_SECOND,
      durationSeconds: (result.Duration ?? 0) / TICKS_PER_SECOND,
    };
  }

  async #fetch(url: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(this.#timeoutMs) });
    } catch (err) {
      throw new AzureSpeechError(`Azure Speech is unreachable: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!res.ok) {
      const detail = (await res.text().catch(() => "")).slice(0, 200);
      throw new AzureSpeechError(`Azure Speech answered ${res.status}${detail ? `: ${detail}` : ""}`, res.status);
    }
    return res;
  }

  async close(): Promise<void> {}
}

function defaultVoice(locale: string): string {
  const dialect = locale === "fr-FR" ? "fr" : (locale.slice(3).toLowerCase() as "ma" | "dz" | "tn");
  return DEFAULT_AZURE_VOICES[dialect] ?? DEFAULT_AZURE_VOICES.fr;
}
