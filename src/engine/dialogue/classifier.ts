// The intent classifiers of the dialogue (CONTRACT §5b): the rules over the lexicon (rules.ts) and the statistical
// model over the lexicon's signals (model/), which is the default.
import type { Country } from "./lexicon/index.ts";
import { ModelIntentClassifier } from "./model/model.ts";
import type { IntentResult } from "./rules.ts";

export { decide, INTENTS, LexiconIntentClassifier, type IntentResult } from "./rules.ts";
export type { Country } from "./lexicon/index.ts";
export type { Classification, Intent, IntentClassifier } from "./types.ts";

let defaultClassifier: ModelIntentClassifier | null = null;

/**
 * Classifies one customer reply with the local default: the statistical model over the lexicon's signals
 * (model/model.ts, issue 14), loaded on first use.
 */
export function classifyIntent(text: string, country: Country): IntentResult {
  defaultClassifier ??= new ModelIntentClassifier();
  return defaultClassifier.classify(text, country);
}
