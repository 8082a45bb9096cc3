import { randomBytes, randomUUID } from "node:crypto";
import { chmod, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeExpiredRecordings, purgeRecording, saveRecording } from "../src/calls/recordings.ts";
import { LocalRecordingStore } from "../src/storage/local-recording-store.ts";
import { FakeS3 } from "./fakes/s3.ts";
import { parseRange } from "../src/http/byte-range.ts";
import { createWorkers } from "../src/root/job-handlers.ts";
import { JOBS } from "../src/jobs/catalogue.ts";
import { newAccount, problem, startApp, type TestAccount, type TestApp } from "./helpers.ts";
import { callBody, insertShop, postCall } from "./calls-fixtures.ts";

// The same behaviour on both stores: local files (the embedded default) and an S3-compatible bucket (issue 19).
describe.each(["local files", "bucket"] as const)("GET /v1/calls/{id}/recording (spec 2.4, 7.2) on %s", (backend) => {
  let t: TestApp;
  let acct: TestAccount;
  let shop: string;
  let dataDir: string;
  let s3: FakeS3 | null = null;
  const audio = randomBytes(10_000);
  /** The names of the stored recordings: files in the data dir, or keys in the bucket without their prefix. */
  const stored = async (): Promise<string[]> =>
    s3
      ? [...s3.objects.keys()].map((k) => k.replace(/^recordings\//, ""))
      : readdir(new LocalRecordingStore(dataDir).dir);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "wakha-rec-"));
    await chmod(dataDir, 0o755);
    let bucketEnv: Record<string, string> = {};
    if (backend === "bucket") {
      s3 = await new FakeS3({
        bucket: "wakha-recordings",
        accessKeyId: "AKIATEST",
        secretAccessKey: "test-secret",
        region: "eu-west-3",
      }).start();
      bucketEnv = {
        WAKHA_RECORDINGS_BUCKET: "wakha-recordings",
        WAKHA_RECORDINGS_ENDPOINT: s3.url,
        WAKHA_RECORDINGS_REGION: "eu-west-3",
        WAKHA_RECORDINGS_ACCESS_KEY_ID: "AKIATEST",
        WAKHA_RECORDINGS_SECRET_ACCESS_KEY: "test-secret",
        WAKHA_RECORDINGS_FORCE_PATH_STYLE: "true",
        WAKHA_RECORDINGS_SSE: "AES256",
      };
    }
    t = await startApp({ env: { WAKHA_DATA_DIR: dataDir, WAKHA_BASE_URL: "https://api.example.test", ...bucketEnv } });
    acct = await newAccount(t.ctx, 1000);
    shop = (await insertShop(t.ctx, acct.accountId)).externalId;
  });
  afterAll(async () => {
    await t.close();
    await s3?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const recorded = async () => {
    const { id } = (await postCall(t, acct, callBody(shop))).json() as { id: string };
    await saveRecording(t.ctx, id, audio, "audio/wav");
    return id;
  };
  const fetchRec = (id: string, headers: Record<string, string> = {}, who: TestAccount = acct) =>
    t.app.inject({ method: "GET", url: `/v1/calls/${id}/recording`, headers: { ...who.headers, ...headers } });

  it("streams the whole recording with its type, length and Accept-Ranges; the CallOut links to it", async () => {
    const id = await recorded();
    const res = await fetchRec(id);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("audio/wav");
    expect(res.headers["content-length"]).toBe(String(audio.length));
    expect(res.headers["accept-ranges"]).toBe("bytes");
    expect(res.rawPayload.equals(audio)).toBe(true);
    const call = (await t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: acct.headers })).json();
    expect(call.recording_url).toBe(`https://api.example.test/v1/calls/${id}/recording`);
    expect(await stored()).toContain(`${id}.wav`);
    if (s3) {
      // Encrypted at rest where the provider offers it, and nothing written to the node's own disk.
      expect(s3.objects.get(`recordings/${id}.wav`)?.sse).toBe("AES256");
      expect(await readdir(dataDir)).not.toContain("recordings");
    }
    const head = await t.app.inject({ method: "HEAD", url: `/v1/calls/${id}/recording`, headers: acct.headers });
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-length"]).toBe(String(audio.length));
    expect(head.rawPayload.length).toBe(0);
  });

  it.each([
    ["bytes=0-99", 0, 99],
    ["bytes=9000-", 9000, 9999],
    ["bytes=-500", 9500, 9999],
    ["bytes=9990-20000", 9990, 9999],
    ["bytes=5000-5000", 5000, 5000],
  ])("answers Range %s with 206 and Content-Range", async (range, start, end) => {
    const id = await recorded();
    const res = await fetchRec(id, { range });
    expect(res.statusCode).toBe(206);
    expect(res.headers["content-range"]).toBe(`bytes ${start}-${end}/${audio.length}`);
    expect(res.headers["content-length"]).toBe(String(end - start + 1));
    expect(res.rawPayload.equals(audio.subarray(start, end + 1))).toBe(true);
  });

  it.each([["bytes=10000-"], ["bytes=20000-30000"], ["bytes=-0"]])(
    "answers an unsatisfiable Range %s with 416",
    async (range) => {
      const id = await recorded();
      const res = await fetchRec(id, { range });
      expect(res.statusCode).toBe(416);
      expect(res.headers["content-range"]).toBe(`bytes */${audio.length}`);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    },
  );

  it("ignores a malformed or multi-part Range and sends everything", async () => {
    const id = await recorded();
    for (const range of ["items=0-5", "bytes=5-1", "bytes=0-1,5-6"]) {
      const res = await fetchRec(id, { range });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(audio.length);
    }
  });

  it("gives call_not_found when no recording was produced, with the same body as a missing call", async () => {
    const { id } = (await postCall(t, acct, callBody(shop))).json() as { id: string };
    const never = problem(await fetchRec(id), "call_not_found", 404);
    const missingId = randomUUID();
    const missing = problem(await fetchRec(missingId), "call_not_found", 404);
    const strip = (b: Record<string, unknown>, callId: string) =>
      JSON.stringify({ ...b, request_id: "", instance: "", detail: String(b["detail"]).replace(callId, "<id>") });
    expect(strip(never, id)).toBe(strip(missing, missingId));
    const call = (await t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: acct.headers })).json();
    expect(call.recording_url).toBeNull();
  });

  it("gives call_not_found for another account's recording", async () => {
    const id = await recorded();
    const stranger = await newAccount(t.ctx, 100);
    problem(await fetchRec(id, {}, stranger), "call_not_found", 404);
  });

  it("gives 410 recording_gone once purged, deletes the file and drops recording_url", async () => {
    const id = await recorded();
    expect(await purgeRecording(t.ctx, id)).toBe(true);
    problem(await fetchRec(id), "recording_gone", 410);
    expect(await stored()).not.toContain(`${id}.wav`);
    const call = (await t.app.inject({ method: "GET", url: `/v1/calls/${id}`, headers: acct.headers })).json();
    expect(call.recording_url).toBeNull();
    expect(await purgeRecording(t.ctx, id)).toBe(false);
  });

  it("purges recordings older than 30 days and keeps younger ones", async () => {
    const old = await recorded();
    const young = await recorded();
    await t.ctx.db.query("UPDATE calls SET recording_saved_at = now() - interval '30 days 1 minute' WHERE id = $1", [
      old,
    ]);
    await t.ctx.db.query("UPDATE calls SET recording_saved_at = now() - interval '29 days' WHERE id = $1", [young]);
    expect(await purgeExpiredRecordings(t.ctx)).toBeGreaterThanOrEqual(1);
    problem(await fetchRec(old), "recording_gone", 410);
    expect((await fetchRec(young)).statusCode).toBe(200);
  });

  it.runIf(backend === "bucket")(
    "deletes expired objects in one DeleteObjects per batch, and leaves the rows when the bucket refuses",
    async () => {
      const ids = [await recorded(), await recorded(), await recorded()];
      await t.ctx.db.query(
        "UPDATE calls SET recording_saved_at = now() - interval '40 days' WHERE id = ANY($1::uuid[])",
        [ids],
      );
      const before = s3!.deleteBatches.length;
      expect(await purgeExpiredRecordings(t.ctx)).toBeGreaterThanOrEqual(3);
      const batches = s3!.deleteBatches.slice(before);
      expect(batches).toHaveLength(1);
      expect(batches[0]).toEqual(expect.arrayContaining(ids.map((id) => `recordings/${id}.wav`)));
      for (const id of ids) problem(await fetchRec(id), "recording_gone", 410);

      // A bucket that cannot be reached: the purge fails and the row keeps its recording for the next run.
      const kept = await recorded();
      await t.ctx.db.query("UPDATE calls SET recording_saved_at = now() - interval '40 days' WHERE id = $1", [kept]);
      await s3!.stop();
      try {
        await expect(purgeExpiredRecordings(t.ctx)).rejects.toThrow();
        const { rows } = await t.ctx.db.query("SELECT recording_path, recording_purged_at FROM calls WHERE id = $1", [
          kept,
        ]);
        expect(rows[0]).toEqual({ recording_path: `${kept}.wav`, recording_purged_at: null });
      } finally {
        await s3!.start();
      }
    },
  );

  it("runs the purge from its hourly purge-recordings job", async () => {
    const schedules = await t.ctx.queue.boss.getSchedules();
    expect(schedules.map((x) => x.name)).toContain(JOBS.purgeRecordings.name);
    const old = await recorded();
    await t.ctx.db.query("UPDATE calls SET recording_saved_at = now() - interval '31 days' WHERE id = $1", [old]);
    await t.ctx.queue.boss.send(JOBS.purgeRecordings.name, {});
    const workers = createWorkers(t.ctx, () => {});
    await workers.start(["purgeRecordings"]);
    try {
      for (let i = 0; i < 100 && (await fetchRec(old)).statusCode === 200; i++)
        await new Promise((r) => setTimeout(r, 100));
      problem(await fetchRec(old), "recording_gone", 410);
    } finally {
      await workers.stop();
    }
  });
});

describe("parseRange", () => {
  it("reads single ranges and clamps to the size", () => {
    expect(parseRange(undefined, 10)).toEqual({ kind: "full" });
    expect(parseRange("bytes=2-4", 10)).toEqual({ kind: "partial", start: 2, end: 4 });
    expect(parseRange("bytes=-20", 10)).toEqual({ kind: "partial", start: 0, end: 9 });
    expect(parseRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-", 10)).toEqual({ kind: "full" });
  });
});
