// `node bench/classifier-cv.ts`: 5-fold cross-validation of the intent model's training settings on the blind
// development set (each fold trained on everything else, scored on the fold left out): accuracy, log loss
// and the temperature that calibrates the confidences best. Chooses settings without touching a held-out set.
import { featuresOf } from "../src/engine/dialogue/model/features.ts";
import { IntentModel, softmax } from "../src/engine/dialogue/model/model.ts";
import { augment, load, quantize, train, trainingSet, type Example } from "../scripts/classifier/train.ts";

/** The set cross-validated (CV_SET, default the first blind development set); it is left out of the base training set. */
const cvSet = process.env["CV_SET"] ?? "intents-blind-dev.jsonl";
const blind = load(cvSet, 3);
const folds = 5;
const grid = (process.env["CV_GRID"] ?? "1e-5:12:0.5:1")
  .split(",")
  .map((g) => g.split(":").map(Number) as [number, number, number, number]);
for (const [l2, epochs, generatedWeight, noisy] of grid) {
  const base = trainingSet({ exclude: [cvSet], generatedWeight, augment: noisy === 1 }).examples;
  const logits: { y: number; s: Float64Array }[] = [];
  let correct = 0;
  for (let f = 0; f < folds; f++) {
    const held = blind.filter((_, i) => i % folds === f);
    const rest = blind.filter((_, i) => i % folds !== f);
    const { weights, buckets } = train([...base, ...rest, ...(noisy === 1 ? augment(rest) : [])] as Example[], {
      l2,
      epochs,
    });
    const model = new IntentModel(quantize(weights, buckets, {}));
    for (const e of held) {
      const s = model.scores(featuresOf(e.text, e.country));
      const y = model.labels.indexOf(e.intent);
      logits.push({ y, s });
      if (process.env["CV_DUMP"])
        console.log(`p ${softmax(s.map((v) => v / 3))[y]!.toFixed(3)} ${e.country} [${e.intent}] ${e.text}`);
      if (s.indexOf(Math.max(...s)) === y) correct += 1;
      else if (process.env["CV_MISSES"])
        console.log(`  ${e.country} [${e.intent} → ${model.labels[s.indexOf(Math.max(...s))]}] ${e.text}`);
    }
  }
  const nll = (t: number) =>
    logits.reduce((a, { y, s }) => a - Math.log(softmax(s.map((v) => v / t))[y]! + 1e-12), 0) / logits.length;
  const temps = [1, 1.5, 2, 2.5, 3, 4];
  const best = temps.reduce((a, t) => (nll(t) < nll(a) ? t : a), 1);
  console.log(
    `l2 ${l2} epochs ${epochs} generated ${generatedWeight} noisy copies ${noisy === 1}: accuracy ${(correct / blind.length).toFixed(3)}, log loss ${temps.map((t) => `T${t} ${nll(t).toFixed(3)}`).join(" ")}; best T ${best}`,
  );
}
