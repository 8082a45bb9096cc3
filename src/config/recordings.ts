// The recordings bucket's environment variables (issue 19): their Zod fields, which config.ts spreads into its
// schema, and the cross-variable checks, one line per problem. Unset WAKHA_RECORDINGS_BUCKET: local files.
import { z } from "zod";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"], {
    message: "must be true or false (1/0, yes/no, on/off)",
  })
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

export const recordingsEnvShape = {
  // S3 bucket names: 3-63 lowercase letters, digits, dots and hyphens.
  WAKHA_RECORDINGS_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens",
    )
    .optional(),
  WAKHA_RECORDINGS_ENDPOINT: z
    .url({ protocol: /^https?$/, message: "must be an http(s) URL, e.g. https://<account>.r2.cloudflarestorage.com" })
    .optional(),
  WAKHA_RECORDINGS_REGION: z.string().min(1).default("us-east-1"),
  WAKHA_RECORDINGS_ACCESS_KEY_ID: z.string().min(1).optional(),
  WAKHA_RECORDINGS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  WAKHA_RECORDINGS_FORCE_PATH_STYLE: flag.optional(),
  WAKHA_RECORDINGS_SSE: z
    .enum(["none", "AES256", "aws:kms"], { message: "must be none, AES256 or aws:kms" })
    .optional(),
  WAKHA_RECORDINGS_SSE_KMS_KEY_ID: z.string().min(1).optional(),
  WAKHA_RECORDINGS_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9._-]+\/)*$/, "must be empty or end with / (e.g. recordings/)")
    .default("recordings/"),
};

type RecordingsEnv = z.infer<z.ZodObject<typeof recordingsEnvShape>>;

/** The bucket settings that do not make sense together, one line each (empty when fine). */
export function recordingsProblems(env: RecordingsEnv): string[] {
  const problems: string[] = [];
  const bucketOnly = [
    "WAKHA_RECORDINGS_ENDPOINT",
    "WAKHA_RECORDINGS_ACCESS_KEY_ID",
    "WAKHA_RECORDINGS_SECRET_ACCESS_KEY",
    "WAKHA_RECORDINGS_FORCE_PATH_STYLE",
    "WAKHA_RECORDINGS_SSE",
    "WAKHA_RECORDINGS_SSE_KMS_KEY_ID",
  ] as const;
  if (!env.WAKHA_RECORDINGS_BUCKET) {
    for (const name of bucketOnly)
      if (env[name] !== undefined) problems.push(`${name}: only used with WAKHA_RECORDINGS_BUCKET, which is not set`);
    return problems;
  }
  if ((env.WAKHA_RECORDINGS_ACCESS_KEY_ID === undefined) !== (env.WAKHA_RECORDINGS_SECRET_ACCESS_KEY === undefined)) {
    const missing =
      env.WAKHA_RECORDINGS_ACCESS_KEY_ID === undefined
        ? "WAKHA_RECORDINGS_ACCESS_KEY_ID"
        : "WAKHA_RECORDINGS_SECRET_ACCESS_KEY";
    problems.push(
      `${missing}: required with the other half of the bucket's key pair (or set neither to use the SDK's default credentials)`,
    );
  }
  if (env.WAKHA_RECORDINGS_SSE_KMS_KEY_ID !== undefined && env.WAKHA_RECORDINGS_SSE !== "aws:kms") {
    problems.push("WAKHA_RECORDINGS_SSE_KMS_KEY_ID: only used with WAKHA_RECORDINGS_SSE=aws:kms");
  }
  return problems;
}
