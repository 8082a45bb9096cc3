import { cue, type LexiconEntry } from "./types.ts";

/** French, as spoken in France and mixed into the Maghrebi dialects. */
export const FRENCH: LexiconEntry[] = [
  cue("yes", 0.8, [
    "oui|ouais|ouai|wi|yes|yep|yeah|ok|okay|oke|okey|dac|dacc|dak|dakor|dacor|daccord, d accord",
    "parfait|impeccable|nickel|super|genial|top|carrement|evidemment|volontiers|exactement|exact|absolument|certainement|entendu",
    "bien sur|entendu, biensur, tout a fait, c est bon|parfait|ca|ça|juste|nickel|impeccable, c bon, cest bon",
    "tres bien, allez y, vas y, allez|vas|allons, ca|ça marche|roule|va, sa marche, ca|ça me va, oui oui",
  ]),
  // "pourquoi pas" (why not): an assent, no question (round 21).
  cue("accept", 0.7, ["pourquoi|pur9uoi pas"]),
  // "je ne vais pas dire non à nonante-neuf euros", "j'vais pas dire non": a "no" denied is an assent (round 26).
  cue("accept", 0.8, ["vais|va|vas|peux|peut|pouvais|pourrais pas|jamais dire non"]),
  // "vous pouvez valider", "tu peux la valider" (you can validate it: round 45).
  cue("accept", 0.9, ["pouvez|peux valider, pouvez|peux le|la|les valider"]),
  // "je ne dis pas non, je dis oui" (round 27).
  cue("accept", 0.8, ["ne dis|dit pas non"]),
  // "ça me dérange pas", "ça me gêne pas" (I don't mind; round 39).
  cue("accept", 0.8, ["ca|sa me derange|gene pas, ca|sa ne me derange|gene pas"]),
  cue("accept", 0.9, [
    "pas de probleme*|souci*|prob, aucun probleme*|souci*, sans probleme*|souci*, no problem, y a pas de probleme*|souci*",
    "il n y a pas de probleme*|souci*, tout est bon|correct|ok|parfait|juste, c est correct, c est tout bon",
    // "c'est pas annulé, non non, c'est toujours bon" (still good: round 26).
    "c est toujours bon|ok|valable, ca|ça tient toujours, c est toujours d accord",
    // "toujours partant pour la cocotte", "je suis partante" (game for it; round 26).
    "suis|toujours partant|partante",
    "c est bon pour moi, ca|ça me convient, je confirme, je valide, confirme*, valide|validez, je maintiens, je garde la commande, gardez|maintenez la|ma komande, gardez|maintenez la|ma livraison",
    // "gardez la même date", "gardez tout comme vous l'avez lu": keep it as it is, no "keep it yourselves" (round 24).
    "gardez|garde|gardons|maintenez la|le|les meme|memes *, gardez|garde|gardons tout comme|pareil|tel|tels|ainsi",
  ]),
  cue("send", 0.85, ["envoyez*|envoie*|envoyer|envoi|expediez|expedier|livrez*|apportez*|ramene*|amene*"]),
  // "vous me le déposez à la ferme" (drop it off: round 25).
  cue("send", 0.8, ["deposez*|deposer"]),
  // "Vous pouvez livrer", "vous pouvez l'envoyer": "you may send it" (round 18).
  cue("send", 0.85, ["vous pouvez|pouvez la|le|l? livrer|envoyer|expedier"]),
  // "Let it come" ("laissez-la venir": the pronoun is dropped by normalisation).
  cue("send", 0.8, ["laissez|laisse|laissez la|le|laisse la|le venir|arriver|partir"]),
  // "faites-le partir" (send it off; round 22), "faites le partir" (round 47).
  cue("send", 0.8, ["faites|faire|fais la|le|les? partir"]),
  // "faites-le venir" (have it come; round 24); "faites la venir", as a recogniser writes it with no hyphen (round 47).
  cue("send", 0.8, ["faites|faire|fais la|le|les? venir"]),
  // "mets-le en route" (set it on its way; the pronoun after the hyphen is dropped by normalisation; round 27).
  cue("send", 0.8, ["mets|mettez|mettre en route"]),
  cue("take", 0.7, [
    "je prends, je la|le prends, je la|le|les garde, j attends*|attend*, je serai la|present*, je vais payer, je paierai",
    // "je l'attends" (I'm waiting for it; round 22).
    "je l|la|le atend*|attend*",
    // "mais oui, on le prend" (we take it; round 27).
    "on le|la|les prend, on prend",
    // "j'la prends" (round 28).
    "j la|le|les prends",
  ]),
  cue("identity", 0.7, ["c est moi, c est bien moi, moi meme, elle meme, lui meme"]),
  cue("refuse", 0.85, [
    "veux|veut|voulais|voudrais pas|plus, en veux pas|plus, interesse* pas|plus, pas|plus interesse*",
    "m interesse pas|plus, ne le|la prends pas, je prends pas, je|j la|le prends pas|plus, le|la prends pas|plus, pas besoin, plus besoin, j en ai plus|pas besoin",
    "n en ai plus|pas besoin",
  ]),
  // "je refuse", "refusée": a verb, which a negation denies ("je n'ai jamais refusé", "je l'ai pas refusée"; round 11).
  cue("cancelVerb", 0.85, ["refuse*"]),
  cue("refuse", 0.8, [
    "je recommanderai, on recommandera, je repasserai commande, je la|le recommanderai",
    "laissez|laisse tomber, oubliez|oublie, tant pis, pas la peine, c est pas la peine, non merci",
    // ("je vais laisser tomber", "ça me plaît plus": I'll drop it, it no longer pleases me; round 38.)
    "laisser|laiser|laisserai|laiserai tomber, me plait plus",
    // ("je l'ai déjà reçu", "déjà reçu ailleurs", "reçu de la part de ma cousine, elle me l'a offert": had elsewhere, said
    // by the customer, not "ma voisine a déjà reçu la sienne"; round 45.)
    "ai deja resu*|achete*, deja resu*|achete* ailleurs|au|sur|de|d|chez, resu* de la part, me l a offert*, me les a offert*, me l a deja offert*",
    // ("sans façon, merci bien": no thank you; round 18.)
    "sans fason|facon",
  ]),
  // Polite refusals: "keep it" (to the shop), "I'll do without".
  // ("gardez-le", "garde-la": normalisation drops the pronoun after the hyphen, so "gardez" stands alone.)
  cue("refuse", 0.8, ["gardez le|la|les, gardez|gardes, pouvez le|la|les garder, m en passer|passe|passerai"]),
  // ("rayez ma commande", "barrez-la": strike it off; round 19.)
  cue("cancelVerb", 0.9, ["annul*|supprim*|cancel*", "rayez|rayer|barrez|barrer ma|la|cette|les commande*"]),
  // ("je regrette pas", "je regrette rien": a regret denied is the change of mind denied; round 37.)
  cue("changedMind", 0.92, ["change* d avis|idee, revenu sur ma decision, regret*"]),
  cue("reason", 0.7, [
    "delai|delais _ long|trop, trop long, trop de retard, en retard, trop cher|chere, cher|chere, moins cher, pas les moyens, pas|plus d argent|sous, trouve* ailleurs, trouve* _ ailleurs|moins",
    "a|pour ce prix|tarif",
    "c est une erreur, par erreur, me suis trompe*, erreur de ma part, peux|peut pas payer, pas de budget",
    // "un problème avec un autre site": another shop, not one more item (round 14).
    "un|une autre site|magasin|boutique|vendeur|vendeuse|page|appli|application",
  ]),
  cue("didntOrder", 0.9, [
    "rien|pas|jamais commande*|demande*, pas passe* _ commande, aucune commande, voulais pas commander, commande* rien",
  ]),
  cue("notMe", 0.95, [
    "mauvais|faux numero*, erreur de numero, trompe* de numero|personne, vous vous trompez, vous vous etes trompe*, vous etes trompe*",
    "vous faites erreur, wrong number, c est pas moi, ce n est pas moi, n est pas moi, c est|n est pas mon nom|numero, pas mon nom|numero",
    "je ne|n suis pas madame|monsieur|mme|mr|mlle|mademoiselle, je suis pas madame|monsieur|mme|mr|mlle|mademoiselle",
    "personne de|a ce nom, connais pas de|d *, connais pas _ personne|nom|dame|monsieur|femme|homme|gens|numero, connais pas ce|cette|cet *",
    "pas la bonne personne, mauvaise personne, il n y a pas de * ici, il y a pas de * ici",
    // "madame Martin a déménagé", "il habite plus ici": the person asked for no longer lives here (round 9).
    "a|ont demenage*, habite|habitent|vit plus ici|la",
    // "c'est son ancien numéro", "ce n'est plus son numéro": the number is no longer theirs (round 11).
    "ancien numero, plus son|mon numero",
  ]),
  cue("changeVerb", 0.85, ["chang*|modif*|remplac*|echang*"]),
  cue("attr", 0.7, [
    "noir*|blanc*|rouge*|bleu*|vert|verte|jaune*|gris|grise|rose|violet*|marron|beige|bordeaux|kaki|orange|dore*|argent*|marine|turquoise",
    "taille|pointure|size #|xs|s|m|l|xl|xxl|xxxl, en xs|s|m|l|xl|xxl, plus grand|grande|petit|petite, taille au dessus|en dessous",
    // A size named by its letters ("mettez-moi la XL", "le XXL"); the one-letter sizes only after "en" or "taille".
    "xs|xl|xxl|xxxl, la|le|du|une|un xs|xl|xxl|xxxl",
    // A child's size in years asked for ("mettez 10 ans", "prenez le 12 ans"; round 14).
    "mettez|mettre|mets|prenez|prends|envoyez|donnez|faites le|la|du|en|moi? # ans",
  ]),
  cue("attrNoun", 0.5, ["couleur*|taille*|pointure*|modele*|model|coloris|version|quantite|format"]),
  // "le grand format", "en petit format" (round 17).
  cue("attr", 0.7, ["grand|petit|grande|petite format|modele|taille"]),
  // Sleeves (round 21).
  cue("attr", 0.7, ["manches|manche longues|longue|courtes|courte, a|en manches|manche longues|longue|courtes|courte"]),
  // "si vous baissez à 40 euros", "baissez un peu le prix": the customer's own price, a change (round 17).
  cue("changeVerb", 0.75, ["baissez|baisser|baissiez|baisse a|un|le, baisse _ prix"]),
  // "réduire la quantité à un seul", "diminuez à un": the infinitive or the imperative, not "réduit" (a promotion's
  // price said back; round 45).
  cue("changeVerb", 0.85, ["=reduire|=reduisez|=reduis|=diminuer|=diminuez|=diminue"]),
  cue("qty", 0.6, ["deux|trois|quatre|cinq"]),
  cue("add", 0.8, [
    // Round 9: two phrases, not one ("mettez deux" never matched: the phrase wanted a fourth word, "autre").
    "mettre|mettez|mets|prendre|prends|faire|faites|commander|envoyer|envoyez en? deux|trois|quatre|cinq",
    "mettre|mettez|mets|prendre|prends|faire|faites|commander|envoyer|envoyez en? un|une autre|deuxieme|second*",
    "en mettre|prendre|faire|commander|envoyer|avoir deux|trois|quatre|cinq",
    "ajout*|rajout*|enlev*|retir*, en plus, un|une autre, un|une de plus, un|une deuxieme|second*, en prendre deux|trois, encore un|une",
  ]),
  cue("instead", 0.8, ["au lieu d*, a la place d*, plutot que"]),
  // "mettez-moi un M plutôt": an item wished for rather than the one ordered (round 11).
  cue("instead", 0.7, ["moi|nous un|une|le|la|les|des * plutot"]),
  // "il s'est trompé de pointure", "je me suis trompée de couleur": the wrong item was ordered, another one is wanted.
  cue("instead", 0.75, ["trompe*|goure*|plante* de|d taille|pointure|couleur|modele|coloris|article|produit"]),
  cue("want", 0.45, [
    "je veux|voudrais|prefere*|aimerais|souhaite*, j aimerais|prefere*, plutot, je la|le veux|voudrais|prefere*",
    // "j'la veux" (round 28).
    "j la|le|les veux",
    // "Put me down for / give me" ("mettez-moi la XL", "donnez-moi le noir"): a wish whose object follows.
    "mettez|mets|mettre|donnez|donne|filez|file moi|nous",
  ]),
  cue("address", 0.55, ["adresse*, a mon travail|bureau, au bureau, autre adresse, nouvelle adresse"]),
  // "au point relais du Carrefour", "en relais colis" (a pick-up point; round 26).
  cue("address", 0.55, ["point|points relais, relais colis|pickup, =pick =up, consigne"]),
  cue("day", 0.85, [
    "demain, apres demain, lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche, semaine*, week end, weekend",
    "mois prochain, fin du|de mois, debut du|de mois, janvier|fevrier|mars|avril|juin|juillet|aout|septembre|octobre|novembre|decembre",
    "le|du|au #, jusqu au #, avant|apres le #, a partir du #, dans # jours|jour|semaine*|mois, d ici # jours|jour|semaine*, dans quinze|huit|dix|une|deux|trois jours|semaine*",
    "l aid|eid, aid|eid|ramadan, apres l aid|eid, apres aid|eid|ramadan, quinze|huit jours",
  ]),
  cue("today", 0.6, ["aujourd hui, aujourdhui, ce jour"]),
  cue("slot", 0.6, [
    "soir|matin|aprem|midi, apres midi, ce|le soir|matin, la nuit, apres|vers|avant|a|entre|des @h|#, @h",
    "apres|vers|avant|a|des six|sept|huit|neuf|dix|cinq|quatre|onze heure*|h",
    "apres|vers|avant|a|des dix sept|huit|neuf heure*|h, apres|vers|avant|a|des douze|treize|quatorze|quinze|seize|vingt heure*|h",
    // Round 8: parts of the day said as nouns ("en soirée", "dans la matinée", "en fin de journée").
    "en|la soiree|matinee, dans la soiree|matinee, fin|debut de soiree|matinee|journee",
  ]),
  cue("absent", 0.8, [
    "pas la, pas chez moi, pas a la maison, absent*, en vacance*|voyage|deplacement|conge, a l etranger",
    "serai pas _ la|chez|dispo*|disponible|ici|present*, suis pas la|dispo*|disponible|ici, suis pas chez moi, pas dispo*|disponible",
  ]),
  cue("postpone", 0.85, ["report*|decal*|retard*|repouss*|differ*, un autre jour, une autre date"]),
  cue("delivery", 0.5, ["livr*|colis|facteur|passer|passez|arrive*|venir|viendra"]),
  cue("callVerb", 0.85, [
    "rappel*|recontact*|rapel*, appelez*|appelle*|appeler|telephonez|telephoner moi|me|nous|plus|demain|ce|dans|apres|vers, m|me|nous appeler|appelez|appelle|telephoner|joindre",
  ]),
  cue("busy", 0.8, [
    "occupe*, au travail|boulot|bureau, je travaille|bosse, en reunion|cours|consultation|route|voiture, reunion",
    "je conduis, au volant, peux|peut pas _ parler|repondre|discuter, ne peux pas parler|repondre, pas le temps",
    "a la caisse, dans le metro|bus|train, pas moyen de parler",
  ]),
  cue("later", 0.55, [
    "plus tard, tout a l heure, dans une|un heure|demi|moment|instant|peu, dans # min*|minutes|heure*|h, d ici une heure",
  ]),
  cue("notNow", 0.7, [
    "pas maintenant, pas tout de suite, pas le moment, mauvais moment, un autre moment, une autre fois, a un autre moment",
  ]),
  cue("beforeArrival", 0.75, [
    "avant de passer|venir|livrer|arriver, avant que|qu _ passe|arrive|vienne|livre, quand|lorsque il|le|vous|livreur arrive*|passe*|sera|est",
    "quand le livreur, en arrivant",
  ]),
  cue("instruction", 0.6, [
    "sonnez|sonner|frappez|frapper|toquez, laissez* _ chez|devant|dans|au, laissez le colis, chez le|la voisin*, gardien*|concierge|interphone|digicode",
    "si je suis pas la, si je ne suis pas la, si personne, si absent",
    // "dites au livreur de pas klaxonner", "le livreur doit monter, c'est au 5e sans ascenseur" (round 17).
    "doit|devra monter, monter|montez|montera au|jusqu, etage|ascenseur, klaxon*",
    // "le livreur il sonne fort", "qu'il frappe fort" (round 28).
    "sone|sonne|frape|frappe|tape fort",
    // "emballez-le bien", "bien emballé" (round 38).
    "emballez|emballer|emballe* bien, bien emballe*",
  ]),
  cue("qword", 0.75, [
    // ("quel", "quelle", not "quelqu'un", "quelque chose": someone, something; round 38.)
    // ("le point relais il est où", "c'est où": "where" after its verb, as spoken; round 46.)
    "combien|quand|comment|pourquoi|quel|quels|quelle|quelles|quoi|qui|frais|prix|tarif, ou est, est ou, est ce que, ca|ça coute, coute*",
    // "c'est lequel" (which one is it; round 25).
    "lequel|laquelle|lesquels|lesquelles",
  ]),
  cue("what", 0.7, ["quoi|hein|pardon|comment|allo"]),
  cue("repeat", 0.8, [
    "repet*|redi*, entends|entend pas|mal|rien, n entends|entend, comprends|comprend pas|rien, pas compris|entendu",
    "ca|ça coupe|capte, capte mal, reseau, vous m entendez, parlez plus fort",
  ]),
  cue("hedge", 0.55, ["si dieu le veut"]),
  cue("doubt", 0.65, [
    "on verra, je verrai, je vais voir, sais|sait pas|plus, peut etre, ptet|ptetre, reflechir|reflechi*, pas sur|sure",
    "hesite*, faut que je voie|vois, je dois voir|demander",
  ]),
  cue("filler", 0.5, ["euh|heu|hum|bah|ben|bon|alors|voila|bref"]),
];
