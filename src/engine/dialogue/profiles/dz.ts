// Algeria: Derja in Arabic script (for an ar-DZ voice), and the French of Algerian call centres.
// Amounts are said in dinars; the old-centimes habit (ten times the figure) is left to the customer.
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

export const dzNumbers: NumberWords = {
  units: [
    "صفر",
    "واحد",
    "زوج",
    "ثلاثة",
    "ربعة",
    "خمسة",
    "ستة",
    "سبعة",
    "ثمانية",
    "تسعة",
    "عشرة",
    "حداش",
    "ثناش",
    "ثلطاش",
    "ربعطاش",
    "خمسطاش",
    "سطاش",
    "سبعطاش",
    "ثمنطاش",
    "تسعطاش",
  ],
  tens: ["", "", "عشرين", "ثلاثين", "ربعين", "خمسين", "ستين", "سبعين", "ثمانين", "تسعين"],
  hundreds: ["", "مية", "ميتين", "ثلث مية", "ربع مية", "خمس مية", "ست مية", "سبع مية", "ثمن مية", "تسع مية"],
  thousand: "ألف",
  twoThousand: "ألفين",
  thousandsPrefix: ["", "", "", "ثلث", "ربع", "خمس", "ست", "سبع", "ثمن", "تسع", "عشر"],
  thousands: "آلاف",
  million: "مليون",
  and: " و ",
};

/** "4500.00" -> "ربع آلاف و خمس مية دينار"; centimes only when the amount has them. */
export function dinarsDz(amount: string): string {
  const { whole, fraction } = splitAmount(amount);
  const cents = minorUnits(fraction, 2);
  const main = whole === 0 ? "" : `${spellNumber(whole, dzNumbers)} دينار`;
  if (cents === 0) return main || "صفر دينار";
  return main ? `${main} و ${spellNumber(cents, dzNumbers)} سنتيم` : `${spellNumber(cents, dzNumbers)} سنتيم`;
}

function quantityLine(item: OrderItem): string {
  const variant = item.variant ? `، ${item.variant}` : "";
  const qty = item.quantity === 1 ? "واحد" : `${spellNumber(item.quantity, dzNumbers)} تاع`;
  return `${qty} ${item.name}${variant}`;
}

const items = (o: DialogueOrder) => itemsText(o, quantityLine, "، ", " و ");
const confirmationQuestion = () => "نأكدولك الكوموند؟";
const delivery = "الليفرور يعيطلك قبل ما يجي، والتوصيل ياخذ من يوم لثلث أيام.";
const goodbye = "نهارك مبروك، بسلامة.";

/** Algerian Derja. */
export const dz: DialogueProfile = {
  spokenAmount: dinarsDz,
  opening: (o, pick) =>
    `${pick(["السلام عليكم", "السلام عليكم، صحيت"])}، مساعدة آلية من ${o.shopName} والمكالمة مسجلة. راني نهدر مع ${o.customerName}؟`,
  identityAgain: (o) => `سمحلي، راني نهدر مع ${o.customerName}؟`,
  introduceAgain: (o) =>
    `أنا المساعدة الآلية تاع ${o.shopName}، نعيطلك على الكوموند اللي درت، والمكالمة مسجلة. راني نهدر مع ${o.customerName}؟`,
  readBack: (o, pick) =>
    `${pick(["صحيت", "مرحبا بيك", "يعطيك الصحة"])}. الكوموند تاعك فيها ${items(o)}. المجموع ${dinarsDz(o.amount)}، تخلصهم كي توصلك. ${confirmationQuestion()}`,
  confirmationQuestion,
  confirmationAgain: (attempt) =>
    attempt <= 1
      ? "سمحلي ما فهمتكش مليح. نأكدولك الكوموند، ايه ولا لا؟"
      : "سمحلي، جاوبني غير بايه ولا لا: نأكدو الكوموند؟",
  answer: (topic, o) => {
    if (topic === "delivery") return `${delivery} تخلص كي تستلم.`;
    if (topic === "items") return `الكوموند فيها ${items(o)}، بـ ${dinarsDz(o.amount)}.`;
    const lines = o.items.length > 1 ? pricedLines(o, (i, p) => `${i.name} بـ ${dinarsDz(p)} الحبة`) : [];
    return `${lines.length > 0 ? `${lines.join("، ")}. ` : ""}المجموع ${dinarsDz(o.amount)}، تخلصهم كي تستلم.`;
  },
  confirmed: (pick) =>
    `${pick(["يعطيك الصحة", "صحيت، بارك الله فيك", "مليح، يعطيك الصحة"])}! الكوموند تأكدت. ${delivery} ${goodbye}`,
  askReason: () => "ماكاش مشكل. علاه حبيت تلغي الكوموند؟",
  declined: () => `فهمتك، راح نلغيو الكوموند. يعطيك الصحة على وقتك، ${goodbye}`,
  askDate: () => "ماكاش مشكل. وقتاش تحب توصلك الكوموند؟ واش من نهار يصلحلك؟",
  rescheduled: (date) =>
    date
      ? `مليح، راح نوصلولك الكوموند نهار ${dayMonth(date)}. يعطيك الصحة، ${goodbye}`
      : `مليح، راح نأجلو التوصيل ونعاودو نتصلو بيك. ${goodbye}`,
  askCallbackTime: () => "ماكاش مشكل، وقتاش نعاودو نعيطولك؟",
  callbackSet: (known) =>
    known ? `مليح، راح نعاودو نعيطولك في هذاك الوقت. ${goodbye}` : `مليح، راح نعاودو نعيطولك من بعد. ${goodbye}`,
  askChange: () => "واخا، واش حاب تبدل في الكوموند؟",
  changeNoted: () => `فهمتك، سجلنا التبديل والحانوت يعاود يتصل بيك باش يأكد. يعطيك الصحة، ${goodbye}`,
  wrongNumber: () => `سمحلي بزاف على الإزعاج، غلطنا في النيمرو. ${goodbye}`,
  giveUp: () => "سمحلي، ما رانيش نسمع فيك مليح. نعاودو نعيطولك من بعد. بسلامة.",
  checkConfirm: () => "غير باش نتأكد: نأكدولك الكوموند، ايه ولا لا؟",
  checkIdentity: (o) => `سمحلي، غير باش نتأكد: راني نهدر مع ${o.customerName}، ايه ولا لا؟`,
  offerKeypad: () => "إذا حبيت، اضغط على واحد باش تأكد الكوموند، ولا على اثنين باش تلغيها.",
  recordingStopped: () => "واخا، حبسنا التسجيل وما نخليو والو.",
};

/** French as Algerian call centres speak it: "4 500 dinars". */
export const dzFrench = createFrenchProfile({
  hellos: ["Salam, bonjour", "Bonjour"],
  spokenAmount: (amount) => {
    const { whole, fraction } = splitAmount(amount);
    const cents = minorUnits(fraction, 2);
    const main = `${groupThousands(whole)} dinar${whole >= 2 ? "s" : ""}`;
    return cents === 0 ? main : `${main} et ${cents} centimes`;
  },
  delivery: "Le livreur vous appellera avant de passer, la livraison prend un à trois jours.",
  goodbye: "Merci, bonne journée, besslama.",
});
