// `node scripts/classifier/score.ts FILE.jsonl [--json] [--errors]` (issue 33): scores the dialogue's understanding on
// a labelled JSONL set ({"country", "text", "intent", "style"?} per line) and prints, per country, per style and
// overall: accuracy, label-level false confirmations (predicted `confirm`, gold not `confirm`), decided false
// confirmations (flow.ts decision() is "act" on a predicted `confirm`, gold not `confirm`: the calls that would end
// confirmed on that reply) and throughput (replies read and decided per second). Aggregates only, unless --errors
// (a development set only: it prints the misread texts). The reading and the decision are the calls' own:
// ModelIntentClassifier and flow.ts decision() for the first reply to the confirmation question.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  INTENTS,
  type Classification,
  type Country,
  type Intent,
  type IntentClassifier,
} from "../../src/engine/dialogue/classifier.ts";
import { decision, type Decision } from "../../src/engine/dialogue/flow.ts";
import { ModelIntentClassifier } from "../../src/engine/dialogue/model/model.ts";

export interface LabelledReply {
  country: Country;
  text: string;
  intent: Intent;
  style?: string;
}

export interface Tally {
  n: number;
  correct: number;
  accuracy: number;
  /** Predicted `confirm`, gold not `confirm`. */
  falseConfirms: number;
  /** Of those, the ones the dialogue would act on (decision "act"). */
  decidedFalseConfirms: number;
  /** Decisions taken, by kind. */
  decisions: Record<Decision, number>;
}

export interface SetScore {
  file: string;
  overall: Tally;
  byCountry: Record<string, Tally>;
  byStyle: Record<string, Tally>;
  /** "gold→predicted": count, errors only. */
  confusion: Record<string, number>;
  /** Replies read and decided per second (classifier + decision, one at a time). */
  repliesPerSecond: number;
  /** Misread replies, only when asked for (development sets). */
  errors?: {
    country: string;
    style: string;
    gold: Intent;
    got: Intent;
    confidence: number;
    decision: Decision;
    text: string;
  }[];
}

const COUNTRIES = ["MA", "DZ", "TN", "FR"];
const STYLES = ["arabic", "latin", "mixed", "transcript"];

export function loadReplies(file: string): LabelledReply[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LabelledReply);
}

function empty(): Tally {
  return {
    n: 0,
    correct: 0,
    accuracy: 0,
    falseConfirms: 0,
    decidedFalseConfirms: 0,
    decisions: { act: 0, check: 0, keypad: 0 },
  };
}

/** Scores `rows` with `classifier` and the dialogue's decision; the texts leave only through `errors` when asked. */
export async function scoreReplies(
  rows: LabelledReply[],
  classifier: IntentClassifier = new ModelIntentClassifier(),
  options: { file?: string; errors?: boolean } = {},
): Promise<SetScore> {
  const overall = empty();
  const byCountry = new Map<string, Tally>();
  const byStyle = new Map<string, Tally>();
  const confusion: Record<string, number> = {};
  const errors: NonNullable<SetScore["errors"]> = [];
  const valid = rows.filter((r) => (INTENTS as readonly string[]).includes(r.intent) && typeof r.text === "string");
  await classifier.classify("oui", "FR"); // the model is loaded before the clock starts
  const started = process.hrtime.bigint();
  const readings: { reading: Classification; decided: Decision }[] = [];
  for (const row of valid) {
    const reading = await classifier.classify(row.text, row.country);
    const text = row.text.trim();
    readings.push({ reading, decided: text ? decision(reading, text, row.country) : ("check" as const) });
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  valid.forEach((row, i) => {
    const { reading, decided } = readings[i]!;
    const style = row.style?.toLowerCase() ?? "unknown";
    const ok = reading.intent === row.intent;
    const falseConfirm = reading.intent === "confirm" && row.intent !== "confirm";
    for (const t of [overall, at(byCountry, row.country), at(byStyle, style)]) {
      t.n += 1;
      if (ok) t.correct += 1;
      if (falseConfirm) t.falseConfirms += 1;
      if (falseConfirm && decided === "act") t.decidedFalseConfirms += 1;
      t.decisions[decided] += 1;
    }
    if (!ok) {
      const key = `${row.intent}→${reading.intent}`;
      confusion[key] = (confusion[key] ?? 0) + 1;
      if (options.errors)
        errors.push({
          country: row.country,
          style,
          gold: row.intent,
          got: reading.intent,
          confidence: reading.confidence,
          decision: decided,
          text: row.text,
        });
    }
  });
  for (const t of [overall, ...byCountry.values(), ...byStyle.values()]) t.accuracy = t.n ? t.correct / t.n : 0;
  const order = (m: Map<string, Tally>, known: string[]) =>
    Object.fromEntries([...m].sort((a, b) => rank(known, a[0]) - rank(known, b[0]) || a[0].localeCompare(b[0])));
  return {
    file: options.file ?? "",
    overall,
    byCountry: order(byCountry, COUNTRIES),
    byStyle: order(byStyle, STYLES),
    confusion,
    repliesPerSecond: seconds > 0 ? valid.length / seconds : 0,
    ...(options.errors ? { errors } : {}),
  };
}

function at(m: Map<string, Tally>, key: string): Tally {
  let t = m.get(key);
  if (!t) m.set(key, (t = empty()));
  return t;
}

function rank(known: string[], key: string): number {
  const i = known.indexOf(key);
  return i < 0 ? known.length : i;
}

function line(name: string, t: Tally): string {
  const pct = t.n ? ((100 * t.falseConfirms) / t.n).toFixed(1) : "0.0";
  return `${name.padEnd(12)} n=${String(t.n).padStart(4)}  accuracy ${t.accuracy.toFixed(3)}  false confirmations ${t.falseConfirms} (${pct}%)  decided ${t.decidedFalseConfirms}  [act ${t.decisions.act}, check ${t.decisions.check}]`;
}

/** The report printed for one set. */
export function formatScore(s: SetScore): string {
  const out = [`${s.file}`, line("overall", s.overall)];
  for (const [c, t] of Object.entries(s.byCountry)) out.push(line(`  ${c}`, t));
  for (const [st, t] of Object.entries(s.byStyle)) out.push(line(`  ${st}`, t));
  const pairs = Object.entries(s.confusion)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  out.push(`  errors by gold→predicted: ${pairs || "none"}`);
  out.push(`  throughput: ${Math.round(s.repliesPerSecond)} replies/s (classify + decision, one at a time)`);
  for (const e of s.errors ?? [])
    out.push(`  ✗ ${e.country} ${e.style} ${e.gold}→${e.got} ${e.confidence} ${e.decision}: ${e.text}`);
  return out.join("\n");
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { json: { type: "boolean" }, errors: { type: "boolean" } },
    allowPositionals: true,
  });
  if (positionals.length === 0) {
    process.stderr.write("Usage: node scripts/classifier/score.ts FILE.jsonl... [--json] [--errors]\n");
    process.exitCode = 2;
    return;
  }
  const classifier = new ModelIntentClassifier();
  for (const file of positionals) {
    const s = await scoreReplies(loadReplies(file), classifier, {
      file: path.basename(file),
      errors: values.errors === true,
    });
    console.log(values.json ? JSON.stringify(s) : formatScore(s));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
