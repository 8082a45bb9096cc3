// A recording store as plain data, so the recording-transfer thread (recording-transfer.ts) can build its own copy
// of the node's store: a worker thread shares nothing with the main one but messages.
import { LocalRecordingStore } from "./local-recording-store.ts";
import type { RecordingStore, RecordingStoreSpec } from "./recording-store.ts";

export type { RecordingStoreSpec };

/** A store built from its spec (the S3 SDK is loaded only for a bucket). */
export async function storeFromSpec(spec: RecordingStoreSpec): Promise<RecordingStore> {
  if (spec.kind === "local") return new LocalRecordingStore(spec.dataDir);
  const { S3RecordingStore } = await import("./s3-recording-store.ts");
  return new S3RecordingStore(spec.options);
}
