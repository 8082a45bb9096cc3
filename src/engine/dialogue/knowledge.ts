// The shop's answers in the call (issue 37.2): which knowledge a customer's question asks for, and the agent's
// answer in the call's profile. Typed fields (days, amounts, methods) are put in the profile's words; free text
// (opening hours, notes, the shop's own Q&A) is spoken exactly as written. Nothing is invented: a question the
// knowledge does not answer gets null here, and the dialogue records it as unanswered (flow.ts noAnswer).
import type { LocalizedText, ShopKnowledge } from "./knowledge-types.ts";
import { simplify } from "./cues.ts";
import { dzNumbers } from "./profiles/dz.ts";
import { maNumbers } from "./profiles/ma.ts";
import { listOf, type NumberWords, spellNumber } from "./profiles/profile.ts";
import { tnNumbers } from "./profiles/tn.ts";
import type { DialogueOrder } from "./types.ts";

/** What a question asks of the shop's knowledge (the order's own topics, price and items, are answered by the profile). */
export type KnowledgeTopic =
  | "qa"
  | "open_before_paying"
  | "returns"
  | "exchange"
  | "payment"
  | "hours"
  | "contact"
  | "delivery";

const OPEN = [
  "ouvrir",
  "ouvre",
  "verifier",
  "controler",
  "nhel",
  "n7el",
  "n7ell",
  "nhell",
  "n7ol",
  "nft7",
  "nfte7",
  "nefte7",
  "nftah",
  "nchouf",
  "nchof",
  "نحل",
  "نحلو",
  "نحلها",
  "نفتح",
  "نفتحو",
  "نشوف",
  "نشوفو",
  "نتشيكي",
];
const RETURNS = [
  "retour",
  "retourner",
  "rendre",
  "rembourse",
  "remboursement",
  "rembourser",
  "nrj3",
  "nrje3",
  "nraja3",
  "nrejja3",
  "nrajja3",
  "nred",
  "nrad",
  "nraj3ou",
  "نرجع",
  "نرجعها",
  "نرجعو",
  "نرد",
  "نردها",
  "ترجيع",
  "الرجوع",
  "رجوع",
  "استرجاع",
  "الاسترجاع",
];
const EXCHANGE = [
  "echange",
  "echanger",
  "changer",
  "taille",
  "pointure",
  "mesure",
  "nbeddel",
  "nbaddel",
  "nbadel",
  "nbdel",
  "nbedlo",
  "نبدل",
  "نبدلها",
  "تبديل",
  "التبديل",
  "مقاس",
  "المقاس",
  "قياس",
  "القياس",
  "9yas",
  "9ias",
  "9yass",
  "l9yas",
];
const PRICE = [
  "combien",
  "prix",
  "ch7al",
  "chhal",
  "sh7al",
  "bch7al",
  "b9adach",
  "9adach",
  "9dach",
  "9adech",
  "bikam",
  "شحال",
  "بشحال",
  "قداش",
  "بقداش",
  "بكم",
];
const PAYMENT = [
  "carte",
  "cb",
  "paiement",
  "payer",
  "paye",
  "virement",
  "cash",
  "especes",
  "liquide",
  "kart",
  "karta",
  "lkart",
  "lakart",
  "nkhalas",
  "nkhales",
  "nkhelles",
  "nkhalles",
  "nkhless",
  "كارط",
  "لكارط",
  "الكارط",
  "الكارت",
  "بالكارط",
  "بالكارت",
  "بطاقة",
  "فيرمو",
  "تحويل",
  "نخلص",
  "الخلاص",
  "خلاص",
  "baridimob",
  "ccp",
];
const HOURS = [
  "horaire",
  "horaires",
  "kat7allo",
  "t7allo",
  "t7alo",
  "t7ellou",
  "t7ellu",
  "7allin",
  "heure d'ouverture",
  "ouverte",
  "ouvert",
  "ouverts",
  "ferme",
  "fermez",
  "fermee",
  "m7loul",
  "m7lol",
  "ma7loul",
  "m7loulin",
  "محلول",
  "محلولين",
  "تحلو",
  "تسدو",
  "مسدود",
  "أوقات",
  "الأوقات",
  "اوقات",
  "ساعات",
];
const CONTACT = [
  "contacter",
  "joindre",
  "numero",
  "telephone",
  "whatsapp",
  "watsap",
  "email",
  "mail",
  "instagram",
  "facebook",
  "ntasel",
  "nt9assel",
  "nttasel",
  "ntwasel",
  "nt3ayet",
  "nt3ayetlkom",
  "n3ayetlkom",
  "nkalmkom",
  "nkallem",
  "nkalem",
  "نعيطلكم",
  "نكلمكم",
  "نتاصل",
  "نتواصل",
  "نتصل",
  "نعيط",
  "الرقم",
  "نمرة",
  "النمرة",
  "الواتساب",
  "واتساب",
  "رقم",
];
/** Words of "how long": with a delivery word, a question about the delay even when it says "how much" ("ch7al kayakhod"). */
const DURATION = [
  "temps",
  "jours",
  "jour",
  "delai",
  "kayakhod",
  "kyakhod",
  "yakhod",
  "yakhdh",
  "yakhed",
  "yekhou",
  "yekhdhou",
  "ياخذ",
  "كياخد",
  "ياخد",
  "ياخو",
  "twsal",
  "tousel",
  "ywsal",
  "yousel",
  "kaywsal",
  "توصل",
  "يوصل",
  "كيوصل",
  "arrive",
  "imta",
  "emta",
  "امتى",
  "إمتى",
  "wa9tach",
  "وقتاش",
];
const DELIVERY = [
  "livraison",
  "livr",
  "livreur",
  "delai",
  "quand",
  "arrive",
  "recevoir",
  "imta",
  "emta",
  "imata",
  "wa9tach",
  "waqtach",
  "fo9ach",
  "fou9ach",
  "twsal",
  "tousel",
  "ywsal",
  "yousel",
  "wsol",
  "tawsil",
  "twsil",
  "امتى",
  "إمتى",
  "وقتاش",
  "فوقاش",
  "التوصيل",
  "توصيل",
  "توصل",
  "يوصل",
];

function tokensOf(text: string): string[] {
  return simplify(text).split(/\s+/).filter(Boolean);
}

function holds(tokens: readonly string[], list: readonly string[]): boolean {
  return list.some((k) => tokens.some((t) => t === k || (k.length >= 4 && t.includes(k))));
}

/** A keyword of the shop's (one word or several) in the customer's words, without case, accents or tashkeel. */
function mentions(text: string, tokens: readonly string[], keyword: string): boolean {
  const k = simplify(keyword);
  if (!k) return false;
  if (k.includes(" ")) return ` ${text} `.includes(` ${k} `);
  return tokens.some((t) => t === k || (k.length >= 4 && t.includes(k)));
}

/** The shop's own question this text asks, by its keywords (the first pair that matches). */
export function matchQa(
  text: string,
  knowledge: ShopKnowledge | null | undefined,
): NonNullable<ShopKnowledge["qa"]>[number] | null {
  if (!knowledge?.qa?.length) return null;
  const s = simplify(text);
  const tokens = s.split(/\s+/).filter(Boolean);
  return knowledge.qa.find((pair) => pair.keywords.some((k) => mentions(s, tokens, k))) ?? null;
}

/**
 * The knowledge a question asks for, or null when it is about the order itself (price, items) or nothing known.
 * The shop's own pairs come first; a price word keeps a payment question about the order's amount.
 */
export function knowledgeTopic(text: string, knowledge: ShopKnowledge | null | undefined): KnowledgeTopic | null {
  if (matchQa(text, knowledge)) return "qa";
  const tokens = tokensOf(text);
  if (holds(tokens, OPEN)) return "open_before_paying";
  if (holds(tokens, RETURNS)) return "returns";
  if (holds(tokens, EXCHANGE)) return "exchange";
  if (holds(tokens, HOURS)) return "hours";
  if (holds(tokens, CONTACT)) return "contact";
  const delivery = holds(tokens, DELIVERY);
  if (delivery && holds(tokens, DURATION)) return "delivery";
  if (holds(tokens, PRICE)) return null;
  if (holds(tokens, PAYMENT)) return "payment";
  if (delivery) return "delivery";
  return null;
}

/** The text for the call's language: `fr`, or the dialect's Arabic over plain `ar`. */
export function localized(
  text: LocalizedText | undefined,
  order: Pick<DialogueOrder, "language" | "dialect">,
): string | null {
  if (!text) return null;
  if (order.language === "fr") return text.fr ?? null;
  const dialect =
    order.dialect === "ma"
      ? text.ar_ma
      : order.dialect === "dz"
        ? text.ar_dz
        : order.dialect === "tn"
          ? text.ar_tn
          : undefined;
  return dialect ?? text.ar ?? null;
}

/** The words of one profile for the knowledge's answers. */
interface KnowledgeWords {
  days(n: number): string;
  between(min: string, max: string): string;
  sameDay: string;
  delivery(place: string | null, delay: string): string;
  open(yes: boolean): string;
  returns(accepted: boolean, days: string | null): string;
  exchangeToo: string;
  exchange(yes: boolean, days: string | null): string;
  fee(amount: string): string;
  payment(methods: string): string;
  methods: Record<NonNullable<ShopKnowledge["payment_methods"]>[number], string>;
  or: string;
  hours(text: string): string;
  contact(channel: string, value: string): string;
  channels: Record<NonNullable<ShopKnowledge["contact"]>["channel"], string>;
  noAnswer: string;
}

function arabicDays(numbers: NumberWords, one: string, two: string, few: string, many: string): (n: number) => string {
  return (n) =>
    n === 1
      ? one
      : n === 2
        ? two
        : n <= 10
          ? `${spellNumber(n, numbers)} ${few}`
          : `${spellNumber(n, numbers)} ${many}`;
}

const FRENCH: KnowledgeWords = {
  days: (n) => `${n} jour${n > 1 ? "s" : ""}`,
  between: (min, max) => `entre ${min.replace(/ jours?$/, "")} et ${max}`,
  sameDay: "la journée même",
  delivery: (place, delay) => `La livraison${place ? ` à ${place}` : ""} prend ${delay}.`,
  open: (yes) =>
    yes
      ? "Oui, vous pouvez ouvrir le colis et vérifier l'article avant de payer le livreur."
      : "Non, le colis se paie au livreur avant d'être ouvert.",
  returns: (accepted, days) =>
    accepted
      ? `Oui, le retour est possible${days ? ` dans les ${days} après la livraison` : ""}.`
      : "Les retours ne sont pas acceptés.",
  exchangeToo: "L'échange, pour une autre taille par exemple, est possible aussi.",
  exchange: (yes, days) =>
    yes
      ? `Oui, vous pouvez échanger l'article contre une autre taille ou une autre couleur${days ? `, dans les ${days} après la livraison` : ""}.`
      : "Non, les échanges ne sont pas possibles.",
  fee: (amount) => `Les frais de retour sont de ${amount}.`,
  payment: (methods) => `Vous pouvez payer ${methods}.`,
  methods: { cash: "en espèces à la livraison", card_on_delivery: "par carte au livreur", transfer: "par virement" },
  or: " ou ",
  hours: (text) => `Nos horaires : ${text}.`,
  contact: (channel, value) => `Vous pouvez joindre la boutique ${channel} : ${value}.`,
  channels: {
    phone: "par téléphone",
    whatsapp: "sur WhatsApp",
    email: "par e-mail",
    website: "sur son site",
    instagram: "sur Instagram",
    facebook: "sur Facebook",
  },
  noAnswer: "Je n'ai pas cette information, la boutique vous répondra.",
};

const MOROCCAN: KnowledgeWords = {
  days: arabicDays(maNumbers, "نهار واحد", "يومين", "ايام", "يوم"),
  between: (min, max) => `بين ${min} و ${max}`,
  sameDay: "نفس النهار",
  delivery: (place, delay) => `التوصيل${place ? ` ل${place}` : ""} كياخد ${delay}.`,
  open: (yes) =>
    yes ? "آه، تقدر تحل الكولي وتشوف السلعة قبل ما تخلص الليفرور." : "لا، الكولي كيتخلص للليفرور قبل ما يتحل.",
  returns: (accepted, days) =>
    accepted ? `آه، الرجوع ممكن${days ? ` فـ ${days} من بعد التوصيل` : ""}.` : "الرجوع ما مقبولش.",
  exchangeToo: "والتبديل ممكن حتى هو، بحال إلا بغيتي قياس آخر.",
  exchange: (yes, days) =>
    yes
      ? `آه، تقدر تبدل السلعة بقياس ولا لون آخر${days ? ` فـ ${days} من بعد التوصيل` : ""}.`
      : "لا، التبديل ما ممكنش.",
  fee: (amount) => `مصاريف الرجوع هي ${amount}.`,
  payment: (methods) => `تقدر تخلص ${methods}.`,
  methods: { cash: "كاش عند الاستلام", card_on_delivery: "بالكارط عند الليفرور", transfer: "بفيرمو" },
  or: " ولا ",
  hours: (text) => `أوقات المتجر: ${text}.`,
  contact: (channel, value) => `تقدر تتواصل مع المتجر ${channel}: ${value}.`,
  channels: {
    phone: "فالتيليفون",
    whatsapp: "فالواتساب",
    email: "فالإيميل",
    website: "فالسيت ديالو",
    instagram: "فالانستغرام",
    facebook: "فالفيسبوك",
  },
  noAnswer: "سمح ليا، ما عنديش هاد المعلومة، المتجر غادي يجاوبك عليها.",
};

const ALGERIAN: KnowledgeWords = {
  days: arabicDays(dzNumbers, "نهار واحد", "يومين", "أيام", "يوم"),
  between: (min, max) => `بين ${min} و ${max}`,
  sameDay: "نفس النهار",
  delivery: (place, delay) => `التوصيل${place ? ` لـ ${place}` : ""} ياخذ ${delay}.`,
  open: (yes) =>
    yes ? "إيه، تقدر تحل الكولي وتشوف السلعة قبل ما تخلص الليفرور." : "لا، الكولي يتخلص لليفرور قبل ما يتحل.",
  returns: (accepted, days) =>
    accepted ? `إيه، الرجوع ممكن${days ? ` في ${days} بعد التوصيل` : ""}.` : "الرجوع ماشي مقبول.",
  exchangeToo: "والتبديل ممكن تاني، كيما إذا حبيت مقاس آخر.",
  exchange: (yes, days) =>
    yes ? `إيه، تقدر تبدل السلعة بمقاس ولا لون آخر${days ? ` في ${days} بعد التوصيل` : ""}.` : "لا، التبديل ماشي ممكن.",
  fee: (amount) => `مصاريف الرجوع ${amount}.`,
  payment: (methods) => `تقدر تخلص ${methods}.`,
  methods: { cash: "كاش عند الاستلام", card_on_delivery: "بالكارت عند الليفرور", transfer: "بالتحويل" },
  or: " ولا ",
  hours: (text) => `أوقات المحل: ${text}.`,
  contact: (channel, value) => `تقدر تتصل بالمحل ${channel}: ${value}.`,
  channels: {
    phone: "في التيليفون",
    whatsapp: "في الواتساب",
    email: "في الإيميل",
    website: "في السيت تاعو",
    instagram: "في الانستغرام",
    facebook: "في الفيسبوك",
  },
  noAnswer: "سمحلي، ما عنديش هاد المعلومة، المحل يجاوبك عليها.",
};

const TUNISIAN: KnowledgeWords = {
  days: arabicDays(tnNumbers, "نهار واحد", "يومين", "أيام", "يوم"),
  between: (min, max) => `بين ${min} و ${max}`,
  sameDay: "نفس النهار",
  delivery: (place, delay) => `التوصيل${place ? ` لـ ${place}` : ""} ياخو ${delay}.`,
  open: (yes) =>
    yes ? "إيه، تنجم تحل الكولي وتشوف السلعة قبل ما تخلص الليفرور." : "لا، الكولي يتخلص لليفرور قبل ما يتحل.",
  returns: (accepted, days) =>
    accepted ? `إيه، الرجوع ممكن${days ? ` في ${days} بعد التوصيل` : ""}.` : "الرجوع موش مقبول.",
  exchangeToo: "والتبديل ممكن زادة، كيف تحب قياس آخر.",
  exchange: (yes, days) =>
    yes ? `إيه، تنجم تبدل السلعة بقياس ولا لون آخر${days ? ` في ${days} بعد التوصيل` : ""}.` : "لا، التبديل موش ممكن.",
  fee: (amount) => `مصاريف الرجوع ${amount}.`,
  payment: (methods) => `تنجم تخلص ${methods}.`,
  methods: { cash: "كاش وقت الاستلام", card_on_delivery: "بالكارط عند الليفرور", transfer: "بالتحويل" },
  or: " ولا ",
  hours: (text) => `أوقات المحل: ${text}.`,
  contact: (channel, value) => `تنجم تتصل بالمحل ${channel}: ${value}.`,
  channels: {
    phone: "على التيليفون",
    whatsapp: "على الواتساب",
    email: "على الإيميل",
    website: "على السيت متاعو",
    instagram: "على الانستغرام",
    facebook: "على الفيسبوك",
  },
  noAnswer: "سامحني، ما عنديش المعلومة هاذي، المحل باش يجاوبك عليها.",
};

function wordsFor(order: Pick<DialogueOrder, "language" | "dialect">): KnowledgeWords {
  if (order.language === "fr") return FRENCH;
  return order.dialect === "dz" ? ALGERIAN : order.dialect === "tn" ? TUNISIAN : MOROCCAN;
}

/** What the agent says when the knowledge has no answer (issue 34's handoff may take over at that point instead). */
export function noAnswerLine(order: Pick<DialogueOrder, "language" | "dialect">): string {
  return wordsFor(order).noAnswer;
}

function delay(w: KnowledgeWords, min: number, max: number): string {
  if (max === 0) return w.sameDay;
  return min === max ? w.days(max) : w.between(w.days(min), w.days(max));
}

/** The delivery area the customer names, else the call's address city, else none (the default delay). */
function deliveryArea(
  text: string,
  knowledge: ShopKnowledge,
  order: DialogueOrder,
): { place: string; min_days: number; max_days: number } | null {
  const areas = knowledge.delivery?.areas ?? [];
  const s = simplify(text);
  const tokens = s.split(/\s+/).filter(Boolean);
  for (const area of areas) {
    const said = area.names.find((n) => mentions(s, tokens, n));
    if (said) return { place: said, ...area };
  }
  const city = order.address?.city ? simplify(order.address.city) : "";
  if (!city) return null;
  const area = areas.find((a) => a.names.some((n) => simplify(n) === city));
  return area ? { place: order.address!.city, ...area } : null;
}

/**
 * The agent's answer to `topic` from the shop's knowledge in the call's profile, or null when the knowledge does not
 * say (the question is then unanswered). `spokenAmount` is the profile's way of saying an amount.
 */
export function answerFromKnowledge(
  topic: KnowledgeTopic,
  text: string,
  order: DialogueOrder,
  spokenAmount: (amount: string) => string,
): string | null {
  const k = order.knowledge;
  if (!k) return null;
  const w = wordsFor(order);
  const daysAfter = k.returns?.days ? w.days(k.returns.days) : null;
  const fee = k.returns?.fee && Number(k.returns.fee) > 0 ? ` ${w.fee(spokenAmount(k.returns.fee))}` : "";
  switch (topic) {
    case "qa":
      return localized(matchQa(text, k)?.answer, order);
    case "open_before_paying":
      return k.open_before_paying === undefined ? null : w.open(k.open_before_paying);
    case "returns": {
      if (!k.returns) return null;
      const note = localized(k.returns.note, order);
      if (k.returns.note && note === null) return null; // the policy's own words exist, but not in this language
      const exchange = k.returns.exchange ? ` ${w.exchangeToo}` : "";
      return `${w.returns(k.returns.accepted, daysAfter)}${exchange}${k.returns.accepted || k.returns.exchange ? fee : ""}${note ? ` ${note}` : ""}`;
    }
    case "exchange":
      if (k.returns?.exchange === undefined) return null;
      return `${w.exchange(k.returns.exchange, daysAfter)}${k.returns.exchange ? fee : ""}`;
    case "payment":
      return k.payment_methods
        ? w.payment(
            listOf(
              k.payment_methods.map((m) => w.methods[m]),
              order.language === "fr" ? ", " : "، ",
              w.or,
            ),
          )
        : null;
    case "hours": {
      const hours = localized(k.opening_hours, order);
      return hours ? w.hours(hours) : null;
    }
    case "contact":
      return k.contact ? w.contact(w.channels[k.contact.channel], k.contact.value) : null;
    case "delivery": {
      if (!k.delivery) return null;
      const area = deliveryArea(text, k, order);
      return w.delivery(
        area?.place ?? null,
        area
          ? delay(w, area.min_days, area.max_days)
          : delay(w, k.delivery.default.min_days, k.delivery.default.max_days),
      );
    }
  }
}
