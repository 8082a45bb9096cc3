// What the agent says outside the dialogue: the polite close when a call must stop early (a cancel, a spent
// balance) and the message left on a voicemail box. Arabic lines are in Arabic script so the voices read them.
import type { Language } from "../domain/locale.ts";
import type { Dialect } from "./dialogue/types.ts";

const CLOSING: Record<Dialect, string> = {
  ma: "سمح ليا، خاصني نسالي المكالمة دابا. غادي نعاودو نتاصلو بيك. بسلامة.",
  dz: "سمحلي، لازم نحبس المكالمة ضرك. نعاودو نعيطولك. بالسلامة.",
  tn: "سامحني، لازم نوفى المكالمة توا. نعاودو نكلموك. بالسلامة.",
  fr: "Excusez-moi, je dois mettre fin à notre appel. Nous vous rappellerons. Au revoir.",
};

const VOICEMAIL: Record<Dialect, (shop: string) => string> = {
  ma: (shop) =>
    `السلام عليكم، مساعدة آلية من ${shop}، كنتاصلو بيك على قبل الطلبية ديالك. غادي نعاودو نتاصلو بيك. شكرا.`,
  dz: (shop) => `السلام عليكم، مساعدة آلية من ${shop}، نعيطلك على جال الكوموند تاعك. نعاودو نعيطولك. يعطيك الصحة.`,
  tn: (shop) => `السلام عليكم، مساعدة آلية من ${shop}، نكلمك على خاطر الكوموند متاعك. نعاودو نكلموك. يعيشك.`,
  fr: (shop) =>
    `Bonjour, ici l'assistante automatique de ${shop}, nous vous appelons au sujet de votre commande. Nous vous rappellerons. Merci et bonne journée.`,
};

/** Said before hanging up on a call cut short by a cancel or a spent balance. */
export function closingLine(language: Language, dialect: Dialect): string {
  return CLOSING[language === "fr" ? "fr" : dialect];
}

/** Left after the beep when a machine answers; it says it is automated, like the opening (issue 36). */
export function voicemailMessage(language: Language, dialect: Dialect, shopName: string): string {
  return VOICEMAIL[language === "fr" ? "fr" : dialect](shopName);
}
