// Which classifier a bench script measures: `lexicon` (the rules), `model` (the statistical model with the
// lexicon's signals as features), or the engine's default when unnamed.
import { classifyIntent, LexiconIntentClassifier, type IntentClassifier } from "../src/engine/dialogue/classifier.ts";
import { ModelIntentClassifier } from "../src/engine/dialogue/model/model.ts";

export function classifierByName(name: string | undefined): IntentClassifier {
  switch (name ?? "default") {
    case "default":
      return { classify: classifyIntent };
    case "lexicon":
      return new LexiconIntentClassifier();
    case "model":
      return new ModelIntentClassifier();
    default:
      throw new Error(`unknown classifier "${name}" (default, lexicon, model)`);
  }
}
