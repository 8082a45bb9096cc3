// The recordings bucket settings (issue 19): validated at start, one clear line per problem; the root picks the store.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config/config.ts";
import { recordingStore } from "../src/root/root.ts";
import { LocalRecordingStore } from "../src/storage/local-recording-store.ts";
import { S3RecordingStore } from "../src/storage/s3-recording-store.ts";

const problems = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
    return "";
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
};

describe("WAKHA_RECORDINGS_* configuration", () => {
  it("keeps local files without a bucket, and a bucket when one is named", () => {
    expect(recordingStore(loadConfig({ WAKHA_DATA_DIR: "/tmp/x" }))).toBeInstanceOf(LocalRecordingStore);
    const store = recordingStore(
      loadConfig({ WAKHA_RECORDINGS_BUCKET: "wakha-recordings", WAKHA_RECORDINGS_REGION: "eu-west-3" }),
    );
    expect(store).toBeInstanceOf(S3RecordingStore);
    expect(store.description).toBe("bucket wakha-recordings in eu-west-3");
    store.close?.();
  });

  it("names each bad variable with what it expects", () => {
    expect(problems({ WAKHA_RECORDINGS_BUCKET: "Not_A_Bucket" })).toMatch(
      /WAKHA_RECORDINGS_BUCKET: must be a bucket name/,
    );
    expect(problems({ WAKHA_RECORDINGS_BUCKET: "b-1", WAKHA_RECORDINGS_ENDPOINT: "ftp://x" })).toMatch(
      /WAKHA_RECORDINGS_ENDPOINT: must be an http\(s\) URL/,
    );
    expect(problems({ WAKHA_RECORDINGS_BUCKET: "b-1", WAKHA_RECORDINGS_SSE: "aes" })).toMatch(
      /WAKHA_RECORDINGS_SSE: must be none, AES256 or aws:kms/,
    );
    expect(problems({ WAKHA_RECORDINGS_BUCKET: "b-1", WAKHA_RECORDINGS_FORCE_PATH_STYLE: "maybe" })).toMatch(
      /WAKHA_RECORDINGS_FORCE_PATH_STYLE: must be true or false/,
    );
    expect(problems({ WAKHA_RECORDINGS_BUCKET: "b-1", WAKHA_RECORDINGS_PREFIX: "rec" })).toMatch(
      /WAKHA_RECORDINGS_PREFIX: must be empty or end with \//,
    );
  });

  it("refuses settings that do not go together", () => {
    expect(problems({ WAKHA_RECORDINGS_ENDPOINT: "https://r2.example.com" })).toMatch(
      /WAKHA_RECORDINGS_ENDPOINT: only used with WAKHA_RECORDINGS_BUCKET/,
    );
    expect(problems({ WAKHA_RECORDINGS_BUCKET: "b-1", WAKHA_RECORDINGS_ACCESS_KEY_ID: "AKIA" })).toMatch(
      /WAKHA_RECORDINGS_SECRET_ACCESS_KEY: required with the other half/,
    );
    expect(problems({ WAKHA_RECORDINGS_BUCKET: "b-1", WAKHA_RECORDINGS_SSE_KMS_KEY_ID: "k" })).toMatch(
      /WAKHA_RECORDINGS_SSE_KMS_KEY_ID: only used with WAKHA_RECORDINGS_SSE=aws:kms/,
    );
    expect(
      problems({
        WAKHA_RECORDINGS_BUCKET: "b-1",
        WAKHA_RECORDINGS_ENDPOINT: "https://minio.internal:9000",
        WAKHA_RECORDINGS_FORCE_PATH_STYLE: "true",
        WAKHA_RECORDINGS_ACCESS_KEY_ID: "a",
        WAKHA_RECORDINGS_SECRET_ACCESS_KEY: "s",
        WAKHA_RECORDINGS_SSE: "AES256",
      }),
    ).toBe("");
  });
});
