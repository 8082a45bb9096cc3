// Moroccan customers: Darija in Arabic script and in Latin letters with digits, and French.
import type { PhraseBank } from "./bank.ts";

export const maPhrases: PhraseBank = {
  identityYes: [
    "iyeh ana", "ah ana hiya", "نعم أنا", "اه انا", "oui c'est moi", "wah ana m3ak", "ايه، انا هو", "oui oui, ana", "ah, ana, tfadal",
  ],
  whoIsCalling: ["chkoun m3aya?", "شكون معايا؟", "ana, chkoun m3aya?", "ah, mnin kat3ayet?", "allo, chkoun?"],
  wrongPerson: [
    "la, ghalat f numero", "machi ana, ma kaynch chi wahed b had smiya hna", "لا، غالط فالنمرة", "هادي ماشي النمرة ديالو",
    "Non, vous vous êtes trompé de numéro", "la a sidi, hna ma kayn hta chi wahed b had smiya", "nmra ghalta khouya, machi ana",
  ],
  confirm: [
    "iyeh, wakha, sifto", "wakha, ana m3akom", "ah safi, jibouha", "la la ma kayn mouchkil, sifto liya", "ماكاين مشكل، صيفطوها",
    "واخا، أكد ليا", "oui oui, c'est bon, confirmé", "iyeh, ghir 3ayto liya 9bel ma yji livreur", "wakha, confirmi liya la commande",
    "اه، مزيان، نتسناها", "ma fiha hta mouchkil, jibha", "d'accord, safi wakha", "iyeh khassni, sifto 3afak",
    "iyeh inchallah, jibouha", "la la, ma bghitch nlghiha, sifto", "نعم أختي، أكدها", "ماشي مشكل، غير عيط ليا قبل ما تجي", "safi, ma kayn mouchkil, ana f dar",
  ],
  hedge: ["inchallah", "إن شاء الله", "inchallah, nchoufou", "hmm... inchallah"],
  decline: [
    "la, ma bghitch", "la, annuli la commande", "لا، ما بقيتش باغيها", "non, j'en veux plus", "صافي، لغيو الكوموند",
    "la la, ma bghitch, merci", "la khouya, lghiha 3afak", "ana ma bqitch baghiha, annuli",
    "wakha... walakin la, ma bghitch",
  ],
  declineReason: [
    "ghalia bzaf", "l9itha rkhisa f blasa khra", "ma 3ndich lflous had chhar", "غالية بزاف عليا", "شريتها من عند واحد آخر",
    "c'est trop cher pour moi", "tbeddel liya lbal, ma bqitch mhtaj liha", "t3ttlto bzaf, chrit men blasa khra",
  ],
  reschedule: [
    "wakha, walakin machi had simana, ana msafer", "ana machi f dar daba, jibouha men b3d", "momkin tjibouha f nhar akhor?",
    "كنبغيها ولكن ماشي دابا، أخر التوصيل", "oui mais pas cette semaine, je suis en déplacement",
    "ana khdam tout la semaine, n9der nakhedha nhar akhor?",
  ],
  rescheduleDay: [
    "nhar sebt jay", "ghedda f sbah", "ba3d ghedda", "نهار الاثنين الجاي", "نهار السبت", "ba3d l3id", "samedi prochain", "nhar jem3a",
  ],
  question: [
    "bch7al kolchi?", "chhal khassni nkhelless?", "chno hiya lcommande dyali?", "شحال الثمن ديالها؟", "c'est combien au total?",
    "wach livraison fabor?", "chhal taman dyal livraison?", "شنو هوما الحوايج اللي طلبت؟",
  ],
  change: [
    "iyeh, walakin bghit nbeddel lcouleur", "wakha, walakin bghit taille okhra", "ah, walakin bdlo liya l'adresse",
    "ايه، ولكن بغيت نبدل اللون", "oui, mais je voudrais changer la taille", "bghit nbeddel chi haja f la commande",
  ],
  changeDetails: [
    "bghitha b lk7el machi b l7mer", "taille L 3afak, machi M", "l'adresse tbdlat, daba ana f hay riad, rabat",
    "اللون الزرق عافاك", "je veux la pointure 42 au lieu de 41", "zidou liya wahed akhor",
  ],
  callback: [
    "ana f lkhedma daba, 3awed 3ayet liya men b3d", "ma n9derch nhder daba, 3ayet liya men ba3d", "مشغول دابا، عاود عيط ليا من بعد",
    "je ne peux pas parler là, rappelez-moi plus tard", "ana sayeq, 3ayet liya men b3d 3afak",
    "3ayet liya mn b3d, daba ma n9derch",
  ],
  callbackTime: [
    "m3a 6 dyal l3chiya", "ghedda f sbah", "men b3d l3asr", "الليلة مع التمنية", "après 18h", "rappelez-moi demain à 10h",
    "ba3d sa3tayn",
  ],
  mumble: ["euh...", "hmm", "allo?", "chnou?", "smeh liya?", "ah?", "آلو؟ آلو؟", "pardon?", "euh, wach... hmm"],
  shortYes: ["iyeh", "ah, iyeh", "wakha, iyeh", "نعم", "ايه، أكدها", "oui", "iyeh akid"],
  shortNo: ["la", "la, ma bghitch", "لا", "non", "la la"],
};
