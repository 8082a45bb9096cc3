// The dialogue's start-up work, done once per node before its first calls talk (issue 12's first-token goal).
// Cold, the first turns a node hears pay for building each country's lexicon (640 cues: 17 to 30 ms a country),
// for V8 compiling each of its regular expressions at first use, and for the optimising compiler's first passes
// over the classifier, the slot readers and the flow: 20 to 230 ms on single turns in the carriers bench, while
// every other call's reply queued behind them. The engine runs this when it is built (on the first place-call
// job, while the first calls ring), one step per event-loop turn so that nothing else waits more than a step.
//
// What is said here is never stored nor sent anywhere: the lines only make the code paths run. They are the
// dialogue's own kinds of answer (yes, no, a date, a time, a change, a question, a wrong number) in each
// profile's language; no cache keyed by text exists, so what they warm is the code, not these sentences.
import type { Country, Dialect, Language } from "../../domain/locale.ts";
import { questionTopic, relativeDelayMinutes } from "./cues.ts";
import { asksNotToBeCalled } from "./do-not-call.ts";
import { createDialogue } from "./flow.ts";
import { lexiconFor } from "./lexicon/index.ts";
import { recogniseLineMessage } from "./line-messages.ts";
import { ModelIntentClassifier } from "./model/model.ts";
import { extractChanges, extractClock, extractDate, extractReason, extractTime } from "./slots.ts";
import type { DialogueOrder } from "./types.ts";

/** Replies by kind, per profile language: each script is one conversation. */
const SCRIPTS: Record<"ar" | "fr", string[][]> = {
  ar: [
    ["iyeh ana", "wakha sifto liya"],
    ["na3am ana hiya", "la ma bghitch, bdelt ra2yi"],
    ["ah ana", "machi daba, jibuha nhar sebt", "sebt 9bel l3chiya"],
    ["ey ena", "kallemni ghodwa m3a 18h30"],
    ["ih ana", "bghit nbeddel l couleur, l ka7la"],
    ["نعم أنا", "شحال التوصيل؟", "واخا صيفطوه"],
    ["ana machi hiya, ghalat f nemra"],
    ["شكون معايا؟", "لا ما بغيتش، ما تعاودوش تعيطو"],
  ],
  fr: [
    ["oui c'est moi", "oui je confirme, envoyez-la"],
    ["oui", "non, je veux annuler, je n'en ai plus besoin"],
    ["oui c'est moi", "pas cette semaine, livrez-moi samedi prochain"],
    ["oui", "rappelez-moi demain vers 18h"],
    ["oui", "je voudrais changer la taille en M et la couleur en bleu"],
    ["oui", "c'est combien la livraison ?", "d'accord, parfait"],
    ["non, ce n'est pas moi, vous avez le mauvais numéro"],
    ["qui est à l'appareil ?", "ne m'appelez plus jamais"],
  ],
};

const PROFILES: { country: Country; dialect: Dialect; language: Language; currency: DialogueOrder["currency"] }[] = [
  { country: "MA", dialect: "ma", language: "ar", currency: "MAD" },
  { country: "DZ", dialect: "dz", language: "ar", currency: "DZD" },
  { country: "TN", dialect: "tn", language: "ar", currency: "TND" },
  { country: "FR", dialect: "fr", language: "fr", currency: "EUR" },
  { country: "MA", dialect: "ma", language: "fr", currency: "MAD" },
];

/** Regular expressions run per step: V8 compiles one at its first run, and natively at its second. */
const CUES_PER_STEP = 80;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs the dialogue's code once through, a step per event-loop turn; resolves when done. Never throws. */
export async function warmDialogue(now: Date = new Date()): Promise<void> {
  try {
    const classifier = new ModelIntentClassifier();
    for (const country of ["MA", "DZ", "TN", "FR"] as const) {
      await nextTurn();
      const cues = lexiconFor(country);
      for (let i = 0; i < cues.length; i += CUES_PER_STEP) {
        await nextTurn();
        for (const cue of cues.slice(i, i + CUES_PER_STEP)) {
          for (let k = 0; k < 2; k++) {
            cue.re.lastIndex = 0;
            cue.re.exec("wakha ana oui");
          }
        }
      }
    }
    for (const p of PROFILES) {
      const order: DialogueOrder = {
        shopName: "Boutique",
        customerName: "Client",
        country: p.country,
        language: p.language,
        dialect: p.dialect,
        amount: "100.00",
        currency: p.currency,
        items: [{ name: "Article", variant: "M", quantity: 1, unit_price: "100.00" }],
      };
      for (const script of SCRIPTS[p.language]) {
        await nextTurn();
        const dialogue = createDialogue(order, { classifier, now, digits: true });
        dialogue.opening();
        let at = 2;
        for (const line of script) {
          at += 4;
          recogniseLineMessage(line);
          asksNotToBeCalled(line, p.dialect);
          questionTopic(line);
          relativeDelayMinutes(line);
          extractDate(line, p.country, now);
          extractClock(line);
          extractTime(line);
          extractReason(line);
          extractChanges(line);
          if ((await dialogue.hear(line, at)).end) break;
        }
        if (!dialogue.result()) dialogue.interrupt("customer_hangup", at);
        dialogue.transcript();
      }
      await nextTurn();
      await createDialogue(order, { classifier, now, digits: true }).press?.("1", 3);
    }
  } catch {
    // Only a warm-up: whatever failed here fails again, and is reported, on a real call.
  }
}
