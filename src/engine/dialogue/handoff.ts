// The warm transfer's words (issue 34): what hands a call over to a person (the customer asks for one, a question
// the agent has no answer for, anger), what the agent says in each profile when it puts the customer through or
// when nobody could take the call, and the brief the person hears before being bridged (whisper). Pure.
import type { HandoffTrigger } from "../../domain/handoff.ts";
import type { Dialect, Language } from "../../domain/locale.ts";

/** Lowercase, no accents, no tashkeel, punctuation as spaces, one space between words. */
function simplify(text: string): string {
  return ` ${text
    .normalize("NFD")
    .replace(/[\u0300-\u036f\u064B-\u065F\u0670\u0640]/g, "")
    .toLowerCase()
    .replace(/[.,;:!?؟،؛"«»()…-]+/g, " ")
    .replace(/['’]/g, " ")
    .replace(/\s+/g, " ")
    .trim()} `;
}

/** Whether the simplified text holds one of `words` (simplified the same way) as whole words. */
function hasAny(s: string, words: readonly string[]): boolean {
  return words.some((w) => s.includes(simplify(w)));
}

/** Talking to someone, in the four profiles' words (Latin and Arabic script). */
const TALK = [
  "parler",
  "parle",
  "passez moi",
  "me passer",
  "mettre en relation",
  "joindre",
  // "C'est possible d'avoir le vendeur au téléphone ?" (round 15): asking to have someone (not "j'ai eu quelqu'un au
  // téléphone", "commandé en ligne pour quelqu'un").
  "possible d avoir",
  "peux avoir",
  "pourrais avoir",
  "pouvez me passer",
  "voudrais avoir",
  "aimerais avoir",
  "veux avoir",
  "nhder",
  "nhdr",
  "nhadar",
  "nahdar",
  "nahder",
  "nehder",
  "nhedar",
  "ndwi",
  "nedwi",
  "nahki",
  "nehki",
  "ne7ki",
  "na7ki",
  "n7ki",
  "nkalem",
  "nkallem",
  "ntkalem",
  "netkalem",
  "نهضر",
  "نهدر",
  "نتكلم",
  "ندوي",
  "نحكي",
  "نكلم",
  "نهضرو",
  "نحكيو",
  "نهدرو",
  "دوزلي",
  "دوز ليا",
];
/** Someone: a person, a human, the person in charge, an advisor. */
const PERSON = [
  "quelqu un",
  "quelquun",
  "humain",
  "une personne",
  "vraie personne",
  "vrai personne",
  "conseiller",
  "conseillere",
  "responsable",
  "agent",
  "operateur",
  "operatrice",
  "vendeur",
  "vendeuse",
  "service client",
  "patron",
  "gerant",
  "chi wahed",
  "chi wa7ed",
  "wahed",
  "wa7ed",
  "insan",
  "insen",
  "ensen",
  "bnadem",
  "mas2oul",
  "mes2oul",
  "masoul",
  "mesoul",
  "7ad",
  "had men",
  "hadd",
  "شي واحد",
  "واحد",
  "حد",
  "انسان",
  "إنسان",
  "بنادم",
  "المسؤول",
  "مسؤول",
  "المسؤولة",
  "بشر",
  "عبد",
  "الريسبونسابل",
  "المدير",
  "الباطرون",
  // "famma chkoun ne7ki m3ah?" (is there someone I can talk to?): round 14.
  "famma chkoun",
  "fama chkoun",
  "فما شكون",
  "فما حد",
];
/** Wanting a person outright ("un humain !", "بغيت انسان"). */
const PERSON_OUTRIGHT = [
  "un humain",
  "une vraie personne",
  "un conseiller",
  "une conseillere",
  "le service client",
  "vrai humain",
  "انسان حقيقي",
  "بغيت انسان",
  "بغيت المسؤول",
  "نحب المسؤول",
  "حاب المسؤول",
  // Not a machine: "mouch machine", "pas un robot" (round 14).
  "mouch machine",
  "machi machine",
  "mech machine",
  "pas une machine",
  "pas un robot",
  "pas a un robot",
  "pas a une machine",
  "machi robot",
  "mouch robot",
  "موش ماشينة",
  "ماشي روبو",
];

/** The customer asks to speak with a person (the `customer_asks` trigger). */
export function asksForPerson(text: string): boolean {
  const s = simplify(text);
  if (hasAny(s, PERSON_OUTRIGHT)) return true;
  return hasAny(s, TALK) && hasAny(s, PERSON);
}

/** Insults and anger words, in the four profiles' words. */
const INSULTS = [
  "connard",
  "connards",
  "connasse",
  "salaud",
  "salauds",
  "salope",
  "putain",
  "merde",
  "enfoire",
  "enfoires",
  "batard",
  "abruti",
  "abrutis",
  "arnaque",
  "arnaqueur",
  "arnaqueurs",
  "escroc",
  "escrocs",
  "voleur",
  "voleurs",
  "foutez",
  "ta gueule",
  "fermez la",
  "nique",
  "debile",
  "incompetents",
  "hmar",
  "7mar",
  "hmir",
  "kelb",
  "klab",
  "zamel",
  "nsab",
  "nassab",
  "nsabin",
  "chfara",
  "chefara",
  "sra9in",
  "bhim",
  "mkelekh",
  "mkalakh",
  "hchouma 3likom",
  "yn3el",
  "yna3el",
  "allah yn3el",
  "tfou",
  "tfo",
  "haycha",
  "7aycha",
  "sarag",
  "sarrag",
  "حمار",
  "كلب",
  "كلاب",
  "زامل",
  "نصاب",
  "نصابين",
  "شفارة",
  "سراقين",
  "سراق",
  "سارق",
  "بهيم",
  "مكلخ",
  "حشومة عليكم",
  "ينعل",
  "يلعن",
  "الله ينعل",
  "تفو",
  "هايشة",
  "حيوان",
  "كذابين",
  "كذاب",
  "زبل",
];

/** Insults or shouting (the `angry` trigger): an insult word, or a shouted reply (several capitals-only words, or "!!"). */
export function soundsAngry(text: string): boolean {
  if (hasAny(simplify(text), INSULTS)) return true;
  const shouted = text.split(/\s+/).filter((w) => /^[A-ZÀ-Ý]{3,}[!?.]*$/.test(w)).length;
  return shouted >= 2 || /!{2,}/.test(text);
}

/** Subjects the agent has no answer for, whatever the question's other words (returns, warranty, paying by card, a shop to visit...). */
const UNANSWERABLE = [
  "garantie",
  "retour",
  "retourner",
  "echange",
  "echanger",
  "rembourse",
  "remboursement",
  "remboursez",
  "carte bancaire",
  "par carte",
  "magasin",
  "boutique physique",
  "ضمان",
  "الضمان",
  "نرجع",
  "نرجعها",
  "نبدل",
  "نبدلها",
  "تبديل",
  "الرجوع",
  "فلوسي",
  "بالكارط",
  "بالبطاقة",
  "الحانوت",
  "المحل",
  "garanti",
  "nbedel",
  "nbadel",
  "nrajja3",
  "nraj3o",
  "lmagasin",
  "l7anout",
  "carta",
];

/** A question the agent has no answer for: about nothing it reads from the order, or about a subject it cannot settle. */
export function unansweredQuestion(text: string, knownTopic: (text: string) => unknown): boolean {
  return knownTopic(text) === null || hasAny(simplify(text), UNANSWERABLE);
}

type Voice = "ma" | "dz" | "tn" | "fr";
const voiceOf = (dialect: Dialect, language: Language): Voice => (language === "fr" ? "fr" : dialect);

const TRANSFERRING: Record<Voice, string> = {
  ma: "واخا، دابا غادي نحولك لواحد من الفريق ديالنا. بقا معايا عافاك.",
  dz: "واخا، ضرك نحولك لواحد من الفريق تاعنا. ابقى معايا من فضلك.",
  tn: "باهي، توا نحولك لواحد من الفريق متاعنا. ابقى معايا يعيشك.",
  fr: "Bien sûr, je vous mets en relation avec une personne de notre équipe. Restez en ligne, s'il vous plaît.",
};

const NOBODY: Record<Voice, string> = {
  ma: "سمح ليا، ما قدرناش نوصلو لشي واحد دابا. غادي يعيط ليك واحد من الفريق من بعد. بسلامة.",
  dz: "سمحلي، ما لقيناش واحد متوفر ضرك. واحد من الفريق يعيطلك من بعد. بسلامة.",
  tn: "سامحني، ما لقيناش حد متوفر توا. واحد من الفريق باش يكلمك من بعد. بالسلامة.",
  fr: "Je suis désolée, personne n'est disponible pour le moment. Une personne de notre équipe vous rappellera. Bonne journée, au revoir.",
};

/** "I am putting you through to a person of our team; stay on the line", in the call's profile. */
export function transferringLine(dialect: Dialect, language: Language): string {
  return TRANSFERRING[voiceOf(dialect, language)];
}

/** Nobody took the transfer (no answer, busy, outside hours, failed): a person will call back; goodbye. */
export function nobodyLine(dialect: Dialect, language: Language): string {
  return NOBODY[voiceOf(dialect, language)];
}

const WHY: Record<"fr" | "ar", Record<HandoffTrigger, string>> = {
  fr: {
    customer_asks: "le client demande à parler à quelqu'un",
    unanswered_question: "une question à laquelle l'assistante n'a pas de réponse",
    unclear: "l'assistante ne comprend pas le client",
    angry: "le client est mécontent",
  },
  ar: {
    customer_asks: "الزبون طلب يهضر مع شي واحد",
    unanswered_question: "سؤال ما عندهاش المساعدة جواب عليه",
    unclear: "المساعدة ما فهماتش الزبون",
    angry: "الزبون معصب",
  },
};

export interface WhisperFacts {
  customerName: string;
  orderExternalId: string;
  /** The total as said: "249 MAD". */
  total: string;
  reason: HandoffTrigger;
  /** The customer's words that triggered it, when any. */
  question?: string | null;
}

/**
 * The brief the person hears before being bridged, in the shop's language (`fr`, or `ar` for an Arabic-speaking shop):
 * who, which order, how much, why; hanging up during it refuses the transfer. The customer never hears it.
 */
export function whisperText(language: Language, f: WhisperFacts): string {
  const why = WHY[language][f.reason];
  const asked = f.question
    ? language === "fr"
      ? ` Sa question : « ${f.question.slice(0, 200)} ».`
      : ` السؤال: «${f.question.slice(0, 200)}».`
    : "";
  return language === "fr"
    ? `Transfert Wakha. Client : ${f.customerName}. Commande ${f.orderExternalId}, ${f.total}. Motif : ${why}.${asked} Raccrochez pour refuser.`
    : `تحويل من واكا. الزبون: ${f.customerName}. الطلب ${f.orderExternalId}، ${f.total}. السبب: ${why}.${asked} سد الخط باش ترفض.`;
}
