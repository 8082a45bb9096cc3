// A carrier's recording fetched from the carrier straight into the recording store (issue 12). Shared by the node's
// recording-transfer thread (recording-transfer-worker.ts), where it normally runs, and the calling thread when the
// store cannot be rebuilt in a thread of its own (recording-transfer.ts).
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { setTimeout as delay } from "node:timers/promises";
import type { RecordingSource } from "../domain/recording-source.ts";
import type { RecordingStore } from "./recording-store.ts";

/** What a download stored: the key (calls.recording_path), its content type and size. */
export interface DownloadedRecording {
  key: string;
  contentType: string;
  bytes: number;
}

const EXTENSIONS: Record<string, string> = {
  "audio/wav": ".wav",
  "audio/x-wav": ".wav",
  "audio/mpeg": ".mp3",
  "audio/ogg": ".ogg",
  "audio/webm": ".webm",
  "audio/basic": ".ulaw",
};

/** The store key of a call's recording of this content type. */
export function recordingKey(callId: string, contentType: string): string {
  return `${callId}${EXTENSIONS[contentType] ?? ".bin"}`;
}

/**
 * Downloads the recording into `store` under the call's key: streamed when the response gives its length (the
 * store needs it up front), else read whole. Null when the carrier says there is none (404 after the retries).
 */
export async function downloadRecording(
  store: RecordingStore,
  callId: string,
  source: RecordingSource,
): Promise<DownloadedRecording | null> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(source.url, {
      headers: source.headers,
      signal: AbortSignal.timeout(source.timeoutMs ?? 30_000),
    });
    if (res.ok) {
      const type = source.contentType ?? (res.headers.get("content-type") ?? "audio/wav").split(";")[0]!.trim();
      const contentType = type === "audio/x-wav" ? "audio/wav" : type;
      const key = recordingKey(callId, contentType);
      const size = Number(res.headers.get("content-length") ?? NaN);
      if (res.body && Number.isSafeInteger(size) && size >= 0) {
        await store.put(key, Readable.fromWeb(res.body as ReadableStream<Uint8Array>), size, contentType);
        return { key, contentType, bytes: size };
      }
      const bytes = new Uint8Array(await res.arrayBuffer());
      await store.put(key, bytes, bytes.byteLength, contentType);
      return { key, contentType, bytes: bytes.byteLength };
    }
    await res.body?.cancel().catch(() => {});
    const retries = source.notFoundRetryMs;
    if (res.status === 404 && retries) {
      if (attempt >= retries.length) return null;
      await delay(retries[attempt]!);
      continue;
    }
    throw new Error(`recording download answered ${res.status}`);
  }
}
