// Streaming recognition with Azure Speech through Microsoft's own SDK (microsoft-cognitiveservices-speech-sdk), which
// speaks the service's WebSocket protocol for us
// (https://docs.microsoft.com/en-us/azure/cognitive-services/Speech/api-reference-rest/websocketprotocol; the
// messages as this SDK version sends and reads them are listed in test/fakes/azure-speech-ws.ts).
//
// One recognition is one customer turn: the session opens it at the voice detector's onset (with its pre-roll) and
// closes the audio at the detector's end of turn, so the service hears, and bills, speech only, and answers the final
// phrase as soon as the audio ends. The call's 8 kHz mu-law goes as it comes (the SDK's MULAW wave format: a RIFF
// header with format tag 7, then the raw bytes), so nothing is decoded or resampled on the way. Interim results
// (`speech.hypothesis`) arrive while the customer speaks: the session stops the agent on the first one with a word.
// The order's words (products, the shop, the amount as spoken) go in the phrase list (`speech.context` dgi).
import {
  AudioConfig,
  AudioFormatTag,
  AudioInputStream,
  AudioStreamFormat,
  CancellationReason,
  OutputFormat,
  PhraseListGrammar,
  PropertyId,
  ResultReason,
  SpeechConfig,
  SpeechRecognizer,
  type SpeechRecognitionResult,
} from "microsoft-cognitiveservices-speech-sdk";
// The SDK's own switch (public in its typings): on Node it otherwise opens the socket with the runtime's global
// WebSocket, which can set no headers (the key travels in the query string) and reports a refused upgrade without
// its status; with the `ws` package it sends Ocp-Apim-Subscription-Key as a header and a 401 reads as one.
import { WebsocketMessageAdapter } from "microsoft-cognitiveservices-speech-sdk/distrib/lib/src/common.browser/Exports.js";
import type { Recognition, RecognizeOptions } from "./provider.ts";

WebsocketMessageAdapter.forceNpmWebSocket = true;

const TICKS_PER_SECOND = 10_000_000;

export interface AzureRecognitionTarget {
  key: string;
  region?: string | undefined;
  /** ws:// or wss:// origin of the service (a sovereign cloud, the local fake); the region's host when absent. */
  host?: string | undefined;
  /** Wall milliseconds after the audio ended before an unanswered recognition is given up. */
  finalTimeoutMs: number;
}

/** A refused or failed Azure Speech request (synthesis or recognition); `status` is the HTTP status of the refusal. */
export class AzureSpeechError extends Error {
  readonly status: number | undefined;
  /**
   * A refused key or resource (speech_refused), or a service that cannot be reached (speech_unavailable, said by the
   * caller that knows a retry will not help): the call cannot go on and ends as failed with this reason (dialer.ts).
   */
  readonly endReason: "speech_refused" | "speech_unavailable" | undefined;
  constructor(message: string, status?: number, endReason?: "speech_unavailable") {
    super(message);
    this.status = status;
    this.endReason = status === 401 || status === 403 ? "speech_refused" : endReason;
  }
}

function speechConfig(target: AzureRecognitionTarget, locale: string): SpeechConfig {
  const config = target.host
    ? SpeechConfig.fromHost(new URL(target.host), target.key)
    : SpeechConfig.fromSubscription(target.key, target.region!);
  config.speechRecognitionLanguage = locale;
  // format=detailed: the final phrase carries NBest with Confidence.
  config.outputFormat = OutputFormat.Detailed;
  return config;
}

function confidenceOf(result: SpeechRecognitionResult): number | undefined {
  try {
    const json = JSON.parse(result.properties.getProperty(PropertyId.SpeechServiceResponse_JsonResult, "{}")) as {
      NBest?: { Confidence?: unknown }[];
    };
    const c = json.NBest?.[0]?.Confidence;
    return typeof c === "number" ? c : undefined;
  } catch {
    return undefined;
  }
}

/** Recognises one stream of audio; yields interim results as they come, then the final ones, until the service ends the turn. */
export async function* recognizeWithAzure(
  target: AzureRecognitionTarget,
  audio: AsyncIterable<Uint8Array>,
  options: RecognizeOptions,
): AsyncIterable<Recognition> {
  const { format } = options;
  const streamFormat =
    format.encoding === "mulaw"
      ? AudioStreamFormat.getWaveFormat(format.sampleRate, 8, format.channels, AudioFormatTag.MuLaw)
      : AudioStreamFormat.getWaveFormatPCM(format.sampleRate, 16, format.channels);
  const push = AudioInputStream.createPushStream(streamFormat);
  const recognizer = new SpeechRecognizer(speechConfig(target, options.locale), AudioConfig.fromStreamInput(push));
  const phrases = [...new Set((options.phrases ?? []).map((p) => p.trim()).filter(Boolean))];
  if (phrases.length > 0) PhraseListGrammar.fromRecognizer(recognizer).addPhrases(phrases);

  const queue: Recognition[] = [];
  let done = false;
  let failure: AzureSpeechError | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const toRecognition = (r: SpeechRecognitionResult, final: boolean): Recognition => {
    const confidence = final ? confidenceOf(r) : undefined;
    return {
      text: r.text.trim(),
      final,
      ...(confidence === undefined ? {} : { confidence }),
      startSeconds: r.offset / TICKS_PER_SECOND,
      durationSeconds: r.duration / TICKS_PER_SECOND,
    };
  };
  recognizer.recognizing = (_s, e) => {
    if (e.result.text?.trim()) queue.push(toRecognition(e.result, false));
    notify();
  };
  recognizer.recognized = (_s, e) => {
    // NoMatch (noise, silence, a language the model did not hear) is no result: the dialogue hears silence.
    if (e.result.reason === ResultReason.RecognizedSpeech && e.result.text?.trim())
      queue.push(toRecognition(e.result, true));
    notify();
  };
  recognizer.canceled = (_s, e) => {
    if (e.reason === CancellationReason.Error) {
      const status = /Unexpected server response: (\d{3})/.exec(e.errorDetails ?? "")?.[1];
      failure ??= new AzureSpeechError(
        `Azure Speech recognition failed (${e.errorCode}): ${e.errorDetails}`,
        status ? Number(status) : undefined,
      );
    }
    done = true;
    notify();
  };
  recognizer.sessionStopped = () => {
    done = true;
    notify();
  };

  let audioEnded = false;
  const feeding = (async () => {
    try {
      for await (const frame of audio) {
        if (done) break;
        // A copy: a Buffer's .buffer is often a shared pool, and the SDK takes a whole ArrayBuffer.
        const copy = new Uint8Array(frame.length);
        copy.set(frame);
        push.write(copy.buffer);
      }
    } finally {
      push.close();
      audioEnded = true;
      notify();
    }
  })();
  feeding.catch(() => {});
  recognizer.startContinuousRecognitionAsync(
    () => {},
    (err) => {
      failure ??= new AzureSpeechError(`Azure Speech recognition did not start: ${err}`);
      done = true;
      notify();
    },
  );

  let deadline: NodeJS.Timeout | null = null;
  try {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      if (failure) throw failure;
      if (done) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        // Once the audio has ended the service owes the final phrase and turn.end: not waited for for ever.
        if (audioEnded && !deadline) {
          deadline = setTimeout(() => {
            failure ??= new AzureSpeechError(
              `Azure Speech sent no end of turn within ${target.finalTimeoutMs} ms of the end of the audio`,
            );
            notify();
          }, target.finalTimeoutMs);
        }
      });
    }
  } finally {
    if (deadline) clearTimeout(deadline);
    done = true;
    recognizer.close();
  }
}
