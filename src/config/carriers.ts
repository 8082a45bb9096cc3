// The carriers' environment variables (issue 12): their Zod fields, which config.ts spreads into its schema,
// and the check that every variable a configured carrier needs is there, one line per missing variable.
// Kept beside config.ts, not in engine/: config.ts imports it, and config.ts sits below the engine (issue 11).
import { z } from "zod";

const e164 = /^\+[1-9]\d{6,14}$/;
const COUNTRIES = ["MA", "DZ", "TN", "FR"] as const;
const DIALECTS = ["ma", "dz", "tn", "fr"] as const;

/** A caller number and how many calls it carries at once (a GSM gateway: its SIM slots); null for no limit. */
export interface CallerLine {
  number: string;
  lines: number | null;
}
export type CallerIds = Partial<Record<(typeof COUNTRIES)[number] | "default", CallerLine[]>>;

/**
 * `MA=+212...,FR=+33...` or one number for every country; a key given twice lists several numbers for it, and
 * `/N` after a number says it carries at most N calls at once (issue 15): `MA=+212522000001/8,MA=+212522000002/8`.
 * Returns the numbers per country, `default` for those without a country.
 */
function callerIds(name: string) {
  return z.string().transform((value, ctx) => {
    const out: CallerIds = {};
    for (const part of value
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [key, entry] = part.includes("=")
        ? (part.split("=").map((s) => s.trim()) as [string, string])
        : ["default", part];
      if (key !== "default" && !(COUNTRIES as readonly string[]).includes(key.toUpperCase())) {
        ctx.addIssue({ code: "custom", message: `${name}: "${key}" is not a country (MA, DZ, TN, FR)` });
        return z.NEVER;
      }
      const [number, lines] = (entry ?? "").split("/").map((s) => s.trim());
      if (!e164.test(number ?? "")) {
        ctx.addIssue({ code: "custom", message: `${name}: "${number ?? ""}" is not an E.164 number (+212...)` });
        return z.NEVER;
      }
      if (lines !== undefined && !/^[1-9]\d{0,4}$/.test(lines)) {
        ctx.addIssue({
          code: "custom",
          message: `${name}: "/${lines}" after ${number} is not a number of lines (1 to 99999)`,
        });
        return z.NEVER;
      }
      const k = (key === "default" ? key : key.toUpperCase()) as keyof CallerIds;
      (out[k] ??= []).push({ number: number!, lines: lines === undefined ? null : Number(lines) });
    }
    return out;
  });
}

/** The first number of each country: what a carrier shows when the dialer did not pick a line. */
export function firstCallerIds(ids: CallerIds | undefined): Partial<Record<keyof CallerIds, string>> {
  return Object.fromEntries(Object.entries(ids ?? {}).map(([k, list]) => [k, list[0]!.number]));
}

/** `ma=ar-MA-JamalNeural,dz=...,tn=...,fr=fr-FR-DeniseNeural`: a voice per dialect. */
const voices = z.string().transform((value, ctx) => {
  const out: Record<string, string> = {};
  for (const part of value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [dialect, voice] = part.split("=").map((s) => s.trim());
    if (!dialect || !voice || !(DIALECTS as readonly string[]).includes(dialect)) {
      ctx.addIssue({ code: "custom", message: `"${part}" is not dialect=voice with a dialect among ma, dz, tn, fr` });
      return z.NEVER;
    }
    out[dialect] = voice;
  }
  return out as Partial<Record<(typeof DIALECTS)[number], string>>;
});

const httpUrl = z.url({ protocol: /^https?$/ });

/** Spread into config.ts's schema. */
export const carrierEnvShape = {
  /** Where the carriers reach this node's callbacks and WebSockets (https in production). */
  WAKHA_PUBLIC_URL: httpUrl.optional(),
  /** Compresses the carriers' wall clock: for the local fakes in tests and benchmarks only. */
  WAKHA_CARRIER_TIME_SCALE: z.coerce.number().positive().default(1),
  WAKHA_TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, "must be an account SID (AC followed by 32 hex digits)")
    .optional(),
  WAKHA_TWILIO_AUTH_TOKEN: z.string().min(16, "must be the account's auth token").optional(),
  WAKHA_TWILIO_CALLER_IDS: callerIds("WAKHA_TWILIO_CALLER_IDS").optional(),
  /** The simulator's caller numbers, with their line counts: to rehearse a gateway's limit (tests, benchmarks). */
  WAKHA_SIMULATOR_CALLER_IDS: callerIds("WAKHA_SIMULATOR_CALLER_IDS").optional(),
  WAKHA_TWILIO_VOICES: voices.optional(),
  WAKHA_TWILIO_TTS_PROVIDER: z.string().min(1).optional(),
  WAKHA_TWILIO_TRANSCRIPTION_PROVIDER: z.string().min(1).optional(),
  WAKHA_TWILIO_API_URL: httpUrl.default("https://api.twilio.com"),
  WAKHA_JAMBONZ_API_URL: httpUrl.optional(),
  WAKHA_JAMBONZ_ACCOUNT_SID: z.string().min(1).optional(),
  WAKHA_JAMBONZ_API_KEY: z.string().min(1).optional(),
  WAKHA_JAMBONZ_APPLICATION_SID: z.string().min(1).optional(),
  WAKHA_JAMBONZ_CALLER_IDS: callerIds("WAKHA_JAMBONZ_CALLER_IDS").optional(),
  WAKHA_JAMBONZ_WEBHOOK_SECRET: z
    .string()
    .min(8, "must be the webhook secret jambonz shows for the account")
    .optional(),
  WAKHA_JAMBONZ_VOICES: voices.optional(),
  WAKHA_JAMBONZ_TTS_VENDOR: z.string().min(1).default("microsoft"),
  WAKHA_JAMBONZ_STT_VENDOR: z.string().min(1).default("microsoft"),
  // Azure Speech for audio carriers (twilio-media, issue 13).
  WAKHA_AZURE_SPEECH_KEY: z.string().min(16, "must be a key of the Speech resource").optional(),
  WAKHA_AZURE_SPEECH_REGION: z
    .string()
    .regex(/^[a-z0-9]+$/, "must be a region name such as westeurope")
    .optional(),
  /** One origin for both speech APIs instead of the region's hosts (a sovereign cloud, or the local fake). */
  WAKHA_AZURE_SPEECH_ENDPOINT: httpUrl.optional(),
  WAKHA_AZURE_SPEECH_VOICES: voices.optional(),
  /** Turn-taking on audio carriers: the detector (silero or energy), then milliseconds of audio. */
  WAKHA_VAD: z.enum(["silero", "energy"]).default("silero"),
  /** Silero's speech probability threshold (0..1). */
  WAKHA_VAD_THRESHOLD: z.coerce.number().min(0.05).max(0.95).default(0.5),
  /** Silence that ends a turn; by default 200 with Silero (which adds ~100 ms of its own hangover), 400 with energy. */
  WAKHA_VAD_END_SILENCE_MS: z.coerce.number().int().min(100).max(3000).optional(),
  /** Voiced speech over the agent that stops it; by default 320 with Silero, 160 with energy. */
  WAKHA_VAD_BARGE_IN_MS: z.coerce.number().int().min(40).max(2000).optional(),
  WAKHA_VAD_FILLER_MS: z.coerce.number().int().min(40).max(3000).optional(),
  WAKHA_VAD_MIN_RMS: z.coerce.number().int().min(1).max(20000).default(400),
};

const carrierEnvSchema = z.object(carrierEnvShape);
export type CarrierEnv = z.infer<typeof carrierEnvSchema>;

/** The telephony providers WAKHA_TELEPHONY may name (each is built in root/telephony.ts, its traits below). */
export const PROVIDERS = ["simulator", "twilio", "twilio-media", "jambonz"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** A telephony provider's family (whose account and caller numbers it uses) and whether it needs Azure Speech. */
export interface CarrierTraits {
  family: "simulator" | "twilio" | "jambonz";
  callerIds: "WAKHA_SIMULATOR_CALLER_IDS" | "WAKHA_TWILIO_CALLER_IDS" | "WAKHA_JAMBONZ_CALLER_IDS";
  speech: boolean;
}

/**
 * Every telephony provider's traits, in one table (issue 29): the caller lines, the configuration's checks and the
 * doctor read it instead of branching on a provider's name. Twilio's numbers serve both of its providers.
 */
export const CARRIER_TRAITS: Record<ProviderName, CarrierTraits> & Record<string, CarrierTraits | undefined> = {
  simulator: { family: "simulator", callerIds: "WAKHA_SIMULATOR_CALLER_IDS", speech: false },
  twilio: { family: "twilio", callerIds: "WAKHA_TWILIO_CALLER_IDS", speech: false },
  "twilio-media": { family: "twilio", callerIds: "WAKHA_TWILIO_CALLER_IDS", speech: true },
  jambonz: { family: "jambonz", callerIds: "WAKHA_JAMBONZ_CALLER_IDS", speech: false },
};

/** Whether any of the providers speaks and hears through Azure Speech (an audio carrier). */
export function needsSpeech(providers: Iterable<string>): boolean {
  return [...providers].some((p) => CARRIER_TRAITS[p]?.speech === true);
}

const REQUIRED: Record<string, [keyof CarrierEnv, string][]> = {
  twilio: [
    ["WAKHA_PUBLIC_URL", "the public https address Twilio calls back and opens the ConversationRelay WebSocket on"],
    ["WAKHA_TWILIO_ACCOUNT_SID", "the Twilio account SID (AC...)"],
    ["WAKHA_TWILIO_AUTH_TOKEN", "the Twilio auth token (signs the callbacks, authenticates the REST API)"],
    ["WAKHA_TWILIO_CALLER_IDS", "the caller number(s): one E.164 number, or MA=+212...,FR=+33..."],
  ],
  "twilio-media": [
    ["WAKHA_PUBLIC_URL", "the public https address Twilio calls back and opens the Media Streams WebSocket on"],
    ["WAKHA_TWILIO_ACCOUNT_SID", "the Twilio account SID (AC...)"],
    ["WAKHA_TWILIO_AUTH_TOKEN", "the Twilio auth token (signs the callbacks, authenticates the REST API)"],
    ["WAKHA_TWILIO_CALLER_IDS", "the caller number(s): one E.164 number, or MA=+212...,FR=+33..."],
    ["WAKHA_AZURE_SPEECH_KEY", "a key of the Azure Speech resource that speaks and hears the calls"],
  ],
  jambonz: [
    ["WAKHA_PUBLIC_URL", "the public address jambonz opens the WebSocket and posts call status on"],
    ["WAKHA_JAMBONZ_API_URL", "the jambonz REST API base URL (https://api.jambonz.cloud or your own)"],
    ["WAKHA_JAMBONZ_ACCOUNT_SID", "the jambonz account SID"],
    ["WAKHA_JAMBONZ_API_KEY", "a jambonz API key of that account"],
    ["WAKHA_JAMBONZ_CALLER_IDS", "the caller id(s): one E.164 number, or MA=+212...,FR=+33..."],
    ["WAKHA_JAMBONZ_WEBHOOK_SECRET", "the account's webhook secret (verifies Jambonz-Signature)"],
  ],
};

/** One line per variable a carrier in use needs and does not have. */
export function carrierProblems(env: CarrierEnv, providers: Iterable<string>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const used = new Set(providers);
  for (const provider of used) {
    for (const [name, what] of REQUIRED[provider] ?? []) {
      if (env[name] === undefined && !seen.has(name)) {
        seen.add(name);
        problems.push(`${name}: required by the ${provider} channel(s): ${what}`);
      }
    }
  }
  if (needsSpeech(used)) {
    if (env.WAKHA_AZURE_SPEECH_REGION === undefined && env.WAKHA_AZURE_SPEECH_ENDPOINT === undefined) {
      problems.push(
        "WAKHA_AZURE_SPEECH_REGION: required by the twilio-media channel(s): the Speech resource's region (or WAKHA_AZURE_SPEECH_ENDPOINT)",
      );
    }
  }
  return problems;
}

/** The caller-number variable of each carrier that needs one (the simulator shows its own). */
const CALLER_ID_VARIABLES = {
  twilio: "WAKHA_TWILIO_CALLER_IDS",
  "twilio-media": "WAKHA_TWILIO_CALLER_IDS",
  jambonz: "WAKHA_JAMBONZ_CALLER_IDS",
} as const;

/**
 * Why this node cannot dial a call on `channel` to `country` (issue 32.4: refused at creation, not failed a second
 * later), or null when it can. `provider` is the channel's provider in the node's telephony plan.
 */
export function undialable(
  env: CarrierEnv,
  channel: string,
  provider: string | undefined,
  country: string,
): string | null {
  if (provider === undefined)
    return `Channel "${channel}" has no carrier configured on this installation (WAKHA_TELEPHONY).`;
  const variable = CALLER_ID_VARIABLES[provider as keyof typeof CALLER_ID_VARIABLES];
  if (!variable) return null;
  const ids = env[variable];
  if (ids?.[country as keyof CallerIds]?.length || ids?.default?.length) return null;
  return `The ${provider} carrier of channel "${channel}" has no caller number for ${country}: ${variable} lists ${Object.keys(ids ?? {}).join(", ") || "none"}.`;
}
