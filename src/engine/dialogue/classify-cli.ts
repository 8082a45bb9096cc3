// `wakha classify` (CONTRACT §5b): one utterance per line on stdin, one JSON line {"intent", "confidence"} per
// input on stdout. With --json-input each line is {"country": "MA", "text": "..."}.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { COUNTRIES } from "../../domain/locale.ts";
import { analyse } from "./signals.ts";
import { decide, type Country, type IntentClassifier } from "./classifier.ts";
import { ModelIntentClassifier, type Explanation } from "./model/model.ts";
import { decision, FIRST_REPLY, type TurnState } from "./flow.ts";

export const CLASSIFY_USAGE = `Usage:
  wakha classify --country MA|DZ|TN|FR      one utterance per line on stdin
  wakha classify --json-input [--country C] one {"country", "text"} object per line on stdin
  add --explain to see what decided each line
  add --decision to see what the dialogue would do with each line heard after the confirmation question

Prints one JSON line {"intent", "confidence"} per input line. A --json-input line that cannot be read
prints {"error": "..."} in its place and the exit code is 1. With --explain each line also carries
"explain": the label probabilities, the features that weighed most for the chosen label against the
runner-up, the lexicon's signals (~ marks a negated one), the lexicon rules' own verdict, "mixed" when the
reading is to be checked with a yes/no question before it is acted on, and for a confirm "doubts": the question or
hedge that made it so, and "reading": the request the two-step reading found (condition, change, callback,
refusal, acknowledgement) and the yes, with "overruled": the model's label when the reading overruled it.
With --decision each line also carries "decision": "act" (the dialogue acts on the reading), "check" (it asks a
yes/no check or the question again instead; for a reschedule, callback or change request read below 0.8, it asks its
day, time or change again) or "keypad" (it offers "press 1 or 2"), by the dialogue's own
thresholds and safeguards, for the first reply to the confirmation question; a --json-input line may say where the
call stands: "unclear" (unclear turns so far, 0-2), "questions" (questions answered so far, 0-3), "digits" (the line
carries keypad digits), "answers_check" (the reply answers the agent's yes/no check).`;

function toCountry(value: unknown): Country | null {
  if (typeof value !== "string") return null;
  const upper = value.toUpperCase();
  return (COUNTRIES as readonly string[]).includes(upper) ? (upper as Country) : null;
}

export interface ClassifyCliOptions {
  /** The local model classifier when omitted. */
  classifier?: IntentClassifier & { explain?(text: string, country: Country): Explanation };
  /** Where usage errors go; process.stderr when omitted. */
  errors?: NodeJS.WritableStream;
}

/** Runs `wakha classify` over `input`; resolves to the exit code (0 ok, 1 unreadable input lines, 2 bad usage). */
export async function runClassify(
  args: string[],
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  options: ClassifyCliOptions = {},
): Promise<number> {
  const classifier = options.classifier ?? new ModelIntentClassifier();
  const errors = options.errors ?? process.stderr;
  let values: { country?: string; "json-input"?: boolean; explain?: boolean; decision?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        country: { type: "string" },
        "json-input": { type: "boolean" },
        explain: { type: "boolean" },
        decision: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    errors.write(`wakha classify: ${(err as Error).message}\n${CLASSIFY_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    output.write(`${CLASSIFY_USAGE}\n`);
    return 0;
  }
  const jsonInput = values["json-input"] === true;
  const defaultCountry = values.country === undefined ? null : toCountry(values.country);
  if (values.country !== undefined && defaultCountry === null) {
    errors.write(`wakha classify: --country must be one of ${COUNTRIES.join(", ")}\n${CLASSIFY_USAGE}\n`);
    return 2;
  }
  if (!jsonInput && defaultCountry === null) {
    errors.write(`wakha classify: --country is required (or --json-input)\n${CLASSIFY_USAGE}\n`);
    return 2;
  }

  let failed = false;
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    let country = defaultCountry;
    let text = line;
    let state: TurnState = FIRST_REPLY;
    if (jsonInput) {
      const parsed = readJsonLine(line, defaultCountry);
      if ("error" in parsed) {
        failed = true;
        output.write(`${JSON.stringify({ error: parsed.error })}\n`);
        continue;
      }
      ({ country, text, state } = parsed);
    }
    const reading = await classifier.classify(text, country as Country);
    const { intent, confidence } = reading;
    const out: Record<string, unknown> = { intent, confidence };
    if (values.decision)
      out["decision"] = text.trim()
        ? decision(reading, text.trim(), country as Country, state)
        : decision({ intent: "unclear", confidence: 1 }, "", country as Country, state);
    if (values.explain) out["explain"] = explanation(classifier, text, country as Country);
    output.write(`${JSON.stringify(out)}\n`);
  }
  return failed ? 1 : 0;
}

/** What decided a line: the model's probabilities and strongest features when it has them, the lexicon's signals and rules always. */
function explanation(
  classifier: NonNullable<ClassifyCliOptions["classifier"]>,
  text: string,
  country: Country,
): Record<string, unknown> {
  const analysis = analyse(text, country);
  const rules = decide(analysis);
  const base = {
    signals: analysis.hits.map((h) => `${h.negated ? "~" : ""}${h.signal}`),
    rules: { intent: rules.intent, confidence: rules.confidence },
  };
  if (!classifier.explain) return base;
  const { probabilities, features, mixed, doubts } = classifier.explain(text, country);
  const { reading } = classifier.explain(text, country);
  return {
    probabilities,
    features,
    ...base,
    ...(mixed ? { mixed } : {}),
    ...(doubts ? { doubts } : {}),
    ...(reading ? { reading } : {}),
  };
}

/** The optional {"unclear", "questions", "digits", "answers_check"} of a --json-input line; an error when malformed. */
function readState(record: Record<string, unknown>): TurnState | { error: string } {
  const count = (key: string, max: number): number | { error: string } => {
    const v = record[key];
    if (v === undefined) return 0;
    return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max
      ? (v as number)
      : { error: `"${key}" must be an integer from 0 to ${max}` };
  };
  const flag = (key: string): boolean | { error: string } => {
    const v = record[key];
    if (v === undefined) return false;
    return typeof v === "boolean" ? v : { error: `"${key}" must be true or false` };
  };
  const unclear = count("unclear", 2);
  const questions = count("questions", 3);
  const digits = flag("digits");
  const answersCheck = flag("answers_check");
  for (const v of [unclear, questions, digits, answersCheck]) if (typeof v === "object") return v;
  return {
    answersCheck: answersCheck as boolean,
    unclear: unclear as number,
    questions: questions as number,
    digits: digits as boolean,
    keypadOffered: false,
  };
}

function readJsonLine(
  line: string,
  defaultCountry: Country | null,
): { country: Country; text: string; state: TurnState } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { error: "not a JSON object" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { error: "not a JSON object" };
  const record = value as Record<string, unknown>;
  if (typeof record["text"] !== "string") return { error: '"text" must be a string' };
  const country = record["country"] === undefined ? defaultCountry : toCountry(record["country"]);
  if (country === null) return { error: `"country" must be one of ${COUNTRIES.join(", ")}` };
  const state = readState(record);
  if ("error" in state) return state;
  return { country, text: record["text"], state };
}
