// `node bench/confirm-gates.ts FILE...`: what each candidate safeguard on a decided confirmation would cost and
// catch (issue 14, "never a false confirmation"). For every reply the default classifier reads as a confirm that the
// dialogue would act on without a yes/no check (flow.ts decidable()), it asks which cues the reply also carries
// (a question, a negation or refusal, a "but" or correction, a hedge, a callback or time) and counts, per cue,
// the true confirmations that would get an extra check (the cost) and the false confirmations it would turn into a
// check (the catch). Aggregates only: no utterance is ever printed, so it may be run on any set.
import { parseArgs } from "node:util";
import { decidable } from "../src/engine/dialogue/flow.ts";
import { confirmDoubts, CONFIRM_SAFEGUARDS, ModelIntentClassifier } from "../src/engine/dialogue/model/model.ts";
import { analyse } from "../src/engine/dialogue/signals.ts";
import { loadRows } from "./classifier-score.ts";

const { positionals } = parseArgs({ allowPositionals: true });
/** The default model with no safeguard: the readings the safeguards act on. */
const bare = new ModelIntentClassifier(undefined, { safeguards: new Set() });
const UNIONS: [string, string[]][] = [
  [`shipped (${[...CONFIRM_SAFEGUARDS].join("+")})`, [...CONFIRM_SAFEGUARDS]],
  ["question+hedge (round 6)", ["question", "hedge"]],
  ["question+denial+but+hedge", ["question", "denial", "but", "hedge"]],
  ["question+denial+but+hedge+time", ["question", "denial", "but", "hedge", "time"]],
  ["question+denial+but+hedge+time+negation", ["question", "denial", "but", "hedge", "time", "negation"]],
];
const totals = { confirms: 0, decidedTrue: 0, decidedFalse: 0, cue: new Map<string, [number, number]>() };
for (const file of positionals) {
  const rows = loadRows(file);
  let confirms = 0;
  let decidedTrue = 0;
  let decidedFalse = 0;
  const cue = new Map<string, [number, number]>();
  for (const row of rows) {
    if (row.intent === "confirm") confirms += 1;
    // The reading without the safeguards: a confirm the dialogue would decide at once.
    const reading = bare.classify(row.text, row.country);
    if (reading.intent !== "confirm" || !decidable(reading)) continue;
    const found = confirmDoubts(analyse(row.text, row.country));
    const doubts = [...found, ...UNIONS.filter(([, fam]) => fam.some((f) => found.includes(f))).map(([name]) => name)];
    const truth = row.intent === "confirm";
    if (truth) decidedTrue += 1;
    else decidedFalse += 1;
    for (const d of [...doubts, found.length > 0 ? "any" : "none"]) {
      const t = cue.get(d) ?? [0, 0];
      t[truth ? 0 : 1] += 1;
      cue.set(d, t);
    }
  }
  console.log(
    `${file.split("/").pop()}: n=${rows.length}, gold confirms ${confirms}; confirms decided without a check: true ${decidedTrue}, false ${decidedFalse}`,
  );
  for (const [d, [cost, caught]] of [...cue].sort())
    console.log(`  ${d}: extra checks on true confirms ${cost}, false confirms caught ${caught}`);
  totals.confirms += confirms;
  totals.decidedTrue += decidedTrue;
  totals.decidedFalse += decidedFalse;
  for (const [d, [a, b]] of cue) {
    const t = totals.cue.get(d) ?? [0, 0];
    totals.cue.set(d, [t[0] + a, t[1] + b]);
  }
}
if (positionals.length > 1) {
  console.log(
    `all: gold confirms ${totals.confirms}; decided true ${totals.decidedTrue}, false ${totals.decidedFalse}`,
  );
  for (const [d, [cost, caught]] of [...totals.cue].sort())
    console.log(`  ${d}: extra checks on true confirms ${cost}, false confirms caught ${caught}`);
}
