// Tunisian customers: Tounsi in Arabic script and in Latin letters with digits (5 is kha), and French.
// "jem3a" is a week in Tunisia, not a Friday.
import type { PhraseBank } from "./bank.ts";

export const tnPhrases: PhraseBank = {
  identityYes: ["ey ena", "ayy, ena bidi", "oui c'est moi", "إيه، أنا", "ey, ena, tfadhel", "na3am ena"],
  whoIsCalling: ["chkoun m3aya?", "ey, chkoun ya5i?", "شكون معايا؟", "allo, chkoun?"],
  wrongPerson: [
    "le, ghalet fel numero", "mouch ena, ma na3rafch el esm hedha", "موش أنا، غالط في النومرو", "non, faux numéro",
    "le, hedha mouch numerou mte3ou",
  ],
  confirm: [
    "ey behi, ab3athha", "mrigel, confirmi", "le le ma famma hatta mochkla, ab3ath", "ما فما حتى مشكلة، ابعثوها",
    "oui c'est bon, envoyez", "ey 3aychek, n7ebha", "behi, ama kalamni 9bal ma tji", "d'accord, yezzi, confirmi",
    "ey mrigel barcha, ab3athha",
    "ey inchallah, ab3athha", "le le, mouch bech nannuli, ab3ath",
  ],
  hedge: ["inchallah", "ان شاء الله", "nchoufou inchallah", "hmm... inchallah"],
  decline: [
    "le, ma n7ebhech", "le, annuli el commande", "لا، ما عادش نحبها", "non merci, j'en veux plus", "annuliha, ma n7ebhech",
    "le 3aychek, ma 3adech n7eb",
    "behi... ama le, ma n7ebhech", "لا يعيشك، ما نحبهاش",
  ],
  declineReason: [
    "ghalia barcha", "ma 3andich flous taw", "chrit wa7da okhra", "غالية برشا", "bdalt ra2yi", "c'est trop cher",
    "5ater ta3tlet barcha",
  ],
  reschedule: [
    "ey ama mouch el jem3a hedhi, ena msafer", "ena mouch fel dar taw, jibouha ba3d", "نحبها أما موش توا، أخروها",
    "oui mais pas cette semaine", "tnajem tjibha nhar ekher?",
    "ey mrigel, ama mouch taw, jibouha nhar ekher",
  ],
  rescheduleDay: ["nhar essebt ejjay", "ghodwa", "ba3d ghodwa", "نهار الاثنين", "samedi prochain", "ba3d el 3id", "nhar el 5mis"],
  question: ["9adech el kol?", "bech9adech?", "el livraison b9adech?", "قداش السوم؟", "c'est combien au total?", "chnowa commandit ena?"],
  change: [
    "ey ama n7eb nbadel el couleur", "behi ama badelli el taille", "نحب نبدل العنوان", "oui mais je veux changer la taille",
    "n7eb nbadel 7aja fel commande",
  ],
  changeDetails: [
    "n7ebha ka7la mouch 7amra", "taille M mouch S", "l'adresse jdida: cité Ennasr, Ariana", "اللون الأبيض", "pointure 40 svp",
  ],
  callback: [
    "ena fel 5edma taw, 3awed kalemni ba3d", "ma najjamch nahki taw, kalemni ba3d", "مشغول توا، عاود كلمني من بعد",
    "rappelez-moi plus tard svp", "ena nsou9, kalemni men ba3d",
  ],
  callbackTime: ["kalemni ghodwa fel sbe7", "ba3d el 3asr", "m3a setta mta3 el 3chiya", "après 17h", "demain à 10h", "غدوة الصباح", "بعد ساعة"],
  mumble: ["euh...", "hmm", "allo?", "chnowa?", "a?", "سامحني؟", "آلو؟", "pardon?", "euh... hein?"],
  shortYes: ["ey", "ey behi", "eyh", "إيه", "إيه، باهي", "oui", "ey akid"],
  shortNo: ["le", "lé", "لا", "non", "le, ma n7ebch"],
};
