// G.711 mu-law (ITU-T G.711), the 8 kHz telephone encoding Twilio Media Streams carries and Azure's
// raw-8khz-8bit-mono-mulaw output format produces: one byte per sample, 160 bytes per 20 ms frame.

/** Bytes of one 20 ms frame at 8 kHz. */
export const MULAW_FRAME_BYTES = 160;
/** The mu-law byte of a zero sample (digital silence). */
export const MULAW_SILENCE = 0xff;

const BIAS = 0x84;
const CLIP = 32635;

// Decoding is a table lookup: it runs on every inbound frame of every call.
export const MULAW_DECODE = new Int16Array(256);
const DECODE = MULAW_DECODE;
for (let i = 0; i < 256; i++) {
  const u = ~i & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = (((u & 0x0f) << 3) + BIAS) << exponent;
  DECODE[i] = u & 0x80 ? BIAS - magnitude : magnitude - BIAS;
}

/** One 16-bit linear sample to its mu-law byte. */
export function encodeSample(sample: number): number {
  let s = Math.max(-CLIP, Math.min(CLIP, Math.round(sample)));
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

export function mulawToPcm(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = DECODE[bytes[i]!]!;
  return out;
}

export function pcmToMulaw(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = encodeSample(samples[i]!);
  return out;
}

/** Root mean square of a mu-law frame, in linear 16-bit units (0 for digital silence). */
export function mulawRms(frame: Uint8Array): number {
  if (frame.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < frame.length; i++) {
    const s = DECODE[frame[i]!]!;
    sum += s * s;
  }
  return Math.sqrt(sum / frame.length);
}
