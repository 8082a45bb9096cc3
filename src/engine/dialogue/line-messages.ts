// Recorded messages a line can answer with instead of a person, recognised from what is said (issue 14):
// carrier announcements (number not in service, phone off or out of reach, subscriber not available, call
// forwarding) and voicemail greetings, in Arabic (MSA and the dialects, as the recogniser writes them) and in
// French, as Maroc Telecom, inwi, Orange, Djezzy, Mobilis, Ooredoo, Tunisie Telecom and the French operators
// word them. The carrier's answering-machine detection misses many of them; these words do not.

/** `unreachable`: the call never reached the customer (ends `failed`, `number_unreachable`); `voicemail`: a box. */
export type LineMessage = "unreachable" | "voicemail";

export interface LineMessageMatch {
  kind: LineMessage;
  /** The pattern's name, for logs and --explain. */
  cue: string;
}

/** Lowercase, no accents or tashkeel, one spelling of alef, ya, ta marbuta; punctuation as spaces. */
export function simplifyAnnouncement(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f\u064B-\u065F\u0670\u0640]/g, "")
    .toLowerCase()
    .replace(/[أإآٱ]/g, "ا")
    .replace(/ى/g, "ي")
    .replace(/ة/g, "ه")
    .replace(/[’'`]/g, "'")
    .replace(/[.,;:!?؟،؛"«»()…-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

// Voicemail first: "not available, leave a message after the tone" is a box, not an unreachable number.
const VOICEMAIL: [string, RegExp][] = [
  ["fr: messagerie", /\bmessagerie( vocale)?\b|\bboite vocale\b|\brepondeur\b/],
  [
    "fr: leave a message",
    /\blaisse[rz]?(-| )?(moi |nous )?(un |votre )?(petit )?message\b|\bapres le (bip|signal)( sonore)?\b/,
  ],
  ["fr: forwarded", /\b(appel|correspondant) (va etre|est) (transfere|renvoye|redirige)\b/],
  ["ar: voicemail box", /(البريد|العلبه|الصندوق|صندوق|علبه) ?(ال)?(الصوتي|الصوتيه|الرسائل الصوتيه|الرسائل)/],
  ["ar: after the tone", /(بعد|عند) (سماع )?(الاشاره|الصفاره|الصافره|الرنه|النغمه|البيب|الطوط|الصوت)/],
  [
    "ar: leave a message",
    /(اترك|اتركو|اتركوا|ترك|تترك|خلي|خليو|خلّي|خلو|سيب|خليلي) ?(لي |ليا |لينا )?(رسالتك|رسالتكم|رساله|ميساج|مساج|الميساج|ميسّاج|فوكال|رسالة)/,
  ],
  ["ar: call forwarded", /(تحويل|توجيه|تحول) (مكالمتك|المكالمه|مكالمتكم|الاتصال)/],
  [
    "latin: leave a message",
    /\b(khali|khalli|khelli|khaliw|khalliw|khalili|khallili|khallini|sib|7ot|hot)( li| lia| liya| lina)? (message|msg|mesaj|missaj|vocal|vocale)\b/,
  ],
  ["latin: after the bip", /\b(m?ba3d|mn ba3d|men ba3d|b3d) (l|el )?(bip|biip|signal)\b/],
];

const UNREACHABLE: [string, RegExp][] = [
  [
    "fr: number not assigned",
    /\b(numero|n°)\b.{0,60}\b(n'?est (pas|plus) (attribue|en service|valide|accessible|disponible)|n'?existe (pas|plus)|pas attribue|inexistant|non attribue|hors service)\b/,
  ],
  [
    "fr: correspondent unreachable",
    /\b(votre |le )?correspondant\b.{0,60}\b(injoignable|n'?est pas joignable|pas joignable|indisponible|n'?est pas disponible|momentanement|eteint|hors (de portee|zone|reseau|couverture))\b/,
  ],
  [
    "fr: phone off",
    /\b(telephone|portable|mobile|poste)\b.{0,50}\b(eteint|hors (de portee|zone|reseau|couverture)|injoignable|n'?est pas joignable)\b/,
  ],
  ["fr: not reachable", /\b(injoignable|n'?est pas joignable pour le moment|hors zone de couverture|hors de portee)\b/],
  [
    "fr: call again later",
    /\b(veuillez|merci de) (rappeler|renouveler votre appel|reessayer|recomposer)( plus tard| ulterieurement)?\b/,
  ],
  [
    "fr: check the number",
    /\b(verifie[zr]|verifiez) (le|votre) numero\b|\bl'?appel (ne peut|n'?a pas pu) (pas )?aboutir\b|\bpas pu aboutir\b|\bne peut aboutir\b/,
  ],
  ["fr: lines busy", /\btoutes les lignes\b.{0,40}\b(occupees|saturees)\b|\breseau (est )?(sature|encombre)\b/],
  [
    "ar: number not in service",
    /(الرقم|رقم|النمره|النيمرو|النومرو|النمرو)[^.]{0,40}(غير (موجود|مشغل|مستعمل|متاح|مستخدم|شغال|مفعل)|خارج (الخدمه|التغطيه)|ليس (في )?(الخدمه|موجود)|لم يعد|ما (بقا|بقاش|بقى|بقاتش|عادش)|ماشي (خدام|خدامه|موجود)|ما (راهش|هوش|هيش|خدامش)|موش (موجود|خدام|يخدم)|مش (موجود|خدام)|مقطوع|ملغي)/,
  ],
  [
    "ar: subscriber unavailable",
    /(المشترك|المخاطب|المتصل به|مخاطبك|مراسلك|الشخص الذي (تتصل|تحاول|تطلب)[^.]{0,15})[^.]{0,50}(غير (متاح|متوفر|موجود|متوفره|متاحه|ممكن)|لا يمكن|خارج|مغلق|لا يرد|ما يمكنش|ماشي متوفر|موش متوفر|مش متوفر)/,
  ],
  [
    "ar: phone off",
    /(الهاتف|التليفون|التيليفون|التلفون|تليفون|هاتف|الجهاز|البورطابل|البورتابل)[^.]{0,40}(مغلق|مقفل|طافي|مطفي|مطفى|مسكر|مسدود|مغلوق|خارج (نطاق )?(التغطيه|الخدمه)|مشعلش)/,
  ],
  [
    "ar: out of coverage",
    /خارج (نطاق )?(التغطيه|الشبكه|منطقه التغطيه)|ما كاينش (ف|في) ?(التغطيه|الريزو)|ما فيهش الريزو/,
  ],
  [
    "ar: cannot be reached",
    /(لا يمكن|يتعذر|تعذر|ما يمكنش|ما يمكنلكش|ما نجمش|ما تنجمش)[^.]{0,20}(الاتصال|الوصول|الربط|الاتصال به|تتصل|تعيط)/,
  ],
  [
    "ar: call again later",
    /(المرجو|الرجاء|يرجي|يرجى|نرجو|اعاده)[^.]{0,25}(الاتصال|المحاوله|المحاولة|الاتصال لاحقا|حاول)[^.]{0,20}(لاحقا|فيما بعد|من بعد|مره اخري|مره اخرى|مرة اخرى|في وقت لاحق)/,
  ],
  [
    "latin: phone off",
    /\b(tilifun|telephone|portable|numero|nimiro|nemra|nmra|numro)\b.{0,30}\b(tafi|mtafi|msaker|m9fol|ma khdamch|machi khdam)\b/,
  ],
];

/** The recorded message `text` is, or null for anything a person might say. */
export function recogniseLineMessage(text: string): LineMessageMatch | null {
  const s = simplifyAnnouncement(text);
  if (s.length < 8) return null;
  for (const [cue, re] of VOICEMAIL) if (re.test(s)) return { kind: "voicemail", cue };
  for (const [cue, re] of UNREACHABLE) if (re.test(s)) return { kind: "unreachable", cue };
  return null;
}
