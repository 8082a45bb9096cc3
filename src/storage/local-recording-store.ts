// Recordings as files under ${WAKHA_DATA_DIR}/recordings: the embedded default, one node only (a second node has
// another disk: use the bucket, s3-recording-store.ts, when API and worker nodes are separate machines).
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { RecordingStore, RecordingStoreSpec, StoredRecording } from "./recording-store.ts";

export class LocalRecordingStore implements RecordingStore {
  readonly dir: string;
  readonly description: string;
  readonly spec: RecordingStoreSpec;
  #made: Promise<unknown> | null = null;

  constructor(dataDir: string) {
    this.dir = path.resolve(dataDir, "recordings");
    this.description = `local files in ${this.dir}`;
    this.spec = { kind: "local", dataDir: path.resolve(dataDir) };
  }

  // Keys are relative to the folder, so the data dir can move; one that escapes it is refused.
  #file(key: string): string {
    const full = path.resolve(this.dir, key);
    if (!full.startsWith(this.dir + path.sep)) throw new Error(`recording key ${key} escapes ${this.dir}`);
    return full;
  }

  /** Atomic: a temp file then a rename, so a reader never sees half a recording. */
  async put(key: string, body: Uint8Array | Readable, _size: number, _contentType: string): Promise<void> {
    const target = this.#file(key);
    // Once per process (it showed in the profile of 1,000 concurrent calls); a failure is retried next time.
    await (this.#made ??= mkdir(this.dir, { recursive: true }).catch((err: unknown) => {
      this.#made = null;
      throw err;
    }));
    const temp = path.join(this.dir, `.${key}.${process.pid}.${Date.now()}.tmp`);
    try {
      await pipeline(body instanceof Readable ? body : Readable.from([body]), createWriteStream(temp, { mode: 0o600 }));
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async open(key: string): Promise<StoredRecording | null> {
    const full = this.#file(key);
    try {
      const { size } = await stat(full);
      return { size, stream: (range) => createReadStream(full, range) };
    } catch (err) {
      if ((err as { code?: string }).code === "ENOENT") return null;
      throw err;
    }
  }

  async deleteMany(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.#file(key), { force: true })));
  }
}
