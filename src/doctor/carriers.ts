// `wakha doctor` (issue 12): checks the configuration a node would start with and says plainly what is missing
// or risky, channel by channel. With --online it also asks each carrier in use whether the credentials work:
// Twilio's account resource (GET /2010-04-01/Accounts/{AccountSid}.json) and jambonz's webhook secret
// (GET /v1/Accounts/{AccountSid}/WebhookSecret, compared with WAKHA_JAMBONZ_WEBHOOK_SECRET). Offline, nothing
// leaves the machine. Secrets are never printed.
import { type Config, ConfigError, loadConfig } from "../config/config.ts";
import { CARRIER_TRAITS, type CallerIds, type CarrierTraits, needsSpeech } from "../config/carriers.ts";
import { DEFAULT_AZURE_VOICES } from "../engine/speech/azure.ts";
import { sharedSileroModel } from "../engine/speech/silero.ts";
import { turnTaking } from "../root/telephony.ts";

export interface DoctorOptions {
  env: NodeJS.ProcessEnv;
  online: boolean;
  write(line: string): void;
  /** fetch, replaceable in tests. */
  fetch?: typeof fetch;
  /** The node's own infrastructure (database, Redis, encryption key, recordings: src/doctor/node.ts), given by main.ts. */
  infrastructure?: (
    config: Config,
    env: NodeJS.ProcessEnv,
    online: boolean,
    say: (level: Level, text: string) => void,
  ) => Promise<void>;
}

type Level = "ok" | "warn" | "fail";
const MARK: Record<Level, string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };
const COUNTRIES = ["MA", "DZ", "TN", "FR"] as const;
const DIALECTS = ["ma", "dz", "tn", "fr"] as const;

/** Runs the checks; returns the exit code (1 when anything failed). */
export async function runDoctor(options: DoctorOptions): Promise<number> {
  let failed = false;
  const say = (level: Level, text: string) => {
    if (level === "fail") failed = true;
    options.write(`${MARK[level]}  ${text}`);
  };
  let config: Config;
  try {
    config = loadConfig(options.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const line of err.message.split("\n").slice(1)) say("fail", line.trim());
    options.write("The node would not start: fix the lines above (README.md, Configuration; docs/going-live.md).");
    return 1;
  }
  say("ok", "configuration parses");
  await options.infrastructure?.(config, options.env, options.online, say);
  if (config.WAKHA_RECOVERY_TIME_SCALE !== 1)
    say(
      "fail",
      `WAKHA_RECOVERY_TIME_SCALE is ${config.WAKHA_RECOVERY_TIME_SCALE}: only tests run the crash recovery on a fast clock; unset it`,
    );
  for (const [channel, provider] of config.telephony) say("ok", `channel ${channel}: ${provider}`);
  const used = new Set(config.telephony.values());
  if (used.size === 1 && used.has("simulator")) {
    say("ok", "every channel is simulated: no customer's phone rings (docs/going-live.md to go live)");
    return failed ? 1 : 0;
  }
  const publicUrl = config.WAKHA_PUBLIC_URL!;
  const local = /^https?:\/\/(localhost|127\.|\[::1\])/.test(publicUrl);
  if (!publicUrl.startsWith("https://") && !local)
    say("fail", `WAKHA_PUBLIC_URL ${publicUrl} must be https: carriers call it with the call's data`);
  else if (local)
    say(
      "warn",
      `WAKHA_PUBLIC_URL ${publicUrl} is only reachable from this machine: fine with the local fakes, not with a real carrier`,
    );
  else say("ok", `carriers reach this node at ${publicUrl} (/carriers/...)`);
  if (config.WAKHA_CARRIER_TIME_SCALE !== 1)
    say(
      "fail",
      `WAKHA_CARRIER_TIME_SCALE is ${config.WAKHA_CARRIER_TIME_SCALE}: only the test fakes run a fast clock; unset it with a real carrier`,
    );
  if (config.WAKHA_ROLE === "api")
    say(
      "warn",
      "WAKHA_ROLE=api places no call; the node that dials must also receive its carrier's callbacks (role all)",
    );

  // Each carrier family's checks once, whichever of its providers the channels use; then the speech service's.
  const traits = [...used].flatMap((p) => (CARRIER_TRAITS[p] ? [CARRIER_TRAITS[p]] : []));
  for (const family of new Set(traits.map((t) => t.family)))
    await FAMILY_CHECKS[family]?.(
      config,
      options,
      say,
      traits.filter((t) => t.family === family),
    );
  if (needsSpeech(used)) await azureChecks(config, options, say);
  options.write(failed ? "Some checks failed." : "All checks passed.");
  return failed ? 1 : 0;
}

type Say = (level: Level, text: string) => void;

function callerChecks(name: string, ids: CallerIds | undefined, say: Say): void {
  for (const country of COUNTRIES) {
    const list = ids?.[country] ?? ids?.["default"];
    const shown = list
      ?.map((l) => (l.lines === null ? l.number : `${l.number} (${l.lines} line${l.lines === 1 ? "" : "s"})`))
      .join(", ");
    if (shown) say("ok", `${name}: calls to ${country} show ${shown}`);
    else say("warn", `${name}: no caller id for ${country}; calls there fail (carrier_refused) until one is set`);
  }
}

function voiceChecks(name: string, voices: Partial<Record<string, string>> | undefined, say: Say): void {
  const missing = DIALECTS.filter((d) => !voices?.[d]);
  if (missing.length)
    say("warn", `${name}: no voice for ${missing.join(", ")}: the carrier's default voice for the locale speaks there`);
  else say("ok", `${name}: a voice for each dialect`);
}

/** The checks of each carrier family (config/carriers.ts CARRIER_TRAITS); the simulator has none. */
const FAMILY_CHECKS: Record<
  string,
  (config: Config, options: DoctorOptions, say: Say, providers: CarrierTraits[]) => Promise<void>
> = {
  // The ConversationRelay checks only when a text provider of the family (not Media Streams alone) is in use.
  twilio: (config, options, say, providers) =>
    twilioChecks(
      config,
      options,
      say,
      providers.some((p) => !p.speech),
    ),
  jambonz: (config, options, say) => jambonzChecks(config, options, say),
};

async function twilioChecks(config: Config, options: DoctorOptions, say: Say, relay = true): Promise<void> {
  callerChecks("WAKHA_TWILIO_CALLER_IDS", config.WAKHA_TWILIO_CALLER_IDS, say);
  if (relay) voiceChecks("WAKHA_TWILIO_VOICES", config.WAKHA_TWILIO_VOICES, say);
  if (!options.online) return say("ok", "twilio: credentials not checked (offline; add --online)");
  const api = config.WAKHA_TWILIO_API_URL.replace(/\/+$/, "");
  const sid = config.WAKHA_TWILIO_ACCOUNT_SID!;
  try {
    const res = await (options.fetch ?? fetch)(`${api}/2010-04-01/Accounts/${sid}.json`, {
      headers: { authorization: `Basic ${Buffer.from(`${sid}:${config.WAKHA_TWILIO_AUTH_TOKEN}`).toString("base64")}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status === 401) return say("fail", "twilio: the account SID and auth token were refused (401)");
    if (!res.ok) return say("fail", `twilio: the account could not be read (${res.status})`);
    const account = (await res.json()) as { status?: string; type?: string };
    say(
      account.status === "active" ? "ok" : "fail",
      `twilio: account ${account.status ?? "?"}${account.type ? ` (${account.type})` : ""}`,
    );
    if (account.type === "Trial")
      say("warn", "twilio: a trial account only calls verified numbers and plays a trial message first");
  } catch (err) {
    say("fail", `twilio: ${api} could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
}

// Azure Speech behind twilio-media (issue 13). Online: the documented voices list, GET
// https://{region}.tts.speech.microsoft.com/cognitiveservices/voices/list with Ocp-Apim-Subscription-Key, whose
// entries carry ShortName and Locale (https://learn.microsoft.com/azure/ai-services/speech-service/rest-text-to-speech).
function azureOrigin(config: Config): string {
  return (
    config.WAKHA_AZURE_SPEECH_ENDPOINT ?? `https://${config.WAKHA_AZURE_SPEECH_REGION}.tts.speech.microsoft.com`
  ).replace(/\/+$/, "");
}

/** The documented voices list, read with the node's key: what `doctor --online` and the start's preflight both ask. */
function azureVoicesList(config: Config, fetchImpl: typeof fetch): Promise<Response> {
  return fetchImpl(`${azureOrigin(config)}/cognitiveservices/voices/list`, {
    headers: { "Ocp-Apim-Subscription-Key": config.WAKHA_AZURE_SPEECH_KEY! },
    signal: AbortSignal.timeout(10_000),
  });
}

async function azureChecks(config: Config, options: DoctorOptions, say: Say): Promise<void> {
  const voices: Record<string, string> = { ...DEFAULT_AZURE_VOICES, ...config.WAKHA_AZURE_SPEECH_VOICES };
  say(
    "ok",
    `azure speech: voices ${DIALECTS.map((d) => `${d}=${voices[d]}`).join(", ")}; recognition in ar-MA, ar-DZ, ar-TN, fr-FR`,
  );
  const t = turnTaking(config);
  say(
    "ok",
    `turn-taking: ${t.vad} voice activity detection; a turn ends after ${t.endSilenceMs} ms of silence; ${t.bargeInMs} ms of speech over the agent stops it`,
  );
  if (t.vad === "silero") {
    try {
      await sharedSileroModel();
      say("ok", "silero vad: the packaged model loads");
    } catch (err) {
      say(
        "fail",
        `silero vad: the model does not load (${err instanceof Error ? err.message : String(err)}); set WAKHA_VAD=energy or reinstall onnxruntime-node`,
      );
    }
  }
  if (!options.online) return say("ok", "azure speech: key not checked (offline; add --online)");
  const origin = azureOrigin(config);
  try {
    const res = await azureVoicesList(config, options.fetch ?? fetch);
    if (res.status === 401 || res.status === 403)
      return say("fail", `azure speech: the key was refused (${res.status})`);
    if (!res.ok) return say("fail", `azure speech: the voices list could not be read (${res.status})`);
    const listed = new Set(((await res.json()) as { ShortName?: string }[]).map((v) => v.ShortName));
    for (const d of DIALECTS) {
      if (listed.has(voices[d])) say("ok", `azure speech: ${voices[d]} is available`);
      else
        say(
          "fail",
          `azure speech: ${voices[d]} (${d}) is not among the region's voices; set WAKHA_AZURE_SPEECH_VOICES`,
        );
    }
  } catch (err) {
    say("fail", `azure speech: ${origin} could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function jambonzChecks(config: Config, options: DoctorOptions, say: Say): Promise<void> {
  const api = config.WAKHA_JAMBONZ_API_URL!.replace(/\/+$/, "");
  if (!api.startsWith("https://") && !/^http:\/\/(localhost|127\.)/.test(api))
    say("warn", `WAKHA_JAMBONZ_API_URL ${api} is not https: the API key travels in clear`);
  callerChecks("WAKHA_JAMBONZ_CALLER_IDS", config.WAKHA_JAMBONZ_CALLER_IDS, say);
  voiceChecks("WAKHA_JAMBONZ_VOICES", config.WAKHA_JAMBONZ_VOICES, say);
  say(
    "ok",
    `jambonz: speech by ${config.WAKHA_JAMBONZ_TTS_VENDOR} (voices) and ${config.WAKHA_JAMBONZ_STT_VENDOR} (recognition), set up in the jambonz account`,
  );
  if (config.WAKHA_JAMBONZ_APPLICATION_SID)
    say(
      "ok",
      "jambonz: calls run the configured application; its call hook must be {WAKHA_PUBLIC_URL}/carriers/jambonz/ws (docs/going-live.md)",
    );
  if (!options.online) return say("ok", "jambonz: credentials not checked (offline; add --online)");
  try {
    const res = await (options.fetch ?? fetch)(
      `${api}/v1/Accounts/${encodeURIComponent(config.WAKHA_JAMBONZ_ACCOUNT_SID!)}/WebhookSecret`,
      {
        headers: { authorization: `Bearer ${config.WAKHA_JAMBONZ_API_KEY}` },
        signal: AbortSignal.timeout(10_000),
      },
    );
    if (res.status === 401 || res.status === 403)
      return say("fail", `jambonz: the API key was refused (${res.status})`);
    if (!res.ok) return say("fail", `jambonz: the account could not be read (${res.status})`);
    const { webhook_secret: secret } = (await res.json()) as { webhook_secret?: string };
    if (secret === config.WAKHA_JAMBONZ_WEBHOOK_SECRET)
      say("ok", "jambonz: API key accepted; WAKHA_JAMBONZ_WEBHOOK_SECRET matches the account's");
    else
      say(
        "fail",
        "jambonz: WAKHA_JAMBONZ_WEBHOOK_SECRET is not the account's webhook secret: every status webhook would be refused",
      );
  } catch (err) {
    say("fail", `jambonz: ${api} could not be reached: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * What a node that places calls over an audio carrier checks before it starts (issue 30.8): the speech service
 * answers with this key (the voices list, as `doctor --online` reads it). A node whose calls could neither speak
 * nor hear refuses to start with the returned sentence; null when speech works or no channel needs it.
 */
export async function speechPreflight(config: Config, fetchImpl: typeof fetch = fetch): Promise<string | null> {
  if (!needsSpeech(config.telephony.values())) return null;
  const origin = azureOrigin(config);
  const refuse = (why: string) =>
    `the twilio-media channel(s) need Azure Speech to speak and hear, and ${why}: check WAKHA_AZURE_SPEECH_KEY and ` +
    "WAKHA_AZURE_SPEECH_REGION (or WAKHA_AZURE_SPEECH_ENDPOINT), then run `wakha doctor --online`; the node does not start";
  try {
    const res = await azureVoicesList(config, fetchImpl);
    await res.body?.cancel().catch(() => {});
    if (res.status === 401 || res.status === 403) return refuse(`${origin} refused the key (${res.status})`);
    if (!res.ok) return refuse(`${origin} answered ${res.status}`);
    return null;
  } catch (err) {
    return refuse(`${origin} could not be reached (${err instanceof Error ? err.message : String(err)})`);
  }
}
