// Morocco: Darija in Arabic script (it goes to an ar-MA voice), and the French of Moroccan call centres.
import type { DialogueOrder } from "../types.ts";
import { createFrenchProfile } from "./fr.ts";
import {
  type DialogueProfile,
  type NumberWords,
  type OrderItem,
  dayMonth,
  groupThousands,
  itemsText,
  minorUnits,
  pricedLines,
  spellNumber,
  splitAmount,
} from "./profile.ts";

export const maNumbers: NumberWords = {
  units: [
    "صفر",
    "واحد",
    "جوج",
    "تلاتة",
    "ربعة",
    "خمسة",
    "ستة",
    "سبعة",
    "تمنية",
    "تسعود",
    "عشرة",
    "حداش",
    "طناش",
    "تلطاش",
    "ربعطاش",
    "خمسطاش",
    "سطاش",
    "سبعطاش",
    "تمنطاش",
    "تسعطاش",
  ],
  tens: ["", "", "عشرين", "تلاتين", "ربعين", "خمسين", "ستين", "سبعين", "تمانين", "تسعين"],
  hundreds: ["", "مية", "ميتين", "تلتمية", "ربعمية", "خمسمية", "ستمية", "سبعمية", "تمنمية", "تسعمية"],
  thousand: "ألف",
  twoThousand: "ألفين",
  thousandsPrefix: ["", "", "", "تلت", "ربع", "خمس", "ست", "سبع", "تمن", "تسع", "عشر"],
  thousands: "آلاف",
  million: "مليون",
  and: " و ",
};

/** "249.90" -> "ميتين و تسعة و ربعين درهم و تسعين سنتيم"; 3 to 10 take the plural "دراهم". */
export function dirhams(amount: string): string {
  const { whole, fraction } = splitAmount(amount);
  const cents = minorUnits(fraction, 2);
  // In compounds Moroccans say تسعة, not the standalone تسعود.
  const words = (n: number) => spellNumber(n, maNumbers).replace(/تسعود و/g, "تسعة و");
  const main = whole === 0 ? "" : `${words(whole)} ${whole >= 3 && whole <= 10 ? "دراهم" : "درهم"}`;
  if (cents === 0) return main || "صفر درهم";
  return main ? `${main} و ${words(cents)} سنتيم` : `${words(cents)} سنتيم`;
}

function quantityLine(item: OrderItem): string {
  const variant = item.variant ? `، ${item.variant}` : "";
  const qty = item.quantity === 1 ? "واحد" : `${spellNumber(item.quantity, maNumbers)} ديال`;
  return `${qty} ${item.name}${variant}`;
}

const items = (o: DialogueOrder) => itemsText(o, quantityLine, "، ", " و ");
const confirmationQuestion = () => "واش نأكدو ليك الطلبية؟";
const delivery = "الليفرور غادي يعيط ليك قبل ما يجي، والتوصيل كياخد بين يوم و تلت ايام.";
const goodbye = "نهارك مبروك، بسلامة.";

/** Moroccan Darija. */
export const ma: DialogueProfile = {
  spokenAmount: dirhams,
  opening: (o, pick) =>
    `${pick(["السلام عليكم", "السلام عليكم، مرحبا"])}، مساعدة آلية من ${o.shopName} والمكالمة مسجلة. واش معايا ${o.customerName}؟`,
  identityAgain: (o) => `سمح ليا، واش معايا ${o.customerName}؟`,
  introduceAgain: (o) =>
    `أنا المساعدة الآلية ديال ${o.shopName}، كنعيط ليك على الطلبية اللي درتي، والمكالمة مسجلة. واش معايا ${o.customerName}؟`,
  readBack: (o, pick) =>
    `${pick(["مرحبا", "تشرفنا", "الله يخليك"])}. الطلبية ديالك فيها ${items(o)}. المجموع ${dirhams(o.amount)}، كتخلصهم ملي توصلك. ${confirmationQuestion()}`,
  confirmationQuestion,
  confirmationAgain: (attempt) =>
    attempt <= 1
      ? "سمح ليا ما فهمتكش مزيان. واش نأكدو ليك الطلبية، آه ولا لا؟"
      : "سمح ليا، جاوبني غير بآه ولا لا: واش نأكدو الطلبية؟",
  answer: (topic, o) => {
    if (topic === "delivery") return `${delivery} الخلاص كيكون عند الاستلام.`;
    if (topic === "items") return `الطلبية فيها ${items(o)}، بـ ${dirhams(o.amount)}.`;
    const lines = o.items.length > 1 ? pricedLines(o, (i, p) => `${i.name} بـ ${dirhams(p)} للحبة`) : [];
    return `${lines.length > 0 ? `${lines.join("، ")}. ` : ""}المجموع هو ${dirhams(o.amount)}، كتخلصهم عند الاستلام.`;
  },
  confirmed: (pick) =>
    `${pick(["شكرا بزاف", "الله يخليك، شكرا", "مزيان، شكرا"])}! الطلبية تأكدات. ${delivery} ${goodbye}`,
  askReason: () => "واخا، ماشي مشكل. واش ممكن تقول ليا علاش بغيتي تلغي الطلبية؟",
  declined: () => `مفهوم، غادي نلغيو الطلبية. شكرا على الوقت ديالك، ${goodbye}`,
  askDate: () => "واخا، ماشي مشكل. إمتى بغيتي توصلك الطلبية؟ شمن نهار مناسب ليك؟",
  rescheduled: (date) =>
    date
      ? `مزيان، غادي نوصلو ليك الطلبية نهار ${dayMonth(date)}. شكرا، ${goodbye}`
      : `واخا، غادي نأجلو التوصيل ونتواصلو معاك. ${goodbye}`,
  askCallbackTime: () => "ماشي مشكل، إمتى نعاودو نعيطو ليك؟",
  callbackSet: (known) =>
    known ? `واخا، غادي نعاودو نعيطو ليك فهاد الوقت. ${goodbye}` : `واخا، غادي نعاودو نعيطو ليك من بعد. ${goodbye}`,
  askChange: () => "واخا، شنو بغيتي تبدل فالطلبية؟",
  changeNoted: () => `مفهوم، سجلنا التبديل والمتجر غادي يتواصل معاك باش يأكدو. شكرا، ${goodbye}`,
  wrongNumber: () => `سمح ليا بزاف على الإزعاج، يمكن غلطنا فالنمرة. ${goodbye}`,
  giveUp: () => `سمح ليا، ما كنسمعكش مزيان. غادي نعاودو نعيطو ليك من بعد. بسلامة.`,
  checkConfirm: () => "غير باش نتأكد: نأكدو ليك الطلبية، آه ولا لا؟",
  checkIdentity: (o) => `سمح ليا، غير باش نتأكد: واش معايا ${o.customerName}، آه ولا لا؟`,
  offerKeypad: () => "إلا بغيتي، ضغط على واحد باش تأكد الطلبية، ولا على جوج باش تلغيها.",
  recordingStopped: () => "واخا، وقفنا التسجيل وما غادي نحتافظو بوالو.",
};

/** French as Moroccan call centres speak it: "249 dirhams". */
export const maFrench = createFrenchProfile({
  hellos: ["Salam, bonjour", "Bonjour"],
  spokenAmount: (amount) => {
    const { whole, fraction } = splitAmount(amount);
    const cents = minorUnits(fraction, 2);
    const main = `${groupThousands(whole)} dirham${whole >= 2 ? "s" : ""}`;
    return cents === 0 ? main : `${main} et ${cents} centimes`;
  },
  delivery: "Le livreur vous appellera avant de passer, la livraison prend un à trois jours.",
  goodbye: "Merci, bonne journée, bslama.",
});
