// Recordings in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Scaleway, OVH): what lets an API node
// serve a recording that a worker node on another machine wrote. Uploads stream the body with its length in one
// PutObject (up to 5 GB, far above a call's audio); reads are a HeadObject for the size, then a ranged GetObject
// streamed to the client; the purge deletes up to 1,000 keys per DeleteObjects.
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type ServerSideEncryption,
} from "@aws-sdk/client-s3";
import { PassThrough, type Readable } from "node:stream";
import type {
  RecordingStore,
  RecordingStoreSpec,
  S3RecordingStoreOptions,
  StoredRecording,
} from "./recording-store.ts";

export type { S3RecordingStoreOptions };

const DELETE_BATCH = 1000; // the most keys one DeleteObjects accepts

export class S3RecordingStore implements RecordingStore {
  readonly description: string;
  readonly spec: RecordingStoreSpec;
  readonly #client: S3Client;
  readonly #options: S3RecordingStoreOptions;

  constructor(options: S3RecordingStoreOptions) {
    this.#options = options;
    this.spec = { kind: "s3", options };
    this.description = `bucket ${options.bucket}${options.endpoint ? ` at ${options.endpoint}` : ` in ${options.region}`}`;
    this.#client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where S3 requires them (DeleteObjects): several S3-compatible providers reject the
      // default trailing CRC32 on uploads.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 3,
      // A bucket that stops answering must not hold a call's worker slot or a download forever.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    });
  }

  #key(key: string): string {
    if (key.includes("..") || key.startsWith("/")) throw new Error(`recording key ${key} is not a plain name`);
    return `${this.#options.prefix}${key}`;
  }

  async put(key: string, body: Uint8Array | Readable, size: number, contentType: string): Promise<void> {
    const { sse, kmsKeyId } = this.#options;
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#options.bucket,
        Key: this.#key(key),
        Body: body,
        ContentLength: size,
        ContentType: contentType,
        ...(sse === "none" ? {} : { ServerSideEncryption: sse as ServerSideEncryption }),
        ...(sse === "aws:kms" && kmsKeyId ? { SSEKMSKeyId: kmsKeyId } : {}),
      }),
    );
  }

  async open(key: string): Promise<StoredRecording | null> {
    const Key = this.#key(key);
    const Bucket = this.#options.bucket;
    let size: number;
    try {
      const head = await this.#client.send(new HeadObjectCommand({ Bucket, Key }));
      size = head.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
    return {
      size,
      stream: (range) => {
        // The route needs a stream now; the GetObject answers a moment later and is piped in.
        const out = new PassThrough();
        const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
        this.#client.send(new GetObjectCommand({ Bucket, Key, ...(Range ? { Range } : {}) })).then(
          (res) => {
            const body = res.Body as Readable | undefined;
            if (!body) return void out.destroy(new Error(`bucket returned no body for ${Key}`));
            body.on("error", (err) => out.destroy(err));
            out.on("close", () => body.destroy());
            body.pipe(out);
          },
          (err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))),
        );
        return out;
      },
    };
  }

  async deleteMany(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const res = await this.#client.send(
        new DeleteObjectsCommand({
          Bucket: this.#options.bucket,
          Delete: { Objects: batch.map((k) => ({ Key: this.#key(k) })), Quiet: true },
        }),
      );
      // A missing key counts as deleted (S3 reports it so); any other error leaves the rows for the next purge.
      const failed = (res.Errors ?? []).filter((e) => e.Code !== "NoSuchKey");
      if (failed.length)
        throw new Error(
          `bucket refused to delete ${failed.length} recording(s): ${failed[0]!.Key}: ${failed[0]!.Code} ${failed[0]!.Message ?? ""}`,
        );
    }
  }

  close(): void {
    this.#client.destroy();
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NotFound" || e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404;
}
