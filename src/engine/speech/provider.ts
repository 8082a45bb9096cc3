// Speech for audio carriers (Twilio Media Streams, a SIP trunk to a GSM gateway), which move sound and not
// words: text-to-speech for what the agent says, speech-to-text for what the customer says. Locally it is
// espeak-ng (synthesis only, voices `ar` and `fr`: espeak.ts); in production a cloud service with
// ar-MA, ar-DZ, ar-TN and fr-FR voices and recognition (Azure Speech is the only one found with all three).
import type { AudioFormat } from "./audio-format.ts";

/** Synthesised speech as 16-bit linear PCM, mono, at `sampleRate`. */
export interface SynthesizedSpeech {
  sampleRate: number;
  samples: Int16Array;
  /** The same speech as 8 kHz mu-law when the service produced it so (Azure raw-8khz-8bit-mono-mulaw): sent as is. */
  mulaw?: Uint8Array;
}

/** One recognition result; `final` ones are what the dialogue hears (interim ones drive barge-in). */
export interface Recognition {
  text: string;
  final: boolean;
  confidence?: number;
  /** Offset of the speech in the audio stream, seconds. */
  startSeconds: number;
  durationSeconds: number;
}

/** What a recognition is asked for: the call's locale, the audio's format and the words to expect. */
export interface RecognizeOptions {
  locale: string;
  format: AudioFormat;
  /**
   * Words and phrases this call is likely to hear (the order's products, the shop, the amount as spoken): a hint
   * to recognisers that take one (Azure's phrase list); others ignore it.
   */
  phrases?: readonly string[];
}

export interface SpeechProvider {
  readonly name: string;
  /** recognize() yields interim results while the customer speaks (what barge-in by words needs). */
  readonly partials?: boolean;
  /** Text to audio in a voice of `locale` (BCP 47, for example ar-MA or fr-FR), at `sampleRate` when given. */
  synthesize(
    text: string,
    options: { locale: string; voice?: string; sampleRate?: number },
  ): Promise<SynthesizedSpeech>;
  /**
   * Streaming recognition of a call's inbound audio (frames as the carrier sends them), yielding interim and
   * final results until the audio ends. Providers without recognition (espeak-ng) reject.
   */
  recognize(audio: AsyncIterable<Uint8Array>, options: RecognizeOptions): AsyncIterable<Recognition>;
  close(): Promise<void>;
}
