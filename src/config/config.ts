import { z } from "zod";
import { carrierEnvShape, carrierProblems, PROVIDERS, type ProviderName } from "./carriers.ts";
import { recordingsEnvShape, recordingsProblems } from "./recordings.ts";
import { httpLimitsEnvShape } from "./http.ts";

// Parses "3h,6h,12h,24h" style schedules into seconds; units s, m, h, d.
const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

const schedule = z.string().transform((value, ctx) => {
  const parts = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const out: number[] = [];
  for (const part of parts) {
    const m = DURATION.exec(part);
    if (!m) {
      ctx.addIssue({ code: "custom", message: `"${part}" is not a duration like 30s, 5m, 3h or 1d` });
      return z.NEVER;
    }
    out.push(Number(m[1]) * UNIT_SECONDS[m[2]!]!);
  }
  if (out.length === 0) {
    ctx.addIssue({ code: "custom", message: "must list at least one delay" });
    return z.NEVER;
  }
  return out;
});

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const rfc3339 = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  WAKHA_DATA_DIR: z.string().min(1).default("./.wakha"),
  WAKHA_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  WAKHA_DOCS_URL: z.url({ protocol: /^https?$/ }).optional(),
  WAKHA_CURSOR_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // Seals webhook signing secrets at rest (src/crypto/secret-box.ts); embedded mode keeps one in the data dir.
  WAKHA_ENCRYPTION_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  WAKHA_ROLE: z.enum(["all", "api", "worker"]).default("all"),
  // Open channels, each optionally with its provider: `gsm=jambonz,voip=twilio`; a plain `gsm` takes WAKHA_TELEPHONY's.
  WAKHA_CHANNELS: z
    .string()
    .default("gsm")
    .transform((s) =>
      s
        .split(",")
        .map((c) => c.split("=")[0]!.trim())
        .filter(Boolean),
    ),
  WAKHA_TELEPHONY: z.string().min(1).default("simulator"),
  WAKHA_MESSAGING_APP_SECRET: z.string().min(1).optional(),
  WAKHA_MESSAGING_VERIFY_TOKEN: z.string().min(1).optional(),
  // The WhatsApp Cloud API (issue 16): Meta's Graph API unless pointed elsewhere (a test fake, a proxy).
  WAKHA_WHATSAPP_GRAPH_URL: z.url({ protocol: /^https?$/ }).default("https://graph.facebook.com"),
  WAKHA_WHATSAPP_GRAPH_VERSION: z
    .string()
    .regex(/^v\d{1,3}\.\d{1,3}$/, "must look like v21.0")
    .default("v21.0"),
  // Store connectors (issue 17): Shopify's Admin API at each store's own address unless pointed elsewhere (a test fake).
  WAKHA_SHOPIFY_ADMIN_URL: z.url({ protocol: /^https?$/ }).optional(),
  WAKHA_WEBHOOK_RETRY_SCHEDULE: schedule.default([3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600]),
  WAKHA_WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  /** Calling hours in the customer's local time (issue 15); off only for tests and load tests that must ring at any hour. */
  WAKHA_CALLING_HOURS: flag.default(true),
  /** Calls of one account ringing or in progress at once, unless the account has its own cap (wakha accounts set). */
  WAKHA_MAX_CONCURRENT_CALLS: z.coerce.number().int().min(1).max(100_000).default(200),
  // Issue 31.5: at most this many orders a day are called on one number per account (retries of one order count once);
  // 0 turns the limit off.
  WAKHA_NUMBER_DAILY_LIMIT: z.coerce.number().int().min(0).max(100_000).default(3),
  WAKHA_SIMULATOR_SPEED: z.coerce.number().positive().default(1),
  /** The simulator's audio mode (issue 13): frames, voice activity detection and barge-in for real, offline. */
  WAKHA_SIMULATOR_AUDIO: flag.default(false),
  /** Group commit of call creations (issue 19, db/group-commit.ts): the most creations written in one statement; 0 writes each alone. */
  WAKHA_CREATE_BATCH_SIZE: z.coerce.number().int().min(0).max(500).default(32),
  /** Creation batches written at once, each on its own database connection. */
  WAKHA_CREATE_BATCHES: z.coerce.number().int().min(1).max(16).default(2),
  /** Batched reads of GET /v1/calls/{id} (issue 19): the most reads answered by one statement; 0 reads each alone. */
  WAKHA_READ_BATCH_SIZE: z.coerce.number().int().min(0).max(500).default(32),
  /** Read statements running at once, each on its own database connection. */
  WAKHA_READ_BATCHES: z.coerce.number().int().min(1).max(16).default(2),
  WAKHA_RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  /**
   * Compresses the crash recovery's clock (calls/sweeper.ts): the calls' heartbeat, the age at which a call counts as
   * lost, each node's sweep and the sweep's graces all divided by it, so their ratios stay. For tests only.
   */
  WAKHA_RECOVERY_TIME_SCALE: z.coerce.number().min(1).max(100).default(1),
  WAKHA_V1_SUNSET: rfc3339.optional(),
  WAKHA_V1_DEPRECATION: rfc3339.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // The optional language-model understander (engine/dialogue/llm-classifier.ts): off unless WAKHA_LLM_URL is set.
  WAKHA_LLM_URL: z.url({ protocol: /^https?$/ }).optional(),
  WAKHA_LLM_API_KEY: z.string().min(1).optional(),
  WAKHA_LLM_MODEL: z.string().min(1).optional(),
  WAKHA_LLM_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(50, "must be at least 50 ms")
    .max(10_000, "must be at most 10000 ms")
    .default(1200),
  ...carrierEnvShape,
  ...recordingsEnvShape,
  ...httpLimitsEnvShape,
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, "WAKHA_BASE_URL" | "WAKHA_DOCS_URL"> {
  baseUrl: string;
  docsUrl: string;
  /** The provider behind each open channel (telephonyPlan). */
  telephony: Map<string, ProviderName>;
}

export { PROVIDERS, type ProviderName };

/**
 * Reads WAKHA_TELEPHONY into a provider name per open channel. Throws one clear message for an unknown
 * provider or a channel that is not open, so a misconfigured node fails at start and not at its first call.
 */
export function telephonyPlan(
  config: Pick<Env, "WAKHA_CHANNELS" | "WAKHA_TELEPHONY">,
  channelSpec?: string,
): Map<string, ProviderName> {
  const spec = config.WAKHA_TELEPHONY.trim();
  const pairs = spec.includes("=")
    ? spec
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => p.split("=").map((s) => s.trim()) as [string, string])
    : config.WAKHA_CHANNELS.map((channel) => [channel, spec] as [string, string]);
  // WAKHA_CHANNELS=gsm=jambonz,voip=twilio names a channel's provider itself, over WAKHA_TELEPHONY.
  for (const entry of (channelSpec ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p.includes("="))) {
    const [channel, name] = entry.split("=").map((s) => s.trim()) as [string, string];
    const at = pairs.findIndex(([c]) => c === channel);
    if (at >= 0) pairs.splice(at, 1);
    pairs.push([channel, name]);
  }
  const plan = new Map<string, ProviderName>();
  for (const [channel, name] of pairs) {
    if (!(PROVIDERS as readonly string[]).includes(name ?? "")) {
      throw new Error(
        `WAKHA_TELEPHONY: unknown telephony provider "${name ?? ""}" for channel "${channel}"; available: ${PROVIDERS.join(", ")}`,
      );
    }
    if (!config.WAKHA_CHANNELS.includes(channel)) {
      throw new Error(
        `WAKHA_TELEPHONY: channel "${channel}" is not open (WAKHA_CHANNELS=${config.WAKHA_CHANNELS.join(",")})`,
      );
    }
    plan.set(channel, name as ProviderName);
  }
  const missing = config.WAKHA_CHANNELS.filter((c) => !plan.has(c));
  if (missing.length) throw new Error(`WAKHA_TELEPHONY: no provider for the open channel(s) ${missing.join(", ")}`);
  return plan;
}

/**
 * What a node of `role` needs beyond the schema (issue 32.3), one line per problem: a worker builds the webhooks'
 * payloads (recording.ready's recording_url, the call.* events), so it needs the public API address itself.
 */
export function roleProblems(role: Env["WAKHA_ROLE"], env: NodeJS.ProcessEnv): string[] {
  if (role !== "worker" || env["WAKHA_BASE_URL"]) return [];
  return [
    "WAKHA_BASE_URL: required on a worker node: the webhooks it sends carry absolute URLs of the public API (recording.ready's recording_url); set the same public API address on every node (docs/scaling.md)",
  ];
}

/** Thrown with one line per bad variable so the operator can fix them all at once. */
export class ConfigError extends Error {}

/** Parses the environment once; every problem is reported with the variable's name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  let telephony: Map<string, ProviderName>;
  try {
    telephony = telephonyPlan(e, typeof cleaned["WAKHA_CHANNELS"] === "string" ? cleaned["WAKHA_CHANNELS"] : undefined); // an unknown provider must stop the node now, not fail its first call
  } catch (err) {
    throw new ConfigError(`invalid configuration:\n  ${err instanceof Error ? err.message : String(err)}`);
  }
  // A carrier in use needs its credentials and the public URL: say each missing one.
  const missing = carrierProblems(e, telephony.values());
  missing.push(...recordingsProblems(e));
  if (e.WAKHA_LLM_URL && !e.WAKHA_LLM_MODEL) missing.push("WAKHA_LLM_MODEL: required when WAKHA_LLM_URL is set");
  if (missing.length) throw new ConfigError(`invalid configuration:\n${missing.map((m) => `  ${m}`).join("\n")}`);
  const baseUrl = (e.WAKHA_BASE_URL ?? `http://${e.HOST === "0.0.0.0" ? "127.0.0.1" : e.HOST}:${e.PORT}`).replace(
    /\/+$/,
    "",
  );
  const docsUrl = (e.WAKHA_DOCS_URL ?? `${baseUrl}/docs`).replace(/\/+$/, "");
  const { WAKHA_BASE_URL: _b, WAKHA_DOCS_URL: _d, ...rest } = e;
  return { ...rest, baseUrl, docsUrl, telephony };
}
