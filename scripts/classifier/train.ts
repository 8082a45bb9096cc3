// `node scripts/classifier/train.ts` (npm run train:classifier): trains the intent model offline and
// writes src/engine/dialogue/model/weights.json. Training data: the labelled sets named in TRAINING (never a
// held-out set) and the generated corpus (corpus.ts). Multinomial logistic regression over hashed features,
// AdaGrad with L2, a fixed seed: the same inputs give the same weights.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Country } from "../../src/engine/dialogue/lexicon/index.ts";
import type { Intent } from "../../src/engine/dialogue/types.ts";
import { phraseBank, seededRandom } from "../../src/engine/telephony/simulator/customer.ts";
import type { PhraseBank } from "../../src/engine/telephony/simulator/phrases/bank.ts";
import { generateCorpus } from "./corpus.ts";
import { featuresOf, hashFeature } from "../../src/engine/dialogue/model/features.ts";
import type { ModelWeights } from "../../src/engine/dialogue/model/model.ts";
import { readReply } from "../../src/engine/dialogue/reading.ts";

const LABELS: Intent[] = [
  "confirm",
  "cancel",
  "reschedule",
  "callback",
  "change_request",
  "wrong_number",
  "question",
  "unclear",
];
const here = path.dirname(fileURLToPath(import.meta.url));

/** Issue 33's development halves (rounds 2-5 and 8); their held-out halves never appear here. */
export const DEV_HALVES = [
  "intents-blind12-dev.jsonl",
  "intents-blind14-lead-dev.jsonl",
  "intents-blind15a-dev.jsonl",
  "intents-blind15b-dev.jsonl",
  "intents-blind16a-dev.jsonl",
  "intents-blind16b-dev.jsonl",
  // Round 8: the halves of blind17a/b and blind18a/b that round 8 develops on; their other halves stay unseen.
  "intents-blind17a-dev.jsonl",
  "intents-blind17b-dev.jsonl",
  "intents-blind18a-dev.jsonl",
  "intents-blind18b-dev.jsonl",
];
/** Issue 33 round 12: the development halves of rounds 9-11; their held-out halves never appear here. */
export const NEW_DEV_HALVES = [
  "intents-blind20a-dev.jsonl",
  "intents-blind20b-dev.jsonl",
  "intents-blind21a-dev.jsonl",
  "intents-blind21b-dev.jsonl",
  "intents-blind22a-dev.jsonl",
  "intents-blind22b-dev.jsonl",
  ..."abcdefg".split("").map((w) => `intents-blind24${w}-dev.jsonl`),
  ..."abcd".split("").map((w) => `intents-blind25${w}-dev.jsonl`),
];
/** Issue 33 round 12: the development halves of round 12's fresh batch (blind27); their held-out halves never appear here. */
export const ROUND12_DEV_HALVES = "abcdef".split("").map((w) => `intents-blind27${w}-dev.jsonl`);
/**
 * Issue 33 round 13: the batches earlier rounds kept unseen and scored at their end (blind26, blind27's two halves,
 * blind28), now trainable; their figures stay in the rounds' notes. Round 13 measures on blind29's unseen halves and
 * blind30, never here.
 */
export const ROUND13_OLD_BATCHES = [
  "intents-blind26-holdout.jsonl",
  ..."abcdef".split("").map((w) => `intents-blind27${w}-holdout.jsonl`),
  "intents-blind28-holdout.jsonl",
];
/** Issue 33 round 13: the development halves of round 13's fresh batch (blind29); their held-out halves never appear here. */
export const ROUND13_DEV_HALVES = "abcdef".split("").map((w) => `intents-blind29${w}-dev.jsonl`);
/** Issue 33 round 14: the development halves of round 14's fresh batch (blind31); their held-out halves never appear here. */
export const ROUND14_DEV_HALVES = "abcdef".split("").map((w) => `intents-blind31${w}-dev.jsonl`);
/** Issue 33 round 15: the development halves of round 15's fresh batch (blind33); their held-out halves never appear here. */
export const ROUND15_DEV_HALVES = "abcdef".split("").map((w) => `intents-blind33${w}-dev.jsonl`);
/** Issue 33 round 16: the development halves of round 16's fresh batches (blind36, blind38); their held-out halves never appear here. */
export const ROUND16_DEV_HALVES = [
  ..."abcdef".split("").map((w) => `intents-blind36${w}-dev.jsonl`),
  ..."abcd".split("").map((w) => `intents-blind38${w}-dev.jsonl`),
];
/**
 * Issue 33 round 16: the batches rounds 13-15 kept unseen and scored at their end, since read for their errors (blind29,
 * blind31 and blind33's unseen halves, blind30, blind32, blind34, blind35).
 */
export const ROUND16_SPENT_BATCHES = [
  ..."abcdef".split("").map((w) => `intents-blind29${w}-holdout.jsonl`),
  "intents-blind30-holdout.jsonl",
  ..."abcdef".split("").map((w) => `intents-blind31${w}-holdout.jsonl`),
  "intents-blind32-holdout.jsonl",
  ..."abcdef".split("").map((w) => `intents-blind33${w}-holdout.jsonl`),
  "intents-blind34-holdout.jsonl",
  "intents-blind35-holdout.jsonl",
];
/**
 * Issue 33 round 17: the development halves of round 16's hard cases (blind39) and of round 17's fresh batches (blind40);
 * their held-out halves never appear here.
 */
export const ROUND17_DEV_HALVES = [
  ..."abcd".split("").map((w) => `intents-blind39${w}-dev.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind40${w}-dev.jsonl`),
];
/**
 * Issue 33 round 19: the development halves of round 18's hard cases (blind42) and of round 19's (blind43); their
 * held-out halves never appear here.
 */
export const ROUND19_DEV_HALVES = [
  ..."abcdefgh".split("").map((w) => `intents-blind42${w}-dev.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind43${w}-dev.jsonl`),
];
/**
 * Issue 33 round 20: the development halves of round 20's batch (blind44); its held-out halves never appear here.
 */
export const ROUND20_DEV_HALVES = [..."abcdefgh".split("").map((w) => `intents-blind44${w}-dev.jsonl`)];
/**
 * Issue 33 round 21: the development halves of round 21's batch (blind45); its held-out halves never appear here.
 */
export const ROUND21_DEV_HALVES = [..."abcdefgh".split("").map((w) => `intents-blind45${w}-dev.jsonl`)];
/**
 * Issue 33 round 22: the development halves of round 22's batch (blind46); its held-out halves never appear here.
 */
export const ROUND22_DEV_HALVES = [..."abcdefgh".split("").map((w) => `intents-blind46${w}-dev.jsonl`)];
/**
 * Issue 33 round 24: the development halves of rounds 23 and 24's batches (blind47, blind48); their held-out halves
 * never appear here.
 */
export const ROUND24_DEV_HALVES = [
  ..."abcdefgh".split("").map((w) => `intents-blind47${w}-dev.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind48${w}-dev.jsonl`),
];
/** Issue 33 round 29: the development halves of blind47 to blind52 (read by round 24 to 28's readings); their unseen halves never appear here. */
export const ROUND28_DEV_HALVES = ["47", "48", "49", "50", "51", "52"].flatMap((r) =>
  "abcdefgh".split("").map((w) => `intents-blind${r}${w}-dev.jsonl`),
);
/**
 * Issue 33 round 30: the development halves of blind54 and blind55 (their unseen halves never appear here) and blind57,
 * a batch written for training only by eight writers who saw no code and no set (test/fixtures/blind57-brief.md).
 */
export const ROUND30_SETS = [
  ..."abcdefgh".split("").map((w) => `intents-blind54${w}-dev.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind55${w}-dev.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind57${w}-train.jsonl`),
];
/**
 * Issue 33 round 31: round 30's judges, spent twice (blind54's and blind55's unseen halves, blind56, blind58), blind60
 * (a batch written for training only: negations and questions), round 31's first judges, spent once (blind59, blind61),
 * and blind62's development halves (test/fixtures/blind60-brief.md, blind62-brief.md; bench/results/classifier.md).
 */
export const ROUND31_SETS = [
  ..."abcdefgh".split("").map((w) => `intents-blind54${w}-holdout.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind55${w}-holdout.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind56${w}.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind58${w}.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind60${w}-train.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind59${w}.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind61${w}.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind62${w}-dev.jsonl`),
];
/**
 * Issue 33 round 32: round 31's second judges, spent once (blind63, blind62's unseen halves), and blind65's development
 * halves (test/fixtures/blind65-brief.md; bench/results/classifier.md, round 32). blind65's unseen halves never appear here.
 */
export const ROUND32_SETS = [
  ..."abcdefgh".split("").map((w) => `intents-blind63${w}.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind62${w}-holdout.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind65${w}-dev.jsonl`),
];
/** Issue 33 round 32's second judgement: ROUND32_SETS with round 32's first judges, spent once (blind64, blind65's unseen halves). */
export const ROUND32_ALL = [
  ...ROUND32_SETS,
  ..."abcdefgh".split("").map((w) => `intents-blind64${w}.jsonl`),
  ..."abcdefgh".split("").map((w) => `intents-blind65${w}-holdout.jsonl`),
];
/** Issue 33 round 33: ROUND32_ALL with round 32's second judge, spent once (blind66; bench/results/classifier.md, round 33). */
export const ROUND33_SETS = [...ROUND32_ALL, ..."abcdefgh".split("").map((w) => `intents-blind66${w}.jsonl`)];
/**
 * Issue 33 round 41: every labelled set since round 31 that no round kept unseen at its end (blind62's unseen halves,
 * blind63, 64 and 66-70 whole, both halves of blind65 and blind71-77, the development halves of blind78-82; 17,280
 * replies), in the order candidate "r41-all" was trained on. blind78-82's unseen halves and blind83 judged it and never
 * appear here (bench/results/classifier.md, round 41).
 */
const W8 = "abcdefgh".split("");
export const ROUND41_SETS = [
  ...W8.map((w) => `intents-blind62${w}-holdout.jsonl`),
  ...["63", "64", "66", "67", "68", "69", "70"].flatMap((r) => W8.map((w) => `intents-blind${r}${w}.jsonl`)),
  ...["65", "71", "72", "73", "74", "75", "76", "77"].flatMap((r) =>
    W8.flatMap((w) => [`intents-blind${r}${w}-dev.jsonl`, `intents-blind${r}${w}-holdout.jsonl`]),
  ),
  ...["78", "79", "80", "81", "82"].flatMap((r) => W8.map((w) => `intents-blind${r}${w}-dev.jsonl`)),
];
/**
 * Issue 33 round 43: every batch of round 42 whole (blind83 to blind90: for each writer a to h, the development half
 * then the unseen half; blind86 is a training batch, kept whole), in the order candidate "H" was trained on. blind91
 * and blind78-82's unseen halves judged it and never appear here (bench/results/classifier.md, round 43).
 */
export const ROUND43_SETS = [
  ...["83", "84", "85", "87", "88"].flatMap((r) =>
    W8.flatMap((w) => [`intents-blind${r}${w}-dev.jsonl`, `intents-blind${r}${w}-holdout.jsonl`]),
  ),
  ...W8.map((w) => `intents-blind86${w}-train.jsonl`),
  ...["89", "90"].flatMap((r) =>
    W8.flatMap((w) => [`intents-blind${r}${w}-dev.jsonl`, `intents-blind${r}${w}-holdout.jsonl`]),
  ),
];
/** Issue 33 round 18: every set read since round 15 (round 16's development halves and spent batches, round 17's development halves). */
export const READ_SINCE_ROUND15 = [...ROUND16_DEV_HALVES, ...ROUND16_SPENT_BATCHES, ...ROUND17_DEV_HALVES];
const fixtures = path.join(here, "../../test/fixtures");

/** Labelled sets trained on, and how much each utterance counts. Held-out sets never appear here. */
const TRAINING: [string, number][] = [
  ["intents-dev.jsonl", 1],
  ["intents-own-train.jsonl", 3],
  ["intents-blind-dev.jsonl", 3],
  ["intents-blind2-dev.jsonl", 3],
  ["intents-blind3-dev.jsonl", 3],
  // Round 7: every blind training pool at the weight of the first three, chosen by cross-validation by writer
  // (bench/classifier-cv-authors.ts, CV_GROUP=set, recipe "all3"; bench/results/classifier.md, round 7).
  ["intents-blind5-train.jsonl", 3],
  ["intents-blind6-dev.jsonl", 3],
  ["intents-blind8-train.jsonl", 3],
  // Round 8: the tenth blind set at the same weight (recipe "all3-b10": out-of-set accuracy of the other sets 0.943 ->
  // 0.951 with it, 0.948 at weight 1).
  ["intents-blind10-train.jsonl", 3],
  // Issue 33 round 7: the development halves of issue 33's rounds 2-5 at weight 1 (recipe "all3-b10-dev1" of
  // bench/classifier-cv-authors.ts: out-of-set accuracy 0.953 -> 0.954, French 0.958 -> 0.960, decided false
  // confirmations 6 -> 3; per-country factors on them moved French by -0.002 to +0.005, within noise, and do not
  // ship; bench/results/classifier.md, issue 33 round 7). Their unseen halves are never trained on.
  ...DEV_HALVES.map((name): [string, number] => [name, 1]),
  // Issue 33 round 12: the development halves of rounds 9-11 at weight 1 (recipe "all3-b10-dev1-new1"). Cross-validation
  // by round (CV_GROUP=round): the sets written to the current brief (rounds 9-11) 0.960 -> 0.975, the older sets
  // 0.956 -> 0.952, all 0.957 -> 0.956; on the two fresh batches no one trained on, against the same recipe retrained
  // without them, blind26 0.897 -> 0.919 and blind27 0.935 -> 0.951 (bench/results/classifier.md, round 12).
  ...NEW_DEV_HALVES.map((name): [string, number] => [name, 1]),
  // Issue 33 round 15: round 12's development halves, the batches round 12 kept unseen (blind26, blind27's unseen
  // halves, blind28) and the development halves of rounds 13-15 at weight 1, every confirm at 0.7 of its weight
  // (CONFIRM_FACTOR): recipe "r14-all-avg3-cf70" of bench/classifier-cv-authors.ts, CV_GROUP=round on 9,972 replies,
  // every recipe on b5d3e45's code: shipped 0.9701 (label false confirmations 37, decided 7) -> 0.9725 (37, 3); at
  // 0.85, 0.9715 (33, 1), short of the +0.002 the rule set before the runs asked (bench/results/classifier.md, round
  // 15). blind33's development halves join it as round 14's joined r14-all.
  ...[
    ...ROUND12_DEV_HALVES,
    ...ROUND13_OLD_BATCHES,
    ...ROUND13_DEV_HALVES,
    ...ROUND14_DEV_HALVES,
    ...ROUND15_DEV_HALVES,
  ].map((name): [string, number] => [name, 1]),
  // Issue 33 round 18: every set read since round 15 (round 16's development halves and spent batches, blind39's and
  // blind40's development halves) at weight 1, every confirm at 0.6 of its weight (CONFIRM_FACTOR): recipe
  // "r17-all-cf60-s1" of bench/classifier-cv-authors.ts against "r15-all-cf70-s1" (the recipe shipped until round 18),
  // CV_GROUP=round on 14,652 replies, both on ab45daa's code: 0.970 (label false confirmations 52, decided 5) -> 0.973
  // (44, 3), the rule set before the runs (bench/results/classifier.md, round 18). blind42's development halves are not
  // here: no run measured them.
  ...READ_SINCE_ROUND15.map((name): [string, number] => [name, 1]),
  // Issue 33 round 21: the development halves of blind42 to blind45 at weight 1, every hard negative (no confirm, a live
  // yes-word) at twice its weight (HARD_NEGATIVE_FACTOR): recipe "r21-all-cf60-hn2-s1" of bench/classifier-cv-authors.ts
  // against "r17-all-cf60-s1" (the recipe shipped until round 21), CV_GROUP=round on 16,572 replies, both on ddfb8fd's
  // code: 0.9731 (label false confirmations 64, decided 4, confirms missed 94) -> 0.9738 (51, 2, 113); a label false
  // confirmation weighed as three misreads, 573 -> 537, the rule set before the runs (bench/results/classifier.md,
  // round 21).
  ...[...ROUND19_DEV_HALVES, ...ROUND20_DEV_HALVES, ...ROUND21_DEV_HALVES].map((name): [string, number] => [name, 1]),
  // Issue 33 round 22: the development halves of blind46 (a third of them hard confirms) at weight 1: recipe
  // "r22-all-cf60-hn2-s1" against "r21-all-cf60-hn2-s1" (the recipe shipped until round 22), CV_GROUP=round on 17,052
  // replies, both on 0307f7f's code: misreads 437 each (0.9744), label false confirmations 53 -> 42, decided 2 -> 2,
  // confirms missed 107 -> 123, cost 543 -> 521, the unseen writers 0.9471 -> 0.9474, the rule set before the runs
  // (bench/results/classifier.md, round 22).
  ...ROUND22_DEV_HALVES.map((name): [string, number] => [name, 1]),
  // Issue 33 round 29: the development halves of blind47 to blind52 at weight 1, every hard negative at three times its
  // weight (HARD_NEGATIVE_FACTOR): candidate "r29-all-cf60-hn3", judged against round 22's weights on blind54 and
  // blind55 (1,920 replies no model or fix had read) by rules set before either was read: misreads 179 -> 137, label
  // false confirmations 13 -> 18, cost (misreads + 2 × label false confirmations) 205 -> 173, decided 0 -> 0, their
  // 16,000 calls 95.74% -> 97.30% as meant, none confirmed without a yes (bench/results/classifier.md, round 29). The
  // committed weights are this recipe trained on round 29's final code: 1,784 right, the same 18 and 0, calls 97.24%.
  ...ROUND28_DEV_HALVES.map((name): [string, number] => [name, 1]),
  // Issue 33 round 30: the development halves of blind54 and blind55 and the training batch blind57 at weight 1:
  // candidate "r30-all-b57-cf60-hn3", judged against round 29's weights on blind54's and blind55's unseen halves and
  // blind56 (1,920 replies no fix had read) by the rule set before its run: misreads 123 -> 111, label false
  // confirmations 24 -> 17, cost 171 -> 145 (the candidate without blind57, 147), decided 0 -> 0, their 24,000 calls
  // 23,435 -> 23,449 as meant, none confirmed without a yes (bench/results/classifier.md, round 30).
  ...ROUND30_SETS.map((name): [string, number] => [name, 1]),
  // Issue 33 round 31: ROUND31_SETS at weight 1 (5,280 replies): candidate "r31-all", judged against round 30's weights
  // on blind63 and blind62's unseen halves (1,440 replies no fix had read) by the rule set before it was trained:
  // misreads 128 -> 111, label false confirmations 22 -> 23, cost 172 -> 157, decided 0 -> 0, their 16,000 calls
  // 15,509 -> 15,652 as meant, none confirmed without a yes (bench/results/classifier.md, round 31). Two candidates
  // before it, judged on blind59 and blind61, did not ship.
  ...ROUND31_SETS.map((name): [string, number] => [name, 1]),
  // Issue 33 round 32: ROUND32_SETS at weight 1 (candidate "r32") did not ship: on blind64 and blind65's unseen halves
  // it cost less (82 -> 72), but on the spent unseen replies it cost more (377 -> 381: label false confirmations
  // 62 -> 64), which the rule set before its run forbade (bench/results/classifier.md, round 32).
  // Issue 33 round 41: ROUND41_SETS at weight 1 (17,280 replies): candidate "r41-all", judged against round 31's
  // weights on blind78-82's unseen halves and blind83 (3,360 replies no fix or model had read) by the rule set before
  // it was scored: misreads 157 -> 114, label false confirmations 30 -> 25, cost 217 -> 164, decided 1 -> 0, their
  // 56,000 calls 55,649 -> 55,667 as meant, 17 -> 0 confirmed without a yes; on the spent unseen sets (8,460) cost
  // 345 -> 301, decided 0 -> 0 (bench/results/classifier.md, round 41). The same recipe without the new sets, on
  // today's code, read as round 31's weights did (cost 217 -> 216 on the judges, 345 -> 365 on the spent sets).
  ...ROUND41_SETS.map((name): [string, number] => [name, 1]),
  // Issue 33 round 43: ROUND43_SETS at weight 1 (7,680 replies): candidate "H", judged against round 41's weights on
  // blind91 and blind78-82's unseen halves (3,360 replies no fix or model had read) by the rule set before it was
  // trained: misreads 105 -> 90, label false confirmations 18 -> 14, cost 141 -> 118, decided 1 -> 0, their 56,000
  // calls 55,749 -> 55,773 as meant, 23 -> 0 confirmed without a yes; on the spent unseen sets (8,460) cost 301 -> 293,
  // decided 0 -> 0 (bench/results/classifier.md, round 43). Candidate G (the same without blind89 and blind90) cost
  // 115 there but kept the decided false confirmation.
  ...ROUND43_SETS.map((name): [string, number] => [name, 1]),
];
/** Issue 33 round 18: every `confirm` example counts this much of its weight (a cost on reading a confirm; cf60). */
export const CONFIRM_FACTOR = 0.6;
/** Issue 33 rounds 21 and 29: every hard negative (no `confirm`, a live yes-word) counts this much of its weight (hn3). */
export const HARD_NEGATIVE_FACTOR = 3;
const GENERATED_WEIGHT = 0.5;
/**
 * Issue 33 round 12: 2^16 hashed buckets, not the trainer's default 2^15 (recipe "all3-b10-dev1-new1-b16" of
 * bench/classifier-cv-authors.ts, CV_GROUP=round: 0.957 -> 0.961, every country up, label false confirmations 48 -> 37;
 * more buckets, fewer features that share one).
 */
const BUCKETS = 1 << 16;
/**
 * Issue 33 round 13: the weights of three runs (three shufflings of the examples) averaged (recipe
 * "all3-b10-dev1-new1-b16-avg3" of bench/classifier-cv-authors.ts, CV_GROUP=round: 0.962 -> 0.969, every country up,
 * label false confirmations 40 -> 30). One run's figures moved by up to two points on a batch with the seed alone.
 */
const SEEDS = [14, 15, 16];
/** Chosen by bench/classifier-cv.ts (lowest log loss on the blind development set's left-out folds). */
const TEMPERATURE = 3;
const AUGMENT = true;
const BANK_WEIGHT = 1;

/** The simulator's phrase banks, part by part, as labelled utterances (what dialogue.test.ts checks). */
const BANK_INTENTS: [keyof PhraseBank, Intent][] = [
  ["identityYes", "confirm"],
  ["whoIsCalling", "question"],
  ["wrongPerson", "wrong_number"],
  ["confirm", "confirm"],
  ["hedge", "unclear"],
  ["decline", "cancel"],
  ["reschedule", "reschedule"],
  ["question", "question"],
  ["change", "change_request"],
  ["callback", "callback"],
  ["mumble", "unclear"],
  ["shortYes", "confirm"],
  ["shortNo", "cancel"],
];
const BANK_COUNTRY = { ma: "MA", dz: "DZ", tn: "TN", fr: "FR" } as const;

export function bankExamples(weight = BANK_WEIGHT): Example[] {
  return (Object.keys(BANK_COUNTRY) as (keyof typeof BANK_COUNTRY)[]).flatMap((d) =>
    BANK_INTENTS.flatMap(([part, intent]) =>
      phraseBank(d)[part].map((text) => ({ country: BANK_COUNTRY[d], text, intent, weight })),
    ),
  );
}

export interface Example {
  country: Country;
  text: string;
  intent: Intent;
  weight: number;
}

export function load(name: string, weight: number): Example[] {
  const file = path.join(fixtures, name);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      const r = JSON.parse(l) as { country: Country; text: string; intent: Intent };
      return { country: r.country, text: r.text, intent: r.intent, weight };
    });
}

export interface TrainOptions {
  buckets?: number;
  epochs?: number;
  l2?: number;
  rate?: number;
  seed?: number;
  /**
   * Issue 33 round 13: train once per seed (each its own shuffling of the examples) and average the weights, one model
   * of the same size (the average of a few runs varies less with the order the examples came in).
   */
  seeds?: number[];
}

/** Trains on `examples`; returns the float weights, bucket-major (bucket * labels + label). */
export function train(examples: Example[], options: TrainOptions = {}): { weights: Float32Array; buckets: number } {
  const buckets = options.buckets ?? 1 << 15;
  // The features are hashed once; each seed's run (one shuffling) reads the same encoding, and the runs are averaged.
  const encoded = examples.map((e) => {
    const counts = new Map<number, number>();
    for (const f of featuresOf(e.text, e.country)) {
      const b = hashFeature(f) % buckets;
      counts.set(b, (counts.get(b) ?? 0) + 1);
    }
    // Two typed arrays, not a [bucket, count] pair per feature: with round 42's sets the pairs passed Node's 4 GB heap.
    return {
      b: Uint32Array.from(counts.keys()),
      v: Uint32Array.from(counts.values()),
      y: LABELS.indexOf(e.intent),
      weight: e.weight,
    };
  });
  const seeds = options.seeds && options.seeds.length > 0 ? options.seeds : [options.seed ?? 14];
  const runs = seeds.map((seed) => trainRun(encoded, buckets, options, seed));
  const mean = new Float32Array(runs[0]!.length);
  for (const run of runs) for (let i = 0; i < mean.length; i++) mean[i]! += run[i]! / runs.length;
  return { weights: mean, buckets };
}

/** One run of AdaGrad over the encoded examples, shuffled with `seed` each epoch. */
function trainRun(
  encoded: { b: Uint32Array; v: Uint32Array; y: number; weight: number }[],
  buckets: number,
  options: TrainOptions,
  seed: number,
): Float32Array {
  const epochs = options.epochs ?? 12;
  const l2 = options.l2 ?? 1e-5;
  const rate = options.rate ?? 0.3;
  const k = LABELS.length;
  const w = new Float32Array(buckets * k);
  const g2 = new Float32Array(buckets * k).fill(1e-8);
  const random = seededRandom(seed);
  const order = encoded.map((_, i) => i);
  const scores = new Float64Array(k);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const idx of order) {
      const { b: bs, v: vs, y, weight } = encoded[idx]!;
      scores.fill(0);
      for (let f = 0; f < bs.length; f++) {
        const b = bs[f]!;
        const v = vs[f]!;
        for (let j = 0; j < k; j++) scores[j]! += w[b * k + j]! * v;
      }
      const max = Math.max(...scores);
      let sum = 0;
      for (let j = 0; j < k; j++) sum += scores[j] = Math.exp(scores[j]! - max);
      for (let f = 0; f < bs.length; f++) {
        const b = bs[f]!;
        const v = vs[f]!;
        for (let j = 0; j < k; j++) {
          const p = scores[j]! / sum;
          const grad = weight * (p - (j === y ? 1 : 0)) * v + l2 * w[b * k + j]!;
          const at = b * k + j;
          g2[at]! += grad * grad;
          w[at]! -= (rate * grad) / Math.sqrt(g2[at]!);
        }
      }
    }
  }
  return w;
}

/** int8 weights with one scale, base64: about a quarter of a megabyte for 2^15 buckets. */
export function quantize(
  weights: Float32Array,
  buckets: number,
  trainedOn: Record<string, number>,
  temperature = 1,
): ModelWeights {
  let max = 0;
  for (const v of weights) max = Math.max(max, Math.abs(v));
  const scale = max / 127 || 1;
  const bytes = Buffer.alloc(weights.length);
  for (let i = 0; i < weights.length; i++)
    bytes.writeInt8(Math.max(-127, Math.min(127, Math.round(weights[i]! / scale))), i);
  return { version: 1, labels: LABELS, buckets, scale, temperature, trainedOn, data: bytes.toString("base64") };
}

/** Every training example: the labelled sets of TRAINING and the generated corpus. */
const FILLERS: Record<Country, readonly string[]> = {
  MA: ["allo", "euh", "wallah", "a khouya", "hmm"],
  DZ: ["allo", "euh", "wallah", "khouya", "hmm"],
  TN: ["allo", "euh", "wallah", "ya khouya", "hmm"],
  FR: ["allô", "euh", "bon", "écoutez", "hmm"],
};

/**
 * Noisy copies of hand-written examples, as a recogniser or another speaker would give them: without
 * punctuation or capitals, with a filler in front, or with one word lost. Half the original's weight.
 */
export function augment(examples: Example[], seed = 7): Example[] {
  const random = seededRandom(seed);
  const out: Example[] = [];
  for (const e of examples) {
    const weight = e.weight / 2;
    const plain = e.text
      .replace(/[?!.,;:؟،…]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase();
    if (plain !== e.text) out.push({ ...e, text: plain, weight });
    const fillers = FILLERS[e.country];
    out.push({ ...e, text: `${fillers[Math.floor(random() * fillers.length)]} ${plain}`, weight });
    const words = plain.split(" ");
    if (words.length >= 5) {
      const drop = 1 + Math.floor(random() * (words.length - 1));
      out.push({ ...e, text: words.filter((_, i) => i !== drop).join(" "), weight });
    }
  }
  return out;
}

/**
 * Whether a text holds a live yes-word, read once per process: the cross-validation weighs every fold's examples, most
 * of them the same texts (the base set, the augmented copies), and reading each again per fold doubled its run time.
 */
const HOLDS_YES = new Map<string, boolean>();
/**
 * Issue 33 round 20: every example that is no `confirm` but holds a live yes-word (the reading's `yes`: "wakha, 3awed
 * dreb liya", "merci, gardez-le") counts `factor` times its weight: the hard negatives, where a yes-word is no yes.
 */
export function weighHardNegatives(examples: Example[], factor: number): Example[] {
  if (factor === 1) return examples;
  return examples.map((e) => {
    if (e.intent === "confirm") return e;
    const key = `${e.country}\u0000${e.text}`;
    let has = HOLDS_YES.get(key);
    if (has === undefined) HOLDS_YES.set(key, (has = readReply(e.text, e.country).yes));
    return has ? { ...e, weight: e.weight * factor } : e;
  });
}

/** Issue 33 round 15: every `confirm` example at `factor` of its weight (the trainer's and the CV bench's recipes). */
export function costConfirms(examples: Example[], factor: number): Example[] {
  if (factor === 1) return examples;
  return examples.map((e) => (e.intent === "confirm" ? { ...e, weight: e.weight * factor } : e));
}

/** `into.push(...more)` passes every element as an argument: past some 100,000 examples the stack overflows. */
function append<T>(into: T[], more: readonly T[]): void {
  for (const x of more) into.push(x);
}

export function trainingSet(options: { exclude?: string[]; generatedWeight?: number; augment?: boolean } = {}): {
  examples: Example[];
  trainedOn: Record<string, number>;
} {
  const trainedOn: Record<string, number> = {};
  const examples: Example[] = [];
  // TRAIN_EXTRA="file.jsonl:weight,...": sets added for a trial (bench/classifier-cv-authors.ts judges them).
  const extra = (process.env["TRAIN_EXTRA"] ?? "")
    .split(",")
    .filter(Boolean)
    .map((x) => [x.split(":")[0]!, Number(x.split(":")[1] ?? 1)] as [string, number]);
  for (const [name, weight] of [...TRAINING, ...extra]) {
    if (options.exclude?.includes(name)) continue;
    const rows = load(name, weight);
    if (rows.length) trainedOn[name] = rows.length;
    append(examples, rows);
  }
  if (options.augment ?? AUGMENT) {
    const noisy = augment(examples);
    trainedOn["noisy copies of the above"] = noisy.length;
    append(examples, noisy);
  }
  const banks = bankExamples();
  trainedOn["simulator phrase banks"] = banks.length;
  append(examples, banks);
  const generated = generateCorpus().map((e) => ({ ...e, weight: options.generatedWeight ?? GENERATED_WEIGHT }));
  trainedOn["generated (corpus.ts)"] = generated.length;
  append(examples, generated);
  return { examples, trainedOn };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  const { examples: all, trainedOn } = trainingSet();
  // TRAIN_HN: the hard negatives' factor for a trial (a candidate judged by a rule set before its run).
  const examples = weighHardNegatives(
    // TRAIN_CF: the confirms' factor for a trial (a candidate judged by a rule set before its run).
    costConfirms(all, Number(process.env["TRAIN_CF"] ?? CONFIRM_FACTOR)),
    Number(process.env["TRAIN_HN"] ?? HARD_NEGATIVE_FACTOR),
  );
  const seeds = process.env["TRAIN_SEEDS"]?.split(",").map(Number) ?? SEEDS;
  // TRAIN_BUCKETS: the table's size as a power of two, for a trial (2^16 ships).
  const bucketBits = Number(process.env["TRAIN_BUCKETS"] ?? Math.log2(BUCKETS));
  const { weights, buckets } = train(examples, { buckets: 2 ** bucketBits, seeds });
  const out = process.env["TRAIN_OUT"] ?? path.join(here, "../../src/engine/dialogue/model/weights.json");
  writeFileSync(out, `${JSON.stringify(quantize(weights, buckets, trainedOn, TEMPERATURE))}\n`);
  console.log(
    `trained on ${examples.length} examples (${JSON.stringify(trainedOn)}) in ${((performance.now() - started) / 1000).toFixed(1)} s; wrote ${out}`,
  );
}
