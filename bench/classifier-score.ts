// `node bench/classifier-score.ts FILE...`: scores the intent classifier on labelled JSONL sets and prints
// aggregates only (never an utterance): accuracy per country and per style (asr / typed), false confirmations
// (gold not `confirm`, predicted `confirm`) and confusion counts by label pair. This is the one way the blind
// holdout and final sets are ever read (issue 14): nothing here can print their texts.
// Options: --markdown (a table for bench/results/classifier.md), --label NAME (the row's name),
// --classifier lexicon|model|hybrid (default: the engine's default classifier).
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { INTENTS, type Country, type Intent, type IntentClassifier } from "../src/engine/dialogue/classifier.ts";
import { decidable } from "../src/engine/dialogue/flow.ts";
import { classifierByName } from "./classifier-choice.ts";

interface Row {
  country: Country;
  text: string;
  intent: Intent;
  style?: string;
}

export interface Score {
  file: string;
  n: number;
  accuracy: number;
  byCountry: Record<string, { n: number; accuracy: number; falseConfirms: number }>;
  byStyle: Record<string, { n: number; accuracy: number }>;
  falseConfirms: number;
  /**
   * False confirmations the dialogue would act on: predicted `confirm`, confident enough and not `mixed`
   * (flow.ts decidable(); otherwise the agent asks a yes/no check instead of deciding).
   */
  decidedFalseConfirms: number;
  /** "gold→predicted": count, errors only. */
  confusion: Record<string, number>;
}

const COUNTRIES: Country[] = ["MA", "DZ", "TN", "FR"];

/** A row's style: the file's own `style` field, else read from the text (no punctuation and no capitals: asr). */
export function styleOf(row: Row): string {
  const given = row.style?.toLowerCase();
  if (given) return given.includes("asr") || given.includes("transcript") || given.includes("speech") ? "asr" : "typed";
  return /[?!.,;:؟،]/.test(row.text) || /[A-ZÀ-Ý]/.test(row.text) ? "typed" : "asr";
}

export function loadRows(file: string): Row[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
}

/** Scores one set; the texts never leave this function. */
export async function score(file: string, classifier: IntentClassifier): Promise<Score> {
  const rows = loadRows(file);
  const tally = (m: Map<string, [number, number]>, key: string, ok: boolean) => {
    const t = m.get(key) ?? [0, 0];
    t[0] += 1;
    if (ok) t[1] += 1;
    m.set(key, t);
  };
  const byCountry = new Map<string, [number, number]>();
  const byStyle = new Map<string, [number, number]>();
  const fcByCountry = new Map<string, number>();
  const confusion: Record<string, number> = {};
  let correct = 0;
  let falseConfirms = 0;
  let decidedFalseConfirms = 0;
  for (const row of rows) {
    if (!(INTENTS as readonly string[]).includes(row.intent)) continue;
    const reading = await classifier.classify(row.text, row.country);
    const got = reading.intent;
    if (got === "confirm" && row.intent !== "confirm" && decidable(reading)) decidedFalseConfirms += 1;
    const ok = got === row.intent;
    if (ok) correct += 1;
    else confusion[`${row.intent}→${got}`] = (confusion[`${row.intent}→${got}`] ?? 0) + 1;
    if (got === "confirm" && row.intent !== "confirm") {
      falseConfirms += 1;
      fcByCountry.set(row.country, (fcByCountry.get(row.country) ?? 0) + 1);
    }
    tally(byCountry, row.country, ok);
    tally(byStyle, styleOf(row), ok);
  }
  const ratio = ([n, ok]: [number, number]) => (n === 0 ? 0 : ok / n);
  return {
    file: path.basename(file),
    n: rows.length,
    accuracy: rows.length ? correct / rows.length : 0,
    byCountry: Object.fromEntries(
      COUNTRIES.filter((c) => byCountry.has(c)).map((c) => {
        const t = byCountry.get(c)!;
        return [c, { n: t[0], accuracy: ratio(t), falseConfirms: fcByCountry.get(c) ?? 0 }];
      }),
    ),
    byStyle: Object.fromEntries([...byStyle].map(([s, t]) => [s, { n: t[0], accuracy: ratio(t) }])),
    falseConfirms,
    decidedFalseConfirms,
    confusion,
  };
}

const pct = (x: number) => x.toFixed(3);

export function markdownRow(label: string, s: Score): string {
  const c = (k: Country) => (s.byCountry[k] ? pct(s.byCountry[k].accuracy) : "-");
  const st = (k: string) => (s.byStyle[k] ? `${pct(s.byStyle[k].accuracy)} (${s.byStyle[k].n})` : "-");
  return `| ${label} | ${s.file} | ${s.n} | ${pct(s.accuracy)} | ${c("MA")} | ${c("DZ")} | ${c("TN")} | ${c("FR")} | ${st("asr")} | ${st("typed")} | ${s.falseConfirms} | ${s.decidedFalseConfirms} |`;
}

export const MARKDOWN_HEADER =
  "| round | set | n | overall | MA | DZ | TN | FR | asr (n) | typed (n) | false confirms | of which decided |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

function confusionLine(s: Score): string {
  const pairs = Object.entries(s.confusion).sort((a, b) => b[1] - a[1]);
  return pairs.map(([k, v]) => `${k} ${v}`).join(", ");
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      markdown: { type: "boolean" },
      label: { type: "string" },
      classifier: { type: "string" },
      confusion: { type: "boolean" },
    },
    allowPositionals: true,
  });
  const classifier = classifierByName(values.classifier);
  const label = values.label ?? values.classifier ?? "default";
  if (values.markdown) console.log(MARKDOWN_HEADER);
  for (const file of positionals) {
    const s = await score(file, classifier);
    if (values.markdown) {
      console.log(markdownRow(label, s));
      continue;
    }
    console.log(
      `${s.file}: n=${s.n} overall ${pct(s.accuracy)}, false confirmations ${s.falseConfirms} (decided without a check: ${s.decidedFalseConfirms})`,
    );
    for (const [c, v] of Object.entries(s.byCountry))
      console.log(`  ${c}: ${pct(v.accuracy)} (n=${v.n}), false confirmations ${v.falseConfirms}`);
    for (const [st, v] of Object.entries(s.byStyle)) console.log(`  style ${st}: ${pct(v.accuracy)} (n=${v.n})`);
    if (values.confusion !== false) console.log(`  errors by gold→predicted: ${confusionLine(s) || "none"}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
