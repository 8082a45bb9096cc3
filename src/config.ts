import { z } from "zod";
import { telephonyPlan } from "./engine/telephony/index.ts";

// Parses "3h,6h,12h,24h" style schedules into seconds; units s, m, h, d.
const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

const schedule = z.string().transform((value, ctx) => {
  const parts = value.split(",").map((p) => p.trim()).filter(Boolean);
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
  // Seals webhook signing secrets at rest (src/webhooks/secret-box.ts); embedded mode keeps one in the data dir.
  WAKHA_ENCRYPTION_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  WAKHA_ROLE: z.enum(["all", "api", "worker"]).default("all"),
  WAKHA_CHANNELS: z
    .string()
    .default("gsm")
    .transform((s) => s.split(",").map((c) => c.trim()).filter(Boolean)),
  WAKHA_TELEPHONY: z.string().min(1).default("simulator"),
  WAKHA_MESSAGING_APP_SECRET: z.string().min(1).optional(),
  WAKHA_MESSAGING_VERIFY_TOKEN: z.string().min(1).optional(),
  WAKHA_WEBHOOK_RETRY_SCHEDULE: schedule.default([3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600]),
  WAKHA_WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  WAKHA_SIMULATOR_SPEED: z.coerce.number().positive().default(1),
  WAKHA_RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  WAKHA_V1_SUNSET: rfc3339.optional(),
  WAKHA_V1_DEPRECATION: rfc3339.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, "WAKHA_BASE_URL" | "WAKHA_DOCS_URL"> {
  baseUrl: string;
  docsUrl: string;
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
  try {
    telephonyPlan(e); // an unknown provider must stop the node now, not fail its first call
  } catch (err) {
    throw new ConfigError(`invalid configuration:\n  ${err instanceof Error ? err.message : String(err)}`);
  }
  const baseUrl = (e.WAKHA_BASE_URL ?? `http://${e.HOST === "0.0.0.0" ? "127.0.0.1" : e.HOST}:${e.PORT}`).replace(/\/+$/, "");
  const docsUrl = (e.WAKHA_DOCS_URL ?? `${baseUrl}/docs`).replace(/\/+$/, "");
  const { WAKHA_BASE_URL: _b, WAKHA_DOCS_URL: _d, ...rest } = e;
  return { ...rest, baseUrl, docsUrl };
}
