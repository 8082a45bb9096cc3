// PCM audio helpers for recordings: a mono 16-bit timeline that speech is laid onto at its second, tones for
// when no synthesiser is installed, resampling, and the RIFF/WAVE container.

/** Telephone quality: what carriers record and what the simulator writes. */
export const RECORDING_SAMPLE_RATE = 8000;

const HEADER_BYTES = 44;

function writeHeader(out: Buffer, dataBytes: number, sampleRate: number): void {
  out.write("RIFF", 0, "ascii");
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write("WAVE", 8, "ascii");
  out.write("fmt ", 12, "ascii");
  out.writeUInt32LE(16, 16); // PCM fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28); // byte rate
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write("data", 36, "ascii");
  out.writeUInt32LE(dataBytes, 40);
}

/** A RIFF/WAVE file of 16-bit PCM mono samples. */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array {
  const dataBytes = samples.length * 2;
  const out = Buffer.alloc(HEADER_BYTES + dataBytes);
  writeHeader(out, dataBytes, sampleRate);
  Buffer.from(samples.buffer, samples.byteOffset, dataBytes).copy(out, HEADER_BYTES);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/**
 * Reads the samples of a 16-bit PCM mono WAV. Streamed WAVs (espeak-ng --stdout) carry placeholder sizes,
 * so the data chunk runs to the end of the buffer.
 */
export function decodeWav(wav: Uint8Array): { sampleRate: number; samples: Int16Array } {
  const buf = Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
  if (buf.length < 12 || buf.toString("ascii", 0, 4) !== "RIFF" || buf.toString("ascii", 8, 12) !== "WAVE")
    throw new Error("not a WAV file");
  let offset = 12;
  let sampleRate = 0;
  while (offset + 8 <= buf.length) {
    const id = buf.toString("ascii", offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    if (id === "fmt ") {
      if (
        buf.readUInt16LE(offset + 8) !== 1 ||
        buf.readUInt16LE(offset + 10) !== 1 ||
        buf.readUInt16LE(offset + 22) !== 16
      ) {
        throw new Error("only 16-bit PCM mono WAV is supported");
      }
      sampleRate = buf.readUInt32LE(offset + 12);
    } else if (id === "data") {
      const end = Math.min(buf.length, offset + 8 + size);
      const bytes = buf.subarray(offset + 8, end - ((end - offset - 8) % 2));
      // A copy into a fresh (aligned) buffer; every platform Node runs on here is little-endian, like WAV.
      const samples = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
      return { sampleRate, samples };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error("WAV without a data chunk");
}

/** Linear-interpolation resampling; good enough for speech going down to telephone quality. */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const out = new Int16Array(Math.floor((samples.length * to) / from));
  const step = from / to;
  for (let i = 0; i < out.length; i++) {
    const pos = i * step;
    const j = Math.floor(pos);
    const a = samples[j] ?? 0;
    const b = samples[j + 1] ?? a;
    out[i] = Math.round(a + (b - a) * (pos - j));
  }
  return out;
}

// One second of each tone, computed once: a whole number of hertz loops seamlessly second after second.
const toneSeconds = new Map<string, Int16Array>();

/** A sine tone with short fades (no clicks), standing in for a turn's speech; cheap enough for 500 calls. */
export function tone(
  frequency: number,
  seconds: number,
  sampleRate = RECORDING_SAMPLE_RATE,
  amplitude = 6000,
): Int16Array {
  const hz = Math.round(frequency);
  const key = `${hz}/${sampleRate}/${amplitude}`;
  let second = toneSeconds.get(key);
  if (!second) {
    second = new Int16Array(sampleRate);
    for (let i = 0; i < sampleRate; i++)
      second[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / sampleRate));
    toneSeconds.set(key, second);
  }
  const n = Math.max(0, Math.round(seconds * sampleRate));
  const out = new Int16Array(n);
  for (let at = 0; at < n; at += sampleRate) out.set(second.subarray(0, Math.min(sampleRate, n - at)), at);
  const fade = Math.min(Math.round(0.02 * sampleRate), Math.floor(n / 2));
  for (let i = 0; i < fade; i++) {
    out[i] = Math.round(out[i]! * (i / fade));
    out[n - 1 - i] = Math.round(out[n - 1 - i]! * (i / fade));
  }
  return out;
}

/** Mono 16-bit samples laid out on a fixed-length timeline; overlapping segments are mixed and clipped. */
export class Timeline {
  readonly sampleRate: number;
  readonly samples: Int16Array;
  // The samples live inside the WAV file's bytes, so toWav() copies nothing (a minute is ~1 MB; 500 calls).
  readonly #file: Buffer;

  constructor(seconds: number, sampleRate = RECORDING_SAMPLE_RATE) {
    this.sampleRate = sampleRate;
    const n = Math.max(0, Math.round(seconds * sampleRate));
    this.#file = Buffer.alloc(HEADER_BYTES + n * 2);
    this.samples = new Int16Array(this.#file.buffer, this.#file.byteOffset + HEADER_BYTES, n);
  }

  /** Places `segment` (at `segmentRate`) starting at `atSeconds`; whatever runs past the end is cut. */
  place(atSeconds: number, segment: Int16Array, segmentRate = this.sampleRate): void {
    const data = resample(segment, segmentRate, this.sampleRate);
    const start = Math.max(0, Math.round(atSeconds * this.sampleRate));
    for (let i = 0; i < data.length && start + i < this.samples.length; i++) {
      const mixed = this.samples[start + i]! + data[i]!;
      this.samples[start + i] = Math.max(-32768, Math.min(32767, mixed));
    }
  }

  toWav(): Uint8Array {
    writeHeader(this.#file, this.samples.length * 2, this.sampleRate);
    return new Uint8Array(this.#file.buffer, this.#file.byteOffset, this.#file.byteLength);
  }
}
