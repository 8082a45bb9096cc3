import { readFileSync } from "node:fs";
import { ModelIntentClassifier } from "/work/wt/classifier/src/engine/dialogue/model/model.ts";
import { decidable } from "/work/wt/classifier/src/engine/dialogue/flow.ts";
const c = new ModelIntentClassifier();
for (const file of process.argv.slice(2)) {
  const rows = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  for (const r of rows) {
    const e = c.explain(r.text, r.country);
    if (e.intent !== r.intent || process.env.ALL) console.log(`${r.country} ${r.author ?? ""} [${r.intent} -> ${e.intent} ${e.confidence}${e.mixed ? " mixed" : ""}${decidable(e) ? " DECIDED" : ""}] ${r.text}  | ${e.probabilities.slice(0,3).map(p=>p.intent+":"+p.p).join(" ")} | ${e.signals.join(",")}`);
  }
}
