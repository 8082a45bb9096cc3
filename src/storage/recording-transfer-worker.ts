// The recording-transfer thread (recording-transfer.ts): downloads carriers' recordings into the node's store.
// Each download's socket reads allocate buffers outside V8's heap; in the main thread a burst of call ends made
// those buffers the collector's trigger (full collections every second, paused turns: issue 12). Here they pause
// nothing but this thread.
import { parentPort, workerData } from "node:worker_threads";
import type { RecordingSource } from "../domain/recording-source.ts";
import { downloadRecording } from "./recording-download.ts";
import { type RecordingStoreSpec, storeFromSpec } from "./recording-store-spec.ts";

interface Request {
  id: number;
  callId: string;
  source: RecordingSource;
}

const port = parentPort;
if (!port) throw new Error("recording-transfer-worker.ts runs as a worker thread");
const store = storeFromSpec(workerData as RecordingStoreSpec);

port.on("message", (req: Request) => {
  void store
    .then((s) => downloadRecording(s, req.callId, req.source))
    .then(
      (stored) => port.postMessage({ id: req.id, stored }),
      (err: unknown) => port.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) }),
    );
});
