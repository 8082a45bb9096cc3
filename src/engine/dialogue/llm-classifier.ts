// The optional language-model understander (issue 14): an IntentClassifier that asks an OpenAI-compatible
// chat-completions endpoint (POST {base}/chat/completions, `response_format: {type: "json_schema"}`) about
// the turns the local classifier is unsure of, within a strict time budget. On a timeout, an HTTP error, a
// refusal or an answer outside the schema, the local answer stands: a call never waits on, nor breaks on, a
// vendor. Off by default (WAKHA_LLM_URL unset); the composition root chooses it.
import type { Country } from "./lexicon/index.ts";
import type { Classification, Intent, IntentClassifier } from "./types.ts";

const LABELS: readonly Intent[] = [
  "confirm",
  "cancel",
  "reschedule",
  "callback",
  "change_request",
  "wrong_number",
  "question",
  "unclear",
];
const COSTLY = new Set<Intent>(["confirm", "cancel", "wrong_number"]);

export interface LlmClassifierOptions {
  /** Base URL of the API, e.g. `https://api.example.com/v1`; `/chat/completions` is appended. */
  url: string;
  apiKey?: string | undefined;
  model: string;
  /** The whole request, answer read included, must fit in this budget. */
  timeoutMs: number;
  /** The local classifier: asked first, and the answer whenever the model is not. */
  local: IntentClassifier;
  /** The model is asked only when the local confidence is below this (or the reply is mixed). Default 0.7. */
  askBelow?: number;
  /** Reports failures (timeouts, errors, garbage) without failing the call. */
  onError?: (message: string, err?: unknown) => void;
}

const DIALECT: Record<Country, string> = {
  MA: "Moroccan Darija",
  DZ: "Algerian Darja",
  TN: "Tunisian Derja",
  FR: "French as spoken in France",
};

/** The labelling rules of CONTRACT §5b, as instructions. */
function systemPrompt(country: Country): string {
  return [
    "You label what a cash-on-delivery customer means, in one reply to an order-confirmation phone call.",
    `The customer speaks ${DIALECT[country]}, perhaps code-switching with French or Arabic; the text may be a speech recogniser's transcript (no punctuation, Arabic script, recognition slips) or typed Latin-script Arabic with digits (3, 7, 9, 5).`,
    "Labels: confirm, cancel, reschedule, callback, change_request, wrong_number, question, unclear.",
    'Rules: a reply that mixes intents takes the last or dominant action asked for ("yes, but in red" is change_request; "fine, but bring it Thursday" is reschedule; a question then "ok, send it" is confirm).',
    "A yes with a delivery instruction (call before the courier comes, knock hard) stays confirm.",
    'Asking for a delivery day or time slot, or "call me Monday about the delivery", is reschedule; "I can\'t talk now, call me later" is callback.',
    "A request phrased as a question takes the intent of what is requested, not question.",
    '"I didn\'t order anything" is cancel, unless the speaker says they are not that person, it is not their name or number: then wrong_number.',
    'Requests to repeat, bad-line complaints, fillers and asides to someone else are unclear; "inshallah" alone is a hedge, not a yes.',
    "confirm, cancel and wrong_number are costly decisions: give them a confidence above 0.7 only when the reply leaves no doubt.",
    "Answer with the JSON object of the schema: the label and your confidence from 0 to 1.",
  ].join("\n");
}

const RESPONSE_FORMAT = {
  type: "json_schema",
  json_schema: {
    name: "customer_intent",
    strict: true,
    schema: {
      type: "object",
      properties: {
        intent: { type: "string", enum: LABELS },
        confidence: { type: "number", minimum: 0, maximum: 1 },
      },
      required: ["intent", "confidence"],
      additionalProperties: false,
    },
  },
} as const;

/** The request body sent to `{url}/chat/completions`. */
export function chatRequest(model: string, text: string, country: Country): Record<string, unknown> {
  return {
    model,
    messages: [
      { role: "system", content: systemPrompt(country) },
      { role: "user", content: text },
    ],
    response_format: RESPONSE_FORMAT,
    temperature: 0,
    max_tokens: 40,
  };
}

/** The label in a chat-completions answer, or null when the answer is anything but the schema's object. */
export function readChatAnswer(body: unknown): Classification | null {
  const choice = (body as { choices?: { message?: { content?: unknown; refusal?: unknown } }[] } | null)?.choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== "string" || choice?.message?.refusal) return null;
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return null;
  }
  const { intent, confidence } = (value ?? {}) as { intent?: unknown; confidence?: unknown };
  if (typeof intent !== "string" || !(LABELS as readonly string[]).includes(intent)) return null;
  if (typeof confidence !== "number" || !Number.isFinite(confidence)) return null;
  return { intent: intent as Intent, confidence: Math.round(Math.min(1, Math.max(0, confidence)) * 100) / 100 };
}

/** The local classifier, with a language model's reading of the replies the local one is unsure of. */
export class LlmIntentClassifier implements IntentClassifier {
  readonly #options: LlmClassifierOptions;
  readonly #endpoint: string;

  constructor(options: LlmClassifierOptions) {
    this.#options = options;
    this.#endpoint = `${options.url.replace(/\/+$/, "")}/chat/completions`;
  }

  async classify(text: string, country: Country): Promise<Classification> {
    const local = await this.#options.local.classify(text, country);
    if (local.confidence >= (this.#options.askBelow ?? 0.7) && local.mixed !== true) return local;
    if (!text.trim()) return local;
    const remote = await this.#ask(text, country);
    if (!remote) return local;
    // Two readings that disagree on a costly decision are not a decision: the dialogue asks a yes/no check.
    const disagree =
      remote.intent !== local.intent &&
      local.intent !== "unclear" &&
      (COSTLY.has(remote.intent) || COSTLY.has(local.intent));
    const mixed = local.mixed === true || disagree;
    return mixed ? { ...remote, mixed: true } : remote;
  }

  async #ask(text: string, country: Country): Promise<Classification | null> {
    const { apiKey, model, timeoutMs, onError } = this.#options;
    try {
      const response = await fetch(this.#endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify(chatRequest(model, text, country)),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        onError?.(`language model answered HTTP ${response.status}; the local classifier's reading stands`);
        return null;
      }
      const answer = readChatAnswer(await response.json());
      if (!answer) onError?.("language model answered outside the schema; the local classifier's reading stands");
      return answer;
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      onError?.(
        timedOut
          ? `language model took more than ${timeoutMs} ms; the local classifier's reading stands`
          : "language model request failed",
        timedOut ? undefined : err,
      );
      return null;
    }
  }
}
