// Algerian customers: Derja in Arabic script and in Latin letters with digits, and French.
import type { PhraseBank } from "./bank.ts";

export const dzPhrases: PhraseBank = {
  identityYes: ["wah, ana", "ih, ana hwa", "oui c'est moi", "ايه، أنا", "wah rani m3ak", "ih ana, tfadal", "واه أنا"],
  whoIsCalling: ["chkoun m3aya?", "wah, chkoun nta?", "شكون معايا؟", "allo, chkoun?"],
  wrongPerson: [
    "la, ghalat f numero", "machi ana, makach had l'esm hna", "ماشي أنا، غلطت في النيمرو", "non, c'est pas moi, faux numéro",
    "ma na3rafch had l'bnadem, numero ghalat", "la khouya, machi hada numero ta3o",
  ],
  confirm: [
    "wah, saha, b3atha", "ih, mlih, ana nestanna", "la la, makach mochkil, b3athouli", "ماكاش مشكل، بعثوها", "oui, c'est bon, envoyez",
    "wah confirmi, ya3tik saha", "d'accord, jibouha", "ايه، أكدها", "ih, bessah 3ayetli 9bel ma yji livreur", "wah nhabha, b3atha",
    "c'est bon, ma kayen hta mochkil",
    "ih inchallah, b3athouha", "la la, ma nhabch nannuli, b3athha",
  ],
  hedge: ["inchallah", "ان شاء الله", "inchallah, nchoufou", "hmm... inchallah"],
  decline: [
    "la, ma nhebch", "la, annuli la commande", "لا، ما نحبهاش", "non merci, j'en veux plus", "ma nhebhach, sameh",
    "la khouya, ma b9itch hab", "annuliha svp, ma nhebhach",
    "wah... bessah la, ma nhabhach", "سمحلي، ما نحبهاش",
  ],
  declineReason: [
    "ghalia bezzaf", "ma 3andich drahem dork", "chritha men 3and wahed akhor", "غالية بزاف", "c'est trop cher", "bedelt ra'yi",
    "ta3tal bezzaf, ma b9itch hajti biha",
  ],
  reschedule: [
    "wah bessah machi had simana, rani msafer", "rani mechghoul had l'semana, jibouha men ba3d", "نحبها بصح ماشي دروك، أخروها شوية",
    "oui mais pas maintenant, je suis pas à la maison", "tnajmou tjibouha nhar akhor?",
  ],
  rescheduleDay: ["nhar sebt jay", "ghodwa", "ba3d ghodwa", "نهار الخميس", "samedi prochain", "ba3d l3id", "nhar letnin"],
  question: [
    "9adach lkoll?", "chhal lazem nkhalles?", "wach hiya la commande ta3i?", "قداش الثمن؟", "c'est combien en tout?", "livraison b chhal?",
    "wach talabt ana?",
  ],
  change: [
    "wah bessah nhab nbeddel l'couleur", "ih, bessah badlouli la taille", "نحب نبدل العنوان", "oui mais je veux changer l'adresse",
    "nhab nbeddel hadja f la commande",
  ],
  changeDetails: [
    "nhabha b lk7al machi l7mar", "taille XL, machi L", "l'adresse jdida: cité 500 logements, Bab Ezzouar", "اللون الأبيض",
    "pointure 43 svp",
  ],
  callback: [
    "rani f lkhedma, 3awed 3ayetli men ba3d", "ma n9derch nahder dork, 3ayetli ba3d", "مشغول دروك، عاود عيطلي من بعد",
    "rappelez-moi plus tard svp", "rani nsoug, 3ayetli men ba3d",
  ],
  callbackTime: ["3ayetli ghodwa f sbah", "men ba3d l3asr", "m3a setta ta3 l3chiya", "après 17h", "demain à 10h", "غدوة الصباح", "3ayetli ba3d sa3a"],
  mumble: ["euh...", "hmm", "allo?", "wach?", "ah?", "سمحلي؟", "آلو؟", "pardon?", "euh... hein?"],
  shortYes: ["ih", "wah", "ih, akid", "ايه", "واه", "oui", "wah khouya"],
  shortNo: ["la", "lala", "لا", "non", "la, ma nhabch"],
};
