// The address read-back after a confirmation (issue 35): the agent reads the city and the street back in the
// profile's words and asks whether it is right; the reply may correct the city, add a landmark or a time of day.
// Whatever the reply (or none), the order stays confirmed: this only fills `outcome_details.delivery`.
import type { Classification, DialogueOrder } from "./types.ts";
import { isBareYes } from "./cues.ts";

/** `outcome_details.delivery`. */
export interface DeliveryDetails {
  address_confirmed: boolean;
  corrected?: { city?: string };
  landmark?: string;
  preferred_time?: string;
}

/** Lowercase, no accents or tashkeel: how city names are compared. */
function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f\u064B-\u065F\u0670\u0640]/g, "")
    .toLowerCase();
}

/** The main cities of each country with the ways customers say them: the canonical name first. */
const CITIES: Record<DialogueOrder["country"], readonly (readonly string[])[]> = {
  MA: [
    ["Casablanca", "casa", "كازا", "الدار البيضاء", "البيضاء"],
    ["Rabat", "الرباط"],
    ["Marrakech", "marrakesh", "mrakch", "مراكش"],
    ["Fès", "fes", "fas", "فاس"],
    ["Tanger", "tanja", "طنجة"],
    ["Agadir", "أكادير", "اكادير"],
    ["Meknès", "meknes", "مكناس"],
    ["Oujda", "wjda", "وجدة"],
    ["Kénitra", "kenitra", "القنيطرة"],
    ["Tétouan", "tetouan", "تطوان"],
    ["Salé", "sale", "sla", "سلا"],
    ["Mohammedia", "المحمدية"],
    ["El Jadida", "jdida", "الجديدة"],
    ["Safi", "آسفي", "اسفي"],
  ],
  DZ: [
    ["Alger", "dzayer", "الجزائر", "دزاير"],
    ["Oran", "wahran", "وهران"],
    ["Constantine", "qsentina", "قسنطينة"],
    ["Annaba", "عنابة"],
    ["Blida", "البليدة"],
    ["Sétif", "setif", "سطيف"],
    ["Batna", "باتنة"],
    ["Tlemcen", "تلمسان"],
    ["Béjaïa", "bejaia", "بجاية"],
    ["Tizi Ouzou", "تيزي وزو"],
  ],
  TN: [
    ["Tunis", "تونس"],
    ["Sfax", "صفاقس"],
    ["Sousse", "سوسة"],
    ["Kairouan", "القيروان"],
    ["Bizerte", "بنزرت"],
    ["Gabès", "gabes", "قابس"],
    ["Ariana", "أريانة", "اريانة"],
    ["Monastir", "المنستير"],
    ["Nabeul", "نابل"],
  ],
  FR: [
    ["Paris"],
    ["Lyon"],
    ["Marseille"],
    ["Toulouse"],
    ["Nice"],
    ["Nantes"],
    ["Lille"],
    ["Bordeaux"],
    ["Strasbourg"],
    ["Montpellier"],
    ["Rennes"],
  ],
};

/** "near the mosque", "in front of the pharmacy": the cue and what follows it, up to the end of the clause. */
const LANDMARK =
  /(près d[eu']|pres d[eu']|à côté d[eu']|a cote d[eu']|en face d[eu']|derrière|juste après|au coin d[eu']|\b9rib (?:men|l)|\bqrib (?:men|l)|\bjenb\b|\b7da\b|\b9odam\b|\bqodam\b|\b9bala\b|\bgbala\b|قريب من|قريب ل|حدا|جنب|قدام|مقابل|قبالة|بجانب|ورا)\s*[^,.;!?،؛؟]*/iu;
/** "in the evening", "f l3chiya", "الصباح": when the customer would rather be delivered. */
const TIME_OF_DAY =
  /(le matin|l'après-midi|l'apres-midi|le soir|en soirée|après \d{1,2} ?h|avant \d{1,2} ?h|f ?sbah|sba7|l3chiya|3chiya|f ?lil|ba3d (?:l)?dohr|الصباح|فالصباح|العشية|فالعشية|فالليل|بعد الظهر|بعد العصر)/iu;

/** The city the reply names, if it is one of the country's and not the one read back. */
function correctedCity(text: string, order: DialogueOrder): string | undefined {
  const said = fold(text);
  const current = fold(order.address?.city ?? "");
  for (const names of CITIES[order.country]) {
    const hit = names.some((n) => {
      const f = fold(n);
      return /\p{Script=Arabic}/u.test(f)
        ? said.includes(f)
        : new RegExp(`(^|[^\\p{L}])${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^\\p{L}]|$)`, "u").test(said);
    });
    if (hit && !names.some((n) => fold(n) === current)) return names[0];
  }
  return undefined;
}

/** What the reply to the address question says; silence (null) leaves the address unconfirmed. */
export function readAddressReply(text: string | null, c: Classification, order: DialogueOrder): DeliveryDetails {
  if (!text) return { address_confirmed: false };
  const city = correctedCity(text, order);
  const landmark = LANDMARK.exec(text)?.[0]?.trim().slice(0, 200);
  const time = TIME_OF_DAY.exec(text)?.[0]?.trim().slice(0, 100);
  const yes = c.intent === "confirm" || isBareYes(text);
  return {
    address_confirmed: city === undefined && (yes || landmark !== undefined),
    ...(city ? { corrected: { city } } : {}),
    ...(landmark ? { landmark } : {}),
    ...(time ? { preferred_time: time } : {}),
  };
}

/** The address as it is read back: the street (if any) and the city. */
function spoken(order: DialogueOrder): string {
  const a = order.address!;
  return [a.line1, a.city].filter(Boolean).join(", ");
}

/** The question after a confirmation, in the profile's words (the simulator's customers hear "العنوان"/"adresse" in it). */
export function addressQuestion(order: DialogueOrder): string {
  const where = spoken(order);
  if (order.language === "fr") {
    return `Parfait. Nous livrons à ${where} : l'adresse est-elle correcte ? Vous pouvez aussi me donner un repère pour le livreur.`;
  }
  switch (order.dialect) {
    case "ma":
      return `مزيان. غادي نصيفطو ليك ل ${where}. واش العنوان صحيح؟ ولا عطيني شي علامة قريبة باش يلقاك الليفرور.`;
    case "dz":
      return `مليح. راح نبعثوهالك ل ${where}. العنوان صحيح؟ ولا قولي واش كاين قريب باش يلقاك الليفرور.`;
    case "tn":
      return `باهي. باش نبعثوهالك ل ${where}. العنوان صحيح؟ ولا قلي شنوة قريب منك باش يلقاك الليفرور.`;
    default:
      return `Parfait. Nous livrons à ${where} : l'adresse est-elle correcte ? Vous pouvez aussi me donner un repère pour le livreur.`;
  }
}

/** A word of thanks for what the customer said about the address, before the profile's confirmation closing. */
export function addressNoted(order: DialogueOrder, details: DeliveryDetails): string {
  const changed = details.corrected !== undefined || details.landmark !== undefined;
  if (order.language === "fr" || order.dialect === "fr") return changed ? "C'est noté pour le livreur." : "";
  switch (order.dialect) {
    case "ma":
      return changed ? "تسجلات عند الليفرور." : "";
    case "dz":
      return changed ? "راهي مسجلة عند الليفرور." : "";
    case "tn":
      return changed ? "تسجلت عند الليفرور." : "";
  }
}
