// The call engine's assembly: the telephony providers, the speech for recordings and the dialogue with its
// classifier, from the configuration and the parts the composition root (src/root/root.ts) chooses.
import type { Config } from "../config/config.ts";
import type { CallEngine } from "../calls/place.ts";
import { createDialogue } from "../engine/dialogue/flow.ts";
import { warmDialogue } from "../engine/dialogue/warm-up.ts";
import { LlmIntentClassifier } from "../engine/dialogue/llm-classifier.ts";
import { ModelIntentClassifier } from "../engine/dialogue/model/model.ts";
import type { IntentClassifier } from "../engine/dialogue/types.ts";
import { EspeakSpeech, espeakAvailable } from "../engine/speech/espeak.ts";
import type { SpeechProvider } from "../engine/speech/provider.ts";
import type { NodeLines } from "../engine/telephony/lines.ts";
import { createTelephony } from "./telephony.ts";
import type { CustomerFactory } from "../engine/telephony/simulator/provider.ts";

/** Concurrent espeak-ng processes per node rendering recordings (a 500-call node must not spawn 500). */
const SYNTHESIS_CONCURRENCY = 2;

export interface EngineParts {
  classifier: IntentClassifier;
  customers: CustomerFactory;
  /** Omitted: espeak-ng when installed, else tone recordings. */
  speech?: SpeechProvider | null;
  log?: (message: string, err?: unknown) => void;
  /** The node's live carrier sessions, shared with its inbound adapters (built once by the root). */
  lines: NodeLines;
}

/** Logs to stderr unless LOG_LEVEL is silent. */
export function engineLog(config: Pick<Config, "LOG_LEVEL">): (message: string, err?: unknown) => void {
  return (message, err) => {
    if (config.LOG_LEVEL === "silent") return;
    process.stderr.write(
      `wakha engine: ${message}${err === undefined ? "" : `: ${err instanceof Error ? err.message : String(err)}`}\n`,
    );
  };
}

/**
 * espeak-ng when the binary runs here; otherwise null, and the simulator writes a tone per turn at the call's
 * real timing (a valid 8 kHz WAV as long as the call). Said once per node so the reason is in the logs.
 */
export async function recordingSpeech(log: (message: string) => void): Promise<SpeechProvider | null> {
  if (await espeakAvailable()) return new EspeakSpeech({ concurrency: SYNTHESIS_CONCURRENCY });
  log(
    "espeak-ng is not installed: simulated recordings carry a tone per turn at its real timing instead of speech (apt-get install espeak-ng)",
  );
  return null;
}

/** Builds an engine from the configuration and the given dialogue parts. */
export async function buildEngine(config: Config, parts: EngineParts): Promise<CallEngine> {
  const log = parts.log ?? engineLog(config);
  const speech = parts.speech === undefined ? await recordingSpeech(log) : parts.speech;
  const telephony = createTelephony(config, { customers: parts.customers, speech, log, lines: parts.lines });
  const classifier = parts.classifier;
  // The dialogue's first-use costs (lexicons, regular expressions, compiled code), paid while the first calls ring
  // rather than on their first turns (warm-up.ts).
  void warmDialogue();
  return {
    telephony,
    log,
    dialogue: (order, now, line, extra) =>
      createDialogue(order, {
        classifier,
        now,
        digits: line?.digits === true,
        ...(extra?.handoff ? { handoff: extra.handoff } : {}),
      }),
  };
}

/**
 * The local intent model (the lexicon's signals in a statistical model); with WAKHA_LLM_URL, a language model
 * reads the turns the local model is unsure of, within WAKHA_LLM_TIMEOUT_MS, the local reading its fallback.
 */
export function intentClassifier(
  config: Config,
  log: (message: string, err?: unknown) => void = () => {},
): IntentClassifier {
  const local = new ModelIntentClassifier();
  if (!config.WAKHA_LLM_URL || !config.WAKHA_LLM_MODEL) return local;
  return new LlmIntentClassifier({
    url: config.WAKHA_LLM_URL,
    apiKey: config.WAKHA_LLM_API_KEY,
    model: config.WAKHA_LLM_MODEL,
    timeoutMs: config.WAKHA_LLM_TIMEOUT_MS,
    local,
    onError: log,
  });
}
