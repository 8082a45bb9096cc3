// Carriers' recordings are downloaded into the store by a worker thread of the node, not by the thread that runs the
// calls (issue 12). A download's socket reads allocate buffers outside V8's heap, which V8 counts towards starting
// a full collection: with the downloads in the main thread, the ends of 200 calls in a few seconds meant a
// full collection about every second (5 to 50 ms pauses, marking steps forced on the main thread), landing
// between customers' words and the agent's answers. In a thread of their own they pause nothing that talks.
// The thread starts with the first download and stops after a minute without any. A store that cannot be rebuilt
// from plain data (no `spec`: a test's own store) is written from the calling thread instead.
import { Worker } from "node:worker_threads";
import type { RecordingSource } from "../domain/recording-source.ts";
import { type DownloadedRecording, downloadRecording } from "./recording-download.ts";
import type { RecordingStore, RecordingStoreSpec } from "./recording-store.ts";

const IDLE_STOP_MS = 60_000;

type Reply = { id: number; stored: DownloadedRecording | null } | { id: number; error: string };

class TransferThread {
  readonly #spec: RecordingStoreSpec;
  readonly #onGone: () => void;
  #worker: Worker | null = null;
  #nextId = 0;
  readonly #pending = new Map<
    number,
    { resolve: (r: DownloadedRecording | null) => void; reject: (e: Error) => void }
  >();
  #idle: NodeJS.Timeout | null = null;

  constructor(spec: RecordingStoreSpec, onGone: () => void) {
    this.#spec = spec;
    this.#onGone = onGone;
  }

  run(callId: string, source: RecordingSource): Promise<DownloadedRecording | null> {
    const worker = this.#start();
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    const id = this.#nextId++;
    // A download under way keeps the process up, as its socket would in this thread; an idle thread does not.
    if (this.#pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, callId, source });
    });
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    // None of the node's flags: its preloads and profilers (--import, --cpu-prof) are for the thread that runs the calls.
    const worker = new Worker(new URL("./recording-transfer-worker.ts", import.meta.url), {
      workerData: this.#spec,
      execArgv: [],
    });
    worker.unref();
    worker.on("message", (reply: Reply) => {
      const waiter = this.#pending.get(reply.id);
      if (!waiter) return;
      this.#pending.delete(reply.id);
      if ("error" in reply) waiter.reject(new Error(reply.error));
      else waiter.resolve(reply.stored);
      if (this.#pending.size === 0) {
        worker.unref();
        this.#idle = setTimeout(() => void this.#stop(), IDLE_STOP_MS);
        this.#idle.unref();
      }
    });
    const fail = (err: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      for (const waiter of this.#pending.values()) waiter.reject(err);
      this.#pending.clear();
      this.#onGone();
    };
    worker.on("error", (err) => fail(err));
    worker.on("exit", (code) => fail(new Error(`the recording-transfer thread exited (${code})`)));
    this.#worker = worker;
    return worker;
  }

  /** Terminates the thread now (the node's shutdown). */
  async close(): Promise<void> {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = null;
    const worker = this.#worker;
    if (worker) await worker.terminate();
  }

  async #stop(): Promise<void> {
    const worker = this.#worker;
    if (!worker || this.#pending.size > 0) return;
    this.#worker = null;
    this.#onGone();
    await worker.terminate();
  }
}

/**
 * A node's recording-transfer threads, one per recording store (shared by the node's calls): built once by the
 * composition root, closed with it.
 */
export class RecordingTransfers {
  readonly #threads = new Map<string, TransferThread>();

  /**
   * Downloads a carrier's recording into `store` under the call's key; null when the carrier has none. Runs in the
   * node's recording-transfer thread for that store.
   */
  run(store: RecordingStore, callId: string, source: RecordingSource): Promise<DownloadedRecording | null> {
    const spec = store.spec;
    if (!spec) return downloadRecording(store, callId, source);
    const name = JSON.stringify(spec);
    let thread = this.#threads.get(name);
    if (!thread) {
      const created: TransferThread = new TransferThread(spec, () => {
        if (this.#threads.get(name) === created) this.#threads.delete(name);
      });
      this.#threads.set(name, (thread = created));
    }
    return thread.run(callId, source);
  }

  /** Ends the threads (each after its running downloads). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#threads.values()].map((t) => t.close()));
    this.#threads.clear();
  }
}
