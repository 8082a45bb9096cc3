// Where call recordings live: one interface, an adapter per backend (local-recording-store.ts on the node's disk,
// s3-recording-store.ts in an S3-compatible bucket), chosen in root.ts. Keys are the names stored in
// calls.recording_path (`<call id>.<ext>`), never anything a client sent.
import type { Readable } from "node:stream";

export interface StoredRecording {
  size: number;
  /** Reads bytes start..end inclusive (the whole object without arguments), streamed. */
  stream(range?: { start: number; end: number }): Readable;
}

export interface RecordingStore {
  /** What the store is, for logs and `wakha doctor`: "local files in …" or "bucket … at …". */
  readonly description: string;
  /** The store as plain data, for the recording-transfer thread to build its own (recording-transfer.ts). */
  readonly spec?: RecordingStoreSpec;
  /** Stores the bytes under `key` (replacing any previous object) without buffering a second copy. */
  put(key: string, body: Uint8Array | Readable, size: number, contentType: string): Promise<void>;
  /** Opens `key` for streaming; null when there is no such object. */
  open(key: string): Promise<StoredRecording | null>;
  /** Deletes the keys (missing ones are not an error); throws if any could not be deleted. */
  deleteMany(keys: string[]): Promise<void>;
  /** Releases sockets; the store is not used afterwards. */
  close?(): void;
}

export interface S3RecordingStoreOptions {
  bucket: string;
  /** Key prefix inside the bucket, e.g. "recordings/". */
  prefix: string;
  /** A provider's endpoint (R2, MinIO...); AWS's own when absent. */
  endpoint?: string | undefined;
  region: string;
  /** Static credentials; absent, the SDK's default chain (environment, instance role) applies. */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /** Server-side encryption asked on every upload: none, AES256 (provider-managed keys) or aws:kms. */
  sse: "none" | "AES256" | "aws:kms";
  kmsKeyId?: string | undefined;
}

/** A store as plain data, for the recording-transfer thread to build its own (recording-store-spec.ts). */
export type RecordingStoreSpec = { kind: "local"; dataDir: string } | { kind: "s3"; options: S3RecordingStoreOptions };
