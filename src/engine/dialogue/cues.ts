// Small readings of the customer's words that the dialogue needs beyond the intent: which question was
// asked (to answer it from the order) and whether an identity check got a bare "no".
import type { QuestionTopic } from "./profiles/profile.ts";

/** Lowercase, no accents, no tashkeel, no punctuation, letters repeated three times or more collapsed ("laaa" -> "la"). */
function simplify(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f\u064B-\u065F\u0670\u0640]/g, "")
    .toLowerCase()
    .replace(/[.,;:!?؟،؛"'«»()…-]+/g, " ")
    .replace(/(\p{L})\1{2,}/gu, "$1")
    .trim();
}

const PRICE = [
  "prix", "combien", "cout", "total", "montant", "tarif", "ch7al", "chhal", "ch7al", "sh7al", "bch7al", "b9adach", "9adach", "9dach",
  "qadach", "kadech", "9adech", "9adeh", "bikam", "soum", "taman", "thaman", "flous", "شحال", "بشحال", "قداش", "بقداش", "الثمن",
  "ثمن", "السوم", "سوم", "الفلوس", "فلوس", "بكم", "كم",
];
const DELIVERY = [
  "livraison", "livr", "livreur", "delai", "quand", "arrive", "recevoir", "recoi", "imta", "emta", "imata", "wa9tach", "wa9tash",
  "waqtach", "wqtach", "waktach", "fo9ach", "fu9ach", "fou9ach", "foqach", "twsal", "tousel", "ywsal", "yousel", "wsol", "tawsil",
  "twsil", "امتى", "إمتى", "وقتاش", "فوقاش", "التوصيل", "توصيل", "توصل", "يوصل", "توصلني", "الليفرور", "ليفرور",
];
const ITEMS = [
  "chnou", "chno", "achnou", "chnouwa", "chnia", "chniya", "produit", "article", "quoi", "commande", "taille", "couleur",
  "شنو", "اشنو", "آش", "شنوة", "شنية", "شنيا", "واش", "المنتوج", "الطلبية", "الكوموند",
];

function has(words: string, list: readonly string[]): boolean {
  const tokens = words.split(/\s+/);
  return list.some((k) => tokens.some((t) => t === k || (k.length >= 4 && t.includes(k))));
}

/** What a question is about; a question about nothing recognisable gets the whole order read again. */
export function questionTopic(text: string): QuestionTopic {
  const s = simplify(text);
  if (has(s, PRICE)) return "price";
  if (has(s, DELIVERY)) return "delivery";
  if (has(s, ITEMS)) return "items";
  return "items";
}

const BARE_NO = new Set(["la", "lla", "non", "no", "nope", "nan", "lala", "لا", "لالا", "لاء", "لأ"]);

/** "no" and nothing else: the answer to "am I speaking with X?" that means a wrong person. */
export function isBareNo(text: string): boolean {
  const tokens = simplify(text).split(/\s+/).filter(Boolean);
  return tokens.length > 0 && tokens.every((t) => BARE_NO.has(t));
}
