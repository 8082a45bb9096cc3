// The two-step reading of a reply (issue 33.3): first, is there a request (a callback, a change, a date or a
// condition, a refusal, or nothing but attention)? Then, is there a yes to the order? A yes-word only agrees to
// what it is about: "wakha, call me again after dinner" agrees to a callback, "oui oui, allez-y" to go on
// talking, "yes, if it comes before Saturday, otherwise no" to a condition. So a reply whose reading holds a request
// is never a confirmation, whatever yes-word it carries: the model's label is overruled (model/model.ts) and the
// dialogue never acts on a `confirm` with a request in it (flow.ts decision()). The request is found from the
// reply's structure: the lexicon's signals (a call verb, a change verb, a denial), where they stand relative to
// each other, and a few closed classes of function words (conditionals, "otherwise", verbs of hearing and "go on",
// verbs of saying), not from whole phrases of the classifier's training.
import { asksForPerson } from "./handoff.ts";
import type { Country } from "./lexicon/index.ts";
import { canonicalTokens, isMostlyArabicScript } from "./normalize.ts";
import {
  analyse,
  keepAnalyses,
  type Analysis,
  COURIER_NOUN,
  NO_PROBLEM,
  PAST,
  RELATIVE_WHO,
  type SignalHit,
  sentToWork,
} from "./signals.ts";

export type RequestKind = "condition" | "change" | "callback" | "date" | "refusal" | "acknowledgement" | "hesitation";

export interface Reading {
  /** What the reply asks for besides (or instead of) a yes; null when it asks for nothing. */
  request: RequestKind | null;
  /** The cue that showed the request, canonical (for `--explain`). */
  cue: string | null;
  /** A yes-word or an assent to the order (send it, I confirm, no problem) is there. */
  yes: boolean;
  /** The yes is to the order itself: "send it", "I confirm", "no problem", not a bare "ok". */
  yesToOrder: boolean;
  /** A refusal the customer reports or denies having made ("who said I cancel?"), followed by "send it". */
  deniedRefusal: boolean;
  /** The reply holds a question mark. */
  asks: boolean;
  /** A day is named ("tomorrow", "Monday"). */
  dated: boolean;
  /** The customer is busy or it is not the moment ("I'm driving", "not now"). */
  busy: boolean;
  /**
   * The reply opens (after fillers) on a question word ("wach", "est-ce que", "chhal") and wants, takes or sends
   * nothing: "wach kayen b la couleur beige wela ghir noir" asks what there is, it asks for no change yet.
   */
  asksFirst?: boolean;
  /** A yes, then a "but" or a "no, wait", then a question mark, and no yes to the order after the turn (round 26). */
  asksAfterTurn?: boolean;
  /** The reply ends on a question mark (round 26). */
  endsOnQuestion?: boolean;
  /** The reply opens on "is there" and asks ("fama couleur o5ra?", "kayna b lbeige?"; round 26). */
  asksWhatThereIs?: boolean;
  /** The reply opens (after fillers) on a question word, whatever follows ("زعمة الليفريزون بلاش ولا نزيد نخلصها"). */
  opensOnQuestion?: boolean;
  /**
   * The customer answers their own question: "C'est qui ? Ah, le magasin de vélos ! Oui, amenez-le": an "ah" of
   * recognition right after the last question mark, then a yes to the order and nothing denied after it (round 26).
   */
  answersOwnQuestion?: boolean;
  /**
   * A new time is named or the delivery put off: a day, a time of day, "later", "not now", "postpone", "I'm away" (what
   * a new date needs); not a day in a clause that only says where the customer is ("envoyez-le, je suis chez moi
   * demain", "sifto, ana f dar ghedda") nor one already agreed ("jibuha ghodwa kima 9olt", "comme prévu").
   */
  newTime: boolean;
  /**
   * The question word that opens the reply is no "what?" ("chnou?", "quoi?", "hein?"): a word follows it that is no
   * question word, "what" or filler, nothing asks to repeat, and a question mark stands: "kifach nt3ayetlkom?" asks
   * something (round 7).
   */
  asksSomething?: boolean;
  /**
   * The reply opens, or goes on after its last "but", on "can I / can you" ("nejem", "n9der", "je peux") and ends on a
   * question mark: "ok mriguel, ama nejem n7elha 9bal ma nkhalles?" asks (round 12).
   */
  asksCan?: boolean;
  /** After the last "but", an "X or Y?" ("c'est bon, بصح الليفريزون gratuite ولا نخلصها أنا؟", round 12). */
  asksOr?: boolean;
  /**
   * The customer asks which day or time is meant, and asks for none: "السبت هادا ولا السبت الجاي؟", "el khmis 3la ana
   * se3a? es-sba7 wala ba3d edhohr?", "c'est bien le mardi 12 ou le mercredi 12 ?" (round 36).
   */
  asksWhichTime?: boolean;
  /** A day that opens a clause of the customer's whereabouts, left out of `newTime` ("nhar l'arb3a nkoun fi dar"). */
  presentOn?: boolean;
  /** A day that is a celebration's ("l3rs dyal khti nhar sebt"), left out of `newTime` (round 24). */
  celebrationDay?: boolean;
  /**
   * Someone of the household or the building will be there ("ma femme sera à la maison", "مراتي كاينة فالدار", "ma
   * fille elle est là"), every day or time said before it and a "but" between, none after: the customer's own time
   * away is covered (round 23).
   */
  othersThere?: boolean;
  /** The only "if" is the courier's visit, an instruction after it, no time nor change named (round 23). */
  ifInstructs?: boolean;
  /** A value named (a colour, a size, a model) and no other correction, nor a "but" before it (round 28). */
  valueOnly?: boolean;
  /** Which of two values: "250 wla 350", "38 ou 39" (round 28). */
  asksBetweenValues?: boolean;
  /** The parcel sent to a workplace: "livrez plutôt à l'hôpital", "siftoh l lkhdma dyali" (round 28). */
  sendsToWork?: boolean;
  /** If or when the courier comes, he gives or leaves the parcel, or need not worry ("ila ja … y3tiha l mrati"): round 28. */
  visitHandsOver?: boolean;
  /** The reply ends on "say it again" ("… ma fhamtch mlih … 3awedli"): round 13. */
  endsOnRepeat?: boolean;
  /**
   * "Say it again" after every yes-word: "إيه، الله يعطيك الصحة … آش كنتي كتقول؟ عاود ليا من الأول" (yes, bless you …
   * what were you saying? start again): the yes was attention, the order not heard (round 44).
   */
  repeatsAfterYes?: boolean;
  /** The only yes to the order is put off ("avant que je confirme", "9bel ma nakked"): no yes yet (round 13). */
  putsOffYes?: boolean;
  /**
   * The customer puts off the answer itself: "9bel ma n9ulk (n3am)" (before I tell you (yes)), "avant de vous dire oui",
   * or a call asked for, then "I'll tell you" ("عيطلي الخميس نقلك إيه", call me Thursday, I'll tell you yes). Whatever
   * yes-words the reply holds, the answer is still to come (round 21).
   */
  putsOffAnswer?: boolean;
  /**
   * After every live yes-word, the customer's own "I won't take it" ("نورمال، ما كاين حتى مشكل، بصح أنا ما نديهاش"): the
   * yes-words were politeness, the negated take the answer (round 21).
   */
  takesNotAfterYes?: boolean;
  /**
   * Every "don't send it" in the reply is said of the next time ("ghir lmerra jaya ma tsiftouhach m3a dak livreur",
   * "la prochaine fois n'envoyez pas ce livreur"): a remark on later orders, not this one (round 45).
   */
  nextTimeOnly?: boolean;
  /**
   * "نأكد ليك غدا" (I'll confirm to you tomorrow), "je vous confirme demain": the customer's own "I confirm", "to you",
   * then a time: the confirmation comes then, no yes now ("je confirme jeudi" confirms Thursday; round 21).
   */
  confirmsLater?: boolean;
  /** "I confirm that I don't want it" ("nconfirmi elli ma n7ebouch", "je confirme que j'en veux pas"): what is confirmed is a refusal (round 21). */
  confirmsRefusal?: boolean;
  /**
   * The customer will ask someone before deciding, or get back with the answer ("نسقسي بابا ونردلك الخبر", "je demande
   * à mon mari et je vous redis"): the request is a callback (round 42).
   */
  consultsFirst?: boolean;
  /** With `putsOffAnswer`, "I ask you" ("نسقسيك", "je vous demande"): a question comes before the answer (round 21). */
  asksFirstThing?: boolean;
  /**
   * A call asked a while before the courier comes or on its arrival ("kallemni 9bal b rob3 sa3a", "ila wselti 3ayet"):
   * the courier's instruction (round 13).
   */
  callsAhead?: boolean;
  /** A condition read after the customer's own cancel verb: "lghiha, w ila bghit chi nhar n3awd ntlb" (round 12). */
  cancelsFirst?: boolean;
  /** A condition with its "otherwise" ("…, sinon non"). */
  otherwise?: boolean;
  /**
   * The reply is a yes and nothing else: every word is a yes-word ("oui", "wakha", "c'est bon", "safi") or a closed
   * class of fillers, thanks and forms of address ("euh", "merci", "lah ykhalik", "madame"). "Go on" words ("allez-y",
   * "kemmel", "hder") are not yes-words here: after the order is read they may only ask the agent to keep talking.
   */
  plainYes: boolean;
  /** A yes to the order ("send it", "I confirm") not made only of "go on" words ("kemmel" is also "go ahead"). */
  firmYes: boolean;
  /**
   * After its last "but" the reply says "send it" and nothing negative ("I told her I'd think about it, but now we
   * want it, send it"): whatever came before, the answer is the clause after the "but".
   */
  turnsToYes?: boolean;
  /**
   * With `turnsToYes`, every question mark stands before the last "but" ("قدّاش عندكم باش تتّصلو؟ … المهمّ ابعثوه"):
   * what was asked is left behind the turn (round 22).
   */
  askedBeforeTurn?: boolean;
  /**
   * Every question mark stands before the last "but", and after it the reply ends on an "I take it" or "send it" that
   * nothing denies ("Septante-neuf francs, c'est ce qu'on avait dit, hein? … mais oui, on le prend"; round 27).
   */
  takesAfterQuestion?: boolean;
  /** The reply ends on its yes to the order ("…, sifto liya"): nothing is asked after the "send it" (round 8). */
  endsOnYes?: boolean;
  /** The reply ends on "I take it" or "send it" ("… khlliha 200 w nakhdha"). */
  endsOnTake?: boolean;
  /**
   * A change asked for, then "and send it" to close the same sentence ("mais changez la taille en 42 et envoyez",
   * "beddel el mqas l 40 w sifto"): what is sent is the order changed; the closing "send it" is no yes to the order as
   * read (round 41).
   */
  sendsChanged?: boolean;
  /** A day or time said to be the one agreed ("jibuha lkhmis kif 9olti", "demain comme prévu", "ghedwa normal"). */
  agreedDay?: boolean;
  /** An "I take it" that nothing negates stands in the reply ("je prends", "nakhdha", "نديها"; round 11). */
  takes?: boolean;
  /** A yes-word, an assent or a "send it" the customer says (not only an "I take" or "I pay", round 15). */
  assents?: boolean;
  /** An "I take it" or "send it" stands negated ("ماني لاهي نشريه", "je la prends pas"; round 11). */
  takesNot?: boolean;
  /** "I take it" right after a change, in its sentence: "knock ten off and I take it" ("نقصلي عشرة و نعدّيها"; round 11). */
  takesIfChanged?: boolean;
  /** An assent to the order stands, not negated: "je confirme", "c'est confirmé", "kan2akked", "ma kayn mouchkil". */
  accepts?: boolean;
  /** A cancel verb stands, not negated ("je préfère annuler", "lghiha"). */
  cancels?: boolean;
  /** "… ou pas", "… wla la": an "or not" asks, even without a question mark. */
  orNot?: boolean;
  /** The only refusal is of a value beside one taken ("en blanc je prends, le noir j'en veux pas"): a change. */
  refusesValue?: boolean;
  /** A refusal found, and the reply ends on it: nothing but its own words after it ("… donc la la ma n9derch ndiha"). */
  endsOnRefusal?: boolean;
  /** The reply's last clause only asks "and then?" ("وبعد؟", "la suite ?"): attention (round 15). */
  asksNext?: boolean;
  /** The reply ends on "or" ("c'est avec les frais ou", "عندها ضمان ولا"): it asks, the other half left unsaid (round 40). */
  endsOnOr?: boolean;
  /** The refusal that ends the reply comes after a question the customer closed ("?"), none after it (round 15). */
  answersQuestion?: boolean;
  /** An "if" stands somewhere in the reply ("envoyez, enfin si mon mari est d'accord"): a clause the yes may hang on. */
  conditional: boolean;
  /** A denial of any kind is there (a "no", a refusal, a reason, "I didn't order", "not me", "don't send"): what a `cancel` rests on. */
  denies: boolean;
  /** The speaker says the call reached the wrong person or number ("not me", "wrong number"). */
  notMe?: boolean;
  /** A refusal that is no report of a fact is there: "keep it", "I cancel", a negated yes ("machi wakha", "ma confirmit walo"). */
  strongDenial?: boolean;
  /** A refusal of the customer's own stands somewhere in the reply (not reported, not "no problem", not in an "if"). */
  ownDenial?: boolean;
  /** The only denial is a reason inside the question the reply opens on ("علاش السوم غالي …?"): round 21. */
  asksReason?: boolean;
  /** The only refusal is of a time ("غير الصباح بكري ما بغيتش", not early morning): round 21. */
  refusesTime?: boolean;
  /** The call verb has a first-person object ("rappelez-moi", "3ayet liya", "kallemni"): the customer asks to be called. */
  callsMe?: boolean;
  /** A day or a time stands right after the call verb ("3ayto ghodwa fel sbe7"): when to call, not when to deliver. */
  callTime?: boolean;
  /**
   * A cancel or change verb stands negated ("ma bghitch nbddel walou", "je ne vais pas annuler") and nothing denies:
   * the customer keeps the order as it is (round 8).
   */
  keepsOrder?: boolean;
  /** A change verb stands negated and none live ("ma bdelt walou": I changed nothing), wherever a "but" stands (round 24). */
  changeDenied?: boolean;
  /**
   * The reply corrects something: a colour, size, quantity, address, "instead", a live change verb, or a "not" after
   * "send it" ("ab3thouha l Sousse mouch l Monastir"): round 8.
   */
  corrects?: boolean;
  /**
   * What corrects is only in the reason given after the customer's own cancel verb: "nheb nbatel el commande 5ater bniti
   * chratli wa7da" (I want to cancel because my daughter bought me one; round 46).
   */
  correctsInReason?: boolean;
  /**
   * "X, not Y": "c'est Colomiers pas Tournefeuille", or a "not" after "send it" ("ab3thouha l Sousse mouch l
   * Monastir"): the customer puts one thing for another (round 8).
   */
  notThat?: boolean;
  /** An address is named ("livrez plutôt à mon travail", "l'adresse du bureau"; round 26). */
  namesAddress?: boolean;
  /** A price is named: a number after "at" or before a currency ("b 150", "à 49 euros", "75 dinars"; round 26). */
  namesPrice?: boolean;
  /** A colour, a size or a model is named (the value a change asks for: "l k7al", "en rouge"), not only "the size". */
  namesValue?: boolean;
  /** The customer asks the agent to say it again or does not hear ("3awed", "ma nesma3 walou", "pardon ?"). */
  repeats?: boolean;
  /**
   * The reply asks when or whether the parcel arrives ("tousel ghodwa?", "ça arrive quand ?", "وقتاش يجي الليفرور"):
   * a question form (a question mark or an opening question word), the parcel or the courier arriving (a third
   * person), and no "can" (a request: "y9der yji ba3d 18h?") nor "send it". Or "when?" right before the parcel's
   * coming, with no question mark, anywhere in the reply ("ewa wakha ghir imta ghadi tousel …": round 28).
   */
  asksArrival?: boolean;
  /** A call verb stands, not negated ("3ayet", "rappelez", "otlobni"), whatever the reading made of it. */
  calls?: boolean;
  /**
   * Every call verb tells of a call the shop made ("3ayto liya mrtin", "lbent li 3ayetetli", "3lach t3awdu t3itu?"),
   * none asks for one (round 25).
   */
  reportsCall?: boolean;
  /**
   * An "again" ("3awed", "عاود", alone or opening a call verb: "3awed kalamni"), not only "I don't hear": a busy
   * customer's "again" asks to be called again.
   */
  again?: boolean;
  /** Every day said is gone by ("la semaine dernière", "lsimana li fatet"; round 19). */
  datedPast?: boolean;
  /**
   * The customer's own cancel verb after every time said, or with the order as its object ("rayez ma commande", round
   * 19), nothing sent or taken after it (round 17).
   */
  cancelsAfterTime?: boolean;
  /**
   * A refusal read where the customer's own cancel verb is denied ("Annuler ? Jamais de la vie", "علاش نلغيها؟",
   * "pourquoi j'annulerais", "ma nlghich"), whatever follows it (round 34).
   */
  cancelDenied?: boolean;
  /** "Again" then "later" ("عاود après", "3awed mba3d"): call again later (round 17). */
  againLater?: boolean;
  /** "Not now", then where the customer is ("mouch taw, rani fil classe"): busy now (round 38). */
  notNowThere?: boolean;
  /** A courier's instruction stands ("frappez fort", "d9 lbab mzyan"): what a yes beside it adds to the order. */
  instructs?: boolean;
  /** "before the courier comes" ("avant que le livreur passe", "9bel ma ywsel"): about the courier, not a new time. */
  beforeCourier?: boolean;
  /** The customer asks to speak with a person ("bghit nhder m3a chi wahed men lmagasin"; handoff.ts `asksForPerson`). */
  asksPerson?: boolean;
  /** A yes, then "but" and a question between two states of things, unpunctuated (`orClause`; round 16). */
  asksBetween?: boolean;
  /** "Put it off to" a day named right after ("خلّيها الجمعة"; round 17), or "he comes" then a day or time ("yji ba3d 6"; round 18). */
  postponesTo?: boolean;
  /** Every change verb only thought of before a "but", a yes to the order after it (round 17). */
  changeOnlyThought?: boolean;
  /**
   * Two of the item kept on purpose, "one for me and one for …", said to be no mistake, ordered so, or to be kept both,
   * with no wish, add or put to change the count (`keepsBoth()`; round 34).
   */
  keepsBoth?: boolean;
  /** A change asked, then taken back by a "no" and a "leave it" or "forget it", a yes to the order after (`takenBack()`; round 35). */
  takesBackChange?: boolean;
  /** A cancel said, then taken back by a "no" and at once a send, a take or a keep (`cancelTakenBack()`; round 35). */
  takesBackCancel?: boolean;
  /** "No longer needed" ("ma b9ach 3lash", "ماشي محتاجة", "c'est plus la peine"): a refusal (`NO_LONGER`; round 34). */
  noLonger?: boolean;
  /** "Can", "may" anywhere ("nqder", "najjem", "je peux", "momkin"): a reply that may ask what is possible (round 17). */
  modal?: boolean;
  /** A question word that is no conjunction ("wach", "chnowa", "combien"; not "quand", "ki", "ma 3lich"; round 17). */
  questionWord?: boolean;
  /** A yes, then "but" and a question word opening the clause after it, unpunctuated (round 17). */
  asksAfterBut?: boolean;
  /**
   * The yes-words, then at once a question word that opens what follows ("إيوا أوكي أوكي وشحال قلتي الثمن", OK OK, and
   * how much did you say?), and no yes, send or take after it: the yes-words heard, the question asked (round 21).
   */
  asksAfterYes?: boolean;
  /** The yes-words, then only a number said back and asked ("Behi... 120?"): the number doubted (round 37). */
  asksNumberBack?: boolean;
  /** "How much" then "if" asked ("ch7al ida jouj?"): the price of another order asked (round 38). */
  asksPriceIf?: boolean;
  /**
   * The yes-words, then a few words asked to the question mark that ends the reply, with nothing in them that decides
   * ("إيه... par carte ?", "wah... w livraison?", "Ok... 64 tout compris ?"): the yes heard as "go on", the question
   * asked (round 39).
   */
  asksShortAfterYes?: boolean;
  /** The yes-words, "but", then only a value of the item ("Oui, mais 38.", "Entendu, mais deux."; round 39). */
  butValue?: boolean;
  /** "How much" asked, with nothing to change, add, wish for or deny ("behi zouz ya3ni 9addech el wa7da"; round 39). */
  asksHowMuch?: boolean;
  /** The yes-words, then only a value of the order said back and asked ("Wakha، الكحل؟"): the value doubted (round 38). */
  asksValueBack?: boolean;
  /**
   * A value of the order said back and asked, alone, first, then a yes, a send, a take or a wish with nothing to change
   * ("La noire ? C'est celle-là que je veux", "الكحلة؟ هي هاذيك، envoyiha"): the reading heard and agreed (round 38).
   */
  echoesThenYes?: boolean;
  /**
   * The value named is said to be the one ordered ("la noire en 38 c'est celle que je veux", "تلاتة كيما طلبت"): the
   * lexicon drops it (signals.ts `restatements()`), and nothing else asks a change (round 39).
   */
  restates?: boolean;
  /**
   * Something named is taken out of the order, or only part of it kept ("na7i l'kaskita w khalli ghir l'survêtement,
   * ma n7tajhach"): a refusal beside it is of that part, and the reply a change (round 14).
   */
  takesOneOut?: boolean;
  /**
   * The change is a condition on the item that sends or takes it: an "if" whose clause names a colour, a size or a
   * model, then "send it" / "I take it" ("si vous l'avez en 40 je la prends", "ila kan 40 jibuha"); or a price, "I take
   * it", then "otherwise" ("b 5000 bla livraison nakhdha sinon khalas", round 11).
   */
  takesItem?: boolean;
}

/** Word classes, written naturally and canonicalised once. */
function words(list: string[]): string[][] {
  return list.map((p) => canonicalTokens(p).filter((t) => t !== "," && t !== "." && t !== "?"));
}

const skeleton = (t: string) => t.replace(/[aeiouy]/g, "");

/** One canonical token against one class word: as spelt, or by consonant skeleton when that is long enough to be safe. */
function same(token: string, word: string, exact = false): boolean {
  if (token === word) return true;
  if (exact) return false;
  const s = skeleton(word);
  return s.length >= 3 && skeleton(token) === s;
}

/** Where a class phrase starts in `tokens` (from `from`, before `to`), or -1; `exact`: no skeleton matching. */
function find(tokens: string[], phrases: string[][], from = 0, to = tokens.length, exact = false): number {
  for (let i = Math.max(0, from); i < Math.min(to, tokens.length); i++) {
    for (const p of phrases) if (p.length > 0 && p.every((w, k) => same(tokens[i + k] ?? "", w, exact))) return i;
  }
  return -1;
}

/** Attention and "go on": the customer listens; it agrees to nothing yet. */
const ATTENTION = words([
  "sme3tek",
  "sma3tek",
  "sm3tek",
  "sam3ek",
  "sam3ak",
  "nesm3ek",
  "nsma3",
  "nesma3",
  "kansma3",
  "kansm3ek",
  // The reflexive form ("iyeh a lalla iyeh kantsm3ek": yes madam, I'm hearing you; round 45).
  "kantsm3ek",
  "kantsma3ek",
  "kantsme3ek",
  "kan sme3",
  "كنسمعك",
  "كنسمع",
  "سمعتك",
  "سامعتك",
  "سامعك",
  "نسمع",
  "نسمعك",
  "fhmtek",
  "fhamtek",
  "mfahmek",
  "mfehmek",
  "فهمتك",
  "فاهمك",
  "kemmel",
  "kammel",
  "kmmel",
  "kemmli",
  "kammli",
  "kml",
  "kmel",
  "كمل",
  "كملي",
  "زيد",
  "hayya 9oul",
  "9oul 9oul",
  "قول قول",
  "tfaddal 9oul",
  "rani m3ak",
  "ana m3ak",
  "ena m3ak",
  "راني معاك",
  "انا معاك",
  "أنا معاك",
  "nsma3 fik",
  "nesma3 fik",
  "nsm3 fik",
  "نسمع فيك",
  "sam3ak",
  "سامعاك",
  "nesma3",
  "nsma3",
  "dis-moi",
  "dites-moi",
  "j'écoute",
  // Written with no apostrophe by speech-to-text ("okay vas y jécoute"; round 45).
  "jécoute",
  "jtécoute",
  "je vous écoute",
  "je t'écoute",
  "on vous écoute",
  "j'entends",
  "je vous entends",
  "continue",
  "continuez",
  "go on",
  "i'm listening",
  "i hear you",
  // "I'm listening" without its subject ("oui j'vous écoute"), and "talk, say it" ("هدر هدر", "e7ki").
  "écoute",
  "hder",
  "hdar",
  "هدر",
  "اهدر",
  "e7ki",
  "a7ki",
  "احكي",
  "tkellem",
  "tkallam",
  "تكلم",
  // "I'm following you" ("rani ntab3ek", "نتبع معاك", "je vous suis").
  "ntab3ek",
  "ntab3ak",
  "ntab3 m3ak",
  "ntba3 m3ak",
  "tab3ek",
  "tab3ak",
  "نتبعك",
  "نتبع معاك",
  "متبعك",
  "je vous suis",
  "je te suis",
]);
/** Conditionals ("if", "provided that") and "otherwise". */
const CONDITION = words([
  "ila",
  "ida",
  "idha",
  "ken",
  "si",
  "ilakan",
  "ila kan",
  "إلا",
  "إذا",
  "اذا",
  "الا",
  "لو",
  "à condition",
  "a condition",
  "ايلا",
  "إيلا",
  "pourvu que",
  "tant que",
  "bchart",
  "bcharet",
  "bel cha5t",
  "b chart",
  "بشرط",
  "seulement si",
  "only if",
  "if",
  // "and if" with its "w" glued: "وإذا ما لقيتنيش خليها عند العساس" (canonical "wada"), "وايلا", "wila" (round 15).
  "وإذا",
  "وايلا",
  "wila",
  "wida",
]);
/**
 * Tunisian and eastern Algerian "ken", written in Arabic script "كان" (in Morocco "kan" is "was"): "if" in a Tunisian or
 * Algerian reply ("كان عندكم la version 128 Go نديه، sinon خلاص"; Algeria since round 11).
 */
const CONDITION_TN = [...CONDITION, ...words(["كان", "kan", "وكان", "wken"])];
/** "Only if": a condition that is a requirement whatever follows it (round 17). */
const ONLY_IF = words([
  "à condition",
  "pourvu que",
  "seulement si",
  "uniquement si",
  "only if",
  "bchart",
  "bcharet",
  "b chart",
  "bel cha5t",
  "بشرط",
  "غير إلا",
  "ghir ila",
]);
const OTHERWISE = words([
  "sinon",
  "sinan",
  "wila la",
  "w ila la",
  "ila la",
  // (Arabic script "إلا لا", canonical "ala la": round 12.)
  "إلا لا",
  "ولا لا",
  "وإلا",
  "والا",
  "ماللا",
  "ماللّا",
  "mella",
  "malla",
  "otherwise",
  "or else",
  "sinon non",
  "ken le",
  "ken la",
  "w ken le",
  "وكان لا",
  "وكان موش",
  "ila ma",
  // ("ken famma el akhdher, ken ma famech ma n7ebhech": "if there isn't", the other side of an "if there is"; round 24.)
  "ken ma famech",
  "ken mafamech",
  "كان ما فماش",
  "ida ma kanch",
  "ila ma kanch",
  "ila makanch",
  "إذا ما كانش",
  "s il y en a pas",
  "si y en a pas",
  "après ça sert à rien",
  "من بعد",
  // "without it (I don't want it)": "بلا بيه ما نبغيهش", "sans ça non" (round 20).
  "bla bih",
  "bla biha",
  "bla bihom",
  "bla bihum",
  "بلا بيه",
  "بلا بيها",
  "sans ça",
]);
/** "Must", "have to" (canonical): "لازم", "lazem", "khasso", "il faut", "doit" (round 38). */
const MUST =
  /^(?:lazm|lazem|lazim|la?zm[ae]?|khas+(?:ha|h|o|u|ni|na|kom|km)?|faut|doit|doivent|darori|daruri|obligatoire)$/;
/** "Or else nothing", "otherwise forget it" (canonical): "ولا بلاش", "wela blach" (round 38). */
const OR_NOTHING = words(["wla blach", "wela blach", "wala blach", "ولا بلاش", "wella blech", "walla blech"]);
/** Free of charge, canonical: "bleche", "ببلاش", "gratuite", "fabor" (round 24). */
const FREE = /^(?:b?bl[ae](?:ch|sh)e?|gratuit[es]*|free|fabor|fabour|majjan[ae]?n?)$/;
/** A celebration, canonical: a wedding ("3rs", "عرسها", "lma3rid"), a birthday, the Eid (round 24). */
const CELEBRATION =
  /^(?:l|el)?(?:3a?rs(?:ha|hom|ou|u|i|na|o)?|3ers\w*|ma3ri?d|mariage|anniversaire|annif|fete|3id|khotba|khetba)$/;
/** "Before", "by", "not later than": what a condition on the delivery's date turns on. */
const BEFORE = words([
  "9bel",
  "qbel",
  "9bal",
  "qbal",
  "gbel",
  "gbal",
  "kbel",
  "9abl",
  "قبل",
  "avant",
  "before",
  "jusqu'à",
]);
/** Between "before" and its verb: "avant que je", "avant qu'on", "9bel ma n", "قبل ما" (canonical, round 13). */
const BEFORE_LINK = new Set(["9ue", "9u", "ke", "ma", "de", "d", "je", "j", "on", "nous", "tu", "vous", "ana"]);
/**
 * "I tell you", "I answer you" in the first person (canonical): "n9ulk", "n9lk", "ngul", "n9olek", "njawbk", "dire",
 * "dirai", "réponde": the verb of an answer (round 21).
 */
const SAY_ANSWER =
  /^(?:n[9gq][ou]?l+(?:k|km|kum|kom|ek|ik|lek|lik)?|njaw[ae]?b[\p{L}]*|dire|dirai|dise|reponde|repondre|repondrai)$/u;
/** What may stand between "before" and that verb besides BEFORE_LINK: "vous", "lik", "lek" (canonical). */
const SAY_LINK = new Set(["vus", "lik", "lek", "lk", "lak", "lkum", "lkom"]);
/** "I ask (you)" in the first person (canonical): "ns9sik", "nsaksi", "nsulk", "nsalk", "demande" (round 21). */
const ASK_VERB = /^(?:ns[ae]?[9qk]s[ie][\p{L}]*|nsu?l(?:k|ek|ik|kum)|nsa2?l[\p{L}]*|demande)$/u;
/** "Tell" (him): "gol", "9ul", "9ol", "dites", "dis" (canonical, round 21). */
const TELL = /^(?:[g9q][ou]?l|[g9q]uli|[g9q]ulu|dites|dis)$/;
/** The price named as a noun (canonical): "ltmn", "ssuma", "prix": a question word only by what follows (round 21). */
const PRICE_NOUN = /^(?:l|el|s)?(?:t[ae]?m[ae]?n|s?[ou]u?ma|sum|prix|pri)$/;
/** "The same" before a noun (canonical): "nfs", "nafs", "meme" (round 26). */
const SAME = /^(?:nfs|nafs|nefs|nefss|meme|memes)$/;
/**
 * A payment term (canonical): a transfer, a card, a wallet, a discount code: "بالتحويل", "par virement", "la carte CIB",
 * "BaridiMob", "code promo", "remise". What a condition names when it holds the order to a way of paying (round 27).
 */
const PAYMENT =
  /^(?:b|bl|l|el|f|fl)?(?:tahwil|t7wil|thwil|thuil|thuila|virement|karte?|karta|kart|cib|edahabia|dahabia|baridimob|paypal|paylib|lydia|promo|brumu|remise|reduc|reduction|kubun|coupon|che9ue)$/;
/** An apology before an "if" (canonical): "sme7li", "samhni", "désolé", "pardon", "excusez(-moi)" (round 28). */
const APOLOGY = /^(?:sm[ae]?7li|sam[ae]?7ni|sm[ae]?hli|samhni|sam7ini|desole|desolee|pardon|exkuse[zr]?)$/;
/** "When?" that asks only (canonical): "imta", "fo9ach", "wa9tach", "quand est-ce" (round 28). */
const WHEN_ASKED = /^(?:imta|emta|fo9ach|fu9ach|w9tach|wa9tach|wa9tech|waktech|waktach|wa9tah|wa9teh)$/;
/** Verbs that put a "when" off to later (canonical): "nchoufou", "ntfahmu", "n9ollek", "voir" (round 28). */
const LATER_WHEN = /^(?:nchuf|n[9gq]u?l|n[9gq]ol|nt?fahm|voir|dire|savoir)/;
/** What a reply that leaves its question behind ends on: a take or a send, and after "bon", "bref", an "I confirm". */
const TAKE_SEND: ReadonlySet<string> = new Set(["take", "send"]);
const TAKE_SEND_ACCEPT: ReadonlySet<string> = new Set(["take", "send", "accept"]);
/** A turn that sets what was said aside (canonical): "bon", "bref", "enfin", "anyway" (round 28). */
const TURN_WORD = /^(?:bon|bref|enfin|anyway)$/;
/**
 * "Anyway" in more than one word (canonical; round 34), at its last word: "على كل حال", "ala kol 7al", "على أي حال", "على
 * العموم", "de toute façon", "en tout cas", "dans tous les cas".
 */
const ON_WORD = /^(?:3la|ala|3al|a3la)$/;
function anyway(tokens: readonly string[], i: number): boolean {
  const t = tokens[i];
  return (
    (t === "hal" &&
      /^(?:kl|kol|koli|kolli|kul|kull|ay|ai)$/.test(tokens[i - 1] ?? "") &&
      ON_WORD.test(tokens[i - 2] ?? "")) ||
    (t === "l3mum" && ON_WORD.test(tokens[i - 1] ?? "")) ||
    (t === "fason" && tokens[i - 1] === "tute" && tokens[i - 2] === "de") ||
    (t === "kas" && tokens[i - 1] === "tut" && tokens[i - 2] === "en") ||
    (t === "kas" && tokens[i - 1] === "les" && /^tus?$/.test(tokens[i - 2] ?? "") && tokens[i - 3] === "dans")
  );
}
/**
 * "There is none" before "3lach" (canonical; the negation "ma" is split off as a token of its own, or glued):
 * "makach", "ma kayn", "ma famech" (there is no reason to; round 40).
 */
const NO_REASON = /^(?:makach|makaynch|makayn|mafamech|mafich)$/;
const THERE_IS_NONE = /^(?:kach|kaynch|kayn|kain|famech|famach|fmach|famma|fich|kanch)$/;
/** A time of day after "si c'est" (canonical): "l'après-midi", "après 13h", "le matin" (round 43). */
const VISIT_TIME = /^(?:apres|avant|matin|midi|soir|\d+h\d*)$/;
/** "Only" (canonical): "uniquement", "seulement", "que" (round 43). */
const ONLY_WORD = /^(?:uni9uement|seulement|9ue|9u|ke)$/;
/** A word that opens a clause of when (canonical): "ki yji", "mli yji", "quand il passe" (round 28). */
const WHEN_WORD = /^(?:ki|mli|melli|mnin|lma|9uand|lorsque|w9t|wa9t|waqt)$/;
/**
 * "(And) if" as the reader spells Arabic-script "وإلا", "إلا" (canonical), read as "if" only before the coming (round 42);
 * "وكان", "wken" glued (round 43).
 */
const AND_IF = /^(?:wala|ala|wila|wkan|wken)$/;
/** The courier's coming (canonical): "ja", "yji", "jat", "ywsel", "passe", "arrive" (round 28); "ila jiti" (round 43). */
const VISITS = /^(?:ja|jat|jaw|jiti|[yt]jiw?|ywsl|ywsel|ywasl|pase|pasera|vient|viendra|vienne|arive|arivera)$/;
/**
 * What the courier does on his visit, or the customer then (canonical): gives it to someone ("y3tiha", "عطيه",
 * "donnez-le"), leaves it ("ykhaliha", "laissez-le"), or the customer comes down ("je descends"; not "nkhrj", which is
 * also "I go out to work"; round 28). Or someone receives it or opens the door ("كان جا بعد الخمسة الجارة تستلمها",
 * "c'est ma femme qui ouvre"; round 37). Or he calls someone or the customer ("وإذا جا بعد العصر يعيط للعساس", "وإذا جا نهار
 * الخميس … يعيّطلي ونجي"; round 39). Or he goes round to another door ("ila ja f l3chiya rah lbab lkbir msdoud, ydor l lbab
 * sghir"; round 40). Or he knocks, the courier or the shop told so ("dreb 3la jjara", "دقو على جارتي", "yodhrob bel
 * 9wi"), leaves it ("يخليها عند جارتي"), gives it ("3tihalou") or someone takes it ("هي تشدها"; round 43).
 */
const HANDS_OVER =
  /^(?:y?d[ou]?9+[ou]?|ydg|(?:y[aeou]?)?d[ae]?r[aeou]?b[ou]?|ytape|ysone|tape[zr]?|frape[zr]?|sone[zr]?|y3[ae]?y+[ae]?t(?:li|lia|liya|lya)?|y3it(?:li|lia|liya|lya)?|yd[ou]r|y?a?3tih(?:a|om|um)?(?:l(?:u|i|ia|ha|hom))?|ykh[ae]?ll?ih(?:a|om)?|[ty]ch[ae]?dh?(?:a|om|u)|[ty]st[ae]?l[ae]?mh(?:a|om|um)?|nhbt|nhbet|ndescends|descends|laise[zr]?|done[zr]?|depose[zr]?|uvre|uvrira|resoit|recevra|rekupere|rekuperera)$/;
/**
 * "Leave it" said to the shop (canonical), a hand-over only with someone or somewhere (`LEFT_AT`): "w ila ja nhar
 * essebt khalliha 3and khalti", not "khallih nhar l7ed", which leaves it for Sunday (round 37). Narrower than
 * `LEAVE_IT` ("leave it as it is", after a change thought of), which takes any form of "khalli".
 */
const LEAVE_IT_WITH = /^kh[ae]?ll?ih(?:a|om)?$/;
/** With someone, at a place (canonical): "3and", "m3a", "f", "chez" (round 37). */
const LEFT_AT = /^(?:3and|3nd|3end|3ind|m3a|ma3a|lil|fi|f|chez)$/;
/** "Don't worry", the verb after "ma" (canonical): "ma yt9l9ch", "ma ytqlqch", "ما يتقلقش" (round 28). */
const WORRIES = /^(?:yt9l9|yt9le9|ytqlq|yqle9|yqlq|yt9elle9|ytqle9)(?:ch|ech|ich)?$/;

/** "Next time" at `i` (canonical): "المرة الجاية", "lmerra jaya", "el marra el jeya", "la prochaine fois" (round 27). */
function nextTimeAt(tokens: readonly string[], i: number): boolean {
  const t = tokens[i] ?? "";
  if (t === "prochaine" && tokens[i + 1] === "fois") return true;
  if (!/^(?:l|el)?m[ae]?r+a$/.test(t)) return false;
  const next = tokens[i + 1] === "el" || tokens[i + 1] === "l" ? tokens[i + 2] : tokens[i + 1];
  return /^(?:l|el)?j[ae]?y+a$/.test(next ?? "");
}
/** "I made it", "I ordered it", "I bought it" (canonical): "3mltha", "tlbtha", "chritha", "komandita" (round 27). */
const ORDERED = /^(?:3m[ae]?l|t[ae]?l[ae]?b|chri|cheri|komandi)t(?:ha|a|h|u|o|hom|hum|hm)?$/;
/** A verb that tells when the order was made at `i`: "عملتها", "je l'ai commandée" (an auxiliary before it). */
function orderedAt(tokens: readonly string[], i: number): boolean {
  const w = tokens[i] ?? "";
  return ORDERED.test(w) || (/^komandee?s?$/.test(w) && /^(?:ai|avais|avait|a|avons|avez)$/.test(tokens[i - 1] ?? ""));
}
/** "After", "before", "until", "from" before "the" and a day of the month: "après le cinq", "jusqu'au dix" (round 27). */
const MONTH_DAY_LEAD = /^(?:apres|avant|partir|jus9u|des)$/;
const MONTH_DAY =
  /^(?:[1-9]|[12]\d|3[01]|un|deux|trois|9uatre|cin9|six|sept|huit|neuf|dix|onze|duze|treize|9uatorze|9uinze|seize|vingt|trente)$/;
/** A day of the month at `i`: "après le cinq", "jusqu'au 10", "à partir du quinze" (canonical). */
function monthDayAt(tokens: readonly string[], i: number): boolean {
  return (
    MONTH_DAY.test(tokens[i] ?? "") &&
    /^(?:le|au|du)$/.test(tokens[i - 1] ?? "") &&
    MONTH_DAY_LEAD.test(tokens[i - 2] ?? "")
  );
}
/** "at", "for" before a price (canonical): "b 150", "à 49", "pour 60" (round 26). */
const AT_PRICE: ReadonlySet<string> = new Set(["b", "bi", "a", "pour", "bla"]);
/** An hour after the number makes it a time ("à 10 heures"). */
const HOUR_AFTER = /^(?:h|heures?|heure|sa3a|s3a|sa3at|lw9t)$/;
/** "I confirm" in the first person (canonical): "nakd", "n2akd", "nkonfirmi", "nvalidi", "je konfirme" (round 21). */
const I_CONFIRM = /^(?:n(?:2?a)?k+e?d|nkonfirm|nvalid|konfirme$|valide$)/;
/** A dative between "I confirm" and its time (canonical): "lik", "lek", "likom", "vus" (round 21). */
const DATIVE = new Set(["lik", "lek", "lk", "lak", "liki", "likom", "likum", "lkom", "lkum", "vus", "te", "t"]);
/** "That" opening what a verb says (canonical): "elli", "li", "que", "bli", "belli" (round 21). */
const THAT = new Set([...RELATIVE_WHO, "9ue", "9u", "ke", "bli", "beli", "belli", "billi"]);
/** "Almost", "nearly" (canonical): "t9riban", "t9rib", "presque", "quasiment": a yes beside it is no yes yet (round 21). */
const ALMOST = /^(?:t9rib(?:a|an|en)?|pres9ue|presk|9uasi(?:ment)?)$/;
/** "When you arrive" (canonical): "wselti", "twesslou", "tousel", "arrivez" (round 13). */
const ON_ARRIVAL = /^(?:t|y|n)?(?:w|u|ou)e?s+[ae]?l(?:ti|t|u|ou|tu|tou)?$|^ar+iv/;
/** Before "I come out": "and", or "who" (not "ki", also "when": "3ayetli ki nkhrej" is a callback; round 19). */
const COME_OUT_AFTER = new Set(["w", "u", "et", ...RELATIVE_WHO]);
/** "I, he come(s) out, down" (canonical): "nokhroj", "nkhrjlu", "nhbt", "nenzel", "ghaynzel", "ynzl" (round 19). */
const COME_OUT =
  /^(?:gha?y?)?[nyt](?:o|u)?kh?r[eou]?j(?:lu|lou|lo|lk|lek)?$|^(?:gha?y?)?[nyt]a?h[ae]?b[ae]?t(?:lu|lou|lk)?$|^(?:gha?y?)?[nyt]?[ae]?nz[ae]?l(?:lu|lk)?$/;
/** "When" before the courier's coming (canonical): "ki twsl", "mli tqrb", "quand vous arrivez" (round 15). */
const WHEN_COMING = new Set([
  "ki",
  "kif",
  "kima",
  "mli",
  "mlli",
  "mnin",
  "quand",
  "lorsque",
  "9uand",
  "lorsk",
  "ila",
  "ida",
]);
/** Coming near (canonical): "t9rb", "tqarbu", "approchez" (round 15). */
// ("mli tkoun 9rib": when you are near; round 28.)
const APPROACH = /^(?:t|y|n)?[9q]a?r[ae]?b(?:u|o|ti|t)?$|^aproch|^[9q]rib$/;
/** How long before: "b rob3 sa3a", "bchwiya", "un quart d'heure", "10 minutes", "بنص ساعة" (canonical, round 13). */
const AHEAD_BY =
  /^(?:b|bi)?(?:rb3|rob3|rub3|nos|nss|nus|ns|nass|sa3a|sa3|d9i9a|d9i9|d9aye9|d9ay9|dqi9a|chwi?y?a|chwaya|chouia|quart|demi|heure|minutes?|mins?)$/;
/** "whenever you like" ("imta ma bghitou", "فوقت ما بغيتو"): a "ma" after these is no negation. */
const WHENEVER = new Set([
  "imta",
  "imata",
  "wa9t",
  "wqt",
  "fo9t",
  "fu9t",
  "f9t",
  "fwqt",
  "mata",
  "ki",
  "kima",
  "quand",
  "wa9tach",
  "wktach",
  "ghir",
]);
/** "But" (canonical): after "I hear you", what follows it is the answer. */
const BUT = new Set([
  "walakin",
  "walakine",
  "walaken",
  "wlakn",
  "wlkn",
  "lakin",
  "lkn",
  "mais",
  "besah",
  "bsah",
  "bsh",
  "ama",
  // Spanish "pero", as the North says it beside Darija (round 31).
  "pero",
  // "المهم", "lmouhim" (anyway, the point is): what came before is a remark (round 22).
  "lmhm",
  "lmuhim",
  "lmohim",
  "lmhim",
]);
/** After a "no": "no problem", "no harm" ("la bas", "lé bes", "no souci"): reassurance. */
const NO_HARM = new Set([
  "bas",
  "bes",
  "bass",
  "baes",
  "mochkil",
  "mouchkil",
  "mushkil",
  "mchkl",
  "problem",
  "probleme",
  "souci",
  "pas",
  "du",
]);
/** Verbs of saying: a refusal after one is reported ("who told you I cancel?", "I never said I don't want it"). */
/** The "why" words SAYING holds for "why would I cancel" ("3lach", "pourquoi"): no verb of saying (round 28). */
const WHY_SAYING = /^(?:3lech|3lach|lach|علاش|pur9uoi|pourquoi)$/;
const SAYING = words([
  "gal",
  "galek",
  "galet",
  "gatlek",
  "gatlkom",
  "9al",
  "9alek",
  "9alet",
  "9olt",
  "9oltlek",
  "gult",
  "gltch",
  "ngoulch",
  "ngulch",
  "gotlek",
  "قال",
  "قالك",
  "قالت",
  "قلت",
  "قلتش",
  "dit",
  "dis",
  "disait",
  "a dit",
  "annulais",
  "3lech",
  "علاش",
  "lach",
  "pourquoi",
]);

/** "you said", "say" in the dialects and French, canonical ("galti", "tgoul", "9olti", "dites", "dis"). */
// ("قلتوا", canonical "9ltwa", the Tunisian plural "you said": round 23.)
// ("SEBT kima 9ritli": as you read it to me; round 28.)
const SAID_IT =
  /^(?:t|y|n|k)?[g9q][aeiou]{0,2}l(?:t|ti|tu|tih|na|ek|u|i|twa|tw|tou|to)?$|^(?:dit|dis|dites|disez)$|^[9q]r[ae]?y?(?:i|e)?t(?:i|u|li|lna|lek)?$/;

/**
 * What makes a French "pas" negate the infinitive after it (canonical): "de pas sonner", "ne pas klaxonner", "pour pas
 * embêter le livreur" (round 38).
 */
const INFINITIVE_NOT = new Set(["de", "d", "ne", "n", "pur"]);
/** "Why", "who" opening a rhetorical question (canonical): "3lach", "علاش", "chkun", "pourquoi", "qui" (round 20). */
const WHY_WHO = new Set(["3lach", "3lah", "3layach", "3lech", "lach", "chkun", "achkun", "pur9uoi", "9ui", "why"]);
/** "You think", "you believe" (canonical): "thsb", "تحسب", "tkhmm", "tdhn", "crois", "croyez", "pensez" (round 20). */
const THINK =
  /^(?:t|y)?h[aeiou]?s[aeiou]?b(?:ti|t|u|o)?$|^t?kh[aeiou]?m[aeiou]?m|^t?dh[aeiou]?n|^(?:krois|kroyez|kroit|pense|penses|pensez)$/;

/** A French past participle (canonical) a "pas" negates: "pas compris", "pas vu", "pas reçu" (round 25). */
const PARTICIPLE = /^(?:kompris|compris|vu|entendu|resu|recu|kapte|su|pu|fait|dit|eu|ete|note|lu|remarke|oublie|fini)$/;

/** "Go" said to someone in the room before "bring me" (canonical): "sir", "روح" (round 25). */
const GO_FETCH = /^(?:sir|ro7|rou7|ru7|roh|ruh|rouh)$/;

/** A tag after a rhetorical question (canonical): "wesh", "hein", "enfin", "voyons" (round 26). */
const TAG_AFTER: ReadonlySet<string> = new Set([
  "wech",
  "wesh",
  "hein",
  "enfin",
  "voyons",
  "9uoi",
  "ptdr",
  "frere",
  "frero",
]);
/** "You want (me to)" (canonical): "pourquoi voulez-vous que j'annule ?", "3lach bghitini nlghiha?" (round 25). */
const WISH_YOU = /^(?:vulez|vudriez|bghiti|bghitini|bghitu|t7ebni|thebni|t7ebu|t7ebuni|thebuni|tbghiw|tebghini)$/;

/** "Wait" (canonical): "stanna", "sber", "attendez" (round 26). */
const WAIT = /^(?:stana|stenna|stena|tsana|tsena|tsenna|sber|sbar|sbir|atendez|atends|atend|attendez|attends)$/;
/** A "wait" right after a "no" (a stop between allowed): the customer takes back what they said (round 26). */
function noWait(tokens: string[], i: number): boolean {
  if (!WAIT.test(tokens[i] ?? "")) return false;
  const before = STOPS.has(tokens[i - 1] ?? "") ? tokens[i - 2] : tokens[i - 1];
  return before === "la" || before === "non" || before === "no" || before === "le" || before === "lala";
}
/** "Or" before an alternative (canonical): "wla la", "ولا لا", "ou pas". */
const OR = new Set(["wla", "wela", "wala", "walla", "wella", "ula", "wl", "ola", "ou", "or", "olla", "ولا", "والا"]);

/**
 * "I'll ask", "I'll consult" in the first person, not in the past (canonical): "nchawer", "نسقسي" ("ns9si"), "nsewel";
 * with "with" after it, "I'll see", "I'll talk": "nchuf m3a", "nhder m3a", "nahki m3a" (round 42).
 */
const CONSULT = /^w?(?:nch?aw[ae]?r[\p{L}]*|ns[ae]?[9qk]s[ie]w?|nsa?w[ae]?l)$/u;
const CONSULT_WITH = /^w?(?:nch[ou]f|nshuf|nh?d[ae]?r|nahd[ae]?r|nahki|nhki|nt?kal[ae]?m)$/;
const WITH_WORD = /^(?:m3a|m3|ma3a|avec)$/;
/**
 * French: "je (vais|dois) demander à", "j'en parle à", "je consulte" (canonical, round 42); "voir" only with "avec" ("je
 * vois avec ma femme", not "je vais voir ma mère samedi").
 */
const CONSULT_FR = /^(?:demande|demander|parle|parler|consulte|consulter)$/;
const SEE_FR = /^(?:vois|voir|verifie|verifier)$/;
/**
 * Someone the customer asks before deciding (canonical): the household ("baba", "lwalida", "mrati", "rajli", "mon mari",
 * "ma femme", "mes parents") or a boss; Arabic-script "الواليد", "المدام", "الراجل" as the reader spells them (round 42).
 */
const ASKED_PERSON =
  /^(?:l|el|w)?(?:baba|buya|bba|abi|babak|walid|walida|walda|mi|omi|umi|yema|yma|mama|maman|mami|rajli|rajl|rajel|mrati|mrti|mra|mdam|madame|zawji|zawjti|khuya|khoya|khti|ukhti|wldi|bnti|3ayla|familia|mari|feme|epouse|pere|mere|parents|frere|seur|soeur|fils|file|famille|patron|chef)$/;
/** "I'll get back to you": "nrj3lk", "نرجعلك", "je reviens vers vous"; "nrdlk" with "the news" after it (round 42). */
const GET_BACK = /^w?nr[ae]?j[ae]?3(?:lk|lek|lik|lkum|lkom|lkm)$/;
const GIVE_BACK = /^w?nr[ou]?d+(?:lk|lek|lik|lkum|lkom)$/;
const NEWS = /^(?:l|el)?kh?b[ae]?r$/;
/** A yes, an "I take it", a "send it" or an "I agree" said after the customer's "I'll ask": the answer came (round 42). */
const ANSWERED_AFTER: ReadonlySet<string> = new Set(["yes", "send", "take", "accept"]);

/** "I'll tell you", "I'll answer you" (canonical): "n9ulk", "nqolek", "nrodlek", "nrod 3lik" (round 16). */
const ANSWER_LATER = /^w?n[9gq][aeiou]?l(?:k|ek|lk|lek|ik)$|^w?nr[ou]dd?(?:lek|lk|lik)?$/;

/** What opens a clause of its own after an "or" (canonical): a "must", a "there is", "comes", "it is" (round 16). */
const OR_CLAUSE = new Set([
  "lazem",
  "lazm",
  "ylzm",
  "ylzem",
  "yelzem",
  "khas",
  "khass",
  "faut",
  "kayn",
  "kayna",
  "famma",
  "fama",
  "yji",
  "tji",
  "est",
]);

/** The "not" of an "or not" (canonical): "ou pas", "ou non", "wla la", "wala lala". */
const OR_NOT = new Set(["pas", "non", "la", "lala", "no", "lla", "لا"]);

/** "Told me / told him" (canonical): "9altli", "galt liya", "qalli", "gatli", "m'a dit". */
const TOLD = /^(?:[g9q][aeiou]{0,2}(?:l|t)t?(?:li|lia|liya|lya|lu|lha|lek|lna)|dit)$/;

/** After or before a verb of hearing: not hearing ("j'entends plus", "ma sme3tekch"). */
const NOT_HEARD = new Set(["pas", "plus", "ma", "mal", "walu", "walo", "rien"]);

/** Fillers, thanks, blessings and forms of address: words that add no clause to a yes. */
const FILLER = words([
  "euh",
  "heu",
  "hein",
  "ah",
  "oh",
  "bon",
  "ben",
  "bah",
  "alors",
  "allo",
  "allô",
  "ewa",
  "iwa",
  "wa",
  "w",
  "et",
  "donc",
  "ya",
  "ha",
  "yak",
  "merci",
  "merci beaucoup",
  "merci bien",
  "mercii",
  "chokran",
  "choukran",
  "shukran",
  "shokran",
  "شكرا",
  "baraka allahou fik",
  "barak allah fik",
  "lah ykhalik",
  "allah ykhalik",
  "الله يخليك",
  "lah ykhallik",
  "y3tik saha",
  "ya3tik saha",
  "يعطيك الصحة",
  "saha",
  "صحة",
  "3aychek",
  "ya3aychek",
  "يعيشك",
  "barcha",
  "bezzaf",
  "bzaf",
  "madame",
  "monsieur",
  "mademoiselle",
  "khoya",
  "khouya",
  "akhi",
  "khti",
  "ukhti",
  "أخويا",
  "خويا",
  "ختي",
  "sidi",
  "lalla",
  "للا",
  "سيدي",
  "s'il vous plaît",
  "s'il te plaît",
  "svp",
  "stp",
  "please",
  "inchallah",
  "nchallah",
  "إن شاء الله",
  "ان شاء الله",
  "c'est tout",
  "voilà",
  "ça y est",
  "bonne journée",
  "bonne soirée",
  "au revoir",
  "bslama",
  "b slama",
  "bsalama",
  "بالسلامة",
  "baraka lah fik",
  "barak lah fik",
  "بارك الله فيك",
  "الله يبارك فيك",
]);
/** "Go on", "talk", "say it": after the order is read these may only ask the agent to keep talking. */
const GO_ON = words([
  "continuez",
  "continue",
  "kemmel",
  "kammel",
  "kemmli",
  "kml",
  "zid",
  "hder",
  "hdar",
  "ahdar",
  "tkellem",
  "tkallam",
  "e7ki",
  "ahki",
  "9oul",
  "goul",
  "قول",
  "9uli",
  "guli",
  "9olli",
  "قولي",
  "9ululi",
  "dis",
  "dites",
  "هدر",
  "اهدر",
  "احكي",
  "تكلم",
  "كمل",
  "زيد",
  "tfaddal",
  "تفضل",
]);

/** Around a price (canonical): "b 5000", "à 30", "pour 20"; "250 dh", "30 euros". */
const PRICE_BEFORE = new Set(["b", "bi", "a", "pur", "f"]);
/** A number in words before a currency (canonical): "quarante", "cin9", "mile", "alf", "khamsin", "mya" (round 18). */
const NUMBER_WORD =
  /^(?:dix|vingt|trente|9uarante|cin9uante|soixante|cent|cents|mile|cin9|six|sept|huit|neuf|alf|alaf|laf|mya|miya|myat|khamsin|khmsin|3chrin|tlatin|arb3in|sttin|sb3in|tmanin|tes3in)$/;
// ("dh" is canonical "d": round 17.)
const PRICE_AFTER =
  /^(?:da|dh|dhs|d|dt|dz|dinar|dinars|dirham|dirhams|drhm|drahm|drahem|euro|euros|eur|awru|€|ryal|rial|riyal|alf|mille|centimes?|dollars?)$/;
/** "You said", "I said" (canonical): "9lt", "9olti", "glti" (round 37). */
const YOU_SAID = /^(?:[9g][ou]?lt[iy]?|9ult[iy]?)$/;
/** "I am" (canonical): "rani", "rana", "ana", "ena", "suis" (round 38). */
const WHERE_I_AM = /^(?:rani|rana|ana|ena|suis|rahi)$/;
/** "In", "at" (canonical): "f", "fi", "fil", "fel", "en", "au", "dans" (round 38). */
const AT = /^(?:f|fi|fil|fel|fl|en|au|dans|m3a)$/;
/** "That's it", "that's right" (canonical, a whole yes hit): "c'est ça", "c'est bien ça", "exactement" (round 40). */
const THATS_IT = /^(?:c est (?:bien )?sa|exactement|voila|c est exact|sa)$/;
/** What may open a value said back (canonical): "wesh", "bah", "euh", "c'est" (round 40). */
const SAID_OPENER = /^(?:wech|bah|ben|euh|ah|alors|donc|c|est|ok)$/;
/** What may stand beside a value said back (canonical): its article or demonstrative ("la", "el", "l", "had", "dik"). */
const ECHO_FILLER = /^(?:la|le|les|l|el|al|had|hadi|hadik|dik|dak|hedhi|hedhika|taille|couleur|lon|lun|pointure)$/;
/** "He comes", "pass by" (canonical), said of the courier: "yji", "tji", "passer", "venir" (rounds 18 and 22). */
const COMES = /^(?:[yt]jiw?|paser|pase|pasez|venir|vient|vienne|venez)$/;
/** "Except" ("sauf", "à part", "excepté", "hormis"; "part" only after "a", "à part" canonical). */
const EXCEPT = /^(?:sauf|part|excepte|hormis)$/;
/** An article or a possessive between "except" and what it leaves out ("sauf la taille", "à part ma couleur"). */
const ARTICLE = /^(?:l|la|le|les|du|de|des|ma|mon|mes|sa|son|ses|cette|ce|ces)$/;
/**
 * Where a parcel is sent, canonical: "to", "at", "chez" and the Darija "l"/"el" before a place ("l dar baba"), or a
 * place glued to its "l" ("ldar", "lkhedma"); not "to me" ("liya", "lina": the customer's own).
 */
const TO_PLACE =
  /^(?:l|el|al|a|au|chez|3and|3nd|3end|3ind|f|fi|fel|fl)$|^l(?!(?:i|ia|iya|eya|ya|ina|na|ik|ek|ek?um)$)[a-z3]{2,}$/;
/**
 * The home denied as the place to deliver, read from the text as typed (round 32): "livrez à mon travail, pas à la
 * maison", "pas chez moi, mettez-le au point relais", "ab3athha l khedma machi l dar", "ma tjibouhach l dar, dirouha f
 * le bureau", "ما تجيبهاش للدار", "حطها فle stop desk بلاصة الدار" (instead of the house). `TO_HOME_LATIN` is "to the
 * house" in Latin letters, denied either way.
 */
const TO_HOME_LATIN = String.raw`(?:l\s?dar|lel\s+dar|l\s?dari)(?![\p{L}])`;
const HOME_DENIED = new RegExp(
  [
    String.raw`(?:^|[\s,;:(])(?:pas|machi|mashi|mouch|mech|mich)\s+(?:(?:(?:à|a)\s+la\s+maison|chez\s+moi|(?:à|a|au)\s+domicile)(?![\p{L}])|${TO_HOME_LATIN})`,
    String.raw`\bma\s+(?:t|y)?(?:jib|jeb|sift|sayft|b3ath|ba3th|ab3ath|ab3th|tab3th|wasl|wesl)\p{L}*(?:ch|sh)\s+${TO_HOME_LATIN}`,
    String.raw`(?:^|\s)ما\s+(?:ت|ي)?(?:جيب|جيبو|صيفط|بعث|ابعث|وصل|تجي|جي)\p{L}*ش\s+(?:لل?دار|للدار|لداري|للضيعة)`,
    String.raw`(?:بلاصة|بدل|عوض)\s+(?:الدار|داري)`,
  ].join("|"),
  "iu",
);
/**
 * "I am not at home" ("je suis pas chez moi", "je serai pas à la maison"): where the customer is, not where to deliver
 * ("ana machi f dar", I'm not at home, is not read as a denied destination at all: HOME_DENIED has no "f dar").
 */
const HOME_STATE =
  /\b(?:suis|serai|serais|sera|est|étais|etais|reste|rentre)\s+(?:\p{L}+\s+)?(?:pas|jamais)\s+(?:(?:à|a)\s+la\s+maison|chez\s+moi)|\bj['’ ]?suis\s+pas\s+(?:(?:à|a)\s+la\s+maison|chez\s+moi)/iu;
/** "Make me", "give me" before a colour, a size or a model (canonical, round 13). */
const MAKE_ITEM = /^(?:faites|dir|dirli|dirlia|dirliya|diruli|dirouli|a3tini|3tini|3melli|t3melli|ta3melli)$/;
/**
 * "Make me", "give me", "leave it to me (at)" before a price: the customer names their own price (canonical, round 13).
 * MAKE_ITEM's words and those that read as "make me" only before a price ("laissez-la moi à 40 euros"; "je fais du 42"
 * or "laissez-le à la gardienne" ask for no item).
 */
const makesPrice = (w: string) => MAKE_ITEM.test(w) || /^(?:faite|fais|fait|laisez|laise|donez|done)$/.test(w);

/** "Me?" echoing a cancel the customer denies (canonical): "nannuler ana? jamais", "j'annule moi ? non". */
const ECHO_ME = new Set(["ana", "ena", "ani", "anaya", "moi"]);

/** "How much" (canonical): "chhal", "b9adech", "combien". */
const HOW_MUCH = /^(?:b?chh?al|b?9add?[ae]ch|b?kadd?[ae]ch|combien|kombien)$/;

/** Before a value (canonical): "en noir", "b lk7al", "f 42". */
const VALUE_PREP = new Set(["en", "b", "bl", "f", "fi", "fl"]);
/** "Please" in one word (canonical): "y3aychek", "3afak", "brabi", "stp", "svp" (round 40). */
const PLEASE = /^(?:y3[ae]?y+ch[ae]?k|3a?fak(?:um|om)?|brabi|barabi|stp|svp|plea?se|ykhal+ik)$/;

/** "Who" of "not me who cancelled" (canonical): "li", "lli", "qui". */
const WHO = new Set(["li", "lli", "elli", "illi", "eli", "qui", "9ui", "ki"]);

/**
 * "Can I", "can you" (canonical): Tunisian "nejem", Darija "n9der", "ymken", French "peux", "pouvez", "pourriez" as the
 * canonical tokens spell them ("puvez", "puriez": round 36; the spellings with "ou" it held before never occur).
 */
const MODAL =
  /^(?:[nt]?n[ae]j[ae]m|[nt]?[9q]d[ae]r|y?[ae]?mk[ae]n(?:li)?|m[ou]mkin|peux|puis|puvez|puriez|purais|purait|peut)$/;

/** "I was", "I wanted", "I was thinking" (canonical) before a change only thought of (round 17). */
const WAS_THINKING =
  /^(?:kont|kunt|knt|kent|kanet|nkhamem|nkhmem|nkhm|nfaker|nfker|avais|vulais|pensais|pense|penser)$/;

/** "A question" (canonical): "swal", "سؤال", "question" (round 19). */
const QUESTION_NOUN = /^(?:s[ou]+2?a?l|sw?al|so2al|su2al|[9q]uestion)$/;
/** "Yesterday" (canonical): "l'bareh", "البارح", "hier" (round 19). */
const YESTERDAY = /^(?:l|el)?bar(?:e?h|e?7)$|^hier$/;
/** "why" ("3lach kt3awdu t3ayto", "pourquoi vous rappelez"). */
const WHY = /^(?:3lach|3lech|3lache|3lah|wa3lach|alach|lach|lech|pur9uoi|pourquoi)$/;
/** "the other day" (canonical): "nhar lakhor", "نهار الاخر", "l'autre jour" (round 25). */
const OTHER_DAY = /^(?:lakhor|lakhur|lakhr|lokhra|lukhra|lekhra|l5or|lkhor)$/;
/** "twice", "once more" after a call verb: the calls made so far ("3itu lya mrtin"). */
// ("عيطتو ليا ثلاث مرات", "tlat mrat": times; round 37.)
const TIMES_CALLED = /^(?:mr+tin|mer+tin|mar+tin|m[ae]r+atin|m[ae]?r+at|jouj|juj|zouz|zuz)$/;
/** "I didn't answer" (canonical, after "ma"): "jawbtch", "rditch"; "répondu" (round 37). */
const NOT_ANSWERED = /^(?:jawbtch|jawebtch|jawabtch|jwbtch|rditch|redditch|radditch|repondu)$/;
/** "before you" after a call verb ("li 3itat 9bl mnk"). */
const BEFORE_YOU = /^(?:9bl|9bal|9bel|gbel|gbal)$/;
const YOU_OBJECT = /^(?:mnk|mennek|menek|mink|mnek|mennak|mnak|menkom|mnkm|mnkom)$/;

/**
 * "c'est pas annulé non non c'est toujours bon", "ma lghitch la la": a "no" right after a refusal verb the customer
 * negates (nothing but other "no"s or a comma between) says that negation again; it refuses nothing (round 25).
 */
function echoesNegation(tokens: string[], hits: SignalHit[], d: SignalHit): boolean {
  return (
    d.signal === "no" &&
    hits.some(
      (c) =>
        (c.signal === "cancelVerb" || c.signal === "changedMind") &&
        c.negated &&
        ((c.end <= d.start &&
          tokens
            .slice(c.end, d.start)
            .every(
              (t, k) =>
                t === "," ||
                t === "pas" ||
                t === "jamais" ||
                hits.some((n) => n.signal === "no" && n.start === c.end + k),
            )) ||
          // "non j'ai pas changé d'avis", "la, ma bddltch ray": the "no" before it, with only the speaker, the
          // auxiliary and the negation between, answers "have you changed your mind?" (round 26).
          (d.end <= c.start &&
            tokens
              .slice(d.end, c.start)
              .every((t, k) => ECHO_LEAD.has(t) || hits.some((n) => n.signal === "no" && n.start === d.end + k)))),
    )
  );
}
/** "I want" (canonical), whose negation is no denied change of mind (round 26). */
const WANT = /^(?:n7e?b|nhe?b|n7ebch|n7bch|nhbch|nhebch|bghit|bghitch|nbghi|veux|voulais|voudrais)\w*$/;
/** Between a "no" and the negated verb it echoes: the speaker, an auxiliary, the negation (canonical; round 26). */
const ECHO_LEAD: ReadonlySet<string> = new Set([
  ",",
  "j",
  "je",
  "ai",
  "n",
  "ne",
  "pas",
  "jamais",
  "moi",
  "ana",
  "ena",
  "ma",
  "rani",
  "hein",
]);

/**
 * A call verb that tells of a call made, not one asked for (round 25): yesterday's ("3aytoli l'bareh"), twice
 * ("3itu lya mrtin"), before this one ("3itat 9bl mnk"), made by someone described ("lbent li 3ayetetli"), or asked "why"
 * of ("3lach kt3awdu t3itu").
 */
function reportedCall(tokens: string[], c: SignalHit): boolean {
  const after = tokens.slice(c.end, c.end + 3);
  if (after.some((t) => YESTERDAY.test(t) || TIMES_CALLED.test(t))) return true;
  // ("عيطتولي على الجوج و أنا في la réunion، ما جاوبتش": a call the customer did not answer was made; round 37.)
  if (
    tokens
      .slice(c.end, c.end + 10)
      .some((t, k, rest) => NOT_ANSWERED.test(t) && (t !== "repondu" || rest.slice(0, k).includes("pas")))
  )
    return true;
  // ("نهار الاخر عيطولي ناس", "l'autre jour vous m'avez appelé": the other day, yesterday, before the call verb.)
  // (In the call's own clause only, and not "again": "3aytouli l'bareh, 3awdou 3aytouli ghedwa" asks a new call.)
  let from = c.start;
  while (from > Math.max(0, c.start - 3) && !/^[,.;!?…]$/.test(tokens[from - 1] ?? "")) from--;
  if (
    !/^3aw/.test(tokens[c.start - 1] ?? "") &&
    tokens
      .slice(from, c.start)
      .some(
        (t, k) =>
          YESTERDAY.test(t) ||
          OTHER_DAY.test(t) ||
          (t === "autre" && tokens[from + k - 1] === "l" && /^jou?r$/.test(tokens[from + k + 1] ?? "")),
      )
  )
    return true;
  if (after.some((t, k) => BEFORE_YOU.test(t) && YOU_OBJECT.test(tokens[c.end + k + 1] ?? ""))) return true;
  if (c.start >= 2 && RELATIVE_WHO.has(tokens[c.start - 1] ?? "")) return true;
  // ("Tawlet barcha bech 3ayattouli", "طولتو برشا باش كلمتوني", "تأخرتو بزاف باش عيطتو": you took long to call; "توا
  // عاد تكلموني؟": only now you call; "3la had l'3ayta", "merci pour l'appel": thanks for this call; round 34.)
  const link = tokens.slice(Math.max(0, c.start - 2), c.start);
  if (
    link.some((t) => /^(?:bech|bach|bich|ba)$/.test(t)) &&
    tokens.slice(Math.max(0, c.start - 5), c.start).some((t) => TOOK_LONG.test(t))
  )
    return true;
  if (tokens[c.start - 1] === "3ad" && /^(?:twa|taw|tawa|towa|daba|drk|dorka)$/.test(tokens[c.start - 2] ?? ""))
    return true;
  if (CALL_NOUN.test(tokens[c.start] ?? "") && link.some((t) => /^(?:had|hadi|3la|pur|merci)$/.test(t))) return true;
  return tokens.slice(Math.max(0, c.start - 2), c.start).some((t) => WHY.test(t));
}
/** "You took long" (canonical): "tawlet", "tultu", "tw3atu", "takhrtu", "t3atlu", "3tltu" (round 34). */
const TOOK_LONG =
  /^(?:tawlet|tawltu|tulteha|tultu|tultuha|twelt|tw3atu|tw3tu|takhrtu|ta5rtu|t3atlu|t3tlu|3tltu|3tlto|tardez)$/;
/** The call as a thing (canonical): "3ayta", "t3ayta", "l'appel" (round 34). */
const CALL_NOUN = /^(?:l?3ayta|t3ayta|apel|l?mkalma)$/;
/** "Sorry", "thanks" right after a "no" (canonical): "la ma3lich", "la chokran" (round 19). */
const POLITE_AFTER_NO = /^(?:ma3li(?:ch|h)|malich|merci|ch?[ou]kran|shokran|chkran|ch?[ou]?kra)$/;
/** Thanks in one word (canonical): "صحيت" ("shit"), "sahit", "merci", "chokran", "y3tik" (round 40). */
const THANKS = /^(?:shit|sahit|sa7it|sahhit|merci|ch?[ou]kran|shokran|chkran|y3tik|ya3tik|y3ichek|y3aychek)$/;
/** A form of address besides `ADDRESS` (canonical): "khoya", "kho", "sahbi", "ya" (round 40). */
const ADDRESS_MORE = /^(?:khoya|khouya|kho|khiti|sahbi|sahbti|mademoiselle|ya)$/;
/** One "no", then "it's fine" and at most a thanks (canonical tokens, stops left out): "nan c'est bon" (round 40). */
const NO_NEED = /^(?:(?:uais|wais|bah|ben|euh|ah|bon) )*(?:non|nan|n) c (?:est )?bon(?: merci(?: beaukup| bcp)?)?$/;
/** "After" (canonical): Moroccan "mor", "mora", "مورا", and "ba3d", "بعد", "après" (round 40). */
const AFTER_WORD = /^(?:mor|mora|mura|ba3d|mba3d|b3d|mb3d|apres)$/;
/** Payday, the pay (canonical): "lkhalsa", "الخلصة", "الشهرية", "la paie", "le salaire" (round 40). */
const PAYDAY =
  /^(?:l|el)?(?:kh[ae]?ls+a|khlasa|chahriya|chehriya|chhriya|chahria|chehria|chrya|chria|salaire|paie|paye)$/;
/** The order (canonical): "la commande", "lcommande", "الكوموند" (round 19). */
const ORDER_NOUN = /^(?:l|el)?k[ou]m+[ae]nd[ae]?s?$/;

/** "Later" (canonical): "après", "ba3d", "mba3d", "بعد". */
const LATER = new Set(["apres", "ba3d", "b3d", "mba3d", "mb3d", "ba3den", "b3den", "mbe3d"]);

/** Question words that also join clauses ("quand vous arrivez", "ki tousel", "fin kayn"): they open no question alone. */
const CONJUNCTION_Q = /^(?:9uand|9ui|ki|kif|kifma|fin|win|u)$/;

/** "Why" (canonical) asked of the customer's own act: "3lach", "3lech", "lach", "pourquoi" (round 33). */
const WHY_ME = /^(?:3lach|3lech|3lah|3layach|lach|pur9uoi)$/;
/** What may stand between "why" and the verb: "ghadi", "bach", "bech", "n9der" (round 33). */
const WHY_LINK = /^(?:ghadi|ghad|gha|bach|bech|bich|ba|rah|nb9a|n9der|ndir)$/;
/**
 * "Why would I cancel": a "why" at most two words before a first-person cancel verb, the words between only "going
 * to" ("3lach ghadi nlghiha", "علاش باش نبطل", "3lech nbatel"; round 33).
 */
function whyMe(tokens: readonly string[], at: number): boolean {
  if (!FIRST_PERSON.test(tokens[at] ?? "")) return false;
  for (let i = at - 1; i >= Math.max(0, at - 3); i--) {
    if (WHY_ME.test(tokens[i] ?? "")) return true;
    if (!WHY_LINK.test(tokens[i] ?? "")) return false;
  }
  return false;
}
/**
 * "Never" or "no question" just before the verb: "jamais j'annule", "jamais de la vie que j'annule", "pas question de
 * l'annuler", "hors de question d'annuler", "aucune raison d'annuler" (canonical; round 33).
 */
function neverBefore(tokens: readonly string[], at: number): boolean {
  const before = tokens.slice(Math.max(0, at - 6), at).join(" ");
  return /(?:^| )(?:jamais(?: de (?:la|ma) vie)?(?: 9ue| 9u)?(?: je| j)?(?: l| la| le)?|(?:pas|hors de) 9uestion d(?:e)?(?: l| la| le)?|aukune? raison d(?:e)?(?: l| la| le)?)$/.test(
    before,
  );
}
/** The negators of a cancel verb's own clause (canonical): "ma", "machi", "much", "mech", "ne" (round 33). */
const NOT_WORD = /^(?:ma|machi|mashi|much|mch|mech|mich|ne|n)$/;
/** What may stand between the negator and the verb: "going to" (canonical): "ghadich", "bech", "bach" (round 33). */
const GOING_LINK = /^(?:ghadi|ghadich|ghadiych|bech|bach|bich|rani|l|la|le)$/;
/**
 * A cancel verb negated in its own clause: the Maghrebi negative suffix on the verb ("nlghich", "nbtlch") with "ma"
 * before, "ma ghadich nlghi", "much bech nanuli", or the French "ne … pas" around it (canonical; round 33).
 */
function ownNegation(tokens: readonly string[], h: SignalHit): boolean {
  const verb = tokens[h.start] ?? "";
  const before = tokens.slice(Math.max(0, h.start - 3), h.start);
  const negator = before.findLastIndex((t) => NOT_WORD.test(t));
  // (Spoken French drops the "ne": "je l'annule pas du tout", "j'annule pas"; round 34.)
  if (
    negator < 0 &&
    ["pas", "jamais", "point"].includes(tokens[h.end] ?? "") &&
    before.some((t) => t === "je" || t === "j")
  )
    return true;
  if (negator < 0 || !before.slice(negator + 1).every((t) => GOING_LINK.test(t))) return false;
  if (/^(?:ne|n)$/.test(before[negator] ?? ""))
    return ["pas", "rien", "jamais", "plus", "point"].includes(tokens[h.end] ?? "");
  return (
    /(?:ch|sh)$/.test(verb) ||
    before.slice(negator + 1).length > 0 ||
    /^(?:machi|mashi|much|mch|mech|mich)$/.test(before[negator] ?? "")
  );
}
/**
 * A change the shop or the customer already made, told, not asked (canonical; round 33): the Maghrebi past of "you
 * changed" or "we changed" ("بدّلتوهالي", "wbdltuli", "bdelnaha"), a French past ("j'avais échangé", "elle a pu
 * l'échanger"), or the exchange named as a thing ("l'échange s'était bien passé", "après l'échange", "dertou
 * l'échange") with no wish or order before it ("je voudrais un échange", "faites l'échange" ask one).
 */
const CHANGED_PAST = /^w?b[ae]?d+[ae]?l(?:t[uo]|na)/;
const PAST_AUX = /^(?:avais|avait|avaient|ai|a|avez|aviez|ont|avons|pu|deja|dertu|dertum|drtu)$/;
const EXCHANGE = /^echang(?:e|es|er|ee|ees)$/;
const ASKS_ONE =
  /^(?:vudrais|vudrait|vudrions|vuliez|veux|veut|vulez|faites|faire|fais|pouvez|peux|pourriez|possible|bghit|bghina|n7eb|nheb|nhebu|n7ebu|diru|dir|dirli|diruli|a9der|t9der|t9edru)$/;
function reportedChange(tokens: readonly string[], at: number): boolean {
  const verb = tokens[at] ?? "";
  if (CHANGED_PAST.test(verb)) return true;
  if (!EXCHANGE.test(verb)) return false;
  const before = tokens.slice(Math.max(0, at - 4), at);
  if (before.some((t) => ASKS_ONE.test(t))) return false;
  const near = tokens.slice(Math.max(0, at - 2), at);
  return near.some((t) => PAST_AUX.test(t)) || ["l", "le", "cet", "cete"].includes(tokens[at - 1] ?? "");
}
/**
 * "Une seconde, je demande à mon mari", "une seconde madame": wait a second, no second item (canonical "sekonde"); a
 * second one names what it is ("une seconde paire", "un second article"; round 33).
 */
const A_SECOND = /^(?:sekonde?|second|sec)$/;
const AFTER_WAIT = /^(?:[,.!?…]|madame|monsieur|mademoiselle|je|j|s|svp|sil|il|ele|mon|ma|atendez|atends|jarive|j)$/;
function waitASecond(tokens: readonly string[], at: number): boolean {
  const i = A_SECOND.test(tokens[at] ?? "") ? at : at + 1;
  if (!A_SECOND.test(tokens[i] ?? "") || !["un", "une", "deux"].includes(tokens[i - 1] ?? "")) return false;
  return i + 1 >= tokens.length || AFTER_WAIT.test(tokens[i + 1] ?? "");
}
/**
 * Nothing to change (canonical; round 33): "ça change rien", "aucun changement", "pas de changement", "rien n'a
 * changé", "ما كاين لا تبديل لا والو", "ma 7atta chay nbadlou", "ma tbaddel chay", "وما تبدلو والو", "ma kan walou
 * tbedlou", "pas la peine de changer quoi que ce soit", "ma 3ndich hta tbdil", "ما فيها حتى تبديل" (round 35). Not
 * when an exception follows ("rien à changer sauf la couleur", "ma tbaddel chay ghir el lon").
 */
const NOTHING = /^(?:rien|walu|walo|aukun|aukune)$/;
/** "Thing" (canonical), nothing only when negated: "ma tbaddel chay", "ma 7atta chay nbadlou" (not "nbaddel chay"). */
const THING = /^(?:chay|chy)$/;
const BUT_FOR = /^(?:sauf|ghir|gher|illa|ila|ela|except|hormis|seulement|ken)$/;
function nothingChanged(tokens: readonly string[], at: number): boolean {
  const before = tokens.slice(Math.max(0, at - 3), at);
  const after = tokens.slice(at + 1, at + 3);
  if (tokens.slice(at + 1, at + 6).some((t) => BUT_FOR.test(t))) return false;
  const negated = tokens.slice(Math.max(0, at - 4), at).some((t) => t === "ma" || /^(?:hta|7ta|hata)$/.test(t));
  return (
    after.some((t) => NOTHING.test(t)) ||
    before.some((t) => NOTHING.test(t)) ||
    (negated && [...before, ...after].some((t) => THING.test(t))) ||
    (after[0] === "9uoi" && after[1] === "9ue") ||
    (tokens[at - 1] === "de" && tokens[at - 2] === "pas") ||
    (tokens[at - 1] === "la" && /^(?:kayn|kaynch|kan|makanch|makaynch|famma|fama)$/.test(tokens[at - 2] ?? "")) ||
    (/^(?:hta|7ta|hata)$/.test(tokens[at - 1] ?? "") &&
      /^(?:3ndich|3andich|3ndi|kayn|famma|fiha|fih|fihom|fihum)$/.test(tokens[at - 2] ?? "")) ||
    (tokens[at - 1] === "de" && tokens[at - 2] === "peine")
  );
}
/**
 * "ناقص" as "missing, less" (canonical "na9s", "na9sa"): "جاتها قشة ناقصة" (a piece was missing), "السومة ناقصة بزاف"
 * (the price is much lower), "ناقص كان توصل" (all that's missing is that it comes); no "take one off", which names how
 * many ("na9s wahda", "نقص واحدة"; round 33).
 */
const LACKING = /^w?na9s(?:a|in|at|ine)?$/;
const HOW_MANY =
  /^(?:wahda|wahed|wahd|w7da|w7ed|wa7da|wa7ed|1|2|jouj|juj|zuz|zouz|thnin|chwiya|chwia|chwaya|mnha|mno|mnu|menha|menou)$/;
function lacking(tokens: readonly string[], at: number): boolean {
  const i = tokens.findIndex((t, k) => k >= at && k <= at + 1 && LACKING.test(t));
  return i >= 0 && (/a$|in$|at$|ine$/.test(tokens[i] ?? "") || !HOW_MANY.test(tokens[i + 1] ?? ""));
}
/**
 * A change thought of, then left: after the change verb, a "no" or a "but", then "leave it as it is" ("9olt nbeddel l
 * couleur ... la la khalliha noir kima hiya", "كنت باغية نبدل ... walakin khellih lk7al kima howa", "نبدل اللون ولا
 * نخليه؟ لا خليه، نفس اللون", "laissez-la comme elle est"; canonical; round 33). A change verb after the "leave it" is read on its own and stays live.
 */
const LEAVE_IT =
  /^(?:kh?[ae]?l+[iy]+(?:h|ha|hum|hom|w|u|uha|wha|iw|iwha|ouha)?|khliuha|khliwha|khlih|khliha|laise[zr]?|laisez|gardez|garde)$/;
const AS_IT_IS = /^(?:kima|kif|kifma|kifach|kome|comme|tele|tel|nfs|nafs|meme)$/;
const TURN = /^(?:la|lala|non|walakin|besah|bsah|ama|mais|ewa|safi|bon)$/;
function keptAsItIs(tokens: readonly string[], end: number): boolean {
  for (let i = end; i < tokens.length; i++) {
    if (!LEAVE_IT.test(tokens[i] ?? "")) continue;
    const turned = tokens.slice(end, i).some((t) => TURN.test(t));
    const asIs = tokens.slice(i + 1, i + 5).some((t) => AS_IT_IS.test(t));
    if (turned && asIs) return true;
  }
  return false;
}
/**
 * After a take-back, anything that asks again: a correction (an address, "instead", an add, a quantity, a change verb),
 * a value unless "as it is" is said ("kima hiya", "ka ma hiya"), a call, a wish, "plutôt", a destination ("chez", "à ma
 * mère", "3and"), a question mark (round 35).
 */
const ELSEWHERE = /^(?:chez|3nd|3and|3end|3ind|plutot)$/;
function asksAgainAfter(tokens: readonly string[], hits: readonly SignalHit[], from: number): boolean {
  const rest = tokens.slice(from);
  return (
    hits.some(
      (h) =>
        h.start >= from &&
        !h.negated &&
        (CORRECTION.has(h.signal) || h.signal === "callVerb" || h.signal === "want") &&
        !(h.signal === "attr" && rest.some((t, i) => AS_IT_IS.test(t) || (t === "ka" && rest[i + 1] === "ma"))),
    ) ||
    rest.some(
      (t, i) =>
        t === "?" ||
        // ("laissez l'adresse de chez moi": the customer's own home is no other place; round 44.)
        (ELSEWHERE.test(t) && !(t === "chez" && /^(?:moi|nous)$/.test(rest[i + 1] ?? ""))) ||
        (t === "a" && /^(?:ma|mon|mes|sa|son)$/.test(rest[i + 1] ?? "")),
    )
  );
}
/** The wish that opens a verb, right before it: "n7eb nbadel", "bghit nlghiha" (round 35). */
function wishFor(hits: readonly SignalHit[], verb: SignalHit): SignalHit[] {
  return hits.filter((w) => w.signal === "want" && w.end <= verb.start && verb.start - w.end <= 1);
}
/**
 * A change asked, then taken back (canonical; round 35): after the change verb, a "no" and, within three words, "leave
 * it" or "forget it", then a yes to the order: "N7eb nbadel el lon... la, khalliha ka ma hiya ... Ab3ath", "Changez la
 * couleur... non, laissez, la grise c'est bien aussi, envoyez", "بغيت نقول ليك نبدل العنوان... لا لا، نسا ... إيه،
 * صيفطوها". The change verb, the "no" that takes it back and the "leave it" are about the change, not the order: none
 * of them asks or refuses anything. Not "keep only" ("khalli ghir"), nor "keep it yourself" ("khalliha 3andkom"), nor
 * "make it X" (a value right after the "leave it", with no "as it is"), nor with a refusal or anything that asks again
 * after the "leave it" (`asksAgainAfter()`).
 */
const TAKE_BACK_NO = /^(?:la|lala|lla|non|le|nn|no|nan|lé)$/;
const FORGET = /^(?:nsa|nsaha|nsah|nsahom|ensa|oublie|oubliez|oubli|tomber)$/;
/** "Say it again" (canonical): "3awed", "عاود", "répétez", "redites" (round 44). */
const SAY_AGAIN = /^(?:3aw|3ew|repet|redi)/;
/** "Enough", "that's it" (canonical): "safi", and "khlas", "5las", "barka" since round 44 ("لا لا خلاص, laissez"). */
const ENOUGH = /^(?:safi|khl[ae]?s|5l[ae]?s|khal[ae]s|barka|bar9a|yezi|yezzi)$/;
/** What a change names and a "leave it" can keep by name: the address, a value, the quantity (round 44). */
const KEPT_OBJECT: ReadonlySet<string> = new Set(["address", "attr", "attrNoun", "qty"]);
const TO_YOU = /^(?:3lik|3likom|3likum|3lih|3liha|3ndk|3andk|3ndkom|3andkom|3ndkum|3andek|3endek|chez|pour|vous)$/;
function takenBack(tokens: readonly string[], hits: readonly SignalHit[]): Set<SignalHit> {
  const out = new Set<SignalHit>();
  for (const c of hits) {
    if (c.signal !== "changeVerb" || c.negated) continue;
    const next = hits.find((h) => h.signal === "changeVerb" && h.start > c.start)?.start ?? tokens.length;
    // ("Oui, et est-ce qu'on peut changer l'adresse... لا لا خلاص, laissez l'adresse de chez moi": what the change names,
    // which a "leave" below may keep by name, and a yes before the change; round 44.)
    const object = hits.find((h) => KEPT_OBJECT.has(h.signal) && h.start >= c.end && h.start <= c.end + 2);
    const yesFirst = hits.some((h) => (h.signal === "yes" || h.signal === "accept") && !h.negated && h.end <= c.start);
    for (let j = c.end; j < Math.min(next, c.end + 16); j++) {
      if (!TAKE_BACK_NO.test(tokens[j] ?? "")) continue;
      let k = j + 1;
      while (
        k < j + 4 &&
        (TAKE_BACK_NO.test(tokens[k] ?? "") || tokens[k] === "," || tokens[k] === "." || ENOUGH.test(tokens[k] ?? ""))
      )
        k++;
      const leave = tokens[k] ?? "";
      if (!(LEAVE_IT.test(leave) || FORGET.test(leave))) continue;
      if (ONLY.has(tokens[k + 1] ?? "") || tokens.slice(k + 1, k + 3).some((t) => TO_YOU.test(t))) continue;
      // ("el a7mer la, 5alliha ka7la": "make it black", a value right after the "leave it", unless "as it is" follows.)
      const valued = hits.some((h) => h.signal === "attr" && h.start > k && h.start <= k + 2);
      if (valued && !tokens.slice(k + 1, k + 8).some((t) => AS_IT_IS.test(t))) continue;
      const after = hits.filter((h) => h.start > k);
      // (The "leave" names the very thing the change named, so what it keeps is resolved: the yes that opened the reply
      // stands, and none need follow.)
      const kept = object && hits.find((h) => h.signal === object.signal && h.start > k && h.start <= k + 2);
      const yes =
        after.some((h) => (h.signal === "send" || h.signal === "accept") && !h.negated) ||
        (kept !== undefined && yesFirst);
      const refused = after.some((h) => STRONG_DENIAL.has(h.signal) && !h.negated);
      // (The thing kept by name is no correction asked again.)
      if (!yes || refused || asksAgainAfter(tokens, kept ? hits.filter((h) => h !== kept) : hits, k + 1)) continue;
      out.add(c);
      // (And the wish that opens it, "n7eb nbadel", "bghit nbeddel": it wants that change.)
      for (const w of wishFor(hits, c)) out.add(w);
      for (const h of hits)
        if ((h.signal === "no" && h.start >= c.end && h.start < k) || (h.start === k && DENIAL.has(h.signal)))
          out.add(h);
      break;
    }
  }
  return out;
}
/**
 * A day said, then corrected on the spot (canonical; round 35): the day, a "no" or a "sorry" and nothing else, then
 * another day: "ابعثها نهار الاربعاء لا لا سامحني الخميس الخميس كيف ما قلت انت", "جيبوه نهار السبت... لا سمح ليا، الأحد",
 * "euh lundi non pardon mercredi c'est mercredi que vous avez dit". The first day and the words that withdraw it ask
 * nothing; the day said after is read on its own (a new day still asks one). Not the same day again ("wela jem3a ...
 * la la jem3a kayen salat": no to that day, then why).
 */
/** What withdraws a day, with a "no" or alone: "pardon", "smh", "sorry", "plutôt". */
const SORRY = /^(?:pardon|pardo|samhni|smhni|smhli|sm7li|smh|smahli|samhli|sorry|dsl|desole|plutot)$/;
/** What may stand around the withdrawal without withdrawing: "liya", "je veux dire", "ya3ni", "ana ghlt", "9ul". */
const CORRECTING =
  /^(?:lya|liya|li|je|veux|dire|ya3ni|y3ni|euh|bref|ana|ghlt|ghlat|ghaltt|tlft|9ul|gul|9oul|goul|disons|dis)$/;
function correctedDays(tokens: readonly string[], hits: readonly SignalHit[]): Set<SignalHit> {
  const out = new Set<SignalHit>();
  for (const d of hits) {
    if (d.signal !== "day") continue;
    let k = d.end;
    let withdrawn = false;
    while (k < d.end + 6 && k < tokens.length) {
      const t = tokens[k] ?? "";
      if (TAKE_BACK_NO.test(t) || SORRY.test(t)) withdrawn = true;
      else if (!CORRECTING.test(t) && t !== "," && t !== "." && !LEAVE_IT.test(t)) break;
      k++;
    }
    // (Or "leave it" and the day, "la la khlih lahd": the lexicon's put-off, read here as the day said.)
    const next = hits.find(
      (h) => (h.signal === "day" && h.start === k) || (h.signal === "postpone" && h.start <= k && k < h.end),
    );
    // (Another day: "wela jem3a ... la la jem3a kayen salat" says no to that day, then why.)
    if (!withdrawn || !next || tokens[next.end - 1] === tokens[d.end - 1]) continue;
    out.add(d);
    for (const h of hits) if (h.start >= d.end && h.start < k && (h.signal === "no" || h.signal === "what")) out.add(h);
  }
  return out;
}
/**
 * "w zid 7ajja... n7eb nbadel", "zid haja, ...": "one more thing", announcing what follows, no item added (canonical;
 * round 35): "add" and "thing", then a stop.
 */
const A_THING = /^(?:haja|7aja|hajja|7ajja|chose|truc|kelma|klma)$/;
function oneMoreThing(tokens: readonly string[], at: number): boolean {
  return A_THING.test(tokens[at + 1] ?? "") && [".", ",", "?", "!"].includes(tokens[at + 2] ?? ".");
}
/** "el jem3a kamla", "la semaine entière": the whole week (Tunisian "jem3a" is the week too), no day (round 35). */
const WEEK = /^(?:el|l)?(?:jem3a|jom3a|jum3a|jm3a|simana|semaine|sman)$/;
const ALL_OF = /^(?:kamla|kamel|kaml|kml|kamlin|entiere|complete)$/;
/**
 * A cancel said, then taken back (canonical; round 35): the cancel verb, then a "no" (with "wait" or "leave it" beside
 * it) and at once a send, a take or a keep: "annulez... non attendez, je la garde", "annulez-la... attendez, non,
 * envoyez-la finalement", "بغيت نلغيها... لا لا، خليها، صيفطوها". None of those words refuses anything; nothing
 * refused, asked, changed or kept "only" after the take-back ("annulez... non, prenez juste le rouge" is a change).
 */
const WAIT_WORD =
  /^(?:atendez|atends|atend|stena|stenna|stana|stanna|tsna|tsena|sbr|sber|osbor|asber|bon|en|fait|finalement|ah|euh)$/;
function cancelTakenBack(tokens: readonly string[], hits: readonly SignalHit[]): Set<SignalHit> {
  const out = new Set<SignalHit>();
  for (const c of hits) {
    if (c.signal !== "cancelVerb" || c.negated) continue;
    let k = c.end;
    let turned = false;
    while (k < c.end + 8 && k < tokens.length) {
      const t = tokens[k] ?? "";
      if (TAKE_BACK_NO.test(t)) turned = true;
      else if (!(t === "," || t === "." || WAIT_WORD.test(t) || LEAVE_IT.test(t))) break;
      k++;
    }
    if (!turned) continue;
    const yes = hits.find(
      (h) => (h.signal === "send" || h.signal === "take" || h.signal === "accept") && !h.negated && h.start === k,
    );
    if (!yes) continue;
    const after = hits.filter((h) => h.start >= yes.end);
    if (
      after.some((h) => (STRONG_DENIAL.has(h.signal) || ITEM.has(h.signal)) && !h.negated) ||
      tokens.slice(yes.end).some((t) => ONLY.has(t)) ||
      asksAgainAfter(tokens, hits, yes.end)
    )
      continue;
    out.add(c);
    for (const w of wishFor(hits, c)) out.add(w);
    for (const h of hits) if (h.start >= c.end && h.start < k && DENIAL.has(h.signal)) out.add(h);
  }
  return out;
}
/** A refusal that ends on "pas besoin" or "pas la peine" (canonical): there is no need. */
function noNeed(tokens: readonly string[], h: SignalHit): boolean {
  return ["besoin", "peine"].includes(tokens[h.end - 1] ?? "");
}
/**
 * "Pas besoin de" and a verb (canonical, "-er", "-ir", "-re", or a pronoun before it): no need to do it (round 35);
 * "pas la peine de" too ("c'est pas la peine de me rappeler"; round 36). Not a verb of sending: "pas besoin de
 * l'envoyer" refuses the order.
 */
function noNeedTo(tokens: readonly string[], h: SignalHit): boolean {
  if (!noNeed(tokens, h) || !["de", "d"].includes(tokens[h.end] ?? "")) return false;
  const next = tokens[h.end + 1] ?? "";
  const pronoun = ["me", "m", "nus", "vus", "le", "la", "les", "l", "s", "se", "t", "te"].includes(next);
  // (No need to send or bring it refuses the order itself: "pas besoin de l'envoyer", "pas la peine de la livrer".)
  const verb = pronoun ? (tokens[h.end + 2] ?? "") : next;
  if (/^(?:anvoy|envoy|livr|ramen|apport|expedi|komand)/.test(verb)) return false;
  return /(?:er|ir|re)$/.test(next) || pronoun;
}
/** French verbs a yes-word ends on (canonical): "ça va", "ça marche", "ça me convient", "ça me plaît" (round 35). */
const YES_VERB = /^(?:va|marche|convient|plait|plai|interese|derange)$/;
/**
 * "I'm joking" at `i` (canonical): "je rigole", "je plaisante", "c'est pour rire", "nmazah m3ak", "كنضحك معاك", "nadhak
 * m3ak" (round 36).
 */
function kiddingAt(tokens: readonly string[], i: number): boolean {
  const t = tokens[i] ?? "";
  const before = tokens[i - 1] ?? "";
  // (Not "je rigole pas".)
  if ((t === "rigole" || t === "plaisante") && (before === "je" || before === "j"))
    return !["pas", "jamais"].includes(tokens[i + 1] ?? "");
  if (t === "rire" && before === "pur" && tokens[i - 2] === "est") return true;
  return /^k?n(?:a?m[ae]?z[ae]?h|a?dh?[ae]?k|d7[ae]?k)$/.test(t) && /^m3a(?:k|ki|kom|kum)$/.test(tokens[i + 1] ?? "");
}
/** "Mind" (canonical) after a change verb: "rayi", "rayo", "ra2yi" (round 34). */
const MIND = /^(?:ra2?y[iou]?|ra2?yha|ra2?yhom|fikri|fikru|fikra)$/;
/**
 * "No longer needed" (canonical, joined; round 34): "ma b9ach 3lash", "ما بقاش عليها الحال", "ماشي محتاجة", "c'est
 * plus la peine". A refusal after the last "but": no turn to a yes.
 */
const NO_LONGER =
  /(?:^| )(?:ma (?:b9ach|b9atch|b9ech) (?:3liha|3lih|3lach|3lah)|(?:machi|mashi|much|mech|mich) (?:mhtaj\S*|m7taj\S*|mehtaj\S*)|c (?:est )?plus la peine)(?: |$)/;
/** "One" (canonical): "wahda", "whda", "wuhda" (و-joined), "wahed", "wahd", "une", "un" (round 34). */
const ONE_ITEM = /^(?:w|u)?(?:wa?h[ae]?da?|wuhda|whda|wa?h[ae]?d|une?)$/;
/** "For me" (canonical): "liya", "lya", "li", "lia" (round 34). */
const FOR_ME = /^(?:liya|lya|lia|li|liyya|lyia)$/;
/** Two kept on purpose (canonical, joined): no mistake, both kept, two ordered (round 34). */
const KEPT_TWO =
  /(?:^| )(?:(?:machi|mashi|much|mouch|mech|pas|ma)(?: une?)? (?:ghlt|ghlta|ghalta|ghalat|ghlat|ereur|erreur)|ma (?:ghaltch|ghlatuch|ghltch|ghlttch|ghlattch|ghaltuch)|c est (?:juste|normal)|kh?[ae]?l+i?w?h?(?:om|hum|um|hm|hom) (?:b?juj|b?zuz|les deux|bjouj)|(?:komande|komandit|tlebt|tlabt|tlbt|3malt|3melt|3mlt|drt|dert|chrit|klikit|nchri|pris)(?: \S+)? (?:deux|juj|zuz|jouj|2)|^(?:juj|zuz|deux) \?)(?: |$)/;
/** A wish, an add or a put that changes the count (canonical, joined; round 34). */
const COUNT_CHANGED =
  /(?:^| )(?:bghit|bghina|nbghi|baghi|baghya|n7eb|nheb|nhab|nhebu|veux|vudrais|vudrait|zid\S*|ajout\S*|rajout\S*|dir|diru|ndir|diruli|dirli|mettez|mets|metez|mete|kteb|ktbu|machi (?:wahda|whda|wahed|wahd)|pas une? seul|au lieu|f ?blast|fi blast|blaset|blasa|ma(?:chi)? (?:wahda|whda))(?: |$)/;
/**
 * "Ah jouj commandes، عارفة، ماشي غلط، واحدة ليا و وحدة لختي … خليهم بجوج", "mais non c'est pas une erreur hein j'en ai
 * bien commandé deux une pour moi une pour ma sœur", "جوج؟ واحد ليا وواحد لختي، ابعثوهم": two of the item, "one for me
 * and one for …", kept on purpose (no mistake, both kept, two ordered, the two echoed), with no wish, add or put that
 * would change the count ("bghit jouj machi wa7da, wa7da liya w wa7da l khti" asks one more; round 34).
 */
function keepsBoth(tokens: readonly string[]): boolean {
  const forEach = tokens.some(
    (t, i) =>
      ONE_ITEM.test(t) &&
      (FOR_ME.test(tokens[i + 1] ?? "") || (tokens[i + 1] === "pur" && tokens[i + 2] === "moi")) &&
      tokens.slice(i + 2, i + 6).some((u) => ONE_ITEM.test(u)),
  );
  if (!forEach) return false;
  const joined = tokens.join(" ");
  return KEPT_TWO.test(joined) && !COUNT_CHANGED.test(joined);
}
/** "Because" (canonical) right after the "why": the customer gives the reason to cancel ("3lach nlghiha? 7it …"). */
const BECAUSE = /^(?:7it|hit|7itach|5ater|khater|5atr|khatr|la2an|li2an|lan|parce|pask|psk|3la9ach|puis9ue)$/;
function answersWhy(tokens: readonly string[], end: number): boolean {
  return tokens.slice(end, end + 3).some((t) => BECAUSE.test(t));
}
/** "Never", "no" closing an echoed cancel (canonical). */
const NEVER = new Set([
  "jamais",
  "la",
  "lala",
  "lla",
  "non",
  "nan",
  "abadan",
  "abdan",
  "abada",
  "abda",
  "3omri",
  "3mri",
  "3mrni",
  "3omrni",
]);
// Round 14's closed classes below hold canonical tokens (normalize.ts: "failli" is "faili", "khalli" "khali", "colis"
// "kolis"); a spelling canonicalisation never gives would match nothing.
/**
 * "Na7i l'kaskita", "نحّي la montre", "7iydi liya lcharger", "enlevez le chargeur": a verb that takes something out
 * (canonical; a pronoun ending, "nhiha", takes the whole order out: the cancel verb), and "khalli ghir", "khalli ken",
 * "je garde que": keep only (round 14).
 */
const TAKE_OUT =
  /^w?(?:nahi|nhi|nahili|nhili|nahilia|nhilia|hiydi|hiyd|hiyed|hayed|hayd|haydi|hid|hidi|hidu|enlev(?:e|ez|er)|retir(?:e|ez|er)|ote[sz]?)$/;
const KEEP = /^w?(?:khali|khli|kheli|garde|gardez|prend|prends)$/;
const ONLY = new Set(["ghir", "ken", "kan", "bark", "ghi", "9ue", "seulement", "juste"]);
/** "Only" after a day (canonical): "nhar lahd brk", "samedi uniquement" (round 46). */
const ONLY_DAY = /^(?:brk|bark|berk|uni9uement|seulement)$/;
/** "Only" before a day (canonical): "ghir nhar sebt", "seulement samedi" (round 46; not "ken", also "if"). */
const ONLY_BEFORE_DAY = /^(?:ghir|ghi|9ue|seulement|juste|uni9uement)$/;
/** What a taken-out thing may be introduced by ("7iydi liya lcharger", "na77i menha l casquette"). */
const TAKE_OUT_LINK = new Set([
  "lia",
  "liya",
  "lya",
  "li",
  "lili",
  "menha",
  "mnha",
  "menu",
  "mnu",
  "moi",
  "nus",
  "min",
  "men",
  "mn",
]);
/** The order itself, canonical: taking it out is cancelling it. */
const THE_ORDER =
  /^(?:l|la|el|n)?(?:k[ou]m[ua]?nd\w*|tlb\w*|talab\w*|kolis|chi|haja|hwayj|numer\w*|nimr\w*|nmra|nemra|ra9m)$/;
/** "this" before the thing taken out ("حيدو هاد الطلب": the order itself). */
const THIS = new Set([
  "had",
  "hada",
  "hadi",
  "hda",
  "hdi",
  "hdh",
  "hedha",
  "hedi",
  "hadak",
  "hadik",
  "ce",
  "cet",
  "cete",
  "sa",
]);
/** "J'ai failli annuler", "kont ghadi nlghiha": a cancel nearly made, not made (canonical; round 14). */
const NEARLY = new Set(["faili", "presk", "pres9ue"]);
const WAS_GOING = new Set(["kont", "kunt", "kent", "konte", "kenet", "kunet", "knt"]);
const GOING_TO = new Set(["ghadi", "gha", "bech", "bach", "bch", "rayha", "rayah", "rayeh", "hab", "haba"]);

/** A first-person object after a call verb (canonical): "moi", "me", "liya", "3liya". */
const ME = new Set([
  "moi",
  "mwa",
  "me",
  "m",
  "ni",
  "li",
  "lia",
  "liya",
  "lya",
  "3lia",
  "3liya",
  "3lya",
  "3laya",
  "3leya",
]);

/** "Leave it" (canonical), with a glued "and" or a person prefix: "khalliha", "wkhlih", "ykhliha", "laissez". */
const LEAVE = /^[wuyt]?(kh?a?l|lais)/;

/** "At" or "with" someone, standing alone before who (canonical): "3and l3assas", "chez la voisine", "m3a jara". */
const AT_SOMEONE = new Set(["3nd", "3and", "3end", "3ind", "chez", "m3a", "m3", "ma3a"]);

/** The lexicon's signals, by what they ask for. */
const DENIAL = new Set(["no", "refuse", "cancelVerb", "didntOrder", "changedMind", "reason"]);
const CHANGE = new Set(["changeVerb", "instead", "add"]);
/** What a few words asked after the yes-words may hold and still only ask (`asksShortAfterYes`; round 39). */
const ASKED_ALONE: ReadonlySet<string> = new Set([
  "attr",
  "attrNoun",
  "qty",
  "delivery",
  "qword",
  "what",
  "filler",
  "address",
]);
/** "Wrong", "a mistake" (canonical): "ghlt", "ghalta", "faux", "erreur" (round 39). */
const WRONG = /^(?:gh[ae]?l[ae]?t[ae]?|faux|fause|ereur|trompe)$/;
/** A possessive before a relative's home (canonical): "chez ma mère", "chez mon frère", "chez mes parents" (round 45). */
const OWNED = /^(?:ma|mon|mes|sa|son|ses|notre|nos|leur|leurs)$/;
/** A relative whose home a parcel is sent to (canonical, French): "mère", "frère", "tante", "parents" (round 45). */
const KIN_HOME =
  /^(?:mere|pere|frere|sur|seur|soeur|tante|oncle|onkle|parents|cousine?|fille|fils|grand|grande|grands|beau|bele|belle|copine|copain|ami|amie)$/;
/** "Her mother", "my father", "my aunt", said after "dar" or "3and" (canonical, Arabic): "omha", "baba", "khalti" (round 45). */
const KIN_OF =
  /^(?:(?:om|um|mm|yem+|yim+)(?:i|ha|ho|hu|u|ou|k|na)|baba|bab(?:i|ha|ho|hu|u|ou|k)|(?:khal|3am|3amm)(?:ti|tu|tek|tha|to|i|ha|ho|hu|u|ou|k)?|khuya|khouya|khoya|khti|khtk|khtu|khtha|khuh|khuha|khouha|jed+(?:a|i|ti|ha|ho|tha)|ns?ib(?:i|ti|ha|ho))$/;
/** "Is", "was" between a value and "wrong" (canonical): "l'adresse est fausse", "l3unwan rah ghalet" (round 45). */
const COPULA_OF_VALUE = /^(?:est|etait|hiya|hia|hya|rahi|rah|raha|kanet|kant|kenet)$/;
/** "One" each, after a quantity said back ("un par gamin", "وحدة ليّا ووحدة لأختي"; canonical; round 39). */
const ONE_EACH = /^(?:un|une|w?whda|w?wahda|w?wuhda|w?wahed)$/;
/** The warranty, the fees, the price asked after the yes-words (canonical): "والضمانة؟", "et les frais ?" (round 39). */
const ASKED_ABOUT = /^(?:w|wl|l|el)?(?:d|dh)?(?:mana|amana)$|^garanti|^frais$|^(?:w|wl|l|el)?t[ae]?m[ae]?n$|^prix$/;
const TOPIC: ReadonlySet<string> = new Set(["attr", "attrNoun", "qty", "delivery", "address"]);
const CALL = new Set(["callVerb"]);
/** What a condition on the item names: a colour, a size or model, a quantity. */
const ITEM = new Set(["attr", "attrNoun", "qty"]);
/** Refusals that stand on their own ("keep it", "I cancel", "I don't want it"), unlike a bare "no" or a reason. */
const STRONG_DENIAL = new Set(["refuse", "cancelVerb", "changedMind", "didntOrder"]);
const COURIER = new Set(["delivery", "beforeArrival"]);
const YES = new Set(["yes", "accept", "send", "take", "identity"]);
const TO_ORDER = new Set(["accept", "send"]);
/** "Is there" (canonical), opening a question: "fama", "kayn", "kayna", "il y a". */
const IS_THERE = new Set(["fama", "fma", "fema", "kayn", "kayna", "kayen", "kaina", "kain", "kin", "kayna"]);
/** What a question about the item must not hold to be only a question: a wish, a take, a send, a yes. */
const ASKS_NOTHING = new Set(["want", "take", "send", "accept", "yes"]);
const TIME = new Set(["day", "slot", "later", "notNow", "postpone", "absent"]);
/** What makes a clause about the customer's whereabouts a reason to move the delivery. */
const NOT_PRESENT = new Set([
  "absent",
  "busy",
  "notNow",
  "later",
  "postpone",
  "no",
  "refuse",
  "doubt",
  "cancelVerb",
  "callVerb",
]);
/** The delivery as a noun, canonical, with its glued article: "الليفريزون" (llifrizun), "التوصيل" (ltusil), "livraison". */
const DELIVERY_NOUN = /^(?:w|b|f|l|3la|3l)?(?:e|a)?l?(?:livr|lifr|lfr|tawsil|tawssil|twsil|tusil|tousil|tewsil)/;
/** "Here" (canonical): "rani hna", "ena houni", "je suis là". */
const HERE = new Set(["hna", "huni", "hni", "la", "ici"]);
/** First-person subjects (canonical): "ana", "rani", "je", "nkun" (I'll be). */
const SUBJECT = new Set(["ana", "ena", "rani", "je", "j", "nkun", "nkon", "nkoun"]);
/** Negation particles (canonical). */
const NEGATION = new Set(["ma", "mat", "much", "mech", "mich", "machi", "mahich", "pas", "jamais", "plus"]);
/** "As" before a verb of saying or agreeing: "kima 9olt", "comme prévu". */
const AS = new Set(["kima", "kif", "kome", "bhal", "ki"]);
/** A French subject pronoun, canonical ("je", "j", "il", "on", "vus"; round 24). */
const FRENCH_SUBJECT = /^(?:je|j|tu|il|ele|on|vus|nus|ils|eles)$/;
/** "You" before a verb of saying (canonical): "vous", "tu", "nta", "nti", "ntouma" (round 24). */
const SUBJECT_YOU = /^(?:vus|tu|nta|nti|ntuma|ntoma|ntum|intuma)$/;
/** Right after a day: "as it stands" ("ghedwa normal", "demain normal", "ghodwa 3adi"). */
const NORMAL = new Set(["normal", "normalement", "3adi"]);
const AGREED = words(["prévu", "convenu", "tfa9na", "ttafa9na", "تفقنا", "اتفقنا", "متفقين"]);

/**
 * Every live correction after a "because" that follows a live cancel verb, no "not that", no change verb and no wish
 * after the "because": what the reason names ("5ater bniti chratli wa7da") corrects nothing (round 46).
 */
function correctsInReason(
  tokens: readonly string[],
  hits: readonly SignalHit[],
  live: (h: SignalHit) => boolean,
  notThat: boolean,
): boolean {
  const cancel = hits.find((h) => h.signal === "cancelVerb" && live(h));
  if (!cancel || notThat) return false;
  const because = tokens.findIndex((t, i) => i >= cancel.end && BECAUSE.test(t));
  const corrections = hits.filter((h) => CORRECTION.has(h.signal) && live(h));
  return (
    because >= 0 &&
    corrections.length > 0 &&
    corrections.every((h) => h.start > because && h.signal !== "changeVerb" && h.signal !== "instead") &&
    // ("annuler parce que je préfère le noir" wishes for the value it names.)
    !hits.some((h) => h.signal === "want" && live(h) && h.start > because)
  );
}

/** Signals that correct the order as read (round 8's `corrects`). */
const CORRECTION = new Set(["instead", "attr", "qty", "add", "address", "changeVerb"]);
/** "not" before the thing meant instead, canonical: "machi", "mouch", "mech", "pas" ("… l Sousse mouch l Monastir"). */
const NOT_THAT = new Set(["machi", "much", "mech", "mich", "mush", "pas"]);
/** "Maybe" (canonical): "blak", "yemken", "peut-être". */
const MAYBE = new Set(["blak", "belak", "bellak", "ymkn", "yemken", "yimkin", "peut"]);
/** Adverbs a verb's "not" may carry ("ne marche pas bien", "ça sonne pas trop"): no Y put for an X (canonical). */
const VERB_ADVERB = new Set([
  "bien",
  "trop",
  "tres",
  "beaukup",
  "enkore",
  "tujurs",
  "vraiment",
  "fort",
  "tut",
  "suvent",
]);
/** "kamel", "kemmel", "kml" (canonical): "go on", or "whole" after a noun (round 15). */
const KAMEL = /^k[ae]?m+[ae]?l$/;
/** "Whole", "all of it" (canonical): "kaml", "kamla", "kamlin" (round 18). */
const WHOLE = /^k[ae]?m+[ae]?l(?:a|in|yn|ine)?$/;
/** What "kamel" may be the whole of (canonical): "nhar kamel", "lyum kamel", "chhar kamel" (round 15). */
const WHOLE_OF = new Set(["nhar", "lnhar", "lyum", "lil", "llil", "simana", "chhar", "l3am", "klchi", "kolchi"]);
/** What may follow a "go on" in its clause: another "go on", an "I'm listening", a form of address. */
const GO_ON_NEXT = new Set(["kamel", "kemel", "kml", "ana", "ena", "nsm3ek", "nsma3", "khuya", "khti", "sidi", "lala"]);
/** A form of address (canonical) beside a "go on": "نعم أسيدي، oui, allez-y", "oui madame allez-y" (round 18). */
const ADDRESS = new Set(["sidi", "asidi", "a", "lala", "lalla", "khuya", "khti", "madame", "monsieur", "madam"]);
/** A hum (canonical): "hmm", "mmm", "hm", "ممم" ("امم" is "am", taken from the text as typed). */
const HUM = new Set(["hmm", "hm", "m"]);
/** What opens a promise after a call (canonical): "and" ("w", "et", "wn9ul": and I'll say), "will" ("ghadi", "bach"). */
const PROMISE = /^(?:w|et|u|wn[\p{L}\d]+|ghadi|ghad|bach|bech|bch|n3awd[\p{L}\d]*)$/u;
/** An "and" or a "will", then the customer speaking in the first person ("w ghadi nconfirmi", "et je vous confirme"). */
function promises(clause: string[]): boolean {
  const at = clause.findIndex((t) => PROMISE.test(t));
  return at >= 0 && clause.slice(at).some((t) => FIRST_PERSON.test(t));
}
const FIRST_PERSON = /^(?:w?n[\p{L}\d]{2,}|je|j)$/u;
/** "The next one" after an "or" (canonical): "ljay", "ejjey", "اللي بعدو", "le prochain", "la suivante" (round 36). */
const NEXT_ONE = /^(?:l|el|e)?j+[ae]?y+[ae]?$|^(?:m|l)?ba?3d(?:u|o|ou)$|^prochaine?$|^suivante?$/;
/** "Which" before a day or an hour (canonical): "achmen nhar", "anahi se3a", "quel jour", "quelle heure" (round 36). */
const WHICH = /^(?:w?achmen|chmen|anahi|anhi|anahu|anhu|9uel|9uele|9uels|9ueles)$/;
/** A day, an hour, a time as a noun (canonical): "nhar", "se3a", "l'heure", "jour", "lwe9t". */
const TIME_NOUN = /^(?:l|el|n)?(?:nhar|nhr|se3a|sa3a|s3a|sa3at|heure|heures|jur|jurs|wa9t|we9t|w9t|kreneau|moment)$/;
/** "And" before an "and then" (canonical). */
const AND = new Set(["w", "u", "o", "et"]);
/** "And then?", "what's next?" (canonical): "wb3d", "mn b3d", "et après", "la suite" (round 15). */
const NEXT = new Set([
  "wb3d",
  "wba3d",
  "b3d",
  "ba3d",
  "mba3d",
  "apres",
  "suite",
  "ensuite",
  "wmba3d",
  "wlb3d",
  "wlba3d",
]);
/** What may stand beside it in that clause: "wach (kayn) mn b3d", "et après", "la suite". */
const NEXT_LINK = new Set([
  "w",
  "u",
  "o",
  "wach",
  "wech",
  "kayn",
  "kayen",
  "kain",
  "fama",
  "mn",
  "men",
  "et",
  "la",
  "alors",
]);
/** Short links a "not"'s Y may open with: "machi f dar", "pas à Lyon", "pas le noir". */
const LINK = new Set(["f", "l", "b", "fi", "fel", "fl", "bl", "a", "au", "en", "le", "la", "el", "de", "du"]);
/** The parcel or the courier arrives (third person, canonical): "tousel", "ywsel", "arrive", "يجي", "يلحق", "يطول". */
const ARRIVES = /^(?:t|y)(?:u|w|ou|e|o)?w?s[ae]?l$|^ar+iv(?:e|era|ent)$|^(?:t|y)lh9$|^(?:t|y)ji$|^ytul$/;
/** "Can" / "possible": what makes a question about the arrival a request ("y9der yji ba3d 18h?"). */
const CAN =
  /^(?:y9d[ae]?r|t9d[ae]?r|ynaj+e?m|tnaj+e?m|tnjm|njm|momkin|mumkin|mkn|ymkn|posible|peut|peuvent|pouvez|pourr\w*)$/;
/** "Can", "may" in any person (canonical; round 17). */
const MAY =
  /^(?:w?[nty]?[9q]d[ae]?r\w{0,3}|w?[nty]?n?[ae]?j+[ae]?m\w{0,3}|peux|peut|pouvez|puis|pourr\w*|momkin|mumkin|ymkn|mkn)$/;
/** Clause stops. */
const STOPS = new Set([",", ".", "!", "?"]);

/** A sentence's end: what comes after it is another sentence. */
const SENTENCE_END = new Set([".", "!", "?"]);

/**
 * The reading's `sendsChanged`: one of the live "send it" or "I take it" that close the reply (`closing`, those of
 * `endsOnTake`) is joined by "and" ("et", "w") to a live change or addition asked for earlier in the same sentence,
 * with no "as it is" between them.
 */
function sendsChanged(
  tokens: readonly string[],
  hits: readonly SignalHit[],
  live: (h: SignalHit) => boolean,
  closing: readonly SignalHit[],
): boolean {
  return closing.some(
    (send) =>
      AND.has(tokens[send.start - 1] ?? "") &&
      hits.some(
        (change) =>
          (change.signal === "changeVerb" || change.signal === "add") &&
          live(change) &&
          change.end < send.start &&
          !tokens.slice(change.end, send.start).some((t) => SENTENCE_END.has(t)) &&
          // ("ما فماش حتى تبديل خليها كيف ما هي و ابعثها": no change, keep it "as it is", and send it.)
          !hits.some((a) => a.signal === "accept" && live(a) && a.start >= change.end && a.end <= send.start),
      ),
  );
}
/** "That's it" closing a reply (canonical): "w khlas", "w safi", "et voilà", "barka" (round 26). */
const THAT_IS_IT: ReadonlySet<string> = new Set(["khlas", "khalas", "5las", "safi", "voila", "barka", "yezi", "yezzi"]);
/** One of the household or the building (canonical): "ma femme", "mon mari", "ma fille", "mrati", "yema", "l3asas". */
const KIN =
  /^(?:feme|mari|file|fils|mere|pere|frere|seur|soeur|voisine?|gardiene?|concierge|mrati|mrti|rajli|zawji|bnti|binti|wldi|weldi|wlidi|khti|khuya|khouya|mmi|umi|ommi|yema|yemma|mama|maman|jarti|jari|l?3a?sas)$/;
/**
 * Where one of them will be (canonical): "à la maison", "fldar", "f dar", "kayna", "mawjuda", "hna" ("là": French
 * only); "موجودة" in Arabic script, canonical "mujuda" (round 38).
 */
const THERE =
  /^(?:maison|dar|ldar|fdar|fldar|fddar|kayn[ae]?|kaina|kayen|kaynin|mawju?d[ae]?|mawjoud[ae]?|mujud[ae]?|hna|houni|huni)$/;

/** A thing named taken out of the order ("na7i l'kaskita"), or "keep only" ("khalli ghir", "je garde que"). */
function takesOneOut(tokens: string[]): boolean {
  return tokens.some((t, i) => {
    if (KEEP.test(t) && ONLY.has(tokens[i + 1] ?? "")) return true;
    if (!TAKE_OUT.test(t)) return false;
    let j = i + 1;
    while (TAKE_OUT_LINK.has(tokens[j] ?? "") || THIS.has(tokens[j] ?? "")) j++;
    const next = tokens[j] ?? "";
    const thing = ["l", "la", "le", "les", "el"].includes(next) ? (tokens[j + 1] ?? "") : next;
    return /^[a-z0-9]{3,}$/.test(thing) && !THE_ORDER.test(thing) && !THE_ORDER.test(next);
  });
}

/**
 * The readings last made, by country and text: a reply is read by the classifier, then again by the dialogue's
 * decision (flow.ts), which has only the text. A reading is a pure function of the text and country, frozen, so the
 * second read is the first one's (round 28: the decision's own reading cost a sixth of the classifier's throughput).
 */
const recent = new Map<string, Readonly<Reading>>();
const RECENT_READINGS = 64;
let recentLimit = RECENT_READINGS;

/**
 * Keeps up to `n` readings while `run` runs, then the usual 64. The simulated calls (scripts/classifier/conversations.ts)
 * say a writer's few hundred sentences again and again, and their classifier may remember its own readings, so the
 * decision's reading is the one made afresh; kept, the same readings cost a third of the time (round 30: the decision
 * guards were two fifths of the suite's file time). Nothing read changes: a reading is a pure function of its text.
 */
export async function keepingReadings<T>(n: number, run: () => Promise<T>): Promise<T> {
  const before = recentLimit;
  recentLimit = Math.max(before, n);
  // (The lexicon's analyses too: signals.ts keeps as many.)
  const analysesBefore = keepAnalyses(Math.max(before, n));
  try {
    return await run();
  } finally {
    keepAnalyses(analysesBefore);
    recentLimit = before;
    for (const key of recent.keys()) {
      if (recent.size <= recentLimit) break;
      recent.delete(key);
    }
  }
}

/** The two-step reading of `text` (its lexicon analysis, `analyse(text, country)`, may be passed to save reading it twice). */
export function readReply(text: string, country: Country, analysis?: Analysis): Readonly<Reading> {
  const key = `${country}\u0000${text}`;
  const known = recent.get(key);
  if (known) return known;
  const reading = Object.freeze(readFresh(text, country, analysis ?? analyse(text, country)));
  if (recent.size >= recentLimit) recent.delete(recent.keys().next().value as string);
  recent.set(key, reading);
  return reading;
}

function readFresh(text: string, country: Country, analysis: Analysis): Reading {
  const { tokens, hits } = analysis;
  const arabicScript = isMostlyArabicScript(text);
  // "Machi ana li glt ma bghitch", "c'est pas moi qui ai dit non": a "not me" + "who" + a verb of saying; the refusal
  // said just after it was someone else's (round 13).
  // The verb of saying after a "not me who", or -1.
  const sayingAfter = (h: SignalHit) =>
    h.signal === "notMe" && WHO.has(tokens[h.end] ?? "")
      ? find(tokens, SAYING, h.end + 1, h.end + (tokens[h.end + 1] === "ai" ? 3 : 2))
      : -1;
  const notMySaying = (h: SignalHit) => sayingAfter(h) >= 0;
  const othersSaying = hits.filter(notMySaying);
  // The refusal said within four words of that verb ("c'est pas moi qui ai dit que je le voulais plus": round 14).
  const saidByOther = (h: SignalHit) =>
    DENIAL.has(h.signal) &&
    othersSaying.some((n) => h.start > n.end && h.start <= Math.max(n.end + 4, sayingAfter(n) + 4));
  // "J'ai failli annuler", "kont ghadi nlghiha", "kont bech nbattel": the cancel was nearly made, it is not one.
  const nearly = (h: SignalHit) =>
    (h.signal === "cancelVerb" &&
      (NEARLY.has(tokens[h.start - 1] ?? "") ||
        (WAS_GOING.has(tokens[h.start - 2] ?? "") && GOING_TO.has(tokens[h.start - 1] ?? "")))) ||
    ((h.signal === "no" || h.signal === "refuse") && wasGoingToSay(h.start));
  // "كنت غادي نقول ليك لا", "j'allais vous dire non": the "no" the customer was going to say, and did not (round 21).
  const wasGoingToSay = (i: number) => {
    let k = i - 1;
    while (DATIVE.has(tokens[k] ?? "")) k -= 1;
    if (!SAY_ANSWER.test(tokens[k] ?? "")) return false;
    k -= 1;
    while (DATIVE.has(tokens[k] ?? "")) k -= 1;
    if (GOING_TO.has(tokens[k] ?? "")) k -= 1;
    return WAS_GOING.has(tokens[k] ?? "") || /^al+ais$/.test(tokens[k] ?? "");
  };
  // "C'est pas que je veux pas", "ce n'est pas que je refuse": the refusal itself is denied (round 14).
  // "لا موش ما نحبهاش، نحبها وبرشا", "machi ma bghitch": a "not" before the negated verb denies the refusal starting at
  // `i` (round 15; "ماشي بلاك ما نحبهاش": a "maybe" between).
  const deniedAt = (i: number) =>
    tokens[i] === "ma" &&
    (NOT_THAT.has(tokens[i - 1] ?? "") || (MAYBE.has(tokens[i - 1] ?? "") && NOT_THAT.has(tokens[i - 2] ?? ""))) &&
    hits.some((d) => d.start === i && d.signal !== "no" && DENIAL.has(d.signal));
  const notThatIRefuse = (h: SignalHit) => {
    if (!DENIAL.has(h.signal)) return false;
    // (And the "no" before them, "لا موش ما نحبهاش": it says the same.)
    if (h.signal !== "no" && deniedAt(h.start)) return true;
    if (h.signal === "no" && h.end === h.start + 1 && deniedAt(h.start + 2)) return true;
    // "ما قلتش لا", "عمري ما قلت لا", "j'ai jamais dit non": a "no" right after a verb of saying the customer negates
    // is the refusal they deny having made (round 15).
    const v = h.start - 1;
    const saying = tokens[v] ?? "";
    if (h.signal === "no" && (SAID_IT.test(saying) || /^[g9q][aeiou]{0,2}ltch$/.test(saying)))
      return /ch$/.test(saying) || tokens[v - 1] === "ma" || tokens[v - 1] === "jamais" || tokens[v - 2] === "jamais";
    const q = tokens.lastIndexOf("9ue", h.start);
    // ("j'ai jamais dit que je le voulais plus", "j'ai pas dit que j'annulais": the saying denied; round 35.)
    const saidNot =
      q >= 0 &&
      h.start - q <= 4 &&
      ["dit", "raconte", "demande"].includes(tokens[q - 1] ?? "") &&
      tokens.slice(Math.max(0, q - 4), q - 1).some((t) => t === "pas" || t === "jamais");
    return (
      saidNot || (q >= 0 && h.start - q <= 3 && tokens[q - 1] === "pas" && ["est", "ai"].includes(tokens[q - 2] ?? ""))
    );
  };
  // "f lkhdma lplateau kaml kaysm3", "يديا كاملين ف l'huile": "kaml", "kamlin" right after a noun is "whole", "all of
  // it", not "go on with it" (the lexicon's "send"); after a yes-word, a subject or a "but" it stays "go on" (round 18).
  const wholeOf = (h: SignalHit) => {
    const before = tokens[h.start - 1] ?? "";
    return (
      h.signal === "send" &&
      h.end - h.start === 1 &&
      WHOLE.test(tokens[h.start] ?? "") &&
      /^[\p{L}\d]{3,}$/u.test(before) &&
      !SUBJECT.has(before) &&
      !BUT.has(before) &&
      !hits.some((y) => YES.has(y.signal) && y.start < h.start && h.start - 1 < y.end)
    );
  };
  // "موافق تقريبا", "تقريب إي", "je confirme presque": an agreement hedged by "almost" is no yes yet (round 21).
  const almost = (h: SignalHit) =>
    (YES.has(h.signal) || h.signal === "accept") &&
    (ALMOST.test(tokens[h.start - 1] ?? "") || ALMOST.test(tokens[h.end] ?? ""));
  // A change told, not asked, and an "add" that names no item (round 33): found once per reply, not at every `live`.
  const leftAsIs = new Set(hits.filter((h) => h.signal === "changeVerb" && keptAsItIs(tokens, h.end)));
  const changeTakenBack = takenBack(tokens, hits);
  const dayCorrected = correctedDays(tokens, hits);
  const cancelBack = cancelTakenBack(tokens, hits);
  const toldNotAsked = new Set(
    hits.filter(
      (h) =>
        (h.signal === "changeVerb" &&
          (leftAsIs.has(h) ||
            reportedChange(tokens, h.start) ||
            nothingChanged(tokens, h.start) ||
            // ("jibha a khouya 9bel ma ybeddel rayi", "chkoun ghadi ybeddel rayo": changing one's mind is no change of
            // the order; round 34.)
            MIND.test(tokens[h.end] ?? ""))) ||
        (h.signal === "add" &&
          (waitASecond(tokens, h.start) || lacking(tokens, h.start) || oneMoreThing(tokens, h.start))) ||
        (h.signal === "day" && WEEK.test(tokens[h.end - 1] ?? "") && ALL_OF.test(tokens[h.end] ?? "")) ||
        changeTakenBack.has(h) ||
        // ("pas besoin de réfléchir", "pas besoin de me rappeler": no need to do something, no refusal of the order;
        // round 35.)
        (h.signal === "refuse" && noNeedTo(tokens, h)) ||
        // ("c'est pas la peine de me rappeler": the call there is no need of is asked of nobody; "pas besoin de
        // l'envoyer": nor is the sending, which the "no need" refuses; round 36.)
        ((h.signal === "callVerb" || h.signal === "send") &&
          hits.some(
            (r) =>
              r.signal === "refuse" &&
              noNeed(tokens, r) &&
              h.start > r.end &&
              h.start <= r.end + 3 &&
              (h.signal === "send" || noNeedTo(tokens, r)),
          )) ||
        dayCorrected.has(h) ||
        cancelBack.has(h),
    ),
  );
  // "ça va pas m'aller", "ça me convient pas": a French yes-verb with its "pas" after it (spoken French drops the "ne")
  // agrees to nothing (round 35). Not "ok pas de souci".
  const notAfter = (h: SignalHit) =>
    YES.has(h.signal) &&
    YES_VERB.test(tokens[h.end - 1] ?? "") &&
    ["pas", "plus", "jamais"].includes(tokens[h.end] ?? "") &&
    tokens[h.end + 1] !== "de";
  // "Validé, validé... je rigole, non, annulez", "wakha wakha... nmazah m3ak": a yes said in jest and said to be so
  // right after is no yes (round 36).
  const kidding = tokens.findLastIndex((_, i) => kiddingAt(tokens, i));
  const live = (h: SignalHit) =>
    !h.negated &&
    !(YES.has(h.signal) && kidding >= 0 && h.end <= kidding) &&
    !notAfter(h) &&
    !saidByOther(h) &&
    !nearly(h) &&
    !notThatIRefuse(h) &&
    !wholeOf(h) &&
    !almost(h) &&
    !toldNotAsked.has(h);
  const outTaken = takesOneOut(tokens);
  const denies = hits.some(
    (h) =>
      (DENIAL.has(h.signal) && live(h) && !echoesNegation(tokens, hits, h)) ||
      ((h.signal === "send" || h.signal === "take" || h.signal === "yes" || h.signal === "accept") && h.negated) ||
      (h.signal === "notMe" && !notMySaying(h)),
  );
  // The live yes-words, read once (round 21's "after the yes-words" readings walk them).
  const liveYes = hits.filter((h) => YES.has(h.signal) && live(h));
  const yes = liveYes.length > 0;
  // Whether the word at `i` is part of a live yes-word.
  const liveYesAt = (i: number) => liveYes.some((h) => h.start <= i && i < h.end);
  // "before you send it" ("9bel ma tab3thouha"): a time, not "send it"; and not about the courier either.
  const beforeSending = (h: SignalHit) =>
    h.signal === "send" && hits.some((b) => b.signal === "beforeArrival" && b.end === h.start);
  // "avant que je confirme", "9bel ma nakked": a yes put off until after something else is no yes (round 13).
  const beforeYes = (h: SignalHit) => {
    const b = find(tokens, BEFORE, Math.max(0, h.start - 4), h.start);
    return b >= 0 && tokens.slice(b + 1, h.start).every((t) => BEFORE_LINK.has(t));
  };
  // "عاودلي نهار 25 ونأكّدلك", "3ayet liya ghodwa w nakked", "rappelez lundi, je valide": a yes after a call asked for
  // a time, or after a time in a clause opened by "and" or "will" with the customer speaking, is the answer that call
  // will bring, not a yes now (round 20; round 18's promisedYes read it only where a call verb stood).
  const timeAt = (i: number) =>
    hits.find(
      (t) =>
        TIME.has(t.signal) && t.end <= i && t.end >= i - 3 && !tokens.slice(t.end, t.end + 3).some((w) => PAST.has(w)),
    );
  const calledFor = (t: SignalHit) =>
    hits.some((c) => (CALL.has(c.signal) || c.signal === "repeat") && c.end <= t.start && c.end >= t.start - 1);
  // "نأكد ليك غدا بلا شك", "je vous confirme demain": "I confirm", a dative, then a time: the confirm is for then; a
  // yes-word right after it in its clause ("بلا شك", without doubt) vouches for that promise (round 21).
  const laterConfirms = hits.filter((h) => {
    if (h.signal !== "accept" || !I_CONFIRM.test(tokens[h.end - 1] ?? "")) return false;
    let k = h.end;
    while (DATIVE.has(tokens[k] ?? "")) k += 1;
    // (French puts "vous" before the verb: "je vous confirme demain".)
    const toYou = k > h.end || tokens.slice(Math.max(0, h.start - 1), h.end - 1).some((t) => DATIVE.has(t));
    return toYou && hits.some((t) => TIME.has(t.signal) && t.start === k && t.signal !== "absent");
  });
  const confirmsLater = (h: SignalHit) =>
    laterConfirms.includes(h) ||
    (YES.has(h.signal) &&
      laterConfirms.some(
        (c) =>
          h.start > c.end && h.start <= c.end + 4 && !tokens.slice(c.end, h.start).some((t) => t === "," || t === "."),
      ));
  const promisedLater = (h: SignalHit) => {
    if (!YES.has(h.signal) && h.signal !== "accept") return false;
    const time = timeAt(h.start);
    if (!time) return false;
    const between = tokens.slice(time.end, h.start).filter((t) => t !== "," && t !== ".");
    return (
      promises(tokens.slice(time.end, h.end)) ||
      (calledFor(time) && between.length === 0 && FIRST_PERSON.test(tokens[h.start] ?? ""))
    );
  };
  const sendsLater = (b: SignalHit) =>
    b.signal === "beforeArrival" && hits.some((h) => h.signal === "send" && h.start === b.end);
  // Spoken French drops the "ne": "je confirme pas", "envoyez rien" deny the very verb.
  const deniedAfter = (h: SignalHit) => ["pas", "rien", "jamais"].includes(tokens[h.end] ?? "");
  // ("jab", "jeb", "jabetli": "he brought (me)", the past of "bring", asks for nothing.)
  const brought = (h: SignalHit) => h.signal === "send" && /^(jab|jeb)/.test(tokens[h.start] ?? "");
  // ("سير جيب ليا الما", "روح يا وليد جيبلي المناظر": "go (and) bring me", said to someone in the room, is an errand,
  // no yes to the order; round 25.)
  const errand = (h: SignalHit) =>
    h.signal === "send" && tokens.slice(Math.max(0, h.start - 3), h.start).some((t) => GO_FETCH.test(t));
  // ("rani hna", "je suis là": "I'm here" may be on the line, not at home waiting; it adds a clause to a bare yes,
  // and is no yes to the order either: round 8.)
  const onTheLine = (h: SignalHit) => h.signal === "take" && HERE.has(tokens[h.end - 1] ?? "");
  const conditions = country === "TN" || country === "DZ" ? CONDITION_TN : CONDITION;
  /** A one-word "if" ("ila", "kan", "si"), spelt exactly. */
  const isIf = (t: string) => conditions.some((p) => p.length === 1 && same(t, p[0]!, true));
  /** An "if" right before token `i` ("ila 3ayto", "kan t3aytou"). */
  const inAnIf = (i: number) => tokens.slice(Math.max(0, i - 2), i).some(isIf);
  // (The first call not told, when one is: "عيطتولي على الجوج … ما جاوبتش … خلي الليفرور يعيطلي" asks only the
  // courier's call; round 37.)
  const liveCalls = hits.filter((h) => CALL.has(h.signal) && live(h));
  const untold = liveCalls.find((c) => !reportedCall(tokens, c));
  const call = untold ?? liveCalls[0];
  // ("3aytoli l'bareh zeda", "vous m'avez appelé hier": a call made yesterday is told, not asked for; round 19.)
  // ("الدراري ديالكم عيطو ليا مرتين اليوم", "البنت اللي عيطات قبل منك", "علاش كتعاودو تعيطو؟": a call made twice or
  // before this one, made by someone the reply describes ("who called"), or asked "why" of, is the shop's own call told
  // or complained of, no call asked for; round 25.)
  const callsTold = call !== undefined && untold === undefined;
  // "kallemni 9bal b rob3 sa3a", "appelez-moi un quart d'heure avant": a call a while before (the courier comes) is the
  // courier's instruction, the delivery as it stands, not a callback (round 13).
  const before = call === undefined ? -1 : find(tokens, BEFORE, call.end, call.end + 6);
  // ("ila wselti 3ayet", "ki twesslou 3aytouli", "quand vous arrivez appelez-moi": a call on the courier's arrival.)
  const callAhead =
    call !== undefined &&
    ((before >= 0 &&
      [...tokens.slice(Math.max(call.end, before - 4), before), ...tokens.slice(before + 1, before + 4)].some((t) =>
        AHEAD_BY.test(t),
      )) ||
      tokens.slice(Math.max(0, call.start - 3), call.start).some((t) => ON_ARRIVAL.test(t)) ||
      // ("ykallemni w nokhrojlou barra", "عيطلي ونهبط", "3ayet 3la weldi howa li ghaynzel ychedha", "appelez-moi et je
      // descends": the call, then "and I come out, down", or "who comes down", to meet whoever calls: the courier's
      // arrival; round 19.)
      tokens.slice(call.end, call.end + 5).some(
        (t, k) =>
          COME_OUT.test(t.replace(/^(?:w|u)(?=[nyt])/, "")) &&
          (/^(?:w|u)[nyt]/.test(t) ||
            COME_OUT_AFTER.has(tokens[call.end + k - 1] ?? "") ||
            // ("قولو للشيفور يعيطلي ننزل ليه", "3aytouli, nahbet ana": right after the call, or after its comma;
            // round 34.)
            k === 0 ||
            (k === 1 && tokens[call.end] === ",")),
      ) ||
      tokens
        .slice(call.end, call.end + 4)
        .join(" ")
        .match(/\bet je (?:descends|sors|descendrai|sortirai)\b/) !== null ||
      // ("عيطلي كي تقرب للدار", "بلاك عيطولي كي توصلو", "appelez-moi quand vous êtes en bas": the call after, "when" and
      // the courier's coming right behind it: round 15.)
      tokens.slice(call.end, call.end + 3).some((t, k) => {
        const after = tokens.slice(call.end + k + 1, call.end + k + 5);
        return (
          WHEN_COMING.has(t) &&
          // (The courier's coming, not the customer's: "kallemni ki nousel", "quand j'arrive" is a callback.)
          (after.some(
            (a, i) =>
              (ON_ARRIVAL.test(a) || APPROACH.test(a)) &&
              !a.startsWith("n") &&
              !["j", "je", "ana", "ena", "nous", "nus"].includes(after[i - 1] ?? ""),
          ) ||
            after.join(" ").includes("en bas"))
        );
      }));
  // "rappelez ce soir vers 20h, pas de souci", "3ayet liya f l3chiya, machi mouchkil": a "no problem" after the customer's
  // own call verb (not a call ahead of the courier) is that request's politeness, no yes to the order; "عيطلي بعد
  // المغرب نأكدلك" (call me after sunset, I'll confirm to you): the assent is what the call is for, later (round 16).
  const callsMeNow =
    call !== undefined &&
    (ME.has(tokens[call.end] ?? "") ||
      /(ni|nii|li|lia|liya|lya)$/.test(tokens[call.end - 1] ?? "") ||
      // ("Rappelez-la ce soir, elle confirmera pour moi": the call asked for someone else, who will confirm.)
      (/ez$/.test(tokens[call.end - 1] ?? "") && ["la", "le", "lui"].includes(tokens[call.end] ?? "")) ||
      /(?:^|[^\p{L}])(?:rappelez|appelez)[-\s](?:la|le|lui)(?:[^\p{L}]|$)/iu.test(text)) &&
    !inAnIf(call.start);
  const politeAfterCall = (h: SignalHit) =>
    h.signal === "accept" &&
    call !== undefined &&
    !callAhead &&
    call.end <= h.start &&
    (tokens.slice(h.start, h.end).some((t) => NO_PROBLEM.test(t)) || callsMeNow) &&
    !hits.some(
      (s) => (s.signal === "send" || s.signal === "take") && live(s) && s.start > call.end && s.start < h.start,
    );
  // "… ama chnowa esm chariket el livraison ya3ni chkoun bech yjibha": a "send" or "take" right after a question word
  // of its clause (after a stop or a "but") is asked about, not asked for (round 17).
  const clauseStart = (i: number) => {
    let j = i - 1;
    while (j >= 0 && !STOPS.has(tokens[j]!) && !BUT.has(tokens[j]!)) j--;
    return j + 1;
  };
  // A question word that asks, wherever it stands ("ما عليش", never mind, is no "why").
  const asksWord = (q: SignalHit) =>
    q.signal === "qword" &&
    !CONJUNCTION_Q.test(tokens[q.start] ?? "") &&
    !(tokens[q.start - 1] === "ma" && /^3l[ae]?[iy]?ch$/.test(tokens[q.start] ?? "")) &&
    // ("makach 3lach nlaghiha", "ما كاين علاش", "ma famech 3lech": there is no reason to, said, not asked; round 40.)
    !(
      /^3l[ae]?[iy]?ch$/.test(tokens[q.start] ?? "") &&
      (NO_REASON.test(tokens[q.start - 1] ?? "") ||
        (tokens[q.start - 2] === "ma" && THERE_IS_NONE.test(tokens[q.start - 1] ?? "")))
    ) &&
    // ("هو نفس الثمن اللي شفت", "le même prix": the same price is said, not asked; round 26.)
    !(PRICE_NOUN.test(tokens[q.start] ?? "") && SAME.test(tokens[q.start - 1] ?? ""));
  // One that opens the clause at `at` (its first word, or the second).
  const opensQuestion = (q: SignalHit, at: number) => asksWord(q) && q.start >= at && q.start <= at + 1;
  // (Close after it, with no yes between: "شحال قلتي التمن مية وتسعين ياك واخا صيفط" asks, then sends.)
  const askedAbout = (h: SignalHit) =>
    (h.signal === "send" || h.signal === "take") &&
    hits.some(
      (q) =>
        q.start < h.start &&
        h.start - q.start <= 4 &&
        q.start >= clauseStart(h.start) &&
        asksWord(q) &&
        !hits.some((y) => YES.has(y.signal) && y !== h && y.start > q.start && y.start < h.start),
    );
  const orderYes = hits.filter(
    (h) =>
      TO_ORDER.has(h.signal) &&
      live(h) &&
      !askedAbout(h) &&
      !beforeSending(h) &&
      !beforeYes(h) &&
      !promisedLater(h) &&
      !confirmsLater(h) &&
      !deniedAfter(h) &&
      !brought(h) &&
      !errand(h) &&
      !onTheLine(h) &&
      !politeAfterCall(h),
  );
  const yesToOrder = orderYes.length > 0;
  // "بصح أنا ما نديهاش" after "no problem at all": a negated take or send after every live yes-word, under no "if"
  // (round 21).
  const lastLiveYes = Math.max(-1, ...liveYes.map((h) => h.start));
  const takesNotAfterYes =
    lastLiveYes >= 0 &&
    hits.some(
      (h) => (h.signal === "take" || h.signal === "send") && h.negated && h.start > lastLiveYes && !inAnIf(h.start),
    );
  // "nconfirmi elli ma n7ebouch", "je confirme que j'en veux pas": an "I confirm" whose object, opened by "that", is a
  // refusal confirms the refusal (round 21).
  const confirmsRefusal = hits.some(
    (a) =>
      a.signal === "accept" &&
      live(a) &&
      hits.some(
        (d) =>
          (d.signal === "refuse" || d.signal === "cancelVerb") &&
          d.start > a.end &&
          d.start <= a.end + 3 &&
          tokens.slice(a.end, d.start).some((t) => THAT.has(t)),
      ),
  );
  // A yes and nothing else: each word is in a live yes-word hit (not a "go on" word), a filler, or a comma or a stop.
  const covered = new Set<number>();
  for (const h of hits)
    if (YES.has(h.signal) && live(h) && !onTheLine(h)) for (let k = h.start; k < h.end; k++) covered.add(k);
  const goOn = new Set<number>();
  for (let i = 0; i < tokens.length; i++)
    for (const p of GO_ON)
      if (p.length > 0 && p.every((w, k) => same(tokens[i + k] ?? "", w, true)))
        for (let k = 0; k < p.length; k++) goOn.add(i + k);
  // "allez-y", "vas-y" (its canonical form drops the "y", so "allez, c'est bon" is read from the text).
  if (/(^|[^\p{L}])(allez|vas)[-\s]y([^\p{L}]|$)/iu.test(text))
    tokens.forEach((t, i) => {
      if (t === "alez" || t === "vas" || t === "va") goOn.add(i);
    });
  const filler = new Set<number>();
  for (let i = 0; i < tokens.length; i++)
    for (const p of FILLER)
      if (p.length > 0 && p.every((w, k) => same(tokens[i + k] ?? "", w, true)))
        for (let k = 0; k < p.length; k++) filler.add(i + k);
  const plainYes =
    yes &&
    tokens.every((t, i) => t === "," || t === "." || t === "!" || filler.has(i) || (covered.has(i) && !goOn.has(i)));
  const firmYes = orderYes.some((h) => ![...Array(h.end - h.start).keys()].every((k) => goOn.has(h.start + k)));
  // ("Ab3ath ey... la stanna, el 38 hedhi taille européenne wala turki?", "oui... non attendez, …": a "no, wait" turns
  // the reply as a "but" does: what came before it is taken back; round 26.)
  const lastBut = Math.max(-1, ...tokens.map((t, i) => (BUT.has(t) || noWait(tokens, i) ? i : -1)));
  const word = (t: string | undefined) => t !== undefined && /^[\p{L}\d]{3,}$/u.test(t);
  // A "not" under an "if" ("si j'suis pas là, laissez-le au gardien", "ila ma kuntch f dar") or on "là" says where the
  // customer may be, not what to put for what: no "X, not Y" unless the reply names something of the order (round 9).
  const aboutCustomer = (i: number) => {
    let from = i;
    while (from > 0 && !STOPS.has(tokens[from - 1] ?? "")) from--;
    return (
      (find(tokens, conditions, from, i, true) >= 0 || tokens[i + 1] === "la") &&
      !hits.some((h) => CORRECTION.has(h.signal) && live(h))
    );
  };
  // "44 machi 43", "khadhra machi safra": a value put for a value of the same kind (a size, a colour, a number).
  const valueAt = (i: number) =>
    /^\d+$/.test(tokens[i] ?? "") || hits.some((h) => h.signal === "attr" && h.start <= i && i < h.end);
  // "Et le livreur, surtout pas de colis devant la porte", "gol lih ysonni 3lia f whatsapp machi appel": after the
  // courier is named or addressed ("the courier", "tell him"), a "not" with no value beside it is the courier's
  // instruction, no Y put for an X of the order (round 21).
  const courierAt = tokens.findIndex(
    (t, i) => COURIER_NOUN.test(t) || (TELL.test(t) && /^(?:lih|lu|lo|lha|lihom)$/.test(tokens[i + 1] ?? "")),
  );
  const toCourier = (i: number) => courierAt >= 0 && courierAt < i && !valueAt(i - 1) && !valueAt(i + 1);
  const notThat = tokens.some(
    (t, i) =>
      NOT_THAT.has(t) &&
      !toCourier(i) &&
      !covered.has(i) && // ("pas de souci", "machi mochkil": an assent's own "not")
      // ("dites au livreur de pas klaxonner": "de pas", "ne pas" before a verb negate that verb; round 20.)
      !(t === "pas" && INFINITIVE_NOT.has(tokens[i - 1] ?? "")) &&
      // ("moi je bouge pas de toute façon": a "pas" after a subject's verb negates that verb; round 24.)
      !(t === "pas" && FRENCH_SUBJECT.test(tokens[i - 2] ?? "")) &&
      // ("je ne bouge pas de chez moi": a "pas" closing a "ne" one or two words before negates the verb; round 26.)
      !(t === "pas" && (tokens[i - 2] === "ne" || tokens[i - 2] === "n" || tokens[i - 3] === "ne")) &&
      // ("j'avais juste pas compris qui appelait": a "pas" before a participle negates it; round 25.)
      !(t === "pas" && PARTICIPLE.test(tokens[i + 1] ?? "")) &&
      // ("le chemin est pas goudronné": a "pas" after a noun's "is" says what it is not; "c'est pas X" puts Y for X;
      // round 39.)
      !(t === "pas" && /^(?:est|sont|etait|etaient|sera)$/.test(tokens[i - 1] ?? "") && tokens[i - 2] !== "c") &&
      // ("بشرط تكون الشاشة ديال 55 ماشي 43": inside an "if", a value put for a value is still one: round 12.)
      (!aboutCustomer(i) || (valueAt(i - 1) && valueAt(i + 1))) &&
      // (A "not" that ends its clause, "l'interphone marche pas", negates the verb before it: no Y is put for X; so
      // does one an adverb follows, "la sonnette ne marche pas bien": round 15.)
      (word(tokens[i + 1]) || valueAt(i + 1) || (LINK.has(tokens[i + 1] ?? "") && word(tokens[i + 2]))) &&
      !VERB_ADVERB.has(tokens[i + 1] ?? "") &&
      !filler.has(i + 1) &&
      // ("ماشي دابا", "machi dorka": "not now" puts no thing for another; round 27.)
      !hits.some((h) => h.signal === "notNow" && h.start <= i && i < h.end) &&
      // ("je valide, pas de changement": the "not" of nothing to change; round 33. Nor the "not" of a change verb one or
      // two words after it that changes only the customer's mind: "ena mouch bech nbadel ra2yi", I won't change my
      // mind; round 46.)
      !hits.some(
        (h) =>
          h.signal === "changeVerb" &&
          h.start > i &&
          h.start <= i + 2 &&
          (nothingChanged(tokens, h.start) || (h.negated && MIND.test(tokens[h.end] ?? ""))),
      ) &&
      (orderYes.some((h) => h.end <= i) ||
        (valueAt(i - 1) && valueAt(i + 1)) ||
        (t === "pas" &&
          tokens[i - 2] === "est" &&
          tokens[i - 3] === "c" &&
          word(tokens[i - 1]) &&
          word(tokens[i + 1]))),
  );
  // "C'est qui ? Ah, le magasin de vélos ! Oui, amenez-le", "شكون معايا؟ آه … جيبوها": the last "?" answered by the
  // customer's own "ah" of recognition, then a yes to the order and nothing denied or doubted after it (round 26).
  const answersOwnQuestion = () => {
    const q = tokens.lastIndexOf("?");
    return (
      q >= 0 &&
      /^a+h+$/.test(tokens[q + 1] ?? "") &&
      orderYes.some((h) => h.start > q) &&
      !hits.some((h) => h.start > q && live(h) && (DENIAL.has(h.signal) || h.signal === "doubt"))
    );
  };
  // The reply's last word: a "send it" ending there or just before it (its "to me": "sifto liya") ends the reply.
  // ("tu l'envoies و خلاص", "ab3athha w safi": an "and that's it" after it closes the reply too; round 26.)
  let lastWord = Math.max(0, ...tokens.map((t, i) => (STOPS.has(t) ? -1 : i)));
  if (THAT_IS_IT.has(tokens[lastWord] ?? "") && lastWord > 0) {
    lastWord -= AND.has(tokens[lastWord - 1] ?? "") ? 2 : 1;
    while (lastWord > 0 && STOPS.has(tokens[lastWord] ?? "")) lastWord--;
  }
  // "ama mrati 9altli la, khudha": a "no" right after "told me" is someone else's, reported (round 10).
  const reported = (h: SignalHit) => h.signal === "no" && TOLD.test(tokens[h.start - 1] ?? "");
  /**
   * "ماشي أنا اللي لغيت", "c'est pas moi qui ai annulé": a cancel verb at `i` that was someone else's (not + me + who,
   * an "ai" between): where its "who" stands, or -1 (rounds 11-12).
   */
  const notMineWho = (i: number) => {
    let k = tokens[i - 1] === "ai" ? i - 1 : i;
    // ("machi ana li galt nannuli", "c'est pas moi qui ai dit d'annuler": a saying between the "who" and the cancel
    // verb; round 16.)
    if (tokens[k - 1] === "d" || tokens[k - 1] === "de") k--;
    if (SAID_IT.test(tokens[k - 1] ?? "")) k = tokens[k - 2] === "ai" ? k - 2 : k - 1;
    return WHO.has(tokens[k - 1] ?? "") &&
      ECHO_ME.has(tokens[k - 2] ?? "") &&
      ["machi", "much", "mech", "mich", "pas", "mahich"].includes(tokens[k - 3] ?? "")
      ? k - 1
      : -1;
  };
  // A "not me" that says whose cancel ("much ena eli anulit"), not whose phone.
  const notMyCancel = (h: SignalHit) =>
    h.signal === "notMe" && hits.some((c) => c.signal === "cancelVerb" && notMineWho(c.start) === h.end);
  const turnsToYes =
    lastBut >= 0 &&
    orderYes.some((h) => h.start > lastBut) &&
    // ("أما لا لا ما نبطلش، ابعثها": a "no" that says the negation again denies nothing; round 26.)
    !hits.some(
      (h) =>
        h.start > lastBut &&
        live(h) &&
        (DENIAL.has(h.signal) || h.signal === "doubt") &&
        !reported(h) &&
        !echoesNegation(tokens, hits, h),
    ) &&
    // ("… ولكن راجلي شرا ليا وحدة، ماتصيفطوهاش": a "don't send it" after the "but" turns to no yes: round 12.)
    !hits.some((h) => h.start > lastBut && (h.signal === "send" || h.signal === "take") && h.negated) &&
    // ("walakin khouya … sift lina wa7ed kif kif, ma b9ach 3lash", "donc c'est plus la peine": no longer needed after
    // it; round 34.)
    !NO_LONGER.test(tokens.slice(lastBut + 1).join(" "));
  // "c'est avec la livraison ou il faut rajouter", "kayn stop desk hna wla lazem yjibuha", "hu ytrkb wla yji mrkb":
  // an "or" opening a clause of its own (a "must", a "there is", a "comes", "c'est") asks between two states of things,
  // even unpunctuated; "jibuha sebt wla l7ad" (an "or" between two days) asks nothing (round 16).
  const orAt = tokens.findIndex(
    (t, i) =>
      (OR.has(t) || (t === "u" && country === "FR")) &&
      i > 1 &&
      OR_CLAUSE.has(tokens[i + 1] === "il" || tokens[i + 1] === "c" ? (tokens[i + 2] ?? "") : (tokens[i + 1] ?? "")),
  );
  const orClause = orAt >= 0;
  // ("مليحة واه بصح كاين ستوب ديسك هنا ولا لازم يجيبوها", "oui oui très bien mais juste une chose, c'est avec la livraison
  // ou il faut rajouter": the yes, then "but" and a question between two states of things: the question.)
  const asksBetween =
    orClause && lastBut >= 0 && orAt > lastBut && hits.some((h) => YES.has(h.signal) && live(h) && h.end <= lastBut);
  // "iyeh iyeh ama chnowa esm chariket el livraison", "oui mais combien la livraison": a yes, then "but" and a question
  // word opening the clause after it, unpunctuated, and no yes to the order after the "but": the question (round 17).
  // ("… walakin 3afak gha swal sghir wach lmowazi3 kaydkhl l douar": "a question" announced, then its question word.)
  const questionNoun = tokens.findIndex((t, i) => i > lastBut && i <= lastBut + 5 && QUESTION_NOUN.test(t));
  const asksAfterBut =
    lastBut >= 0 &&
    (hits.some((q) => opensQuestion(q, lastBut + 1)) ||
      (questionNoun > 0 && hits.some((q) => asksWord(q) && q.start > questionNoun && q.start <= questionNoun + 3))) &&
    hits.some((h) => YES.has(h.signal) && live(h) && h.end <= lastBut) &&
    !orderYes.some((h) => h.start > lastBut);
  // "إيوا أوكي أوكي وشحال قلتي الثمن عاود ليا الثمن": the last yes-word, then (a comma or "and" between at most) a question
  // word, and nothing after it says yes, sends or takes (round 21).
  // (The yes-words only, "yes", "OK": no "I confirm", "send it" before the question; and a question word, no price noun.)
  const finalYes = liveYes.reduce<SignalHit | undefined>(
    (a, h) => (a === undefined || h.end > a.end ? h : a),
    undefined,
  );
  const lastYesEnd = finalYes?.signal === "yes" ? finalYes.end : -1;
  const asksAfterYes =
    lastYesEnd > 0 &&
    hits.some(
      (q) =>
        asksWord(q) && q.start >= lastYesEnd && q.start <= lastYesEnd + 1 && !PRICE_NOUN.test(tokens[q.start] ?? ""),
    ) &&
    tokens
      .slice(lastYesEnd, lastYesEnd + 1)
      .every((t) => t === "," || AND.has(t) || hits.some((q) => asksWord(q) && q.start === lastYesEnd)) &&
    !hits.some(
      (h) => (h.signal === "send" || h.signal === "take" || TO_ORDER.has(h.signal)) && live(h) && h.start >= lastYesEnd,
    );
  // ("Behi... 120?", "Ah wah... 3680؟ قلت 3680 dinar؟", "oui... 49 euros ?": the yes-words, then nothing but a number
  // said back and asked, with its currency or a "you said", up to the question mark that ends the reply: the number
  // doubted, the yes no yes to the order; round 37.)
  const echoed = lastYesEnd > 0 ? tokens.slice(lastYesEnd) : [];
  const asksNumberBack =
    echoed.length > 0 &&
    tokens.at(-1) === "?" &&
    echoed.some((t) => /^\d{1,6}$/.test(t)) &&
    echoed.every((t) => STOPS.has(t) || /^\d{1,6}$/.test(t) || PRICE_AFTER.test(t) || YOU_SAID.test(t));
  // ("Wakha، الكحل؟", "ok... la taille M ?": the yes-words, then nothing but a value of the order said back and asked,
  // its article at most; round 38.)
  const attrAt = (i: number) => hits.some((h) => h.signal === "attr" && h.start <= i && i < h.end);
  const echoOnly = (from: number, to: number) =>
    to > from &&
    tokens.slice(from, to).some((_, k) => attrAt(from + k)) &&
    tokens.slice(from, to).every((t, k) => STOPS.has(t) || attrAt(from + k) || ECHO_FILLER.test(t) || YOU_SAID.test(t));
  const asksValueBack = echoed.length > 0 && tokens.at(-1) === "?" && echoOnly(lastYesEnd, tokens.length - 1);
  // ("إيه... par carte ?", "wah... w livraison?", "Ey... 93?": the yes-words, then at most four words
  // and the question mark that ends the reply, none of them a yes, a wish, a refusal, a change, a day, a call or a doubt:
  // the yes is "go on", the few words the question; round 39.)
  const shortAsked = echoed.filter((t) => !STOPS.has(t));
  const asksShortAfterYes =
    echoed.length > 0 &&
    tokens.at(-1) === "?" &&
    shortAsked.length >= 1 &&
    shortAsked.length <= 4 &&
    !hits.some((h) => h.start >= lastYesEnd && !ASKED_ALONE.has(h.signal)) &&
    // (Something of the order asked about: a number, a payment, a value, the delivery; "et donc ?", "w 3ad?", "chnowa?",
    // "wach kount t9oul?" ask only to go on or to hear it again.)
    (shortAsked.some((t) => /^\d{1,6}$/.test(t) || PAYMENT.test(t) || ASKED_ABOUT.test(t)) ||
      hits.some((h) => h.start >= lastYesEnd && TOPIC.has(h.signal)));
  // ("behi zouz ya3ni 9addech el wa7da", "deux paires ah oui ya3ni kol wahda b chhal": how much, asked, with nothing to
  // change, add or wish for and no "how much I ordered", "how much you said": the price asked; round 39.)
  const asksHowMuch =
    tokens.some(
      (t, i) =>
        HOW_MUCH.test(t) &&
        !ORDERED.test(tokens[i + 1] ?? "") &&
        !YOU_SAID.test(tokens[i + 1] ?? "") &&
        !/^t[ae]?l[ae]?bt/.test(tokens[i + 1] ?? "") &&
        !hits.some((h) => (h.signal === "take" || h.signal === "send" || h.signal === "yes") && live(h) && h.start > i),
    ) &&
    !notThat &&
    // (Nor "make them two", "dirli juj": "rodhom zouz, … w el prix b9adech ywelli".)
    !tokens.some((t) => MAKE_ITEM.test(t) || /^rodh?(?:u|o)m?$|^rodh?(?:ha|ah)$/.test(t)) &&
    !hits.some((h) => (CHANGE.has(h.signal) || h.signal === "want" || DENIAL.has(h.signal)) && live(h));
  // ("wahda bark? ch7al ida jouj?", "combien si j'en prends deux ?": how much, if…, asked to the question mark: the
  // price of another order asked, nothing changed yet; round 38.)
  const asksPriceIf = tokens.some((t, i) => {
    if (!HOW_MUCH.test(t)) return false;
    const ifAt = find(tokens, conditions, i + 1, i + 3, true);
    const ask = tokens.indexOf("?", i);
    return ifAt > i && ask > ifAt && !tokens.slice(i + 1, ask).some((w) => STOPS.has(w));
  });
  // ("La noire ? C'est celle-là que je veux", "El a7mer? Ab3ath.": a value said back and asked first, alone, then a
  // yes, a send, a take or a wish, and nothing to change: the value heard, agreed; round 38.)
  const firstAsk = tokens.indexOf("?");
  // (The value may be a quantity or a size said in digits, and may come with the product's own name, a word the lexicon
  // does not know: "Le jogging gris ?", "Trois?", "Le noir, 43؟"; round 39.)
  const echoValueAt = (i: number) =>
    hits.some((h) => (h.signal === "attr" || h.signal === "qty") && h.start <= i && i < h.end) ||
    /^[2-6]\d$/.test(tokens[i] ?? "");
  const plainAt = (i: number) => !hits.some((h) => h.start <= i && i < h.end);
  // ("Oui, mais 38.", "Entendu, mais deux.", "أكد... ولكن فالخضرا.": the yes-words, "but", and nothing after it but a value
  // of the item, its article or preposition at most, to the end: that value asked for; round 39.)
  const afterTurn = lastBut >= 0 ? tokens.slice(lastBut + 1) : [];
  const butValue =
    lastBut > 0 &&
    tokens.slice(0, lastBut).every((t, i) => STOPS.has(t) || liveYesAt(i)) &&
    liveYes.some((h) => h.end <= lastBut) &&
    afterTurn.some((_, k) => echoValueAt(lastBut + 1 + k)) &&
    afterTurn.every(
      (t, k) =>
        STOPS.has(t) ||
        echoValueAt(lastBut + 1 + k) ||
        ECHO_FILLER.test(t) ||
        VALUE_PREP.has(t) ||
        ONLY.has(t) ||
        // ("Mrigla, ama el 38... 39 y3aychek.": and a "please"; round 40.)
        PLEASE.test(t),
    );
  const asked = tokens.slice(0, Math.max(0, firstAsk));
  const echoedFirst =
    firstAsk > 0 &&
    firstAsk <= 4 &&
    asked.some((_, i) => echoValueAt(i)) &&
    asked.every((t, i) => STOPS.has(t) || echoValueAt(i) || ECHO_FILLER.test(t) || YOU_SAID.test(t) || plainAt(i)) &&
    asked.filter((_, i) => plainAt(i) && !STOPS.has(asked[i]!) && !ECHO_FILLER.test(asked[i]!)).length <= 1;
  // (Said again after the yes, the same value, or "one" each: "Ouais, le gris, parfait", "Oui, trois, un par gamin".)
  const sameValue = (h: SignalHit, said: readonly string[]) =>
    /^(?:celle|celui)$/.test(tokens[h.start] ?? "") ||
    tokens
      .slice(h.start, h.end)
      .every(
        (t, k) =>
          said.includes(t) || (ONE_EACH.test(t) && /^(?:par|pur|l\p{L}*)$/u.test(tokens[h.start + k + 1] ?? "")),
      );
  const agrees = (h: SignalHit) =>
    (h.signal === "yes" ||
      h.signal === "accept" ||
      h.signal === "send" ||
      h.signal === "take" ||
      h.signal === "want") &&
    live(h);
  // ("ah tlata ah sa7 tlata tlata dlwlad sifto", "زوز إيه زوز وحدة ليّا ووحدة لأختي": unasked, the value, a yes, and the
  // same value again: said back, agreed; round 39.)
  const firstValue = tokens.findIndex((_, i) => echoValueAt(i));
  const agreedAt = hits.find((h) => agrees(h) && h.start > firstValue);
  const echoedPart = agreedAt && firstValue >= 0 ? tokens.slice(firstValue, agreedAt.start) : [];
  const echoedAround =
    firstAsk < 0 &&
    agreedAt !== undefined &&
    firstValue >= 0 &&
    tokens
      .slice(0, firstValue)
      .every(
        (t, i) =>
          STOPS.has(t) ||
          ECHO_FILLER.test(t) ||
          hits.some((h) => (h.signal === "yes" || h.signal === "filler") && h.start <= i && i < h.end),
      ) &&
    echoedPart.every((t, k) => STOPS.has(t) || echoValueAt(firstValue + k) || ECHO_FILLER.test(t)) &&
    hits.some(
      (h) =>
        ITEM.has(h.signal) &&
        h.start > agreedAt.start &&
        tokens.slice(h.start, h.end).every((t) => echoedPart.includes(t)),
    ) &&
    !hits.some((h) => ITEM.has(h.signal) && h.start > agreedAt.start && !sameValue(h, echoedPart));
  // "wesh c'est le rouge en m ouais c'est ça": the values said back as a statement (no "?"), then only yes-words that end
  // on "that's it" ("c'est ça", "exactement", "voilà"): said back and agreed, the same as asked and agreed (round 40).
  const firstYes = liveYes[0];
  const lastHit = hits.at(-1);
  const saidBackRight =
    firstAsk < 0 &&
    lastBut < 0 &&
    firstYes !== undefined &&
    lastHit !== undefined &&
    lastHit.end > lastWord &&
    THATS_IT.test(tokens.slice(lastHit.start, lastHit.end).join(" ")) &&
    tokens.slice(0, firstYes.start).some((_, i) => echoValueAt(i)) &&
    tokens
      .slice(0, firstYes.start)
      .every(
        (t, i) => STOPS.has(t) || echoValueAt(i) || ECHO_FILLER.test(t) || VALUE_PREP.has(t) || SAID_OPENER.test(t),
      ) &&
    tokens.slice(firstYes.start).every((t, k) => STOPS.has(t) || liveYesAt(firstYes.start + k));
  const echoesThenYes =
    (saidBackRight ||
      (echoedFirst &&
        hits.some((h) => agrees(h) && h.start > firstAsk) &&
        !tokens.slice(firstAsk + 1).includes("?") &&
        lastBut < firstAsk &&
        !hits.some((h) => ITEM.has(h.signal) && h.start > firstAsk && !sameValue(h, asked))) ||
      (echoedAround && lastBut < 0)) &&
    !hits.some((h) => (CHANGE.has(h.signal) || DENIAL.has(h.signal)) && live(h));
  // "kont n5amem nbadelha ama … ab3thouha", "je voulais changer la couleur mais bon, envoyez-la": a change only thought of
  // ("I was thinking of", "I wanted to") before a "but", and a yes to the order after it with no change: no change
  // (round 17).
  // (The turn may be a "no" as well as a "but", and the "I wanted" up to five words before, with no stop between:
  // "كنت باغي نقول ليك نبدل اللون... لا صافي، خليه كيف ما هو، أكد ليا"; round 20.)
  const turnAfter = (h: SignalHit) =>
    Math.max(
      lastBut,
      ...hits
        .filter((n) => n.signal === "no" && (live(n) || changeTakenBack.has(n)) && n.start > h.start)
        .map((n) => n.start),
    );
  const onlyThought = (h: SignalHit) => {
    const turn = turnAfter(h);
    const before = tokens.slice(Math.max(0, h.start - 5), h.start);
    const thought = before.findLastIndex((t) => WAS_THINKING.test(t));
    return (
      turn > h.start &&
      thought >= 0 &&
      before.slice(thought).every((t) => !STOPS.has(t)) &&
      orderYes.some((y) => y.start > turn) &&
      // (An item said again as "the same" after the turn changes nothing: "nkhalliha kima rahi nafs l couleur nafs l
      // prix"; round 27.)
      !hits.some(
        (c) =>
          (CHANGE.has(c.signal) || ITEM.has(c.signal)) &&
          live(c) &&
          c.start > turn &&
          !(ITEM.has(c.signal) && tokens.slice(Math.max(0, c.start - 2), c.start).some((t) => SAME.test(t))),
      )
    );
  };
  const changeOnlyThought =
    // (A change left as it is after the turn, no longer live (round 33), was still only thought of.)
    // (So was one taken back after a "no", round 35.)
    hits.some(
      (h) =>
        CHANGE.has(h.signal) &&
        (live(h) || (!h.negated && (leftAsIs.has(h) || changeTakenBack.has(h)))) &&
        onlyThought(h),
    ) && !hits.some((h) => CHANGE.has(h.signal) && live(h) && !onlyThought(h));
  // "3awed", "عاود", alone or opening a call verb: "again".
  const agains = hits.filter(
    (h) => (h.signal === "repeat" || h.signal === "callVerb") && live(h) && /^3aw/.test(tokens[h.start] ?? ""),
  );
  // ("إلا جا ولد التوصيل فداك الوقت يعطيها لمولات الدار", "ila ja m3a lftour ma yt9l9ch, nkhrj lih", "ki yji el livreur
  // samedi ykhalliha 3and el gardien": if or when the courier comes, at a time or not, he gives or leaves the parcel, or
  // need not worry, or the customer comes down: what happens on his visit, no condition on the order and no other day;
  // round 28.) The "if" or "when" at `i`, the coming within two words, then the hand-over within ten, nothing denied.
  const visitAt = (i: number) =>
    i >= 0 &&
    (find(tokens, conditions, i, i + 1, true) === i ||
      WHEN_WORD.test(tokens[i] ?? "") ||
      // ("وإلا جا مع الغدا يدق بجهد", "إلا جا l'après-midi": "and if", "if" as the reader spells them, right before the
      // coming; elsewhere "wala" is "or"; round 42.)
      (AND_IF.test(tokens[i] ?? "") && VISITS.test(tokens[i + 1] ?? ""))) &&
    // ("si jamais il passe": round 37.)
    ([1, 2, 3].some((k) => VISITS.test(tokens[i + k] ?? "")) ||
      // ("si c'est l'après-midi frappez doucement", "si c'est après 13h": the time of his visit; round 43.)
      (tokens[i] === "si" &&
        tokens[i + 1] === "c" &&
        tokens[i + 2] === "est" &&
        [3, 4, 5].some((k) => VISIT_TIME.test(tokens[i + k] ?? "")) &&
        // (Not "si c'est le matin uniquement": a time asked for.)
        !tokens.slice(i + 3, i + 9).some((t) => ONLY_WORD.test(t)))) &&
    tokens
      .slice(i + 2, i + 14)
      .some(
        (t, k, rest) =>
          HANDS_OVER.test(t) ||
          (LEAVE_IT_WITH.test(t) && LEFT_AT.test(rest[k + 1] ?? "")) ||
          (t === "ma" && WORRIES.test(rest[k + 1] ?? "")),
      ) &&
    !hits.some((h) => DENIAL.has(h.signal) && live(h) && h.start > i);
  const visitHandsOver = tokens.some((_, i) => visitAt(i));
  // "mor lkhalsa", "ba3d la paie": after payday, a time the lexicon has no day for (round 40).
  const afterPayAt = (i: number) => AFTER_WORD.test(tokens[i] ?? "") && PAYDAY.test(tokens[i + 1] ?? "");
  // A question left behind a turn: asked before `turn`, the reply ending after it on one of `answers` (a take, a send),
  // nothing denied or doubted after it (round 27's "but").
  const leftBehind = (turn: number, asked: boolean, answers: ReadonlySet<string>) =>
    asked &&
    hits.some((h) => answers.has(h.signal) && live(h) && h.start > turn && h.end >= lastWord) &&
    !hits.some((h) => h.start > turn && live(h) && (DENIAL.has(h.signal) || h.signal === "doubt"));
  // ("c'est un robot qui parle là ou c'est une vraie dame … haha bon oui oui je confirme": a question, then "bon",
  // "bref", "enfin" and a take, a send or "I confirm" that ends the reply: the question set aside, as after a "but"
  // (round 28).)
  const lastTurn = Math.max(-1, ...tokens.map((t, i) => (TURN_WORD.test(t) || anyway(tokens, i) ? i : -1)));
  const answersAfterTurn = leftBehind(
    lastTurn,
    lastTurn > 0 &&
      (tokens.slice(0, lastTurn).includes("?") || hits.some((h) => h.signal === "qword" && h.end <= lastTurn)),
    TAKE_SEND_ACCEPT,
  );
  // ("ewa wakha ghir imta ghadi tousel 9bel l3id wla mor l3id": "when will it come?", asked with no question mark: a
  // question word of time and, within five words, the parcel's coming, with no stop between; round 28.)
  const asksWhenComes = tokens.some(
    (t, i) =>
      (WHEN_ASKED.test(t) || (t === "9uand" && tokens[i + 1] === "est" && tokens[i + 2] === "ce")) &&
      // (Not a "when" to be seen or agreed later: "nchoufou wa9tach tjibouha", "باش نتفاهمو وقتاش يجي".)
      !tokens.slice(Math.max(0, i - 2), i).some((x) => LATER_WHEN.test(x)) &&
      hits.some(
        (h) =>
          h.signal === "delivery" &&
          h.start > i &&
          h.start <= i + 5 &&
          !tokens.slice(i + 1, h.start).some((x) => STOPS.has(x)),
      ),
  );
  // The live "send it" or "I take it" that close the reply ("… khlliha 200 w nakhdha"): `endsOnTake`, `sendsChanged`.
  const closingTakes = hits.filter((h) => (h.signal === "take" || h.signal === "send") && live(h) && h.end >= lastWord);
  const result = (
    request: RequestKind | null,
    cue: string | null,
    deniedRefusal = false,
    otherwise = false,
  ): Reading => ({
    request,
    cue,
    yes,
    yesToOrder,
    deniedRefusal,
    asks: tokens.includes("?") || orClause,
    dated: hits.some((h) => h.signal === "day"),
    // ("Sa7biti khlsat 39 la semaine dernière, c'est le même ?": every day said is gone by; round 19.)
    ...(hits.some((h) => h.signal === "day") && hits.every((h) => h.signal !== "day" || past(h))
      ? { datedPast: true }
      : {}),
    busy: hits.some((h) => h.signal === "busy" || h.signal === "notNow"),
    // ("ama mouch taw, rani fil classe": "not now", then where the customer is; round 38.)
    ...(hits.some(
      (h) =>
        h.signal === "notNow" &&
        tokens.slice(h.end, h.end + 4).some((t, k, near) => WHERE_I_AM.test(t) && AT.test(near[k + 1] ?? "")),
    )
      ? { notNowThere: true }
      : {}),
    newTime:
      hits.some(
        (h) => TIME.has(h.signal) && live(h) && !presence(h) && !agreed(h) && !past(h) && !notADate(h) && !eventDay(h),
      ) || tokens.some((_, i) => afterPayAt(i)),
    ...(hits.some((h) => TIME.has(h.signal) && live(h) && agreed(h)) ? { agreedDay: true } : {}),
    ...(hits.some((h) => TIME.has(h.signal) && live(h) && eventDay(h)) ? { celebrationDay: true } : {}),
    denies,
    // ("much ena eli anulit", "c'est pas moi qui ai annulé": "not me" who cancelled says whose cancel, not whose phone.)
    ...(hits.some((h) => h.signal === "notMe" && !notMyCancel(h) && !notMySaying(h)) ? { notMe: true } : {}),
    ...(hits.some((h) => h.signal === "cancelVerb" && live(h)) ? { cancels: true } : {}),
    ...(orderYes.some((h) => h.signal === "accept") ? { accepts: true } : {}),
    // (French "ou" is canonical "u", also Darija's "and": only "u pas", "u non" there.)
    ...(tokens.some(
      (t, i) =>
        (OR.has(t) && OR_NOT.has(tokens[i + 1] ?? "")) || (t === "u" && ["pas", "non"].includes(tokens[i + 1] ?? "")),
    )
      ? { orNot: true }
      : {}),
    ...(hits.some((h) => h.signal === "attr" && live(h)) ? { namesValue: true } : {}),
    ...(asksForPerson(text) ? { asksPerson: true } : {}),
    ...(asksBetween ? { asksBetween } : {}),
    ...(asksAfterBut ? { asksAfterBut } : {}),
    ...(tokens.findLast((t) => t !== "." && t !== "!") === "?" ? { endsOnQuestion: true } : {}),
    // ("Ab3ath ey... la stanna, el 38 hedhi taille européenne wala turki?": a yes, then the turn, then a question mark
    // and no yes to the order after the turn; round 26.)
    ...(lastBut >= 0 &&
    tokens.indexOf("?", lastBut) > lastBut &&
    hits.some((h) => YES.has(h.signal) && live(h) && h.end <= lastBut) &&
    !orderYes.some((h) => h.start > lastBut)
      ? { asksAfterTurn: true }
      : {}),
    ...(asksAfterYes ? { asksAfterYes } : {}),
    ...(asksNumberBack ? { asksNumberBack } : {}),
    ...(asksValueBack ? { asksValueBack } : {}),
    ...(asksPriceIf ? { asksPriceIf } : {}),
    ...(asksShortAfterYes ? { asksShortAfterYes } : {}),
    ...(asksHowMuch ? { asksHowMuch } : {}),
    ...(butValue ? { butValue } : {}),
    ...(echoesThenYes ? { echoesThenYes } : {}),
    ...(analysis.restated === true &&
    !notThat &&
    // ("النمرة اللي عطيت فيها غلط": what was given is wrong.)
    !tokens.some((t) => WRONG.test(t)) &&
    lastBut < 0 &&
    !hits.some((h) => (CHANGE.has(h.signal) || DENIAL.has(h.signal) || ITEM.has(h.signal)) && live(h))
      ? { restates: true }
      : {}),
    ...(changeOnlyThought ? { changeOnlyThought } : {}),
    ...(keepsBoth(tokens) ? { keepsBoth: true } : {}),
    ...(changeTakenBack.size > 0 ? { takesBackChange: true } : {}),
    ...(cancelBack.size > 0 ? { takesBackCancel: true } : {}),
    ...(NO_LONGER.test(tokens.join(" ")) ? { noLonger: true } : {}),
    // "خلّيها الجمعة ولّا السبت", "khalliha nhar sebt": the delivery put off to the day named right after (round 17).
    // ("9olou yji ba3d 6 mta3 l3chiya": "he comes", a day or a time right after it; round 18. Not "tusel", which also
    // reads the Arabic "تتصل", you call. "il faut passer après quinze heures": the French "pass", "come"; round 22.)
    ...(hits.some(
      (p) =>
        (p.signal === "postpone" || (p.signal === "delivery" && COMES.test(tokens[p.start] ?? ""))) &&
        live(p) &&
        hits.some(
          (d) =>
            (d.signal === "day" || (p.signal === "delivery" && d.signal === "slot")) &&
            live(d) &&
            d.start >= p.end &&
            d.start <= p.end + 1,
        ),
    )
      ? { postponesTo: true }
      : {}),
    ...(tokens.some((t) => MAY.test(t)) ? { modal: true } : {}),
    ...(hits.some(asksWord) ? { questionWord: true } : {}),
    ...(outTaken ? { takesOneOut: true } : {}),
    ...(hits.some((h) => h.signal === "instruction" && live(h)) ? { instructs: true } : {}),
    ...(hits.some((h) => h.signal === "repeat" && live(h)) ? { repeats: true } : {}),
    ...(hits.some((h) => h.signal === "callVerb" && live(h)) ? { calls: true } : {}),
    ...(callsTold ? { reportsCall: true } : {}),
    ...((((tokens.includes("?") || asksFirst) && tokens.some((t) => ARRIVES.test(t))) || asksWhenComes) &&
    !tokens.some((t) => CAN.test(t)) &&
    orderYes.length === 0
      ? { asksArrival: true }
      : {}),
    ...(agains.length > 0 ? { again: true } : {}),
    // "عاود après", "3awed mba3d", "3awdu men ba3d": "again" then "later" asks to be called again, not to hear it again
    // (round 17).
    ...(agains.some((h) =>
      tokens.slice(h.end, h.end + 3).some((t, k, after) => LATER.has(t) || (t === "plus" && after[k + 1] === "tard")),
    )
      ? { againLater: true }
      : {}),
    ...(orderYes.some((h) => h.end >= lastWord) ? { endsOnYes: true } : {}),
    ...(closingTakes.length > 0 ? { endsOnTake: true } : {}),
    ...(sendsChanged(tokens, hits, live, closingTakes) ? { sendsChanged: true } : {}),
    ...(hits.some((h) => h.signal === "take" && live(h) && !h.negated) ? { takes: true } : {}),
    ...(hits.some((h) => (h.signal === "yes" || h.signal === "accept" || h.signal === "send") && live(h))
      ? { assents: true }
      : {}),
    ...(hits.some((h) => (h.signal === "take" || h.signal === "send") && h.negated) ? { takesNot: true } : {}),
    ...(hits.some((h) => h.signal === "send" && h.negated) &&
    hits
      .filter((h) => (h.signal === "send" || h.signal === "take") && h.negated)
      .every((h) => [2, 3, 4, 5].some((k) => nextTimeAt(tokens, h.start - k)))
      ? { nextTimeOnly: true }
      : {}),
    ...(hits.some(
      (c) =>
        CHANGE.has(c.signal) &&
        live(c) &&
        hits.some(
          (h) =>
            h.signal === "take" &&
            live(h) &&
            h.start >= c.end &&
            h.start <= c.end + 3 &&
            !tokens.slice(c.end, h.start).some((t) => STOPS.has(t)),
        ),
    )
      ? { takesIfChanged: true }
      : {}),
    ...(hits.some((h) => h.signal === "beforeArrival" && live(h)) ? { beforeCourier: true } : {}),
    ...(notThat ? { notThat: true } : {}),
    ...(hits.some((h) => h.signal === "address" && live(h)) ? { namesAddress: true } : {}),
    ...(sentToWork(tokens, hits).length > 0 ? { sendsToWork: true } : {}),
    ...(tokens.some(
      (t, i) =>
        (/^\d{2,6}$/.test(t) &&
          (PRICE_AFTER.test(tokens[i + 1] ?? "") ||
            (AT_PRICE.has(tokens[i - 1] ?? "") && !HOUR_AFTER.test(tokens[i + 1] ?? "")))) ||
        /^\d{2,6}(?:dh|da|dt|d)$/.test(t),
    )
      ? { namesPrice: true }
      : {}),
    // ("oui la coque rose c'est bien ça", "je prends le rouge en 38 comme vous avez dit", "le vert sapin, alors on
    // prend": a value named with no change verb, "instead", addition, address, "not that" or "otherwise", and no "but"
    // before it: it may be the value read back, agreed to; round 28.)
    // (A quantity is no value read back: "ab3ath zouz, nkhalles 3la zouz" asks for two.)
    ...(hits.some((h) => h.signal === "attr" && live(h)) &&
    !hits.some((h) => CORRECTION.has(h.signal) && h.signal !== "attr" && live(h)) &&
    !notThat &&
    find(tokens, OTHERWISE, 0) < 0 &&
    !hits.some((h) => h.signal === "attr" && tokens.slice(0, h.start).some((t) => BUT.has(t)))
      ? { valueOnly: true }
      : {}),
    ...(hits.some((h) => CORRECTION.has(h.signal) && live(h)) ||
    notThat ||
    (hits.some((h) => h.signal === "send" && h.negated) && orderYes.length > 0)
      ? { corrects: true }
      : {}),
    ...(correctsInReason(tokens, hits, live, notThat) ? { correctsInReason: true } : {}),
    ...(!denies &&
    lastBut < 0 &&
    // ("j'ai pas changé d'avis": the mind not changed keeps it too, not "I don't want, I changed my mind", "ما نحبش
    // بدلت رايي", whose "not" is the wanting's; round 26.)
    (hits.some(
      (h) =>
        (h.signal === "cancelVerb" ||
          h.signal === "changeVerb" ||
          (h.signal === "changedMind" && !tokens.slice(Math.max(0, h.start - 2), h.start).some((t) => WANT.test(t)))) &&
        h.negated,
    ) ||
      // ("j'ai jamais dit que je le voulais plus": a refusal whose saying the customer denies; round 35.)
      hits.some(
        (h) =>
          STRONG_DENIAL.has(h.signal) &&
          !h.negated &&
          notThatIRefuse(h) &&
          tokens.slice(Math.max(0, h.start - 6), h.start).some((t) => ["dit", "raconte", "demande"].includes(t)),
      ))
      ? { keepsOrder: true }
      : {}),
    ...(hits.some((h) => h.signal === "changeVerb" && h.negated) &&
    !hits.some((h) => h.signal === "changeVerb" && live(h))
      ? { changeDenied: true }
      : {}),
    ...(hits.some(
      (h) =>
        ((h.signal === "refuse" || h.signal === "cancelVerb") && live(h)) ||
        ((h.signal === "yes" || h.signal === "accept") && h.negated),
    )
      ? { strongDenial: true }
      : {}),
    ...(otherwise ? { otherwise } : {}),
    ...(turnsToYes ? { turnsToYes } : {}),
    ...(turnsToYes && tokens.includes("?") && tokens.lastIndexOf("?") < lastBut ? { askedBeforeTurn: true } : {}),
    // ("ف سوق انزكان كاينة بثمن قل من هادا، ولكن واخا، نديها": a question word before the "but", unpunctuated, left
    // behind as a question mark is; round 46.)
    ...(leftBehind(
      lastBut,
      (tokens.includes("?") && tokens.lastIndexOf("?") < lastBut) ||
        (!tokens.includes("?") && hits.some((h) => h.signal === "qword" && h.end <= lastBut)),
      TAKE_SEND,
    ) || answersAfterTurn
      ? { takesAfterQuestion: true }
      : {}),
    ...(asksFirst ? { asksFirst } : {}),
    ...(isThere ? { asksWhatThereIs: true } : {}),
    ...(putsOffAnswer ? { putsOffAnswer } : {}),
    ...(endsOnOr ? { endsOnOr } : {}),
    ...(takesNotAfterYes ? { takesNotAfterYes } : {}),
    ...(!yesToOrder && laterConfirms.some(live) ? { confirmsLater: true } : {}),
    ...(confirmsRefusal ? { confirmsRefusal } : {}),
    ...(putsOffAnswer && tokens.some((t) => ASK_VERB.test(t)) ? { asksFirstThing: true } : {}),
    ...(opening >= 0 && qwordAt(opening, false) ? { opensOnQuestion: true } : {}),
    ...(answersOwnQuestion() ? { answersOwnQuestion: true } : {}),
    ...(asksSomething ? { asksSomething } : {}),
    ...(asksCan ? { asksCan } : {}),
    // (French "ou" is canonical "u", also Darija's "and": read as "or" in a French reply only.)
    ...(endsOnQuestionMark &&
    lastBut >= 0 &&
    tokens.slice(lastBut + 1).some((t) => OR.has(t) || (t === "u" && country === "FR"))
      ? { asksOr: true }
      : {}),
    ...(asksWhichTime ? { asksWhichTime } : {}),
    ...(hits.some((h) => TIME.has(h.signal) && live(h) && dayFirst(h) && presence(h)) ? { presentOn: true } : {}),
    // (Every time said comes before a "but" that opens onto them: the customer's own time away, not the delivery's:
    // "نهار الجمعة راجلي يكون فالدار" names the day to come.)
    ...(othersThere >= 0 &&
    !hits.some(
      (h) =>
        TIME.has(h.signal) &&
        live(h) &&
        (h.start > othersThere || !tokens.slice(h.end, othersThere).some((t) => BUT.has(t))),
    )
      ? { othersThere: true }
      : {}),
    ...(callAhead ? { callsAhead: true } : {}),
    ...(hits.some((h) => h.signal === "repeat" && h.end > lastWord) ? { endsOnRepeat: true } : {}),
    ...(hits.some(
      (h) =>
        h.signal === "repeat" &&
        live(h) &&
        // (Asked, "say it again", not "I don't hear well", which is as often the doorbell: "sonnez fort, j'entends mal".)
        SAY_AGAIN.test(tokens[h.start] ?? "") &&
        // (Nor "call me again", the "again" of a call verb: "ما كاين لاش تعيطو ليا عاود".)
        !hits.some((c) => c.signal === "callVerb" && c.end <= h.start && h.start - c.end <= 2) &&
        hits.every((y) => !YES.has(y.signal) || !live(y) || y.end <= h.start),
    )
      ? { repeatsAfterYes: true }
      : {}),
    ...(!yesToOrder && hits.some((h) => TO_ORDER.has(h.signal) && live(h) && beforeYes(h)) ? { putsOffYes: true } : {}),
    plainYes,
    firmYes,
    conditional: cond >= 0,
    ...(visitHandsOver ? { visitHandsOver } : {}),
    // ("chhal gltili 250 wla 350 … ma sme3tch mzyan": which of two values, a number, "or", a number; round 28.)
    ...(tokens.some(
      (t, i) =>
        (/^\d+$/.test(t) || NUMBER_WORD.test(t)) &&
        OR.has(tokens[i + 1] ?? "") &&
        (/^\d+$/.test(tokens[i + 2] ?? "") || NUMBER_WORD.test(tokens[i + 2] ?? "")),
    )
      ? { asksBetweenValues: true }
      : {}),
    // ("ila kan lbab msdoud 3tiha l 3essas": if the door is shut, give it to the guard: the "if" is the courier's
    // visit and what follows it an instruction; no time, no change; round 23.)
    ...(cond >= 0 &&
    hits.some((h) => h.signal === "instruction" && live(h) && h.start > cond) &&
    !hits.some((h) => (TIME.has(h.signal) || CHANGE.has(h.signal)) && live(h))
      ? { ifInstructs: true }
      : {}),
  });
  const cueAt = (i: number) => tokens.slice(i, i + 3).join(" ");
  // A clause runs between stops and first-person subjects; one opened by a subject ("ana f dar ghedda") that sends,
  // refuses, puts off and denies nothing says where the customer will be, not when to deliver.
  const boundary = (i: number) => STOPS.has(tokens[i] ?? "") || SUBJECT.has(tokens[i] ?? "");
  // ("nhar l'arb3a nkoun fi dar": the day opens the clause and the subject follows it, round 12.)
  // ("هاتوه، ان شاء الله نهار الاثنين نكون في الدار": a "God willing" before the day leaves it first, round 23.)
  const dayFirst = (h: SignalHit) =>
    (h.start === 0 ||
      STOPS.has(tokens[h.start - 1] ?? "") ||
      hits.some((o) => o.signal === "hedge" && o.end === h.start)) &&
    SUBJECT.has(tokens[h.end] ?? "");
  const presence = (h: SignalHit) => {
    let from = h.start;
    while (from > 0 && !boundary(from)) from--;
    let to = h.end;
    while (to < tokens.length && !boundary(to)) to++;
    if (dayFirst(h)) {
      from = h.end;
      to = h.end + 1;
      while (to < tokens.length && !boundary(to)) to++;
    }
    return (
      SUBJECT.has(tokens[from] ?? "") &&
      !tokens.slice(from, to).some((t) => NEGATION.has(t)) &&
      !hits.some(
        (o) =>
          o.start >= from &&
          o.start < to &&
          o !== h &&
          (NOT_PRESENT.has(o.signal) || TO_ORDER.has(o.signal) || o.signal === "take"),
      )
    );
  };
  // "mais ma femme sera à la maison", "walakin mrati kayna fldar", "bessah yemma rahi f dar": one of the household
  // named, then where they will be, in the same clause (round 23).
  const othersThere = tokens.findIndex((t, i) => {
    if (!KIN.test(t)) return false;
    for (let j = i + 1; j < Math.min(tokens.length, i + 5); j++) {
      const w = tokens[j] ?? "";
      if (STOPS.has(w)) return false;
      if (THERE.test(w) || (w === "la" && country === "FR" && /^(?:est|sera|seront|sont)$/.test(tokens[j - 1] ?? "")))
        return true;
    }
    return false;
  });
  // "t9ulu", "galti", "9oltu", "dites", "vous avez dit": a saying of the shop's, the second person (round 22).
  const youSaid = (i: number) => {
    const w = tokens[i] ?? "";
    if (!SAID_IT.test(w)) return false;
    return /^t[g9q]/.test(w) || /[^aeiou]t[iu]$/.test(w) || w === "dites" || (w === "dit" && tokens[i - 1] === "avez");
  };
  // "la semaine passée", "nhar jem3a li fatet": a day gone by (when it was ordered) moves nothing.
  // ("j'ai pas changé d'avis depuis dimanche": since that day, gone by; round 22.)
  const past = (h: SignalHit) =>
    tokens.slice(h.end, h.end + 3).some((t) => PAST.has(t)) ||
    tokens[h.start - 1] === "depuis" ||
    // ("اللي عملتها في رمضان", "je l'ai commandée pendant le ramadan": when the order was made, gone by; round 27.)
    [1, 2, 3].some((k) => orderedAt(tokens, h.start - k)) ||
    // ("3ayto liya mrtin had sba7": the time of a call the shop made is gone by; round 25.)
    hits.some(
      (c) => CALL.has(c.signal) && live(c) && h.start >= c.end && h.start <= c.end + 3 && reportedCall(tokens, c),
    );
  // "lma3rid dyal khti f sebt" (my sister's wedding feast is on Saturday), "نهار عرسها" (her wedding day): a day that
  // is a celebration's, named with it and with no "send" nor "before" between them, is when the gift is for, no
  // delivery day (round 24). ("jibuha nhar l3rs", bring it on the wedding day, and "9bel l3id" keep theirs.)
  const eventDay = (h: SignalHit) => {
    const at = tokens.slice(Math.max(0, h.start - 4), h.end).findLastIndex((t) => CELEBRATION.test(t));
    if (at < 0) return false;
    const from = Math.max(0, h.start - 4) + at;
    const between = Math.min(from, h.start - 2);
    return (
      !hits.some((s) => (s.signal === "send" || s.signal === "delivery") && s.end > between && s.start < h.end) &&
      find(tokens, BEFORE, Math.max(0, between - 1), h.end) < 0
    );
  };
  // "ghodwa kima 9olt", "demain comme prévu": the day said is the one agreed.
  // ("لا سمح ليا، الأحد، الأحد اللي گلتي نتا … الأحد هو هداك": the same day said again is that day, agreed; round 35.)
  const dayWord = (h: SignalHit) => (tokens[h.end - 1] ?? "").replace(/^(?:el|l)(?=\S{3})/, "");
  const agreed = (h: SignalHit): boolean =>
    agreedHere(h) ||
    (h.signal === "day" &&
      hits.some((o) => o !== h && o.signal === "day" && dayWord(o) === dayWord(h) && agreedHere(o)));
  const agreedHere = (h: SignalHit) =>
    // ("ghedwa normal", "demain normal": the day as it stands, round 9.)
    NORMAL.has(tokens[h.end] ?? "") ||
    // ("كل مرة تقولو غدوة", "vous avez dit mardi": the day the shop said, quoted, asks for no other; round 22.)
    youSaid(h.start - 1) ||
    (DATIVE.has(tokens[h.start - 1] ?? "") && youSaid(h.start - 2)) ||
    // ("nhar li 9olti": the day's own "li", then the saying, round 13.)
    (WHO.has(tokens[h.end - 1] ?? "") && find(tokens, SAYING, h.end, h.end + 2) >= 0) ||
    tokens.slice(h.end, h.end + 3).some(
      (t, k) =>
        // ("le jour que vous avez dit", "nhar jem3a elli 9oltou": the day, "that", then the saying, round 13.)
        (AS.has(t) || WHO.has(t) || t === "9ue") &&
        (find(tokens, SAYING, h.end + k + 1, h.end + k + 3) >= 0 ||
          // ("nhar larb3a kima 9oltwa", as you said, any person's saying right after the "as": round 23; or after its
          // subject, "comme vous dites": round 24.)
          (AS.has(t) && SAID_IT.test(tokens[h.end + k + 1] ?? "")) ||
          (AS.has(t) && SUBJECT_YOU.test(tokens[h.end + k + 1] ?? "") && SAID_IT.test(tokens[h.end + k + 2] ?? "")) ||
          // ("خليه الأحد كيما قريتهالي": as you read it to me; round 35.)
          (AS.has(t) &&
            /^[9q]r[ae]?[iy]t(?:i|u)?(?:h|ha|hu|hum)?(?:ali|alek|li|lek)?$/.test(tokens[h.end + k + 1] ?? "")) ||
          // ("khalli lkhmis kima howa": the day as it is; round 35.)
          (AS.has(t) && /^(?:huwa|howa|hwa|hua|hiya|hia|hya|hiy)$/.test(tokens[h.end + k + 1] ?? "")) ||
          // ("mercredi comme vous avez dit", "c'est mercredi que vous m'avez dit": the French compound past; round 35.)
          ((AS.has(t) || t === "9ue") &&
            SUBJECT_YOU.test(tokens[h.end + k + 1] ?? "") &&
            [3, 4].some(
              (m) =>
                youSaid(h.end + k + m) && (m === 3 || ["m", "me", "l", "nus"].includes(tokens[h.end + k + 2] ?? "")),
            )) ||
          find(tokens, AGREED, h.end + k + 1, h.end + k + 3) >= 0),
    );
  // (A yes-word before the question word is a backchannel: "ah iyeh wach twslo l Tiznit?")
  const opening = tokens.findIndex(
    (t, i) =>
      ![",", ".", "!"].includes(t) &&
      !hits.some(
        (h) =>
          (h.signal === "filler" ||
            (h.signal === "yes" &&
              h.end - h.start === 1 &&
              !hits.some(
                (q) => q.start === h.start && q.signal !== "yes" && q.signal !== "filler" && q.signal !== "what",
              ))) &&
          h.start <= i &&
          h.end > i,
      ),
  );
  // "فما تخفيض كان خذيت زوز؟", "kayna b lbeige?": a question mark after an opening "is there" asks what there is.
  const isThere = opening >= 0 && tokens.includes("?") && IS_THERE.has(tokens[opening] ?? "");
  // ("wakha a sidi walakin imta ghatousl l dakhla": the clause after the last "but" opens on a question word, round 10.)
  const afterBut = lastBut >= 0 ? lastBut + 1 : -1;
  // ("chhal ghadi nkhles", how much shall I pay: the "pay" a price question asks about takes nothing, round 11.)
  const asksNothingFrom = (i: number) =>
    !hits.some(
      (h) =>
        ASKS_NOTHING.has(h.signal) &&
        live(h) &&
        h.start >= i &&
        !(h.signal === "take" && HOW_MUCH.test(tokens[i] ?? "") && h.start <= i + 3),
    );
  const qwordAt = (i: number, orWhat: boolean) =>
    hits.some((h) => (h.signal === "qword" || (orWhat && h.signal === "what")) && h.start === i);
  const asksFirst =
    (opening >= 0 && (isThere || qwordAt(opening, true)) && asksNothingFrom(opening)) ||
    (afterBut > 0 && qwordAt(afterBut, false) && asksNothingFrom(afterBut));
  // "قبل ما نقولك نعم نسقسيك", "avant de vous dire oui": "before I tell you", the answer after something else; "عيطلي
  // الخميس نقلك إيه", "عاودو عيطو نهار الحد نقولكم": a call asked for, then "I'll tell you", the answer on that call
  // (round 21).
  const putsOffAnswer = tokens.some(
    (t, i) =>
      SAY_ANSWER.test(t) &&
      // ("9bel ma n3ayetlkom kont ngoul ndirha wela la", before you called I was saying: what was said then is told, no
      // answer put off; round 22.)
      !WAS_GOING.has(tokens[i - 1] ?? "") &&
      (tokens
        .slice(Math.max(0, i - 4), i)
        .some(
          (b, k, before) =>
            find([b], BEFORE) === 0 && before.slice(k + 1).every((w) => BEFORE_LINK.has(w) || SAY_LINK.has(w)),
        ) ||
        // ("ila 3iyto ngol likom wakha": "if you call, tell them yes", someone's word for this very call.)
        hits.some(
          (c) =>
            CALL.has(c.signal) &&
            live(c) &&
            c.end <= i &&
            c.end >= i - 4 &&
            !inAnIf(c.start) &&
            !tokens.slice(c.end, i).includes("ma"),
        ) ||
        // ("Mrigel, ama mouch taw. La3chiya n9ollek ey.", "ghodwa ngollek": a time, then "I'll tell you", to you: the
        // answer comes then; not "كل صباح نقول اليوم توصل", what I say each morning; round 40.)
        ((/(?:k|km|kum|kom)$/.test(t) || SAY_LINK.has(tokens[i + 1] ?? "")) &&
          hits.some(
            (c) =>
              (c.signal === "slot" || c.signal === "day" || c.signal === "later") &&
              live(c) &&
              c.end <= i &&
              c.end >= i - 2 &&
              !inAnIf(c.start),
          ))),
  );
  // "deux ouais mais c'est deux pour le prix d'un ou", "ey ama el sabbat hedha original walla": the last word is "or".
  const words = tokens.filter((t) => !STOPS.has(t));
  const finalWord = words.at(-1) ?? "";
  const endsOnOr = tokens.length > 1 && (OR.has(finalWord) || (country === "FR" && finalWord === "u"));
  const canAt = (i: number) =>
    i >= 0 &&
    (MODAL.test(tokens[i] ?? "") || (/^(?:je|j|on|vous|tu)$/.test(tokens[i] ?? "") && MODAL.test(tokens[i + 1] ?? "")));
  const endsOnQuestionMark = tokens[tokens.length - 1] === "?";
  const asksCan = endsOnQuestionMark && (canAt(opening) || (afterBut > 0 && canAt(afterBut)));
  // "السبت هادا ولا السبت الجاي؟", "el khmis hedha wala ejjey", "c'est bien le mardi 12 ou le mercredi 12 ?", "es-sba7
  // wala ba3d edhohr?", "3la ana se3a?", "achmen nhar?": two times set against each other (or this one and the next),
  // or a "which" before a day or an hour, asks which is meant; a day asked about is none asked for (round 36). "This
  // or the next" asks even unpunctuated; anything else needs its question mark after it. Not where a time is asked
  // for anyway: a "can", a wish, a "rather", a "send", a putting off or a day denied anywhere in the reply ("jibuha
  // lkhmis wla ljem3a", "possible samedi ou dimanche ?").
  const timeHere = (i: number) =>
    hits.some((h) => (h.signal === "day" || h.signal === "slot" || h.signal === "later") && h.start <= i && h.end > i);
  const thisOrNext = (i: number) => THIS.has(tokens[i] ?? "") || NEXT_ONE.test(tokens[i] ?? "");
  const askedAfter = (i: number) => {
    for (let k = i + 1; k < tokens.length; k++) {
      if (tokens[k] === "?") return true;
      if (tokens[k] === "." || tokens[k] === "!") return false;
    }
    return false;
  };
  const whichTime = tokens.some((t, i) => {
    if (OR.has(t) || (t === "u" && country === "FR")) {
      const left = [i - 1, i - 2, i - 3].filter((k) => k >= 0 && !STOPS.has(tokens[k] ?? ""));
      const right = [i + 1, i + 2, i + 3, i + 4].filter((k) => k < tokens.length);
      const stopAt = right.findIndex((k) => STOPS.has(tokens[k] ?? ""));
      const rightSide = stopAt < 0 ? right : right.slice(0, stopAt);
      if (!left.some((k) => timeHere(k) || thisOrNext(k)) || !rightSide.some((k) => timeHere(k) || thisOrNext(k)))
        return false;
      const thisThenNext =
        left.some((k) => THIS.has(tokens[k] ?? "")) && rightSide.some((k) => NEXT_ONE.test(tokens[k] ?? ""));
      return thisThenNext || askedAfter(i);
    }
    return (
      (WHICH.test(t) || (t === "ana" && /^(?:3la|3l|f|fi)$/.test(tokens[i - 1] ?? ""))) &&
      TIME_NOUN.test(tokens[i + 1] ?? "") &&
      askedAfter(i)
    );
  });
  const asksWhichTime =
    whichTime &&
    hits.some((h) => TIME.has(h.signal)) &&
    !hits.some((h) => (h.signal === "send" || h.signal === "want" || h.signal === "postpone") && live(h)) &&
    !tokens.some((t) => MODAL.test(t) || t === "plutot" || t === "pluto") &&
    // (Nor where a day is denied first: "walakin machi lkhmis, ljem3a wla sebt?" asks for another; nor where the
    // customer is away or busy, "ghodwa ma nkounch, ndirou nhar l'arb3a wela l5amis?", and proposes.)
    !hits.some(
      (h) =>
        (TIME.has(h.signal) && [1, 2].some((k) => NEGATION.has(tokens[h.start - k] ?? ""))) ||
        ((h.signal === "absent" || h.signal === "busy") && live(h)),
    ) &&
    // (Nor where a time follows the last question mark: "on garde mardi... ou mercredi ? Mercredi ce serait mieux"
    // answers its own question.)
    !(tokens.includes("?") && hits.some((h) => TIME.has(h.signal) && h.start > tokens.lastIndexOf("?")));
  const whatLike = (i: number) =>
    hits.some(
      (h) => (h.signal === "what" || h.signal === "qword" || h.signal === "filler") && h.start <= i && h.end > i,
    );
  const asksSomething =
    asksFirst &&
    tokens.includes("?") &&
    hits.some((h) => h.signal === "qword" && h.start === opening) &&
    // (An opening "wach"/"wech" is also read "what?"; with words after it it is the yes/no question particle: round 8.)
    !hits.some(
      (h) =>
        (h.signal === "what" && !(h.start === opening && /^w[aeiou]?[cs]h$/.test(tokens[opening] ?? ""))) ||
        h.signal === "repeat",
    ) &&
    // ("wech rak tgoul?", "chnou galti?": what the agent said is asked again, nothing new is asked.)
    !tokens.some((t, i) => i > opening && SAID_IT.test(t)) &&
    tokens.some((t, i) => i > opening && ![",", ".", "!", "?", "…"].includes(t) && !whatLike(i));

  // A refusal the customer reports or denies ("chkoun galek n7eb nlghiha?") then "send it": no refusal at all.
  // "machi wakha", "ma confirmit walo": a negated yes is a denial.
  const denials = hits.filter(
    (h) => (DENIAL.has(h.signal) && live(h)) || ((h.signal === "yes" || h.signal === "accept") && h.negated),
  );
  const said = find(tokens, SAYING);
  const lastSend = Math.max(
    -1,
    ...hits.filter((h) => (h.signal === "send" || h.signal === "take") && live(h)).map((h) => h.start),
  );
  // "nan nan j'ai jamais annulé, je la veux", "ma lghitha walo, bghitha": the cancel denied, then a wish, a take or a
  // send, and no refusal that stands on its own after it.
  // "nannuler ana? jamais", "nlghi ana la": a cancel echoed as the customer's own question and denied at once (round 11).
  const echoDenied = (i: number) => {
    const j = ECHO_ME.has(tokens[i] ?? "") ? i + 1 : i;
    let k = tokens[j] === "?" ? j + 1 : j;
    // ("Annuler ? Ah non surtout pas": an "ah" or "oh" before the answer; round 35.)
    if (k > j && /^(?:ah|oh|eh|euh|a|bah|ben|mais)$/.test(tokens[k] ?? "")) k += 1;
    // ("Annuler ? Pas du tout", "annuler, moi ? absolument pas": round 16; "surtout pas": round 35.)
    const flatNo =
      (tokens[k] === "pas" && tokens[k + 1] === "du" && tokens[k + 2] === "tut") ||
      (["absolument", "surtout"].includes(tokens[k] ?? "") && tokens[k + 1] === "pas");
    return (j > i || k > j) && (NEVER.has(tokens[k] ?? "") || flatNo);
  };
  // "علاش تحسب نحب نبطّل؟", "pourquoi vous croyez que j'annule ?": a cancel under "why do you think", "who told you",
  // in a question of its own, is denied by the asking (round 20).
  const askedWhy = (h: SignalHit) => {
    const end = tokens.findIndex((t, i) => i >= h.end && (t === "?" || t === "." || t === "," || t === "!"));
    // ("pourquoi voulez-vous que j'annule, une fois ?": a comma and a tag of two words before the "?"; round 25.)
    const tagged = tokens[end] === "," && tokens.slice(end + 1, end + 4).includes("?");
    if (tokens[end] !== "?" && !tagged) return false;
    const from = Math.max(0, h.start - 5);
    const q = tokens.findIndex((t, i) => i >= from && i < h.start && WHY_WHO.has(t));
    return q >= 0 && tokens.slice(q + 1, h.start).some((t) => THINK.test(t) || SAID_IT.test(t) || WISH_YOU.test(t));
  };
  // ("pourquoi j'annulerais, je la veux toujours": why would I, in the conditional, asks nothing; round 23.)
  const whyWouldI = (h: SignalHit) =>
    /ra(?:is|it)$/.test(tokens[h.end - 1] ?? "") && tokens.slice(Math.max(0, h.start - 3), h.start).includes("pur9uoi");
  // ("علاش غادي نلغيها؟", "3lech nbattel", "Jamais j'annule", "Pas question de l'annuler", "aucune raison d'annuler":
  // why would I cancel, never, no question of it; round 33.)
  const noWay = (h: SignalHit) => whyMe(tokens, h.start) || neverBefore(tokens, h.start);
  const cancelDenied = hits.find(
    (h) =>
      h.signal === "cancelVerb" &&
      (h.negated ||
        echoDenied(h.end) ||
        notMineWho(h.start) >= 0 ||
        nearly(h) ||
        askedWhy(h) ||
        whyWouldI(h) ||
        noWay(h)),
  );
  // ... and the reply ends on the wish: no refusal that stands on its own after its last wish.
  const lastWish =
    cancelDenied === undefined
      ? -1
      : Math.max(
          -1,
          ...hits
            .filter(
              (w) =>
                (((w.signal === "want" || w.signal === "take" || w.signal === "send" || w.signal === "accept") &&
                  live(w) &&
                  !w.negated) ||
                  // ("pourquoi voulez-vous que j'annule ? … je n'ai pas changé d'avis, allez": a yes, or the mind
                  // not changed, after the cancel asked "why" of keeps the order too; round 25.)
                  (cancelDenied.negated !== true && YES.has(w.signal) && live(w)) ||
                  (w.signal === "changedMind" && w.negated)) &&
                w.start >= cancelDenied.end,
            )
            .map((w) => w.start),
        );
  // ("Annuler ? Jamais de la vie, c'est le cadeau de mon petit frère", "علاش نلغيها؟ الحنة تستنى فيها", "je n'annule
  // rien du tout, c'est pour la rentrée": the cancel denied, then only a reason to keep it: nothing refused, changed,
  // called for, moved or asked after the denial's own words, no "because" that answers the "why"; round 33.)
  // (The cancel's own negation only: "ما نلغيش", "ma ghadich nlghi", "mouch bech nannuli", "je ne l'annule pas"; not a
  // "no" that belongs to the verb before it, "ma nqderch annuliha", "ma bghitch lghiha": I can't, I don't want, cancel.)
  const deniedOwn = (h: SignalHit) =>
    h.signal === "cancelVerb" &&
    (noWay(h) ||
      echoDenied(h.end) ||
      askedWhy(h) ||
      whyWouldI(h) ||
      ((h.negated || deniedAfter(h)) && ownNegation(tokens, h)));
  const keptDenied = hits.find(deniedOwn);
  const deniedEnd = keptDenied === undefined ? -1 : Math.min(tokens.length, keptDenied.end + 4);
  const reasonOnly =
    keptDenied !== undefined &&
    !answersWhy(tokens, keptDenied.end) &&
    !tokens.slice(deniedEnd).includes("?") &&
    !hits.some(
      (h) =>
        !deniedOwn(h) &&
        // (The denial's own "non, jamais" may follow it; a reason, a refusal or a request right after it stands.)
        h.start >= (h.signal === "no" ? deniedEnd : keptDenied.end) &&
        (DENIAL.has(h.signal) || CHANGE.has(h.signal) || CALL.has(h.signal) || TIME.has(h.signal)) &&
        live(h),
    ) &&
    !hits.some((h) => h.start >= deniedEnd && h.signal === "qword");
  const keepsIt =
    reasonOnly ||
    (lastWish >= 0 && !hits.some((d) => STRONG_DENIAL.has(d.signal) && live(d) && d.start > lastWish)) ||
    // ("pourquoi j'annulerais wesh": the "why would I" that ends the reply, but for a tag, keeps it; round 26.)
    (cancelDenied !== undefined &&
      whyWouldI(cancelDenied) &&
      tokens.slice(cancelDenied.end).every((t) => STOPS.has(t) || TAG_AFTER.has(t)));
  // ("chkoun gal lik ana mabghitouch … bghitou", "Wach goult lek la? Ma goultch la! Ebe3thouha", "Est-ce que j'ai dit
  // non moi ? … j'la prends": who said, or did I say, that I refuse, asked in disbelief (a question word at most two
  // words before the verb of saying, or a question mark after it), a refusal within five words of it, then a wish, a
  // take or a send after the last refusal: the refusal is denied; round 28. A "why" of SAYING is no saying here, and a
  // bare yes-word at the end ("safi") is no wish.)
  const wishAfterAll = Math.max(
    -1,
    ...hits
      .filter((y) => (y.signal === "want" || y.signal === "send" || y.signal === "take") && live(y))
      .map((y) => y.start),
  );
  const askedRefusal =
    said >= 0 &&
    !WHY_SAYING.test(tokens[said] ?? "") &&
    (hits.some((q) => (q.signal === "qword" || q.signal === "repeat") && q.start < said && q.end >= said - 2) ||
      tokens.slice(said, said + 6).includes("?")) &&
    hits.some((d) => DENIAL.has(d.signal) && d.start > said && d.start <= said + 5) &&
    wishAfterAll > Math.max(-1, ...hits.filter((d) => DENIAL.has(d.signal) && live(d)).map((d) => d.start));
  // ("Machi ana li glt ma bghitch … أنا مأكدة الطلبية": someone else's refusal, then the customer's own yes: round 13.)
  const deniedRefusal =
    (hits.some((d) => saidByOther(d)) && orderYes.some((y) => othersSaying.some((n) => y.start > n.end + 1))) ||
    (said >= 0 &&
      denials.length > 0 &&
      lastSend > Math.max(...denials.map((d) => d.start)) &&
      denials.some((d) => d.start > said && d.start <= said + 6)) ||
    keepsIt ||
    askedRefusal ||
    // ("ماشي ما بغيتوش، بغيتو", "ما قلتش لا، أنا باغياها": the refusal denied, then a yes or a wish: round 15.)
    hits.some(
      (d) =>
        DENIAL.has(d.signal) &&
        notThatIRefuse(d) &&
        hits.some((y) => (YES.has(y.signal) || y.signal === "want") && live(y) && y.start > d.start) &&
        // (Not the preamble of a refusal: "c'est pas que je veux pas, mais … donc non", "machi ma bghitch walakin … lghiha".)
        !hits.some((x) => DENIAL.has(x.signal) && live(x) && x.start > d.start),
    );

  // 1. A condition: "if" with "before"/a day, or "otherwise", around the yes.
  // (Not "even if", "حتى كان ما نجمش نحل الكولي … ماعليش", "même si": a concession holds nothing back; nor the French
  // "Si, je prends" that contradicts a "no", before its comma; round 27.)
  // (Nor an "if" right after an apology, "sme7li ken n3ayet", "désolé si je crie": sorry if I shout; round 28.)
  const noCondition = (i: number) =>
    /^(?:hta|7ta|meme)$/.test(tokens[i - 1] ?? "") ||
    (tokens[i] === "si" && /^[,!.]$/.test(tokens[i + 1] ?? "")) ||
    // ("si si par contre appelez avant de monter": "si si" is the French emphatic yes; round 34.)
    (tokens[i] === "si" && (tokens[i + 1] === "si" || tokens[i - 1] === "si")) ||
    APOLOGY.test(tokens[i - 1] ?? "") ||
    (tokens[i - 1] === "moi" && APOLOGY.test(tokens[i - 2] ?? ""));
  let cond = find(tokens, conditions, 0, tokens.length, true);
  while (cond >= 0 && noCondition(cond)) cond = find(tokens, conditions, cond + 1, tokens.length, true);
  // ("هو قالي إذا عيطو قوليلهم يجيبوها": he told me, if they call, tell them to bring it: an "if" whose condition is a
  // call is met by this very call and holds nothing back; round 27.)
  const callMet = cond >= 0 && hits.some((c) => CALL.has(c.signal) && c.start > cond && c.start <= cond + 2);
  // ("ghir ila ja l livreur y3ayet 9bel b nos sa3a", "ila le livreur y3ayetli 9bel": an "if" whose clause is the courier
  // calling ahead is his instruction, no condition on the order; round 27.)
  const courierCalls =
    cond >= 0 &&
    tokens.slice(cond + 1, cond + 4).some((t) => COURIER_NOUN.test(t)) &&
    hits.some((c) => CALL.has(c.signal) && c.start > cond && c.start <= cond + 6);
  // ("المرة الجاية إلا كان شي code promo صيفطوه ليا": an "if" for next time asks nothing of this order; round 27.)
  const nextTime = cond >= 0 && [1, 2, 3, 4].some((k) => nextTimeAt(tokens, cond - k));
  const otherwise = cond >= 0 ? find(tokens, OTHERWISE, cond + 1) : -1;
  // ("si le livreur sonne et que je dors qu'il insiste … mais sinon c'est validé": an "otherwise" that assents, with no
  // refusal after it, says "apart from that, yes": the "if" holds nothing back; round 37.)
  const otherwiseAssents =
    otherwise > cond &&
    hits.some(
      (y) =>
        (y.signal === "yes" || y.signal === "accept") && live(y) && y.start > otherwise && y.start <= otherwise + 4,
    ) &&
    !hits.some((d) => DENIAL.has(d.signal) && live(d) && d.start > otherwise);
  // (A "day" on a number above 31, "du 38", is a size, not a date.)
  // (Nor a number before a currency, "à 40 euros": a price; round 17.)
  // (Or a number in words, "à quarante euros", "ألف دينار": round 18.)
  // (Or "faire à 30", "si tu me le fais à 30": a price put to the shop; round 28.)
  const priceNumber = (i: number) =>
    (/^\d+$/.test(tokens[i] ?? "") || NUMBER_WORD.test(tokens[i] ?? "")) &&
    (PRICE_AFTER.test(tokens[i + 1] ?? "") ||
      (tokens[i - 1] === "a" && /^(?:fai[st]|faites|faire)$/.test(tokens[i - 2] ?? "")));
  const notADate = (h: SignalHit) =>
    tokens.slice(h.start, h.end).some((t, k) => (/^\d{2}$/.test(t) && Number(t) > 31) || priceNumber(h.start + k));
  const dated = (from: number) =>
    find(tokens, BEFORE, from, from + 6) >= 0 ||
    // ("oui, si c'est après le cinq, quand je touche la paie, sinon …": a day of the month; round 27.)
    tokens.some((_, i) => i >= from && i <= from + 6 && monthDayAt(tokens, i)) ||
    // ("wakha, ghir ila ja mor lkhalssa", only if it comes after payday: "after" and the pay; round 40.)
    tokens.some((_, i) => i > from && i <= from + 6 && afterPayAt(i)) ||
    hits.some(
      (h) =>
        (h.signal === "day" || h.signal === "slot") &&
        h.start >= from &&
        h.start <= from + 6 &&
        !notADate(h) &&
        // ("ila jat ghodwa kima goultou, ana hna": the day as the shop said it is no date to hold the order to; round 27.)
        !agreed(h),
    );
  // A size given as a number ("ila kayn 42 sifto", "ken famma 43 ab3ath", "si vous avez du 38"): two digits, from 20 to
  // 60, that no day or time reading took (above 31 no day can: "du 38" is a size whatever the date cue read).
  // (A number before a currency, "39 euros", is a price: round 13.)
  const sizeAt = (i: number) =>
    /^\d{2}$/.test(tokens[i] ?? "") &&
    !PRICE_AFTER.test(tokens[i + 1] ?? "") &&
    Number(tokens[i]) >= 20 &&
    Number(tokens[i]) <= 60 &&
    (Number(tokens[i]) > 31 ||
      !hits.some((h) => (h.signal === "day" || h.signal === "slot") && h.start <= i && h.end > i));
  // "ila kayn 42 sifto", "si vous l'avez en M, je la prends": an "if" whose clause names the item (a colour, a size, a
  // model) and then sends or takes it asks for that item, with or without its "otherwise": a change.
  // ("la même en rouge si vous l'avez, je prends": the item may stand just before its "if", round 10.)
  // (A quantity is an item too, "ila kaynin نديهم بجوج"; and the item may end the clause before the "if", "le modèle
  // sans talon, إذا كاين نديه": round 11.)
  // (A way of paying is a term of the order too: "seulement si je peux payer la moitié par virement", "بشرط تحسبلي
  // الكود promo"; a day of the month is no item: "après le cinq"; round 27.)
  const itemAt = (i: number) =>
    (!monthDayAt(tokens, i) && (sizeAt(i) || hits.some((h) => ITEM.has(h.signal) && h.start === i))) ||
    PAYMENT.test(tokens[i] ?? "");
  // The first item within `span` words after `from`, before any stop, or -1.
  const itemAhead = (from: number, span: number) => {
    for (let i = from + 1; i <= from + span && i < tokens.length; i++) {
      if (STOPS.has(tokens[i]!)) return -1;
      if (itemAt(i)) return i;
    }
    return -1;
  };
  const itemAfter = (from: number) => {
    const ahead = itemAhead(from, 5);
    if (ahead >= 0) return ahead;
    for (let i = from - 1; i >= from - 5 && i >= 0; i--) {
      if (i === from - 1 && tokens[i] === ",") continue;
      if (STOPS.has(tokens[i]!)) return -1;
      if (itemAt(i)) return from; // the "send it" or "I take it" is looked for after the "if"
    }
    return -1;
  };
  const item = cond >= 0 ? itemAfter(cond) : -1;
  // ("Ila kan 3andkom le modèle sans manches، ديك الساعة نعم": a yes that ends the reply after the item takes it too,
  // round 13.)
  const takesItem =
    item >= 0 &&
    !dated(cond) &&
    hits.some(
      (h) =>
        live(h) &&
        h.start > cond &&
        (((h.signal === "send" || h.signal === "take") && h.start <= item + 4) ||
          (h.signal === "yes" && h.start > item && h.end > lastWord)),
    );
  // "à condition que ce soit le grand format", "بشرط تكون بالكحل": an "only if" whose clause names the item requires it,
  // with no "otherwise" nor "send it" (round 17).
  const onlyIfItem =
    cond >= 0 && find(tokens, ONLY_IF, Math.max(0, cond - 1), cond + 1, true) >= 0 && itemAhead(cond, 8) >= 0;
  // ("Ila terja3 4000 ih nddiha, 4500 ma n9derch 3liha": an "if" whose clause names an amount, three digits or more,
  // then a yes, a take or a send: a price put to the shop, which haggles: a change; round 38.)
  const amount = cond >= 0 ? tokens.findIndex((t, i) => i > cond && i <= cond + 3 && /^\d{3,}$/.test(t)) : -1;
  const takesAtPrice =
    amount >= 0 &&
    !tokens.slice(cond + 1, amount).some((t) => STOPS.has(t)) &&
    hits.some(
      (h) =>
        (h.signal === "take" || h.signal === "send" || h.signal === "yes") &&
        live(h) &&
        h.start > amount &&
        h.start <= amount + 3,
    );
  // ("ok si c'est 39 et pas 49", "D'accord si c'est 250، ماشي 299": inside the "if", a number put for another; round 40.)
  const numberAt = (i: number) => /^\d{2,4}$/.test(tokens[i] ?? "");
  const valueForValue =
    (cond >= 0 &&
      tokens.some(
        (t, i) =>
          i > cond &&
          i <= cond + 6 &&
          NOT_THAT.has(t) &&
          [1, 2].some((k) => numberAt(i - k) && tokens.slice(i - k + 1, i).every((w) => STOPS.has(w) || AND.has(w))) &&
          [1, 2].some((k) => numberAt(i + k) && tokens.slice(i + 1, i + k).every((w) => ECHO_FILLER.test(w))),
      )) ||
    // ("D'accord, ama ken el prix 75 kima 5dhetou bent 3ammti, mouch 90": the price inside the "if", a clause on it,
    // then "not" and another number; round 45.)
    (cond >= 0 &&
      tokens.some(
        (t, i) =>
          i > cond + 1 &&
          i <= cond + 12 &&
          NOT_THAT.has(t) &&
          numberAt(i + 1) &&
          tokens.slice(cond + 1, i).some((w, k) => numberAt(cond + 1 + k) && w !== tokens[i + 1]) &&
          tokens.slice(cond + 1, i).some((w) => /^(?:prix|soum|swum|som|taman|tamen|prik)$/.test(w)),
      ));
  if (
    cond >= 0 &&
    !callMet &&
    !nextTime &&
    !courierCalls &&
    !otherwiseAssents &&
    !visitAt(cond) &&
    (otherwise > cond || dated(cond) || takesItem || onlyIfItem || takesAtPrice || valueForValue) &&
    !hits.some((h) => CHANGE.has(h.signal) && live(h))
  ) {
    // "ila kayna f rouge confirmi, sinon la": a condition on the item (a colour, a size, a quantity), not on the date,
    // asks for that item: a change.
    // (A size given as a number is an item too: "oui si vous l'avez en 38, sinon non", round 11.)
    // (Or a value put for another, "بشرط تكون الشاشة ديال 55 ماشي 43، إلا لا ما نحتاجهاش": round 12.)
    // ("b lkhal ok ila kayna ila la ma n7tajhach": the item just before its "if", and an "otherwise": round 13.)
    const onItem =
      takesItem ||
      takesAtPrice ||
      valueForValue ||
      (amount >= 0 && !dated(cond)) ||
      (onlyIfItem && !dated(cond)) ||
      (!dated(cond) &&
        (notThat ||
          (item >= 0 && otherwise > cond) ||
          // (A price is what the item costs: "si vous me faites à 40 euros, sinon ça va pas", round 17; so is "free":
          // "Nokhdha ken ta3mlouli el livraison bleche, sinon la", round 24.)
          tokens.some(
            (t, i) => i > cond && (otherwise < 0 || i < otherwise) && (itemAt(i) || priceNumber(i) || FREE.test(t)),
          )));
    return {
      ...result(onItem ? "change" : "condition", cueAt(cond), deniedRefusal, otherwise > cond),
      ...(takesItem ? { takesItem } : {}),
      // ("… lghiha, w ila bghit chi nhar n3awd ntlb": the customer's own cancel stands before the "if", round 12.)
      ...(hits.some((h) => h.signal === "cancelVerb" && live(h) && h.end <= cond) ? { cancelsFirst: true } : {}),
    };
  }
  // "ايه نقبلها، بصح لازم توصل قبل العرس تاع ختي نهار الخميس، ولا بلاش", "ey ama lazem tousel 9bal el 5mis": no "if",
  // but a "must" whose clause holds the delivery to "before" a day (or a wedding, or a day of the month) is the same
  // requirement on the date: a condition (round 38). Not "il faut appeler avant": before nothing dated.
  const must = tokens.findIndex((t, i) => {
    if (!MUST.test(t)) return false;
    const before = find(tokens, BEFORE, i + 1, i + 5);
    return (
      before >= 0 &&
      !tokens.slice(i + 1, before).some((w) => STOPS.has(w)) &&
      // (The delivery's own verb in between, "توصل", "arrive": not "لازم نكملهم قبل الظهر", the customer's work.)
      hits.some((h) => (h.signal === "delivery" || h.signal === "send") && h.start > i && h.start < before) &&
      // (And no yes, take or send after it: "لازم توصل قبل العيد وانتوما قلتو الاثنين … ايه مليح ابعثوها" is met.)
      !hits.some(
        (h) => (YES.has(h.signal) || h.signal === "send" || h.signal === "take") && live(h) && h.start > before,
      ) &&
      (tokens.some((w, k) => k > before && k <= before + 5 && (CELEBRATION.test(w) || monthDayAt(tokens, k))) ||
        hits.some((h) => (h.signal === "day" || h.signal === "slot") && h.start > before && h.start <= before + 5))
    );
  });
  if (must >= 0 && cond < 0 && !hits.some((h) => CHANGE.has(h.signal) && live(h)))
    return result(
      "condition",
      cueAt(must),
      deniedRefusal,
      find(tokens, [...OTHERWISE, ...OR_NOTHING], must + 1) > must,
    );
  // "b 5000 bla livraison nakhdha sinon khalas", "à 30 euros je la prends, sinon non": a price, "I take it", then
  // "otherwise", and no "if": a condition on the price, which haggles: a change (round 11).
  const alone = cond < 0 ? find(tokens, OTHERWISE, 1) : -1;
  // A number said as a price: "b 5000", "pour 100", "250 dh", "30 euros".
  const priceNumberAt = (i: number) =>
    /^\d{2,}$/.test(tokens[i] ?? "") &&
    (PRICE_BEFORE.has(tokens[i - 1] ?? "") || PRICE_AFTER.test(tokens[i + 1] ?? ""));
  const priceAt = (i: number) =>
    priceNumberAt(i) &&
    hits.some((h) => (h.signal === "take" || h.signal === "send") && live(h) && h.start > i && h.start < alone);
  const priced = alone > 0 ? tokens.findIndex((_, i) => i < alone && priceAt(i)) : -1;
  if (priced >= 0 && !hits.some((h) => CHANGE.has(h.signal) && live(h)))
    return { ...result("change", cueAt(priced), deniedRefusal, true), takesItem: true };
  // "faites-moi les 3 pour 100 euros et je les prends", "dirli juj b 500 drhm": a price after "make me" / "give me" is
  // the customer's own price: haggling, a change (round 13).
  // (Not a past "left", "made": "Mon mari a laissé les 52 euros dans le tiroir", the money left for the courier; round 38.)
  const offered = tokens.findIndex(
    (_, i) =>
      priceNumberAt(i) &&
      tokens
        .slice(Math.max(0, i - 6), i)
        .some((w, k, near) => makesPrice(w) && !/^(?:a|ai|as|avons|avez|ont|avait|avais)$/.test(near[k - 1] ?? "")),
  );
  if (offered >= 0 && !hits.some((h) => CHANGE.has(h.signal) && live(h)))
    return result("change", cueAt(offered), deniedRefusal);
  // 2. A change: a change verb, "instead", add or remove one; unless it is what a callback asked first is for
  // ("call me before you send it, so I add something").
  // "qu'il m'appelle avant", "y3ayetli": someone else (the courier) calls; only "call me (back)" asks for a callback.
  // ("khliw wahed mn lkhedama y3ayetli": someone who is no courier calls me, with no courier word anywhere, is a callback.)
  const byOther =
    call !== undefined &&
    (/(ni|li|lia|liya|lya)$/.test(tokens[call.end - 1] ?? "") || ME.has(tokens[call.end] ?? "")) &&
    !hits.some((h) => COURIER.has(h.signal));
  const thirdPerson =
    call !== undefined &&
    ((/^y/.test(tokens[call.start] ?? "") &&
      (!byOther ||
        // ("9olou lel gardien y3ayetli": one of the household or the building, named just before, calls; round 26.)
        tokens.slice(Math.max(0, call.start - 3), call.start).some((t) => KIN.test(t)) ||
        // ("وإذا جا نهار الخميس راني في السوق يعيّطلي ونجي": he who comes, if he comes, calls; round 39.)
        visitHandsOver)) ||
      // ("ila ja m3a l3chiya dreb 3la jjiran": the call verb is itself what he does on the visit, "dreb", knock or
      // ring; round 43.)
      (visitHandsOver && HANDS_OVER.test(tokens[call.start] ?? "")) ||
      tokens.slice(Math.max(0, call.start - 3), call.start).some((t) => t === "il" || t === "elle") ||
      // ("parce qu'on m'appelle tout le temps": someone calls the customer, a report; not "on peut me rappeler"; round 16.)
      (["on", "ils"].includes(tokens[call.start - 1] ?? "") &&
        ["m", "me"].includes(tokens[call.start] ?? "") &&
        !/r$/.test(tokens[call.end - 1] ?? "")));
  // The courier word must be near the call ("call me when the courier comes"); "it's about the parcel, … call me
  // back at three" asks a callback.
  const courierNear =
    call !== undefined &&
    hits.some((h) => COURIER.has(h.signal) && !sendsLater(h) && Math.abs(h.start - call.start) <= 8);
  // "ila 3ayto, qoulhom yjibouha" (if they call, tell them to bring it): a call inside an "if" asks for nothing.
  const ifCalled = call !== undefined && inAnIf(call.start);
  // "3ayet 3liya mn b3d nhar 30 … w ghadi nconfirmi", "rappelez ce soir … et je vous confirme", "عيط عليا من بعد الخلصة
  // ونقول ليك صافي": a yes promised after the call, in a clause of its own ("and" or "will" before it), is the answer
  // the call will bring; the yes before the call agreed to nothing yet (round 18).
  const promisedYes =
    call !== undefined &&
    hits.some(
      (h) =>
        (YES.has(h.signal) || h.signal === "accept") &&
        live(h) &&
        h.start > call.end &&
        promises(tokens.slice(Math.max(call.end, h.start - 3), h.end)),
    );
  const callback =
    call !== undefined &&
    (!yesToOrder || promisedYes) &&
    !courierNear &&
    !thirdPerson &&
    !ifCalled &&
    !callAhead &&
    !callsTold;
  // A "go on" word that is also a change verb ("zid": add / go on) and has no object after it asks for no change.
  // ("zid kemmel": another "go on" word after it is no object either.)
  const noObject = (h: SignalHit) => {
    if (![...Array(h.end - h.start).keys()].every((k) => goOn.has(h.start + k))) return false;
    let i = h.end;
    while (goOn.has(i)) i++;
    return [undefined, ",", ".", "!", "?"].includes(tokens[i]);
  };
  // "bghit lbni wla lk7el", "je la veux en rouge": a wish whose object is a colour, a size or a model asks for a change.
  const wishedItem = hits.find(
    (h) =>
      h.signal === "want" &&
      live(h) &&
      // ("كنت باغي نبدل اللون بصح خلاص، خليها كيما هي، جيبوها": a wish only thought of before the "but"; round 19.)
      !onlyThought(h) &&
      hits.some((a) => (a.signal === "attr" || a.signal === "attrNoun") && a.start > h.start && a.start <= h.end + 2),
  );
  // "dir lia xl", "a3tini lk7al", "faites-moi la taille au-dessus en L": "make me" / "give me" and a colour, a size or a
  // model asks for it: a change (round 13; "je fais du 42" says what fits, "laissez-le à la gardienne" whom to leave it with).
  const madeItem = hits.find(
    (h) =>
      ITEM.has(h.signal) && live(h) && tokens.slice(Math.max(0, h.start - 3), h.start).some((w) => MAKE_ITEM.test(w)),
  );
  // "c'est ça, sauf la taille : mettez du L", "tout est bon à part la couleur": "except" and a colour, a size or a model
  // (an article between at most) leaves that out of the yes: a change (round 22).
  const exceptAt = (i: number) => EXCEPT.test(tokens[i] ?? "") && (tokens[i] !== "part" || tokens[i - 1] === "a");
  const exceptItem = hits.find(
    (h) =>
      ITEM.has(h.signal) &&
      live(h) &&
      [1, 2, 3].some(
        (d) => exceptAt(h.start - d) && tokens.slice(h.start - d + 1, h.start).every((a) => ARTICLE.test(a)),
      ),
  );
  // "tjibouha l Zarzis mouch Medenine", "livrez à Lyon, pas Villeurbanne": a place named, then another denied after
  // "send it": the address corrected (a name capitalised after the negation, read from the text as typed).
  const placeDenied =
    orderYes.length > 0 &&
    /(?:^|[\s,])(?:mouch|mech|machi|mashi|pas|non|et non|machy)\s+(?:(?:à|a|f|fi|l|el|de)\s+)?\p{Lu}\p{Ll}{2,}/u.test(
      text,
    )
      ? orderYes[0]
      : undefined;
  // "ma tab3thouhech l dari, ab3thouh l dar baba", "ne l'envoyez pas chez moi, envoyez-le chez ma mère": "don't send it
  // there", then "send it" to a place, with no day or time about either: the address redirected (round 24).
  const sentTo = (h: SignalHit) =>
    TO_PLACE.test(tokens[h.end] ?? "") &&
    !hits.some((d) => (d.signal === "day" || d.signal === "slot") && d.start >= h.end && d.start <= h.end + 3);
  // "oui envoyez-le chez ma mère", "ab3athha l dar ommha", "livrez chez mon frère à Haguenau": "send it" or "deliver it"
  // to a relative's home is another address, a change, with no "if" near ("si je suis pas là, livrez chez ma mère" is
  // where it goes otherwise). Not "leave it with" (an instruction), nor a neighbour or a guard, nor "chez moi" (round 45).
  const sentToKin = hits.find((h) => {
    if (!((h.signal === "send" || (h.signal === "delivery" && /^livr/.test(tokens[h.start] ?? ""))) && live(h)))
      return false;
    const near = tokens.slice(Math.max(0, h.start - 6), h.end + 8);
    if (near.some(isIf)) return false;
    // ("j'allais vous dire de livrer chez ma sœur... non, je reste": only thought of, then a "no".)
    if (
      tokens.slice(Math.max(0, h.start - 5), h.start).some((t) => WAS_THINKING.test(t) || t === "alais") &&
      hits.some((n) => n.signal === "no" && n.start > h.end)
    )
      return false;
    // ("je voulais le livrer chez ma mère... non, laissez, chez moi c'est mieux": asked, then taken back.)
    if (
      tokens
        .slice(h.end)
        .some((t, k, rest) => TAKE_BACK_NO.test(t) && rest.slice(k + 1, k + 4).some((x) => LEAVE_IT.test(x)))
    )
      return false;
    let i = h.end;
    while (i < h.end + 2 && /^(?:le|la|les|lui|plutot|direct|directement)$/.test(tokens[i] ?? "")) i++;
    const [a, b, c] = [tokens[i] ?? "", tokens[i + 1] ?? "", tokens[i + 2] ?? ""];
    if (a === "chez") return OWNED.test(b) && KIN_HOME.test(c);
    if (/^(?:l|el|li|lil|ldar|eldar)$/.test(a)) {
      const [dar, whose] = a.endsWith("dar") ? [a, b] : [b, c];
      // ("جيبوه للدار، بابا راهو يستنى": "home", then "dad is waiting", a clause of its own.)
      const then = a.endsWith("dar") ? c : (tokens[i + 3] ?? "");
      return /^(?:l|el)?dar$/.test(dar) && KIN_OF.test(whose) && !/^rah/.test(then);
    }
    return /^(?:3and|3nd|3end|3ind)$/.test(a) && KIN_OF.test(b);
  });
  const notSentThere = hits.find((h) => h.signal === "send" && h.negated && sentTo(h));
  const sentElsewhere =
    notSentThere && hits.find((h) => h.signal === "send" && live(h) && h.start > notSentThere.end && sentTo(h));
  // "livrez à mon travail, pas à la maison", "ma tjibouhach l dar, dirouha f le bureau ta3 Yalidine": the home denied as
  // the place to deliver, with no day nor time said (a day makes it a reschedule: "ma tjibouhach lyoum"), nothing asked
  // and no call asked for: the address redirected (round 32).
  const homeDenied =
    HOME_DENIED.test(text) &&
    !HOME_STATE.test(text) &&
    !tokens.includes("?") &&
    !callback &&
    !hits.some((h) => (h.signal === "day" || h.signal === "slot" || h.signal === "today") && live(h))
      ? (orderYes[0] ?? hits[0])
      : undefined;
  // "w el adresse ghalta", "l'adresse est fausse": the address said to be wrong, not asked about ("?") and not denied
  // ("l'adresse machi ghalta"), asks for it changed (round 45).
  const addressWrong = hits.find((h) => {
    if (h.signal !== "address" || !live(h)) return false;
    let i = h.end;
    while (i < h.end + 2 && COPULA_OF_VALUE.test(tokens[i] ?? "")) i++;
    return WRONG.test(tokens[i] ?? "") && !tokens.slice(i + 1, i + 4).includes("?");
  });
  // ("نشاور خويا الكبير": the big brother asked, no big size; round 42.)
  const consults = consultsFirst(tokens);
  const ofWhoIsAsked = (h: SignalHit) =>
    consults >= 0 && h.signal === "attr" && h.start > consults && h.start <= consults + 4;
  const change =
    hits.find(
      (h) =>
        CHANGE.has(h.signal) &&
        live(h) &&
        !(callback && call.start < h.start) &&
        !noObject(h) &&
        !onlyThought(h) &&
        !ofWhoIsAsked(h),
    ) ??
    wishedItem ??
    madeItem ??
    exceptItem ??
    placeDenied ??
    sentElsewhere ??
    homeDenied ??
    addressWrong ??
    sentToKin;
  // ("واخا، بشرط تزيدو ليا الشارجور معاه، بلا بيه ما نبغيهش": a change under an "if" keeps its "otherwise": round 20.)
  if (change) return result("change", cueAt(change.start), deniedRefusal, cond >= 0 && otherwise > cond);
  // 3a. "ماكاش مشكل، نسقسي بابا ونردلك الخبر", "d'accord, je demande à mon mari et je vous redis": the customer will ask
  // someone, or get back with the answer; whatever yes-word came first agrees to wait, not to the order: a callback,
  // unless a yes, an "I agree", a "send it" or an "I take it" comes after it (round 42).
  // ("je demande à mon mari… il dit واخا, donc oui c'est bon": asked there and then, the answer after it is the answer.)
  if (consults >= 0 && !hits.some((h) => ANSWERED_AFTER.has(h.signal) && live(h) && h.start > consults))
    return { ...result("callback", tokens[consults] ?? null, deniedRefusal), consultsFirst: true };
  // 3. A callback: "call me (again)" that is not about the courier, and no "send it".
  // "3 semaines nestenna w dorka t3aytouli? merci, khalliwha 3andkom": a refusal after the call verb is the answer.
  if (callback && !denials.some((d) => d.start > call.end && STRONG_DENIAL.has(d.signal))) {
    const verb = tokens[call.end - 1] ?? "";
    const callsMe = ME.has(tokens[call.end] ?? "") || /(ni|nii|li|lia|liya|lya)$/.test(verb);
    // "3ayto ghodwa fel sbe7", "3itu 3lih m3a lmaghrib": the day or the time stands on the call verb (after its object),
    // and nothing is said of the delivery ("3ayet liya nhar sebt 3la livraison" fixes a delivery day: a reschedule); not
    // "3ayatoulna nhar lekhor" (you called us the other day: a report, its object "us").
    // Only when the call is not "call me": "3ayet liya nhar l7ed 3la lwa9t" is how a customer fixes a delivery day, and
    // "3ayto ghodwa", "klmuh m3a lmaghrib" (call him) ask for the call itself, often said by someone else.
    // ("عاود عيط ليا نهار خمسة فالشهر", "عيطلي نهار خمسة في الشهر ونقولك": "call me again", or "call me … and I'll tell
    // you", asks for the call itself, even on "call me": round 16.)
    const callAgain =
      /^3aw/.test(tokens[call.start] ?? "") ||
      /^3aw/.test(tokens[call.start - 1] ?? "") ||
      tokens.slice(call.end).some(
        (t, k) =>
          ANSWER_LATER.test(t) ||
          (t === "vus" && /^(?:re)?di(?:rai|s)$/.test(tokens[call.end + k + 1] ?? "")) ||
          // ("عيطو ليا من بعد الجمعة نكون خلصت", call me after Friday, I'll have paid: the call waits on that, round 21.)
          (/^n[ae]?k[ou]+n$/.test(t) && /^[\p{L}\d]{2,}t$/u.test(tokens[call.end + k + 1] ?? "")),
      );
    const callTime =
      (!callsMe || callAgain) &&
      !/(na|lna|nna)$/.test(verb) &&
      !hits.some((h) => h.signal === "delivery") &&
      !tokens.some((t) => DELIVERY_NOUN.test(t)) &&
      hits.some(
        (h) =>
          (h.signal === "day" || h.signal === "slot" || h.signal === "later") &&
          h.start >= call.end &&
          h.start <= call.end + 3 &&
          !past(h),
      );
    return {
      ...result("callback", cueAt(call.start), deniedRefusal),
      ...(callsMe ? { callsMe } : {}),
      ...(callTime ? { callTime } : {}),
    };
  }
  // 3b. A new time after the last "but", nothing refused after it: "behi ama ghodwa ana mouch fi dar, jibouha nhar el
  // arb3a", "wakha walakin jibuh nhar larb3": "fine, but bring it Thursday" asks for that day.
  // The clause after the "but" must move the delivery (away, not now, put off, "don't bring it then"): "safi sifto had
  // simana" only says when, as planned.
  const laterTime =
    lastBut >= 0
      ? hits.find((h) => h.start > lastBut && h.signal === "day" && live(h) && !agreed(h) && !past(h))
      : undefined;
  const moves = (h: SignalHit) =>
    h.start > lastBut &&
    (h.signal === "absent" ||
      h.signal === "notNow" ||
      h.signal === "postpone" ||
      h.signal === "busy" ||
      (h.signal === "send" && h.negated));
  // ("موش مشكل أما نهار الأحد برك", "oui mais samedi uniquement": after the "but", that day only asks for the day as a
  // "not now" does; round 46.)
  const onlyThatDay =
    laterTime !== undefined &&
    (ONLY_BEFORE_DAY.test(tokens[laterTime.start - 1] ?? "") || ONLY_DAY.test(tokens[laterTime.end] ?? ""));
  // ("oui, mais lundi non, c'est jour de marché … mardi c'est parfait": after the "but", a day refused by the "no"
  // right after it, then another day: the "no" is the day's, and the other day is asked for; round 46.)
  const dayRefused =
    laterTime !== undefined ? hits.find((n) => n.signal === "no" && live(n) && n.start === laterTime.end) : undefined;
  const otherDay =
    dayRefused !== undefined &&
    hits.some((d) => d.signal === "day" && live(d) && d.start > dayRefused.end && !past(d) && !agreed(d));
  if (
    laterTime &&
    yes &&
    // ("Behi, ama mouch taw. Ghodwa n9ollek.": the day is when the answer comes, not the delivery; round 40.)
    !putsOffAnswer &&
    !hits.some(
      (h) =>
        h.start > lastBut &&
        live(h) &&
        (DENIAL.has(h.signal) || h.signal === "doubt") &&
        !(otherDay && h === dayRefused),
    ) &&
    (hits.some(moves) || onlyThatDay || otherDay)
  ) {
    return result("date", cueAt(laterTime.start), deniedRefusal);
  }
  // 4. Attention only: "I hear you, go on" ("kemmel" is also the lexicon's "go ahead"), no other assent to the order,
  // and not "I can't hear well" ("j'entends plus").
  const attention = find(tokens, ATTENTION, 0, tokens.length, true);
  const heard =
    attention >= 0 &&
    !tokens.slice(attention + 1, attention + 4).some((t) => NOT_HEARD.has(t) && t !== "ma") &&
    !NOT_HEARD.has(tokens[attention - 1] ?? "") &&
    // ("rani hna ghodwa kamel f dar": "kamel" right after a day is "the whole day", round 13.)
    !hits.some((h) => TIME.has(h.signal) && h.end === attention) &&
    // ("ana f lfila7a nhar kamel", "mriguel kamel behi": "kamel" after "day" or before another word is "whole", "all";
    // "go on" ends its clause: "kamel", "wakha kamel, nsm3ek": round 15.)
    !(
      KAMEL.test(tokens[attention] ?? "") &&
      (WHOLE_OF.has(tokens[attention - 1] ?? "") ||
        (word(tokens[attention + 1]) &&
          !GO_ON_NEXT.has(tokens[attention + 1] ?? "") &&
          !KAMEL.test(tokens[attention + 1] ?? "")))
    );
  const attentionWords = new Set(
    tokens.map((t, i) => (ATTENTION.some((p) => p.length === 1 && same(t, p[0]!)) ? i : -1)).filter((i) => i >= 0),
  );
  const otherAssent = orderYes.some(
    (h) => ![...Array(h.end - h.start).keys()].every((k) => attentionWords.has(h.start + k)),
  );
  // "I hear you, but no": the refusal after it is the answer.
  // ("dites-moi, y a une garantie ?", "chhal taman kamel m3a livraison?": a question after it asks, round 10.)
  // ("d'accord oui j'entends oui euh … il faut passer après quinze heures": a time or a day said after it is the
  // answer, round 18.)
  const refusedAfter =
    denials.some((d) => d.start > attention) ||
    tokens.some((t, i) => (i > attention && BUT.has(t)) || (i > attention + 1 && t === "?")) ||
    hits.some((h) => TIME.has(h.signal) && live(h) && h.start > attention + 1) ||
    // ("… mais euh dites-moi il y a une garantie … c'est combien de temps la garantie": unpunctuated, the question word
    // after it asks; round 20.)
    hits.some((h) => h.signal === "qword" && live(h) && h.start > attention + 1);
  if (heard && !otherAssent && !refusedAfter) return result("acknowledgement", cueAt(attention), deniedRefusal);
  // "oui oui, allez-y allez-y": yes-words and "go on", nothing else, said after the order is read: go on talking.
  // A lone "allez-y" keeps the model's reading ("go ahead"); with a yes-word beside it, it is attention.
  const goOnOnly =
    goOn.size > 0 &&
    !firmYes &&
    [...covered].some((i) => !goOn.has(i)) &&
    tokens.every(
      (t, i) => t === "," || t === "." || t === "!" || filler.has(i) || covered.has(i) || goOn.has(i) || ADDRESS.has(t),
    );
  if (goOnOnly) return result("acknowledgement", cueAt(Math.min(...goOn)), deniedRefusal);
  // "Mhm… d'accord, وبعد؟", "إيه إيه، واش من بعد؟", "je note, allez-y, la suite ?": a last clause that only asks "and
  // then?" after the order was read asks the agent to go on, in a reply with no firm yes, no refusal, no call, no day
  // or time and no change before it (its "b3d" is no "later" there; round 15).
  const stop = Math.max(...tokens.map((t, i) => (t === "," || t === "." || t === "!" ? i : -1)));
  const lastClause = tokens.slice(stop + 1).filter((t) => t !== "?");
  const asksNext =
    lastClause.length > 0 &&
    lastClause.length <= 4 &&
    tokens[tokens.length - 1] === "?" && // ("rani f route, men ba3d": "later", a callback)
    !hits.some((h) => h.signal === "busy") &&
    lastClause.some((t) => NEXT.has(t)) &&
    lastClause.every((t) => NEXT.has(t) || NEXT_LINK.has(t)) &&
    !firmYes &&
    denials.length === 0 &&
    !hits.some(
      (h) =>
        h.start <= stop &&
        !goOn.has(h.start) && // ("زيد زيد": go on, not "add")
        (CALL.has(h.signal) || TIME.has(h.signal) || CHANGE.has(h.signal) || ITEM.has(h.signal)),
    );
  if (asksNext) return { ...result("acknowledgement", cueAt(stop + 1), deniedRefusal), asksNext: true };
  // "oui oui euh", "ewa na3am ewa euh": yes-words trailing off into a hesitation, nothing said yet.
  const words_ = tokens.map((_t, i) => i).filter((i) => ![",", ".", "!", "?", "…"].includes(tokens[i]!));
  const last = words_[words_.length - 1];
  const trailsOff =
    last !== undefined && hits.some((h) => h.signal === "filler" && h.start <= last && h.end > last) && !firmYes;
  if (
    trailsOff &&
    yes &&
    words_.every(
      (i) => filler.has(i) || covered.has(i) || hits.some((h) => h.signal === "filler" && h.start <= i && h.end > i),
    )
  ) {
    return result("hesitation", cueAt(last), deniedRefusal);
  }
  // "hmm ok ok ey ey", "mmm ih", "امم باهي باهي اه اه", "آه آه، مزيان مزيان... امم.": a hum (not "euh") among yes-words and
  // nothing else, no "send it" nor "I confirm", is the customer weighing it, not a yes yet (round 18).
  // Every token a stop, a filler, a yes-word, a "go on", or what `also` admits.
  const yesAnd = (also: (i: number) => boolean) =>
    tokens.every(
      (t, i) => [",", ".", "!", "…"].includes(t) || filler.has(i) || covered.has(i) || goOn.has(i) || also(i),
    );
  const arabicHum = /(?:^|\P{L})[اأ]مم+(?:\P{L}|$)/u.test(text);
  const hum = (i: number) => HUM.has(tokens[i] ?? "") || (tokens[i] === "am" && arabicHum);
  const hummed = words_.filter(hum);
  const humsYes = yes && !firmYes && hummed.length > 0 && yesAnd(hum);
  if (humsYes) return result("hesitation", cueAt(hummed[0]!), deniedRefusal);
  // "Oui, oui, je suis là.": yes-words and "I'm here" (on the line) and nothing else is attention (round 18; "je suis
  // là toute la journée", "le seul moment où je suis là" say when the customer is home).
  const here = tokens.findIndex((t, i) => t === "je" && /^suis?$/.test(tokens[i + 1] ?? "") && tokens[i + 2] === "la");
  const hereOnly = here >= 0 && yes && !firmYes && yesAnd((i) => i >= here && i < here + 3);
  if (hereOnly) return result("acknowledgement", cueAt(here), deniedRefusal);
  // "eyh eyh w mba3d", "oui oui et après": yes-words, then "and then" closing the reply with no question mark, ask the
  // agent to go on as "… وبعد؟" does (round 18; "rani f route, men ba3d" has no "and": later, a callback).
  const andThen =
    last !== undefined &&
    NEXT.has(tokens[last] ?? "") &&
    (/^w/.test(tokens[last] ?? "") || AND.has(tokens[last - 1] ?? "")) &&
    words_
      .filter((i) => i < last - (AND.has(tokens[last - 1] ?? "") ? 1 : 0))
      .every((i) => covered.has(i) || filler.has(i) || goOn.has(i) || hum(i)) &&
    yes &&
    !firmYes;
  if (andThen) return { ...result("acknowledgement", cueAt(last), deniedRefusal), asksNext: true };
  // 5. A refusal that is the customer's own (not reported, not "no problem").
  const reassured = (i: number) =>
    hits.some(
      (v) =>
        v.start > i &&
        v.start <= i + 3 &&
        (v.signal === "accept" || ((v.signal === "cancelVerb" || v.signal === "changeVerb") && v.negated)),
    );
  // A denial inside an "if" clause is a condition of a delivery instruction ("w ila ma l9itounich, 3tiwh l jara").
  // ("هو قالي إذا عيطو قولهم يبطلو", he told me if they call, tell them to cancel: an "if" whose condition is a call, met
  // by this very call, holds nothing back; round 21.)
  const conditional = (i: number) =>
    tokens
      .slice(Math.max(0, i - 3), i)
      .some(
        (t, k) =>
          conditions.some((p) => p.length === 1 && same(t, p[0]!)) &&
          !hits.some((c) => CALL.has(c.signal) && c.start > Math.max(0, i - 3) + k && c.end <= i),
      );
  // And "leave it / let him knock" next to the courier's instruction is about the courier, not the order.
  // (Only a "no" or a "leave it": "gardez-le votre colis" keeps the parcel from the customer, it instructs no courier.)
  // "w khalliha 3and l3assas", "خليه يخليها عند الجارة": a "leave it" with someone (a bare "at", then who) is where the
  // courier leaves it, not a refusal ("khalliha 3andkom", keep it, is not "at" alone; round 10).
  const leaves = (d: SignalHit) => LEAVE.test(tokens[d.start] ?? "");
  const leftWith = (d: SignalHit) => {
    let i = d.end;
    while (LEAVE.test(tokens[i] ?? "") && i < d.end + 2) i++; // "let him leave it": "khlih ykhliha 3nd …"
    return AT_SOMEONE.has(tokens[i] ?? "") && word(tokens[i + 1]);
  };
  // "خليه يدق الباب مرتين", "khliha tji": "let him / it" and a verb of his doing (a third person's present, not "stay")
  // is about the courier, not "keep it" (round 15).
  const letsDo = (d: SignalHit) =>
    leaves(d) &&
    d.end === d.start + 1 &&
    /^[yt][^aeiou]{1,2}[a-z0-9]/.test(tokens[d.end] ?? "") &&
    // (Not "stay", "sit", "rest", "go back" nor "be": "خليها تبقى عندكم", "khaliha tkoun 3andkom" keep it.)
    !/^[yt](?:b9|b[ae]9|9[ae]?3d|g[ae]?3d|q[ae]?3d|ri[h7]|r[ae]?ja3|rj3|k[ou]+n)/.test(tokens[d.end] ?? "");
  const courier = (d: SignalHit) =>
    (leaves(d) && leftWith(d)) ||
    letsDo(d) ||
    // "khlliha 200 w nakhdha": "leave it at" a value sets the value (round 10).
    // ("khliha en noir": with its "en", "b" or "f" before the value, round 11.)
    (leaves(d) && (valueAt(d.end) || (VALUE_PREP.has(tokens[d.end] ?? "") && valueAt(d.end + 1)))) ||
    ((d.signal === "no" || leaves(d)) &&
      hits.some(
        (h) =>
          (COURIER.has(h.signal) || h.signal === "instruction") &&
          h !== d &&
          (Math.abs(h.start - d.start) <= 2 || (d.start >= h.end && d.start - h.end <= 2)),
      ));
  // In Latin script a "la"/"le" may be the French article or "là" ("je suis toujours là"): only "non", "no", "lala" count.
  // (Not one said twice, or before a negation: "donc la la ma n9derch ndiha", "la ma bghitch": a Darija no, round 10.)
  const latinArticle = (d: SignalHit) =>
    d.signal === "no" &&
    !arabicScript &&
    (tokens[d.start] === "la" || tokens[d.start] === "le") &&
    !(tokens[d.start] === "la" && (tokens[d.start + 1] === "la" || tokens[d.start - 1] === "la")) &&
    !(tokens[d.start] === "la" && NEGATION.has(tokens[d.start + 1] ?? "") && tokens[d.start + 1] !== "pas") &&
    // (Nor one before "sorry", "thanks": "bessah la ma3lich", "la chokran"; round 19.)
    !(tokens[d.start] === "la" && POLITE_AFTER_NO.test(tokens[d.start + 1] ?? ""));
  const whenever = (d: SignalHit) => tokens.slice(Math.max(0, d.start - 2), d.start + 1).some((t) => WHENEVER.has(t));
  const harmless = (d: SignalHit) => d.signal === "no" && NO_HARM.has(tokens[d.start + 1] ?? "");
  // "ken fama 100ml ab3athha, 50 ma nhebhech": a refusal right after a value, beside a "send it" or "I take it",
  // refuses that value, not the order (round 9).
  // (Or a value, a pronoun, then the refusal: "le noir j'en veux pas"; and "sinon non" after "en blanc je prends",
  // the otherwise of the value taken: round 10.)
  const takesSome = hits.some((h) => (h.signal === "send" || h.signal === "take") && live(h));
  const ofValue = (d: SignalHit) =>
    // "ما بغيتش الوردي، خليها en noir": a refusal whose object is a value, and another value after it, refuses that
    // value and asks for the other (round 11).
    (valueAt(d.end) && hits.some((h) => h.signal === "attr" && live(h) && h.start > d.end)) ||
    // ("Ida 3andkom fel k7al, nconfirmi. Le marron ma nhabouch": a value refused after another value and a yes to the
    // order, round 12.)
    (valueAt(d.start - 1) &&
      hits.some((h) => h.signal === "attr" && live(h) && h.end < d.start - 1) &&
      hits.some((h) => (h.signal === "accept" || h.signal === "send" || h.signal === "take") && live(h))) ||
    (takesSome &&
      (valueAt(d.start - 1) ||
        (valueAt(d.start - 2) && /^(?:j|je|ana|ena)$/.test(tokens[d.start - 1] ?? "")) ||
        (d.signal === "no" &&
          (tokens[d.start - 1] === "sinon" || tokens[d.start - 1] === "sinan") &&
          hits.some((h) => h.signal === "attr" && live(h) && h.end <= d.start))));
  // "علاش السوم غالي على اللي في الصفحة" (why is the price dearer than on the page?): a reason inside the question the
  // reply opens on (a question word, no price noun) is asked, not given (round 21).
  const askedReason = (d: SignalHit) =>
    d.signal === "reason" &&
    asksFirst &&
    opening >= 0 &&
    d.start > opening &&
    qwordAt(opening, false) &&
    !PRICE_NOUN.test(tokens[opening] ?? "");
  // "غير الصباح بكري ما بغيتش، من الوحدة للأربعة مزيان": a refusal right after a time of day or a day, in its clause,
  // refuses that time, not the order (round 21).
  // (A time of day opened by "only", "just": "ghir", "ken", "juste"; and a refusal verb, not a bare "no".)
  const ofTime = (d: SignalHit) =>
    d.signal === "refuse" &&
    hits.some(
      (t) =>
        t.signal === "slot" &&
        live(t) &&
        ONLY.has(tokens[t.start - 1] ?? "") &&
        t.end <= d.start &&
        t.end >= d.start - 2 &&
        !tokens.slice(t.end, d.start).some((x) => x === "," || x === "."),
    );
  const own = denials.filter(
    (d) =>
      !(d.signal === "no" && reassured(d.start)) &&
      !echoesNegation(tokens, hits, d) &&
      !conditional(d.start) &&
      !courier(d) &&
      !latinArticle(d) &&
      !whenever(d) &&
      !harmless(d) &&
      !ofValue(d) &&
      !ofTime(d) &&
      // ("علاش السوم غالي على اللي في الصفحة", why is the price dearer than on the page: a reason inside the question the
      // reply opens on is asked, not given; round 21.)
      !askedReason(d) &&
      // ("الماكينة اللي شريتها قبل تكسرت": "which I bought before" describes a thing, gives no reason; round 27.)
      !(d.signal === "reason" && RELATIVE_WHO.has(tokens[d.start - 1] ?? "")),
  );
  // The reply ends on the refusal: no yes after it ("non pardon, envoyez quand vous voulez", "non non c'est bon").
  const lastYes = Math.max(
    -1,
    ...hits
      .filter(
        (h) =>
          ((YES.has(h.signal) && live(h)) || ((h.signal === "cancelVerb" || h.signal === "changeVerb") && h.negated)) &&
          // ("la ma3lich": the "sorry" of a no is no yes; round 19.)
          !(POLITE_AFTER_NO.test(tokens[h.start] ?? "") && denials.some((d) => d.signal === "no" && d.end === h.start)),
      )
      .map((h) => h.start),
  );
  // "أما نحّي la montre وخلي كان les lunettes", "ghir 7iydi liya lcharger ma7tajouch": a thing taken out of the order,
  // the refusal beside it of that thing (no cancel verb): a change (round 14).
  if (own.length > 0 && outTaken && !own.some((d) => d.signal === "cancelVerb"))
    return result("change", cueAt(own[0]!.start), deniedRefusal);
  // "nan c'est bon", "ouais non c'est bon merci": one "no", then only "it's fine" (there is no need), is the polite
  // refusal, not a yes; "non non c'est bon", said twice, reassures and stays as read (round 40).
  // ("لا، صحيت خويا", "non merci madame": a "no", then only thanks and a form of address, is "no, thank you".)
  const itsFineNo =
    NO_NEED.test(words.join(" ")) ||
    (words.length >= 2 &&
      TAKE_BACK_NO.test(words[0]!) &&
      words.slice(1).some((w) => THANKS.test(w)) &&
      words.slice(1).every((w) => THANKS.test(w) || ADDRESS.has(w) || ADDRESS_MORE.test(w)));
  if (own.length > 0 && !deniedRefusal && (itsFineNo || own.some((d) => d.start > lastYes))) {
    // (Not "… ولا لا", "or not", nor a question word after the refusal: those ask; nor a reason alone, "واش غالية".)
    const last = own[own.length - 1]!;
    // A question closed ("?") before the refusal, none after it, and the refusal right after a "but": the customer
    // asked, then answered ("واش هاد السومة؟ … c'est du vol! شكرا بصح لا"): the opening question does not hold the
    // refusal (round 15).
    const closed =
      tokens.lastIndexOf("?", own[0]!.start) >= 0 &&
      !tokens.slice(own[0]!.start).includes("?") &&
      tokens.slice(Math.max(0, own[0]!.start - 2), own[0]!.start).some((t) => BUT.has(t));
    const ends =
      last.signal !== "reason" &&
      (!asksFirst || closed) &&
      !hits.some((h) => h.signal === "qword" && h.start > own[0]!.start) &&
      !tokens.slice(Math.max(0, last.start - 2), last.start).some((t) => OR.has(t)) &&
      (!tokens.slice(last.end).some((t, k) => STOPS.has(t) && k + last.end < lastWord) ||
        // ("… هنا غير وحدة بنفس الثمن. لا، شكرا.": "no, thanks" closes the reply; round 28.)
        tokens.slice(last.end).every((t) => STOPS.has(t) || POLITE_AFTER_NO.test(t) || /^(?:bzaf|beaukup)$/.test(t)));
    // "il rentre pas avant deux mois, annulez": the customer's own cancel verb after every time said (if any: "avant deux
    // mois" may be no time the lexicon knows), nothing sent or taken after it: the time was the reason, the cancel the
    // answer (round 17). (An absence, "ما كاينش لي يخلص", is a reason, no time.)
    const lastCancel = own.filter((d) => d.signal === "cancelVerb").at(-1);
    const timed = hits.filter((h) => TIME.has(h.signal) && h.signal !== "absent" && live(h));
    // ("rayez ma commande, je déménage à Lyon la semaine prochaine": the cancel's object is the order itself, and a time
    // after it is the reason; round 19.)
    const cancelsOrder =
      lastCancel !== undefined &&
      tokens.slice(lastCancel.start, lastCancel.end + 2).some((t) => ORDER_NOUN.test(t)) &&
      !hits.some((h) => h.signal === "cancelVerb" && h.negated);
    const cancelsAfterTime =
      lastCancel !== undefined &&
      (cancelsOrder || timed.every((h) => h.end <= lastCancel.start)) &&
      !hits.some((h) => (h.signal === "send" || h.signal === "take") && live(h) && h.start > lastCancel.start);
    return {
      ...result("refusal", cueAt(own[0]!.start)),
      ...(keptDenied !== undefined ? { cancelDenied: true } : {}),
      ...(cancelsAfterTime ? { cancelsAfterTime } : {}),
      ...(ends ? { endsOnRefusal: true } : {}),
      ...(ends && closed ? { answersQuestion: true } : {}),
    };
  }
  // The value refused is one to change ("50 ma nhebhech": not the 50 ml, the 100).
  // (Not one left behind the last "but" before a yes to the order the reply ends on: "Wallah 4500 غالية شوية، mais bon
  // ماشي مشكل، ابعثوه"; round 26.)
  const valueRefused = denials.find(
    (d) => ofValue(d) && !(turnsToYes && d.start < lastBut && orderYes.some((y) => y.end >= lastWord)),
  );
  if (valueRefused !== undefined && own.length === 0)
    return { ...result("change", cueAt(valueRefused.start - 1)), refusesValue: true };
  return {
    ...result(null, null, deniedRefusal),
    ...(own.length > 0 ? { ownDenial: true } : {}),
    ...(own.length === 0 && denials.some(ofTime) ? { refusesTime: true } : {}),
    ...(own.length === 0 && denials.some(askedReason) ? { asksReason: true } : {}),
  };
}

/**
 * Where the customer says they will ask someone before deciding, or get back with the answer (canonical tokens;
 * round 42), or -1: "nchawer rajli", "ns9si baba", "nchuf m3a mrati", "je vais demander à mon mari", "nrj3lk", "nrdlk
 * lkhbr", "je vous redis", "je reviens vers vous", "je vous tiens au courant". Not negated ("ma nchawer 7ta wa7ed"),
 * except "ba3d ma", "9bel ma" (after, before I ask); not in the past ("j'ai demandé à mon mari": no "je" before it).
 */
function consultsFirst(tokens: readonly string[]): number {
  const negated = (i: number) =>
    /^(?:ma|ne|n)$/.test(tokens[i - 1] ?? "") && !/^(?:ba3d|b3d|9bel|9bl|hta|7ta|avant)$/.test(tokens[i - 2] ?? "");
  // Within `span` tokens of `from`, in the same clause.
  const personWithin = (from: number, span: number) => {
    const near = tokens.slice(from, from + span);
    const stop = near.findIndex((t) => STOPS.has(t));
    return (stop < 0 ? near : near.slice(0, stop)).some((t) => ASKED_PERSON.test(t));
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (negated(i)) continue;
    if (CONSULT.test(t) && personWithin(i + 1, 3)) return i;
    if (CONSULT_WITH.test(t) && WITH_WORD.test(tokens[i + 1] ?? "") && personWithin(i + 2, 2)) return i;
    if (GET_BACK.test(t)) return i;
    if (GIVE_BACK.test(t) && NEWS.test(tokens[i + 1] ?? "")) return i;
    if (t === "je" || t === "j") {
      const at = /^(?:vais|dois|doit|veux)$/.test(tokens[i + 1] ?? "") ? i + 2 : i + 1;
      const verb = tokens[at] === "en" ? at + 1 : at;
      if (CONSULT_FR.test(tokens[verb] ?? "") && personWithin(verb + 1, 4)) return i;
      if (SEE_FR.test(tokens[verb] ?? "") && tokens[verb + 1] === "avec" && personWithin(verb + 2, 3)) return i;
      if (
        tokens[i + 1] === "vus" &&
        /^(?:redis|redirai|tiens|tiendrai|recontacte|recontacterai)$/.test(tokens[i + 2] ?? "")
      )
        return i;
      if (tokens[i + 1] === "reviens" && tokens[i + 2] === "vers") return i;
    }
  }
  return -1;
}
