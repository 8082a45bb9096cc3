// The carrier fakes' recordings (a tone per turn at the call's timing, as Timeline lays them out), written to the
// HTTP response a second of audio at a time instead of rendered whole: a fake serving hundreds of recordings in the
// carriers bench paused for its collector (10 to 30 ms, megabyte buffers) while our replies were on their way to it,
// and those pauses were counted as our latency. Streamed, each second's new buffer (memory outside V8's heap) still
// added up to a full collection every few recordings in the fake: one buffer per response now, refilled once the
// socket has taken the previous second, and each tone rendered once. Twilio serves recordings from other machines
// than the ones relaying the calls' text.
import type http from "node:http";
import { RECORDING_SAMPLE_RATE, tone } from "../../src/engine/speech/wav.ts";

const tones = new Map<string, Int16Array>();
function cachedTone(hz: number, seconds: number, rate: number): Int16Array {
  const key = `${hz}/${seconds}/${rate}`;
  let samples = tones.get(key);
  if (!samples) tones.set(key, (samples = tone(hz, seconds, rate)));
  return samples;
}

/** Streams a mono 16-bit WAV of `seconds` with `turns` placed one after another, none after `until` (each tone at most 2 s). */
export async function sendToneRecording(
  res: http.ServerResponse,
  contentType: string,
  seconds: number,
  until: number,
  turns: { hz: number; talk: number }[],
): Promise<void> {
  const rate = RECORDING_SAMPLE_RATE;
  const total = Math.max(0, Math.round(seconds * rate));
  const segments: { start: number; samples: Int16Array }[] = [];
  let at = 0;
  for (const t of turns) {
    segments.push({ start: Math.round(at * rate), samples: cachedTone(t.hz, Math.min(2, t.talk), rate) });
    at = Math.min(until, at + t.talk);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + total * 2, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(total * 2, 40);
  res.writeHead(200, { "content-type": contentType, "content-length": 44 + total * 2 });
  res.write(header);
  const buffer = new Int16Array(rate);
  for (let from = 0; from < total; from += rate) {
    const chunk = buffer.subarray(0, Math.min(rate, total - from));
    chunk.fill(0);
    for (const s of segments) {
      const lo = Math.max(from, s.start);
      const hi = Math.min(from + chunk.length, s.start + s.samples.length);
      for (let i = lo; i < hi; i++)
        chunk[i - from] = Math.max(-32768, Math.min(32767, chunk[i - from]! + s.samples[i - s.start]!));
    }
    // The buffer is refilled only once the socket has written this second out.
    await new Promise<void>((resolve, reject) =>
      res.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), (err) =>
        err ? reject(err) : resolve(),
      ),
    );
  }
  res.end();
}
