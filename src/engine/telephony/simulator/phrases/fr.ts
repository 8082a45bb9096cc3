// French customers in France: plain, familiar, with the hedges and double negatives of the phone.
import type { PhraseBank } from "./bank.ts";

export const frPhrases: PhraseBank = {
  identityYes: ["oui c'est moi", "oui, c'est bien moi", "lui-même", "elle-même", "ouais c'est moi", "oui oui, je vous écoute"],
  whoIsCalling: ["c'est qui ?", "qui est à l'appareil ?", "oui, c'est de la part de qui ?"],
  wrongPerson: [
    "non, vous faites erreur", "ce n'est pas moi, vous vous êtes trompé de numéro", "non, il n'y a personne de ce nom ici",
    "mauvais numéro", "non non, c'est pas mon nom",
  ],
  confirm: [
    "oui, c'est bon, vous pouvez envoyer", "oui je confirme", "ouais ouais, envoyez", "non non, pas de souci, je confirme",
    "d'accord, parfait", "oui, mais appelez-moi avant de passer", "c'est parfait, merci", "aucun problème, je confirme",
    "oui inchallah, envoyez", "non non, je n'annule pas, envoyez",
  ],
  hedge: ["euh, on verra", "peut-être...", "je sais pas trop", "inchallah"],
  decline: [
    "non, je ne veux plus la commande", "non merci, annulez", "je préfère annuler", "non, annulez s'il vous plaît",
    "j'en veux plus, merci",
    "oui... enfin non, je n'en veux plus", "laissez tomber, j'en veux plus",
  ],
  declineReason: ["c'est trop cher", "je l'ai trouvé moins cher ailleurs", "j'ai changé d'avis", "je n'en ai plus besoin", "le délai est trop long"],
  reschedule: [
    "oui mais pas cette semaine, je suis en déplacement", "je ne suis pas là en ce moment, vous pouvez livrer plus tard ?",
    "oui, mais livrez-moi un autre jour", "je serai absent, il faudrait décaler la livraison",
  ],
  rescheduleDay: ["samedi prochain", "demain", "après-demain", "lundi", "mardi prochain", "jeudi après-midi"],
  question: ["c'est combien au total ?", "combien coûte la livraison ?", "combien je dois payer ?", "c'est quoi déjà ma commande ?", "la livraison est gratuite ?"],
  change: [
    "oui, mais je voudrais changer la couleur", "oui mais en taille L plutôt", "il faudrait changer l'adresse de livraison",
    "je voudrais modifier quelque chose dans la commande",
  ],
  changeDetails: [
    "en bleu plutôt qu'en noir", "taille L au lieu de M", "la nouvelle adresse c'est 12 rue des Lilas à Lyon", "je voudrais en prendre deux",
  ],
  callback: [
    "je ne peux pas parler maintenant, rappelez-moi plus tard", "je suis au travail, vous pouvez me rappeler ?",
    "je suis en voiture, rappelez-moi", "là c'est pas le moment, rappelez plus tard",
  ],
  callbackTime: ["après 18h", "demain matin", "demain vers 10h", "ce soir vers 20h", "dans une heure"],
  mumble: ["euh...", "hein ?", "allô ?", "pardon ?", "hmm", "quoi ?"],
  shortYes: ["oui", "oui oui", "oui, c'est ça", "exactement, oui", "oui, je confirme"],
  shortNo: ["non", "non merci", "non, non", "non, laissez tomber"],
};
