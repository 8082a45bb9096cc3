// The generated part of the intent model's training corpus (issue 14): templates of CONTRACT §5b's labelling
// rules expanded over per-dialect phrase lists, in Arabic script (as the ar-MA/ar-DZ/ar-TN recognisers write
// it: no punctuation) and in Latin letters (arabizi, French, code-switching). Deterministic (seeded). Never
// built from a held-out set: the phrases are written here, by hand, per dialect.
import type { Country } from "../../src/engine/dialogue/lexicon/index.ts";
import type { Intent } from "../../src/engine/dialogue/types.ts";
import { DIALECT_PHRASES, type Phrases } from "./corpus-phrases.ts";
import { seededRandom } from "../../src/engine/telephony/simulator/customer.ts";

export interface Generated {
  country: Country;
  text: string;
  intent: Intent;
}

type Slot = keyof Phrases;
/** A template: slots and literal glue; "?slot" is optional (half the time). */
type Template = string[];

const TEMPLATES: Record<Intent, Template[]> = {
  confirm: [
    ["yes", "courierCallBefore"],
    ["courierCallBefore"],
    ["yes", "leaveAtShop"],
    ["leaveAtShop"],
    ["itemRecap", "confirmWord"],
    ["itemRecap", "send"],
    ["yes", "listening", "send"],
    ["yes"],
    ["yes", "send"],
    ["yes", "yes", "send"],
    ["polite", "yes", "send"],
    ["identity", "send"],
    ["yes", "send", "instruction"],
    ["yes", "instruction"],
    ["noTrap", "send"],
    ["yes", "take"],
    ["take"],
    ["question", "okSend"],
    ["yes", "?polite", "take"],
    ["hedge", "yes", "send"],
    ["yes", "send", "thanks"],
    ["confirmWord"],
    ["yes", "confirmWord"],
    ["identity", "yes", "take"],
    ["yes", "whenever"],
    ["yes", "send", "whenever"],
    // from the second blind development set
    ["letItCome"],
    ["yes", "letItCome"],
    ["itemRecap", "letItCome"],
    ["yes", "waitingSince"],
    ["waitingSince", "send"],
    ["yes", "moneyReady"],
    ["moneyReady", "send"],
    ["yes", "willBeThere"],
    ["yes", "send", "willBeThere"],
    ["hedge", "take"],
    ["yes", "but", "courierCallBefore"],
    ["polite", "courierCallBefore"],
    // from the third blind development set: "why not?" is a yes
    ["whyNot", "send"],
    ["whyNot", "yes", "send"],
  ],
  cancel: [
    ["sarcasm"],
    ["alreadySaidNo"],
    ["opener", "changedMindWord", "cancelVerb"],
    ["yes", "but", "no", "changedMindWord"],
    ["accidentalOrder"],
    ["no", "alreadySaidNo"],
    ["thanks", "but", "reason"],
    // from the third blind development set
    ["selfCorrect", "refuse"],
    ["selfCorrect", "no", "refuse"],
    ["selfCorrect", "cancelVerb"],
    ["numberIsMine", "but", "didntOrder"],
    ["numberIsMine", "but", "didntOrder", "dontSend"],
    ["didntOrder", "dontSend"],
    ["mockPrice", "mockSend", "no"],
    ["yes", "mockPrice", "mockSend", "no"],
    ["no"],
    ["no", "refuse"],
    ["no", "refuse", "reason"],
    ["reason", "cancelVerb"],
    ["refuse", "cancelVerb"],
    ["opener", "but", "refuse", "reason"],
    ["opener", "but", "cancelVerb"],
    ["identity", "but", "refuse"],
    ["polite", "reason"],
    ["didntOrder"],
    ["no", "didntOrder"],
    ["thanks", "but", "refuse"],
    ["opener", "reason", "refuse"],
    ["cancelVerb"],
    ["no", "cancelVerb", "?thanks"],
    ["yes", "but", "reason"],
  ],
  reschedule: [
    ["afterHolidays"],
    ["yes", "but", "afterHolidays"],
    ["untilSalary"],
    ["untilSalary", "noMoneyNow"],
    ["postpone", "untilSalary"],
    ["day", "noTimeNow"],
    ["canYouBring", "slot"],
    ["busyPlace", "bring", "day"],
    ["absent", "bring", "afterHolidays"],
    ["work", "bring", "slot"],
    ["absent", "callAbout", "day"],
    ["opener", "but", "notThisWeek"],
    ["bring", "day"],
    ["bring", "slot"],
    ["absent", "bring", "day"],
    ["canYouBring", "day"],
    ["canYouBring", "slot"],
    ["postpone", "day"],
    ["day", "suits", "bring"],
    ["opener", "but", "bring", "day"],
    ["work", "bring", "day"],
    ["callAbout", "day"],
    ["day", "atHome"],
    ["notNow", "bring", "day"],
    // from the third blind development set: a time without a call verb is the delivery's ("not now, tomorrow evening")
    ["notNow", "day"],
    ["notNow", "slot"],
    ["notNow", "day", "slot"],
  ],
  callback: [
    ["busyPlace", "illCallBack"],
    ["noTimeNow"],
    ["notTheMoment"],
    ["notTheMoment", "callLater"],
    ["busyPlace", "callLater"],
    ["cantTalk", "illCallBack"],
    ["noTimeNow", "callLater"],
    ["busy", "illCallBack"],
    ["busy", "callLater"],
    ["callLater"],
    ["busy"],
    ["busy", "cantTalk"],
    ["cantTalk", "callLater"],
    ["callLater", "busy"],
    ["polite", "busy", "callLater"],
    ["callMe", "callTime"],
    ["busy", "callMe", "callTime"],
    ["notNow", "callLater"],
    // from the third blind development set
    ["callMe", "callTime", "notTheMoment"],
    ["notTheMoment", "callMe", "callTime"],
    ["apology", "but", "notTheMoment", "callLater"],
    ["apology", "notTheMoment", "callLater"],
    ["busyPlace", "callMe", "callTime"],
    ["notTheMoment", "callLater"],
    ["apology", "busy", "callMe", "callTime"],
    ["yes", "waitMoment", "no", "callLater"],
    ["yes", "waitMoment", "busy", "callLater"],
    ["yes", "waitMoment", "no", "busy", "callLater"],
  ],
  change_request: [
    ["modelFix"],
    ["courierNumber"],
    ["removeItem"],
    ["cityFix"],
    ["yes", "but", "cityFix"],
    ["houseNumberFix"],
    ["addItem"],
    ["opener", "addItem"],
    ["yes", "but", "removeItem"],
    ["opener", "but", "change"],
    ["change"],
    ["mistake", "change"],
    ["addOne"],
    ["opener", "addOne"],
    ["otherNumber"],
    ["opener", "but", "otherNumber"],
    ["change", "polite"],
    ["canYouChange"],
    ["mistake", "sizeFix"],
    ["sizeFix"],
    ["addressChange"],
    ["opener", "but", "addressChange"],
    ["quantityFix"],
    ["yes", "but", "quantityFix"],
    ["mistake", "quantityFix"],
    ["sizeSwap"],
    ["yes", "but", "sizeSwap"],
    // from the third blind development set
    ["movedAddress"],
    ["yes", "but", "movedAddress"],
    ["deliverToWork"],
    ["yes", "but", "deliverToWork"],
    ["polite", "deliverToWork"],
  ],
  question: [
    ["question"],
    ["question", "question"],
    ["polite", "question"],
    ["before", "question"],
    ["whoAreYou"],
    ["canOpen"],
    ["returnIfNotLiked"],
    ["comesWith"],
    ["comesWith", "thinkAndTell"],
    ["material"],
    ["courierUpstairs"],
    ["yes", "whoAreYou"],
    ["question", "thinkAndTell"],
    ["material", "thinkAndTell"],
    ["productQ"],
    ["productQ", "thinkAndTell"],
    ["canOpen", "thinkAndTell"],
    ["courierCallsQ"],
    ["forgotOrder"],
    // from the third blind development set
    ["yes", "returnIfNotLiked"],
    ["yes", "but", "returnIfNotLiked"],
    ["deliveryIncludedQ"],
    ["deliveryIncludedQ", "thinkAndTell"],
    ["yes", "deliveryIncludedQ"],
  ],
  unclear: [
    ["unclear"],
    ["unclear", "unclear"],
    ["hedge"],
    ["aside"],
    ["badLine"],
    ["repeat"],
    ["filler"],
    ["filler", "repeat"],
    ["hedge", "doubt"],
    ["doubt"],
    ["asideOrder", "listening"],
    ["anyoneThere"],
    ["talkingToKid"],
    ["hereHere"],
    ["badLine", "anyoneThere"],
    ["asideOrder"],
    ["filler", "hereHere"],
    ["waitMoment"],
    ["waitMoment", "asideOrder"],
    ["asideOrder", "waitMoment"],
    // from the third blind development set
    ["offTopic"],
    ["filler", "offTopic"],
    ["falseStart"],
    ["filler", "falseStart"],
    ["hesitantYes"],
    ["filler", "hesitantYes"],
    ["asideSelf"],
    ["filler", "asideSelf"],
  ],
  wrong_number: [
    ["oldOwner"],
    ["didntOrderNotMyName"],
    ["whoIsName", "oldOwner"],
    ["whoIsName", "noOneHere"],
    ["noOneHere"],
    ["newLine"],
    ["notMe"],
    ["no", "notMe"],
    ["wrongNumber"],
    ["no", "wrongNumber"],
    ["myNameIs"],
    ["no", "myNameIs"],
    ["notHerNumber"],
    ["whoIsName", "dontKnow"],
    ["didntOrder", "notMe"],
    ["newLine", "wrongNumber"],
    // from the third blind development set
    ["notMyName", "calledSomeoneElse"],
    ["notMyName"],
    ["calledSomeoneElse"],
    ["no", "notMyName", "calledSomeoneElse"],
    ["apology", "notMe", "calledSomeoneElse"],
    ["newLine", "apology"],
  ],
};

/** Per template and dialect script, how many draws. */
const DRAWS = 14;

/** The generated corpus: every template drawn DRAWS times per country and script (Arabic script where it exists). */
export function generateCorpus(seed = 2026): Generated[] {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(random() * xs.length)];
  const out: Generated[] = [];
  const seen = new Set<string>();
  for (const [country, scripts] of Object.entries(DIALECT_PHRASES) as [Country, Phrases[]][]) {
    for (const phrases of scripts) {
      for (const [intent, templates] of Object.entries(TEMPLATES) as [Intent, Template[]][]) {
        for (const template of templates) {
          for (let d = 0; d < DRAWS; d++) {
            const parts: string[] = [];
            let ok = true;
            for (const spec of template) {
              const optional = spec.startsWith("?");
              if (optional && random() < 0.5) continue;
              const list = phrases[spec.replace("?", "") as Slot];
              const word = Array.isArray(list) ? pick(list as readonly string[]) : undefined;
              if (word === undefined) {
                ok = false;
                break;
              }
              parts.push(word);
            }
            if (!ok || parts.length === 0) continue;
            const text = render(parts, phrases.script === "ar", random);
            const key = `${country}|${text}`;
            if (seen.has(key)) continue;
            seen.add(key);
            out.push({ country, text, intent });
          }
        }
      }
      // CONTRACT §5b: a bare rising "yes?" (typed with its question mark) asks to repeat: `unclear`. Transcripts
      // lose the mark, so only the typed form is taught; a bare "yes" stays a yes.
      for (const word of (phrases.yes ?? []) as readonly string[]) {
        if (/\s/.test(word)) continue;
        // Its bare form is a yes: taught for every such word, not only those the "yes" template happened to draw,
        // or the typed "yes?" would be the only lone form the model sees.
        if (!seen.has(`${country}|${word.toLowerCase()}`)) {
          seen.add(`${country}|${word.toLowerCase()}`);
          out.push({ country, text: word.toLowerCase(), intent: "confirm" });
        }
        const text = `${word}${phrases.script === "ar" ? "؟" : "?"}`;
        if (seen.has(`${country}|${text}`)) continue;
        seen.add(`${country}|${text}`);
        out.push({ country, text, intent: "unclear" });
      }
    }
  }
  return out;
}

/** Arabic script and half the Latin lines as a transcript (lowercase, no punctuation); the rest typed. */
function render(parts: string[], arabic: boolean, random: () => number): string {
  const transcript = arabic || random() < 0.5;
  if (transcript)
    return parts
      .join(" ")
      .replace(/[?,.!؟،]/g, "")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase();
  const joined = parts.join(random() < 0.5 ? ", " : " ");
  return random() < 0.3 ? joined.charAt(0).toUpperCase() + joined.slice(1) : joined;
}
