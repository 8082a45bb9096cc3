// What a line says when no person answers: carrier announcements and voicemail greetings, per dialect, in
// Arabic and in French as the operators of each country word them (simulator numbers ending 21 to 25).
import type { Dialect } from "../../../dialogue/types.ts";

export interface Announcements {
  /** The number is not assigned or no longer in service. */
  notInService: readonly string[];
  /** The phone is switched off or out of coverage. */
  switchedOff: readonly string[];
  /** The subscriber cannot be reached now: call again later. */
  unavailable: readonly string[];
  /** The call is forwarded to the voicemail box, then its beep. */
  forwarded: readonly string[];
  /** A personal voicemail greeting. */
  greeting: readonly string[];
}

const MAGHREB_FRENCH = {
  notInService: [
    "Le numéro que vous avez demandé n'est pas attribué. Veuillez vérifier le numéro.",
    "Le numéro de votre correspondant n'est plus en service.",
  ],
  switchedOff: [
    "Le téléphone de votre correspondant est éteint ou hors zone de couverture. Veuillez rappeler ultérieurement.",
  ],
  unavailable: ["Votre correspondant n'est pas joignable pour le moment, merci de rappeler plus tard."],
  forwarded: [
    "Votre appel va être transféré sur la messagerie vocale de votre correspondant. Laissez votre message après le bip.",
  ],
};

export const ANNOUNCEMENTS: Record<Dialect, Announcements> = {
  // Maroc Telecom, inwi, Orange Maroc
  ma: {
    notInService: [
      "الرقم الذي طلبتموه غير مستعمل، المرجو التأكد من الرقم.",
      "هاد النمرة ماشي خدامة",
      ...MAGHREB_FRENCH.notInService,
    ],
    switchedOff: [
      "الهاتف المطلوب مغلق أو خارج نطاق التغطية، المرجو إعادة الاتصال لاحقا.",
      "المخاطب لا يمكن الاتصال به حاليا، المرجو إعادة الاتصال لاحقا",
      ...MAGHREB_FRENCH.switchedOff,
    ],
    unavailable: [
      "المشترك الذي تحاول الاتصال به غير متوفر حاليا، المرجو إعادة الاتصال لاحقا.",
      ...MAGHREB_FRENCH.unavailable,
    ],
    forwarded: [
      "سيتم تحويل مكالمتك إلى العلبة الصوتية. المرجو ترك رسالتكم بعد سماع الإشارة.",
      ...MAGHREB_FRENCH.forwarded,
    ],
    greeting: [
      "السلام عليكم، ما كاينش دابا، خلي ميساج من بعد البيب",
      "salam, ana ma kaynch daba, khalli message mn ba3d l bip",
      "Bonjour, je ne suis pas disponible, laissez-moi un message.",
    ],
  },
  // Djezzy, Mobilis, Ooredoo Algérie
  dz: {
    notInService: [
      "الرقم الذي طلبته غير موجود في الخدمة.",
      "النيمرو هذا ما راهش في الخدمة",
      ...MAGHREB_FRENCH.notInService,
    ],
    switchedOff: [
      "هاتف المشترك مغلق أو خارج نطاق التغطية.",
      "التيليفون تاع المشترك مطفي، عاود عيط من بعد",
      ...MAGHREB_FRENCH.switchedOff,
    ],
    unavailable: [
      "المشترك الذي تحاول الاتصال به غير متاح حاليا، يرجى إعادة المحاولة لاحقا.",
      "Votre correspondant est momentanément indisponible.",
    ],
    forwarded: ["سيتم تحويل مكالمتك إلى البريد الصوتي، اترك رسالتك بعد الإشارة الصوتية.", ...MAGHREB_FRENCH.forwarded],
    greeting: [
      "السلام عليكم، راني مانيش هنا، خليلي ميساج بعد البيب",
      "salam, rani mechghoul, khalli message ba3d l bip",
      "Bonjour, laissez votre message après le bip.",
    ],
  },
  // Tunisie Telecom, Ooredoo, Orange Tunisie
  tn: {
    notInService: ["الرقم المطلوب غير مشغل حاليا.", "النومرو هذا موش موجود", ...MAGHREB_FRENCH.notInService],
    switchedOff: [
      "هاتف مخاطبك مغلق أو خارج منطقة التغطية.",
      "التليفون مسكر، عاود اتصل من بعد",
      ...MAGHREB_FRENCH.switchedOff,
    ],
    unavailable: ["لا يمكن الاتصال بمخاطبك حاليا، الرجاء إعادة المحاولة لاحقا.", ...MAGHREB_FRENCH.unavailable],
    forwarded: ["سيتم تحويل مكالمتك إلى العلبة الصوتية، اترك رسالتك بعد سماع الإشارة.", ...MAGHREB_FRENCH.forwarded],
    greeting: [
      "عسلامة، توا موش موجود، خلي ميساج بعد البيب",
      "aslema, taw mouch mawjoud, khalli message ba3d el bip",
      "Bonjour, vous êtes bien sur la messagerie de Sami, laissez un message.",
    ],
  },
  // Orange, SFR, Bouygues Telecom, Free
  fr: {
    notInService: [
      "Le numéro que vous avez composé n'est pas attribué.",
      "Le numéro de votre correspondant n'est plus attribué. Veuillez consulter l'annuaire.",
    ],
    switchedOff: [
      "Le téléphone de votre correspondant est éteint ou hors de portée.",
      "Votre correspondant n'est pas joignable pour le moment, veuillez rappeler ultérieurement.",
    ],
    unavailable: [
      "Le correspondant que vous souhaitez joindre n'est pas disponible pour le moment. Merci de renouveler votre appel.",
      "Votre correspondant est momentanément indisponible.",
    ],
    forwarded: [
      "Votre appel va être transféré vers la messagerie de votre correspondant.",
      "Bonjour, vous êtes bien sur la messagerie vocale du 06 12 34 56 78. Laissez votre message après le bip sonore.",
    ],
    greeting: [
      "Bonjour, vous êtes sur le répondeur de Julie, laissez-moi un message et je vous rappelle.",
      "Salut, c'est Karim, je ne peux pas répondre, laisse un message après le bip.",
    ],
  },
};
