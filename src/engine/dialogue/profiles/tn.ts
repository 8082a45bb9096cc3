// Tunisia: Tounsi in Arabic script (for an ar-TN voice), and the French of Tunisian call centres.
// The dinar has 1000 millimes and Tunisians say both: "خمسة و أربعين دينار و خمسمية مليم".
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

export const tnNumbers: NumberWords = {
  units: [
    "صفر",
    "واحد",
    "زوز",
    "ثلاثة",
    "أربعة",
    "خمسة",
    "ستة",
    "سبعة",
    "ثمنية",
    "تسعة",
    "عشرة",
    "احداش",
    "اثناش",
    "ثلطاش",
    "أربعطاش",
    "خمسطاش",
    "سطاش",
    "سبعطاش",
    "ثمنطاش",
    "تسعطاش",
  ],
  tens: ["", "", "عشرين", "ثلاثين", "أربعين", "خمسين", "ستين", "سبعين", "ثمانين", "تسعين"],
  hundreds: ["", "مية", "ميتين", "ثلاثمية", "ربعمية", "خمسمية", "ستمية", "سبعمية", "ثمنمية", "تسعمية"],
  thousand: "ألف",
  twoThousand: "ألفين",
  thousandsPrefix: ["", "", "", "ثلاثة", "أربعة", "خمسة", "ستة", "سبعة", "ثمنية", "تسعة", "عشرة"],
  thousands: "آلاف",
  million: "مليون",
  and: " و ",
};

/** "45.500" -> "خمسة و أربعين دينار و خمسمية مليم". */
export function dinarsTn(amount: string): string {
  const { whole, fraction } = splitAmount(amount);
  const millimes = minorUnits(fraction, 3);
  const main = whole === 0 ? "" : `${spellNumber(whole, tnNumbers)} دينار`;
  if (millimes === 0) return main || "صفر دينار";
  return main ? `${main} و ${spellNumber(millimes, tnNumbers)} مليم` : `${spellNumber(millimes, tnNumbers)} مليم`;
}

function quantityLine(item: OrderItem): string {
  const variant = item.variant ? `، ${item.variant}` : "";
  const qty = item.quantity === 1 ? "واحد" : `${spellNumber(item.quantity, tnNumbers)} متاع`;
  return `${qty} ${item.name}${variant}`;
}

const items = (o: DialogueOrder) => itemsText(o, quantityLine, "، ", " و ");
const confirmationQuestion = () => "نأكدولك الكوموند؟";
const delivery = "الليفرور باش يكلمك قبل ما يجي، والتوصيل ياخو من نهار لثلاثة أيام.";
const goodbye = "نهارك زين، بالسلامة.";

/** Tunisian Tounsi. */
export const tn: DialogueProfile = {
  spokenAmount: dinarsTn,
  opening: (o, pick) =>
    `${pick(["عسلامة", "السلام عليكم، عسلامة"])}، مساعدة آلية من ${o.shopName} والمكالمة مسجلة. نحكي مع ${o.customerName}؟`,
  identityAgain: (o) => `سامحني، نحكي مع ${o.customerName}؟`,
  introduceAgain: (o) =>
    `أنا المساعدة الآلية متاع ${o.shopName}، نكلمك على الكوموند اللي عملتها، والمكالمة مسجلة. نحكي مع ${o.customerName}؟`,
  readBack: (o, pick) =>
    `${pick(["مرحبا بيك", "يعيشك", "باهي"])}. الكوموند متاعك فيها ${items(o)}. المجموع ${dinarsTn(o.amount)}، تخلصهم وقت توصلك. ${confirmationQuestion()}`,
  confirmationQuestion,
  confirmationAgain: (attempt) =>
    attempt <= 1
      ? "سامحني ما فهمتكش. نأكدولك الكوموند، إيه ولا لا؟"
      : "سامحني، جاوبني كان بإيه ولا لا: نأكدو الكوموند؟",
  answer: (topic, o) => {
    if (topic === "delivery") return `${delivery} تخلص وقت تستلم.`;
    if (topic === "items") return `الكوموند فيها ${items(o)}، بـ ${dinarsTn(o.amount)}.`;
    const lines = o.items.length > 1 ? pricedLines(o, (i, p) => `${i.name} بـ ${dinarsTn(p)} الوحدة`) : [];
    return `${lines.length > 0 ? `${lines.join("، ")}. ` : ""}المجموع ${dinarsTn(o.amount)}، تخلصهم وقت تستلم.`;
  },
  confirmed: (pick) => `${pick(["يعيشك", "باهي برشا، يعيشك", "مريقل، يعيشك"])}! الكوموند تأكدت. ${delivery} ${goodbye}`,
  askReason: () => "ما فما حتى مشكل. علاش تحب تلغي الكوموند؟",
  declined: () => `فهمتك، باش نلغيو الكوموند. يعيشك على وقتك، ${goodbye}`,
  askDate: () => "ما فما مشكل. وقتاش تحب توصلك الكوموند؟ آما نهار يناسبك؟",
  rescheduled: (date) =>
    date
      ? `باهي، باش نوصلولك الكوموند نهار ${dayMonth(date)}. يعيشك، ${goodbye}`
      : `باهي، باش نأجلو التوصيل ونعاودو نكلموك. ${goodbye}`,
  askCallbackTime: () => "ما فما مشكل، وقتاش نعاودو نكلموك؟",
  callbackSet: (known) =>
    known ? `باهي، باش نعاودو نكلموك في الوقت هذاكا. ${goodbye}` : `باهي، باش نعاودو نكلموك من بعد. ${goodbye}`,
  askChange: () => "باهي، شنوة تحب تبدل في الكوموند؟",
  changeNoted: () => `فهمتك، سجلنا التبديل والحانوت باش يكلمك باش يأكد. يعيشك، ${goodbye}`,
  wrongNumber: () => `سامحني برشا على الإزعاج، غلطنا في النومرو. ${goodbye}`,
  giveUp: () => "سامحني، ما نسمعكش مليح. باش نعاودو نكلموك من بعد. بالسلامة.",
  checkConfirm: () => "باش نتأكد برك: نأكدولك الكوموند، إيه ولا لا؟",
  checkIdentity: (o) => `سامحني، باش نتأكد برك: نحكي مع ${o.customerName}، إيه ولا لا؟`,
  offerKeypad: () => "كان تحب، اضغط على واحد باش تأكد الكوموند، ولا على زوز باش تلغيها.",
  recordingStopped: () => "باهي، وقفنا التسجيل وما باش نخليو شي.",
};

/** French as Tunisian call centres speak it: "45 dinars et 500 millimes". */
export const tnFrench = createFrenchProfile({
  hellos: ["Aslema, bonjour", "Bonjour"],
  spokenAmount: (amount) => {
    const { whole, fraction } = splitAmount(amount);
    const millimes = minorUnits(fraction, 3);
    const main = `${groupThousands(whole)} dinar${whole >= 2 ? "s" : ""}`;
    return millimes === 0 ? main : `${main} et ${millimes} millimes`;
  },
  delivery: "Le livreur vous appellera avant de passer, la livraison prend un à trois jours.",
  goodbye: "Merci, bonne journée, bislema.",
});
