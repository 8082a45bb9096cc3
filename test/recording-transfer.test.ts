// Carriers' recordings are downloaded into the store by the node's recording-transfer thread (issue 12): the bytes
// land in the store without the calling thread's store being used, 404s are retried as the carrier asks, refusals
// are errors, and a store that cannot be rebuilt in a thread (no spec) is written from the calling thread.
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalRecordingStore } from "../src/storage/local-recording-store.ts";
import { S3RecordingStore } from "../src/storage/s3-recording-store.ts";
import { FakeS3 } from "./fakes/s3.ts";
import type { RecordingStore } from "../src/storage/recording-store.ts";
import { RecordingTransfers } from "../src/storage/recording-transfer.ts";

const transfers = new RecordingTransfers();
const transferRecording: RecordingTransfers["run"] = (store, callId, source) => transfers.run(store, callId, source);

const AUTH = "Bearer carrier-key";

describe("recording transfers from a carrier into the store", () => {
  const audio = randomBytes(300_000);
  const seen = new Map<string, number>();
  let server: Server;
  let base: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "wakha-transfer-"));
    server = createServer((req, res) => {
      const name = req.url ?? "";
      const n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
      if (req.headers.authorization !== AUTH) return void res.writeHead(401).end();
      if (name === "/sized")
        return void res.writeHead(200, { "content-type": "audio/x-wav", "content-length": audio.length }).end(audio);
      if (name === "/chunked") {
        res.writeHead(200, { "content-type": "audio/mpeg" });
        res.write(audio.subarray(0, 1000));
        return void res.end(audio.subarray(1000));
      }
      if (name === "/later" && n >= 3) return void res.writeHead(200, { "content-length": audio.length }).end(audio);
      if (name === "/later" || name === "/never") return void res.writeHead(404).end();
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await transfers.close();
    await new Promise((resolve) => server.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A local store whose own put() (the calling thread's) records that it was used. */
  const store = () => {
    const s = new LocalRecordingStore(dataDir);
    const calls: string[] = [];
    const put = s.put.bind(s);
    s.put = (key, body, size, type) => (calls.push(key), put(key, body, size, type));
    return { s, calls };
  };

  it("streams a sized recording into the store from the transfer thread, audio/x-wav stored as audio/wav", async () => {
    const { s, calls } = store();
    const stored = await transferRecording(s, "call-sized", { url: `${base}/sized`, headers: { authorization: AUTH } });
    expect(stored).toEqual({ key: "call-sized.wav", contentType: "audio/wav", bytes: audio.length });
    expect(Buffer.compare(await readFile(path.join(s.dir, "call-sized.wav")), audio)).toBe(0);
    expect(calls).toEqual([]); // written by the thread's own store, not this one
  });

  it("reads a recording without a length whole, with the response's content type", async () => {
    const { s } = store();
    const stored = await transferRecording(s, "call-chunked", {
      url: `${base}/chunked`,
      headers: { authorization: AUTH },
    });
    expect(stored).toEqual({ key: "call-chunked.mp3", contentType: "audio/mpeg", bytes: audio.length });
    expect(Buffer.compare(await readFile(path.join(s.dir, "call-chunked.mp3")), audio)).toBe(0);
  });

  it("retries a 404 as the carrier asks, then stores it; a 404 after the last retry is no recording", async () => {
    const { s } = store();
    const later = await transferRecording(s, "call-later", {
      url: `${base}/later`,
      headers: { authorization: AUTH },
      contentType: "audio/wav",
      notFoundRetryMs: [1, 1, 1, 1],
    });
    expect(later).toEqual({ key: "call-later.wav", contentType: "audio/wav", bytes: audio.length });
    expect(seen.get("/later")).toBe(3);
    expect(
      await transferRecording(s, "call-never", {
        url: `${base}/never`,
        headers: { authorization: AUTH },
        notFoundRetryMs: [1, 1],
      }),
    ).toBeNull();
    expect(seen.get("/never")).toBe(3);
  });

  it("a refusal is an error (a 404 too when no retries were asked), and nothing is stored", async () => {
    const { s } = store();
    await expect(transferRecording(s, "call-unauth", { url: `${base}/sized`, headers: {} })).rejects.toThrow(
      "recording download answered 401",
    );
    await expect(
      transferRecording(s, "call-broken", { url: `${base}/broken`, headers: { authorization: AUTH } }),
    ).rejects.toThrow("recording download answered 500");
    await expect(
      transferRecording(s, "call-404", { url: `${base}/never`, headers: { authorization: AUTH } }),
    ).rejects.toThrow("recording download answered 404");
    await expect(readFile(path.join(s.dir, "call-unauth.wav"))).rejects.toThrow();
  });

  it("uploads to a bucket from the transfer thread's own S3 client", async () => {
    const s3 = await new FakeS3({
      bucket: "wakha-recordings",
      accessKeyId: "AKIATEST",
      secretAccessKey: "test-secret",
      region: "eu-west-3",
    }).start();
    try {
      const bucket = new S3RecordingStore({
        bucket: "wakha-recordings",
        prefix: "recordings/",
        endpoint: s3.url,
        region: "eu-west-3",
        credentials: { accessKeyId: "AKIATEST", secretAccessKey: "test-secret" },
        forcePathStyle: true,
        sse: "AES256",
      });
      const stored = await transferRecording(bucket, "call-bucket", {
        url: `${base}/sized`,
        headers: { authorization: AUTH },
      });
      expect(stored).toEqual({ key: "call-bucket.wav", contentType: "audio/wav", bytes: audio.length });
      expect(Buffer.compare(Buffer.from(s3.objects.get("recordings/call-bucket.wav")!.body), audio)).toBe(0);
    } finally {
      await s3.stop();
    }
  });

  it("a store without a spec (not rebuildable in a thread) is written from the calling thread", async () => {
    const { s, calls } = store();
    const bare: RecordingStore = {
      description: s.description,
      put: s.put,
      open: (k) => s.open(k),
      deleteMany: (k) => s.deleteMany(k),
    };
    const stored = await transferRecording(bare, "call-bare", {
      url: `${base}/sized`,
      headers: { authorization: AUTH },
    });
    expect(stored?.key).toBe("call-bare.wav");
    expect(calls).toEqual(["call-bare.wav"]);
  });
});
