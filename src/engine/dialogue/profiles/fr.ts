// The French script: France itself, and the French spoken by call centres in Morocco, Algeria and Tunisia
// (orders with language "fr" there), which keeps the local greeting, currency and courtesy words.
import type { DialogueOrder } from "../types.ts";
import {
  type DialogueProfile,
  type OrderItem,
  type Choose,
  type QuestionTopic,
  dayMonth,
  groupThousands,
  itemsText,
  minorUnits,
  pricedLines,
  splitAmount,
} from "./profile.ts";

/** What differs between French as spoken in France and in each Maghreb country. */
export interface FrenchStyle {
  hellos: readonly string[];
  /** "249 dirhams", "45 dinars et 500 millimes", "49 euros 90". */
  spokenAmount(amount: string): string;
  delivery: string;
  goodbye: string;
}

/**
 * Who calls, for whom, about what, and that the call is recorded (issue 36: EU AI Act art. 50, GDPR information duty);
 * no setting removes it. Terse on purpose: it costs at most 2 s of speech over the greeting it replaced.
 */
export const disclosure = (shop: string) =>
  `ici l'assistante automatique de ${shop} pour votre commande, appel enregistré`;

// "2 × X" reads badly in speech synthesis ("deux fois"), and French plurals of free-text names cannot be built.
function quantityLine(item: OrderItem): string {
  const variant = item.variant ? ` (${item.variant})` : "";
  return item.quantity === 1 ? `${item.name}${variant}` : `${item.name}${variant}, quantité ${item.quantity}`;
}

/** A French profile in the given local style. */
export function createFrenchProfile(style: FrenchStyle): DialogueProfile {
  const items = (o: DialogueOrder) => itemsText(o, quantityLine, ", ", " et ");
  const confirmationQuestion = () => "Est-ce que je confirme votre commande ?";
  const profile: DialogueProfile = {
    spokenAmount: style.spokenAmount,
    opening: (o: DialogueOrder, pick: Choose) =>
      `${pick(style.hellos)}, ${disclosure(o.shopName)}. Je parle bien avec ${o.customerName} ?`,
    identityAgain: (o) => `Excusez-moi, est-ce que je parle bien avec ${o.customerName} ?`,
    introduceAgain: (o) =>
      `Je suis l'assistante automatique de ${o.shopName}, je vous appelle au sujet de votre commande, et l'appel est enregistré. Est-ce que je parle bien avec ${o.customerName} ?`,
    readBack: (o, pick) =>
      `${pick(["Parfait", "Très bien", "Merci"])}. Vous avez commandé ${items(o)}. Le total est de ${style.spokenAmount(o.amount)}, à payer à la livraison. ${confirmationQuestion()}`,
    confirmationQuestion,
    confirmationAgain: (attempt) =>
      attempt <= 1
        ? "Pardon, je n'ai pas bien compris. Est-ce que je confirme votre commande, oui ou non ?"
        : "Excusez-moi, je vous entends mal. Répondez simplement oui ou non : je confirme la commande ?",
    answer: (topic: QuestionTopic, o) => {
      if (topic === "delivery") return `${style.delivery} Vous payez en espèces à la livraison.`;
      if (topic === "items") return `Votre commande contient ${items(o)}, pour ${style.spokenAmount(o.amount)}.`;
      const lines = o.items.length > 1 ? pricedLines(o, (i, p) => `${i.name} à ${style.spokenAmount(p)} l'unité`) : [];
      const detail = lines.length > 0 ? `${lines.join(", ")}. ` : "";
      return `${detail}Le total est de ${style.spokenAmount(o.amount)}, à payer à la livraison.`;
    },
    confirmed: (pick) =>
      `${pick(["Merci beaucoup", "Parfait, merci", "Très bien, merci"])} ! Votre commande est confirmée. ${style.delivery} ${style.goodbye}`,
    askReason: () => "D'accord, pas de problème. Puis-je vous demander pourquoi vous souhaitez annuler ?",
    declined: () => `C'est noté, la commande est annulée. Merci pour votre temps. ${style.goodbye}`,
    askDate: () => "Pas de souci. Quel jour vous arrangerait pour la livraison ?",
    rescheduled: (date) =>
      date
        ? `C'est noté, nous vous livrerons le ${dayMonth(date)}. Merci. ${style.goodbye}`
        : `C'est noté, nous décalons la livraison et nous reviendrons vers vous. ${style.goodbye}`,
    askCallbackTime: () => "Bien sûr. Quand est-ce que je peux vous rappeler ?",
    callbackSet: (known) =>
      known
        ? `Très bien, nous vous rappellerons à ce moment-là. ${style.goodbye}`
        : `Très bien, nous vous rappellerons plus tard. ${style.goodbye}`,
    askChange: () => "D'accord. Qu'est-ce que vous souhaitez modifier dans la commande ?",
    changeNoted: () =>
      `C'est noté, la boutique vous recontactera pour valider la modification. Merci. ${style.goodbye}`,
    wrongNumber: () => `Oh, excusez-moi pour le dérangement, ce doit être une erreur de numéro. ${style.goodbye}`,
    giveUp: () => `Excusez-moi, je vous entends très mal. Nous vous rappellerons plus tard. ${style.goodbye}`,
    checkConfirm: () => "Juste pour être sûre : je confirme votre commande, oui ou non ?",
    checkIdentity: (o) => `Pardon, juste pour être sûre : je parle bien avec ${o.customerName}, oui ou non ?`,
    offerKeypad: () => "Si vous préférez, appuyez sur 1 pour confirmer la commande, ou sur 2 pour l'annuler.",
    recordingStopped: () => "Bien sûr, l'enregistrement est arrêté et rien ne sera conservé.",
  };
  return profile;
}

function euros(amount: string): string {
  const { whole, fraction } = splitAmount(amount);
  const cents = minorUnits(fraction, 2);
  const unit = whole >= 2 ? "euros" : "euro";
  if (whole === 0) return `${cents} centimes`;
  return cents === 0
    ? `${groupThousands(whole)} ${unit}`
    : `${groupThousands(whole)} ${unit} ${String(cents).padStart(2, "0")}`;
}

/** France: "49 euros 90". */
export const fr = createFrenchProfile({
  hellos: ["Bonjour", "Bonjour à vous"],
  spokenAmount: euros,
  delivery: "Le livreur vous appellera avant de passer, sous deux à quatre jours ouvrés.",
  goodbye: "Bonne journée, au revoir.",
});
