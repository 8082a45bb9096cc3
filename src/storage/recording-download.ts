// A carrier's recording fetched from the carrier straight into the recording store (issue 12). Shared by the node's
// recording-transfer thread (recording-transfer-worker.ts), where it normally runs, and the calling thread when the
// store cannot be rebuilt in a thread of its own (recording-transfer.ts).
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { setTimeout as delay } from "node:timers/promises";
import type { RecordingStore } from "./recording-store.ts";

/** Where a carrier keeps a call's recording and how to ask for it; plain data, so it can cross to another thread. */
export interface RecordingSource {
  url: string;
  /** Request headers, e.g. the carrier's authorization. */
  headers: Record<string, string>;
  /** The content type to store it as; omitted, the response's (audio/x-wav taken as audio/wav). */
  contentType?: string;
  /**
   * While the carrier answers 404 (a recording not uploaded yet), the waits in ms before each retry; after the last,
   * a 404 means there is no recording. Omitted: a 404 is an error like any other refusal.
   */
  notFoundRetryMs?: number[];
  /** Gives up a download that takes longer (ms); 30 s when omitted. */
  timeoutMs?: number;
}

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
export async function downloadRecording(store: RecordingStore, callId: string, source: RecordingSource): Promise<DownloadedRecording | null> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(source.url, { headers: source.headers, signal: AbortSignal.timeout(source.timeoutMs ?? 30_000) });
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
