import { type CompiledCue, letterMask, lexiconFor, mayMatch, type Country, type Signal } from "./lexicon/index.ts";
import { canonicalTokens, isMostlyArabicScript } from "./normalize.ts";

/** One signal found in an utterance, over tokens [start, end). */
export interface SignalHit {
  signal: Signal;
  weight: number;
  start: number;
  end: number;
  /** Under a negation ("ma bghitch nbddel", "je ne veux rien changer", "n'annulez pas"). */
  negated: boolean;
}

export interface Analysis {
  tokens: string[];
  hits: SignalHit[];
  /** A value the reply names was said to be the one ordered, and dropped ("c'est celle que je veux"; round 39). */
  restated?: boolean;
}

const PUNCT = new Set([",", ".", "?"]);
/** "There is no" right before "who" (canonical): "fmach", "famech", "makanch", "kaynch" (round 19). */
const NOBODY = /^(?:ma)?f[ae]?m+[ae]?ch$|^(?:ma)?ka(?:y[ae]?)?nch$/;
/** "After", "before" (canonical), before a prayer named as a time. */
const AROUND_TIME = new Set(["b3d", "ba3d", "mba3d", "9bel", "9bl", "9obl", "apres", "avant", "ba3ed"]);
/** "With" (canonical), before "ba3d" in "m3a ba3d" (together). */
const WITH = new Set(["m3", "m3a", "ma3a", "m3e", "ma3"]);
/** Day names that are also numbers with their article (canonical): "larb3a" (Wednesday, the four), "ltlata", "ltnin". */
const DAY_NUMBER = /^(?:[bfw]?e?l)?(?:arb3a|rb3a|tlata|tnin|tnine|itnin)$/;
/** An article written apart (canonical): "bel kraser larb3a", "el kraysi" (round 20). */
const ARTICLE_WORD = new Set(["el", "l", "bel", "bl", "fel", "fl", "wel", "les", "al"]);
/** What names a day before its name (canonical): "nhar larb3a", "lyum ltlata" (round 20). */
const DAY_OPENER = new Set(["nhar", "lnhar", "yum", "lyum", "jur", "ghodwa", "ghdwa", "lium", "elyum"]);
/** Signals that hold a day or a time. */
const TIME_SIGNAL = new Set(["day", "slot", "later"]);
/** "Finished" in the past (canonical), first or third person: "kmlt", "kamelt", "kemlet", "kmlna" (round 20). */
const FINISHED = /^k[aeiou]*m+[aeiou]*l(?:t|et|at|it|na|ti|tu|to|tou)$/;
/** "Empty" (canonical), said of a pocket: "fargh", "فارغ", "khawi", "خاوي", "vide" (round 20). */
const EMPTY = /^(?:fa?r[ae]?gh[ae]?|khaw[iy]a?|vide|nachf|nachef)$/;
/** The Maghrebi relative "who", "that" (canonical; "ki", also "when", left out; round 19). */
/** "Next to", "in front of", "behind" (canonical): "hda", "bhda", "9dam", "jnb", "wra" (round 21). */
const NEXT_TO = /^(?:b?h[ae]?da|b?7da|9rib|qrib|9dam|qdam|gdam|jnb|janb|wra|mur|mour)$/;
/** "That's" before "why" (canonical): "dakchi", "hadchi", "ذاك علاش", "3la hadchi" (round 21). */
const THATS_WHY = /^(?:d|h)a[dk]?(?:chi|shi|k|a)?$|^3la$/;
/** After a day: it is past ("la semaine passée", "lsimana li fatet", "الجمعة الماضية"), no new time. */
export const PAST: ReadonlySet<string> = new Set([
  "pase",
  "pasee",
  "dernier",
  "derniere",
  "fat",
  "fatet",
  "fet",
  "fetet",
  "fatt",
  "daz",
  "dazet",
  "dazt",
  "fayt",
  "fayta",
  "lfayta",
  "lfayt",
  "madya",
  "lmadya",
  "lmadi",
  "madi",
  "ltfatet",
]);

export const RELATIVE_WHO: ReadonlySet<string> = new Set(["li", "lli", "elli", "illi", "eli"]);
/** A verb of talking, calling or ordering after "who" (canonical): "li hder m3ak", "elli 3ayetlek" (round 19). */
const TALKED =
  /^(?:hd[ae]?r|tk[ae]l+[ae]?m|k[ae]l+[ae]?mk|3ay+[ae]?t(?:l[ae]?k)?|jawb[ae]?k|[g9]al(?:[ae]?k|l[ae]?k)?|tl[ae]b|k[ou]m+[ae]nd[ae])$/;
/** "With", "of" after "tired" (canonical): "3yit m3a", "عييت من" (round 19). */
const TIRED_OF = new Set(["m3a", "ma3", "m3", "mn", "men", "min", "mel", "mal"]);

/** Signals whose meaning flips or vanishes under negation. */
// ("ماني بدّلت رايي", "ma bdltch rayi": a change of mind denied, round 14.)
const NEGATABLE = new Set<Signal>(["cancelVerb", "changeVerb", "send", "take", "add", "callVerb", "changedMind"]);

/** Negation particles, canonical ("mouch" is "much"). */
const NEGATORS = new Set([
  "ma",
  "mat",
  "much",
  "mech",
  "mich",
  "machi",
  "mahich",
  // "ماني لاهي نشريه" (I'm not going to buy it): "mani" is "I am not" (round 9).
  "mani",
  "ne",
  "n",
  "pas",
  "bla",
  "sans",
  "rien",
  "jamais",
]);

/** Words that make a following "ma" a conjunction, not a negation: "9bel ma" (before), "kima" (as). */
const CONJUNCTION_MA = /^(?:9b[ae]?l|kbel|gbel|bhal|kima|kif|mli|wa9t|ba3d|b3d|3la|hta|ghir|men|mn)$/;
/** A verb closed by the negation's "-ch" (canonical): "tab3athach", "tjibhach", "ykunch" (round 44). */
const NEGATED_VERB = /^[a-z0-9]{3,}ch$/;

/**
 * Auxiliaries a negation reaches through: "ma bghitch [nbddel]", "mouch bech [nannuli]", "je ne vais pas [annuler]".
 * ("ما تبقاوش تصيفطوها", "ma tb9awch tsifto": "don't send it any more", the "no longer" said to the shop; round 43.)
 */
const AUXILIARY_SKELETON = /^(bght|nbgh|nhb|hbt|ghd|bch|bch|nch|rnch|n9dr|njm|lzm|b9t|tb9|3d)/;
// (Verb stems by their start; the clitics whole: "livraison" is no "l", round 11.)
// ("ما نديرش annulation", "ma n3melch annulation": "do", "make" before a noun is the verb's light auxiliary; round 37.)
const AUXILIARY =
  /^(?:n?dir(?:ch|uch|ouch)$|n[ae]?3[ae]?m[ae]?l(?:ch|uch|ouch)$|bghit|nbghi|nebghi|nheb|nhab|nhib|habit|veu|voul|vai|va|ghadi|ghad|lahi|bech|bach|nich|ranich|3ad|b9it|n9der|n9dar|najam|nejem|lazem|peu|doi|faut|besoin)|^(?:de|d|l|la|le|y|lui)$/;

/** "No way", "impossible" (canonical) before the verb they deny: "مستحيل نلغيها", "impossible d'annuler" (round 43). */
const NO_WAY = /^(?:msthil|mostahil|mustahil|mosthil|imposible)$/;

/** A "la"/"le" is a "no" before these (otherwise it may be the French article). */
const NO_FOLLOW = new Set([
  "la",
  "le",
  "lala",
  "non",
  "no",
  "ma",
  "much",
  "mech",
  "mich",
  "machi",
  "merci",
  "chukran",
  "chokran",
  "chkran",
  "chkra",
  "barak",
  "baraka",
  "khuya",
  "khoya",
  "akhi",
  "khti",
  "sidi",
  "lala",
  "madame",
  "monsieur",
  "walah",
  "walahi",
  "wlah",
  "ana",
  "ena",
  "khlas",
  "safi",
  "yezi",
  "barka",
  "ghir",
  "daba",
  "taw",
  "dork",
  "drk",
  "bla",
  "afak",
  "3afak",
  "3aychek",
  "smahli",
  "samhni",
  "smhli",
  "pas",
  "mais",
  "walakin",
  "ama",
  "bessah",
  "svp",
  "stp",
  "a",
  "ya",
  "hta",
  "hata",
  "jamais",
  "plus",
  "je",
  "j",
  "khaliha",
  "yaatik",
  "sahit",
  "choukran",
  "chokrane",
  "shukran",
]);
/** French words after which a Latin "la" is "là" (there, now): "mais là", "et là", "je suis là", "c'est là". */
const FRENCH_BEFORE_LA = new Set([
  "mais",
  "et",
  "par",
  "ici",
  "est",
  "suis",
  "sera",
  "serai",
  "sa",
  "ca",
  "juste",
  "voila",
  "tout",
  "jusque",
  "des",
  "pile",
  // ("c'est bien celui là", "celle là": "that one"; round 46.)
  "celui",
  "cele",
  "ceux",
  "celes",
]);
const NO_WORDS = new Set(["lala", "non", "no", "nn", "nan", "nope", "niet", "la", "le", "lla"]);

/** "Inside" (canonical): "dakhel", "dakhl", "داخل" (round 18). */
const INSIDE = /^(?:dakh[ae]?l|ddakh[ae]?l|ldakh[ae]?l)$/;
/** Words after "ana machi" / "je ne suis pas" that are not a name. */
const NOT_A_NAME = new Set([
  // "ena mouch dhed" (I'm not against it): round 11.
  "dhed",
  "dhid",
  "ded",
  "did",
  "contre",
  "f",
  "fi",
  "fel",
  "fl",
  "hna",
  "huni",
  "houni",
  "fdar",
  "dar",
  "mwjud",
  "mawjud",
  "mujud",
  "m9tana3",
  "m9tan3",
  "mhtaj",
  "baghi",
  "baghia",
  "baghya",
  "msta3jel",
  "mrtah",
  "3aref",
  "3arfa",
  "fahem",
  "fahma",
  "mtaked",
  "maked",
  "metfa9",
  "mwafe9",
  "radi",
  "kharej",
  "barra",
  "bech",
  "bach",
  "ghadi",
  "9ader",
  "9adra",
  "mzyan",
  "mlih",
  "behi",
  "hab",
  "haba",
  "chari",
  "m3ak",
  "m3akum",
  "sahel",
  "hadi",
  "hada",
  "hak",
  "hakda",
  "mtfa9",
  "khdam",
  "khdama",
  "wahed",
  "wahda",
  "3la",
  "ela",
  "kima",
  "bhal",
]);

/**
 * A door, a gate, a house or a car (canonical): its colour tells the courier the way (round 25); and a landmark, "la
 * pharmacie الكبيرة", "ljam3 lkbir", whose size does too (round 26).
 */
const PLACE_THING =
  /^(?:portail|portails|porte|portes|volets?|fa[cs]ade|batiment|imeuble|immeuble|maison|vila|villa|voiture|tomobil|tonobil|karhba|lkarhba|kamion|camion|grile|grille|lbab|bab|elbab|ldar|dar|lfila|fila|tomobila|taxi|pharmacie|farmasya|l?sidlya|l?jam3|jame3|jeme3|l?msjd|mosk?ee|kafe|cafe|l?9hwa|l?9ahwa|l?mdrsa|l?madrasa|ekole|ecole|lycee|marche|l?su9|l?sou9|l?bldya|l?baladiya|mairie|hopital|l?sbitar|bulangerie|eglise|poste|stade|rond|l?7anut|l?hanut)$/;
/** A glued or loose article between the thing and its colour ("el bab el a7mer"). */
const ARTICLE_BEFORE_ATTR: ReadonlySet<string> = new Set(["el", "l", "al"]);

/** Reads an utterance into signal hits. */
/** A workplace (canonical): "travail", "taf", "boulot", "hôpital", "usine", "lkhdma", "chantier" (round 28). */
const WORKPLACE =
  /^(?:l|el)?(?:travail|taf|bulot|bureau|hopital|usine|entrepot|magasin|ecole|lycee|khdma|khedma|makhzen|porto|chantier|sbitar|spitar)$/;
/** "To" before a place (canonical): "à", "au", "l", "lil", "chez" (round 28). */
const TO_PLACE = /^(?:a|au|l|li|lil|chez|ila)$/;
/** What may stand between "to" and the place (canonical): an article, "my", "plutôt" (round 28). */
const PLACE_LINK = /^(?:l|le|la|mon|ma|notre|el|plutot)$/;
/**
 * Where a send or an imperative "livre(z)" puts the parcel at a workplace: "livrez plutôt à l'hôpital", "livre-le à mon
 * taf", "siftoh l lkhdma dyali" name a delivery address; "ana f lkhdma" (I'm at work), with no sending, says where the
 * customer is. The workplace words, as address hits for the reading (round 28: not for the model, which reads "can
 * you send it to my work?" as the question the sets call it).
 */
export function sentToWork(tokens: readonly string[], hits: readonly SignalHit[]): SignalHit[] {
  const found: SignalHit[] = [];
  for (const h of hits) {
    if (!(h.signal === "send" || (h.signal === "delivery" && /^livrez?$/.test(tokens[h.start] ?? "")))) continue;
    let i = h.end;
    while (i < h.end + 2 && /^(?:plutot|le|la|les)$/.test(tokens[i] ?? "")) i++;
    if (!TO_PLACE.test(tokens[i] ?? "")) continue;
    i++;
    while (i < h.end + 5 && PLACE_LINK.test(tokens[i] ?? "")) i++;
    if (WORKPLACE.test(tokens[i] ?? "") && !found.some((f) => f.start === i))
      found.push({ signal: "address", weight: 0.55, start: i, end: i + 1, negated: false });
  }
  return found;
}

/** The courier (canonical): "livreur", "lifrur", "الليفرور", with a glued article (rounds 21 and 27). */
export const COURIER_NOUN = /^(?:le|l|el)?(?:livreur|livrur|lifrur|lifror|lifreur|lifrer)s?$/;
/** "And twenty" to "and ninety", glued or not (canonical): "warb3in", "w tlatin" (round 28). */
const TENS =
  /^w(?:3chrin|3ichrin|tlatin|tletin|tlathin|arb3in|arba3in|rb3in|khamsin|khmsin|sttin|settin|sb3in|tmanin|tmenin|tes3in|ts3in)$/;

/**
 * The lexicon's reading of `text`, kept for the last few texts (as reading.ts keeps its readings, and for as many: 64,
 * more inside `keepingReadings`): a call reads each reply several times (the classifier, the reading, the slots, the
 * order's values), and the analysis is a pure function of the text and the country. Frozen, so that no caller can
 * change what another is given.
 */
export function analyse(text: string, country: Country): Analysis {
  const key = `${country}\u0000${text}`;
  const known = analysed.get(key);
  if (known) return known;
  const fresh = analyseFresh(text, country);
  for (const h of fresh.hits) Object.freeze(h);
  Object.freeze(fresh.tokens);
  Object.freeze(fresh.hits);
  const result = Object.freeze(fresh);
  if (analysed.size >= analysedLimit) analysed.delete(analysed.keys().next().value as string);
  analysed.set(key, result);
  return result;
}
const analysed = new Map<string, Analysis>();
let analysedLimit = 64;
/** Sets how many analyses `analyse` keeps (oldest first out) and returns the previous number. */
export function keepAnalyses(n: number): number {
  const before = analysedLimit;
  analysedLimit = n;
  for (const key of analysed.keys()) {
    if (analysed.size <= n) break;
    analysed.delete(key);
  }
  return before;
}

function analyseFresh(text: string, country: Country): Analysis {
  const tokens = canonicalTokens(text);
  const canon = tokens.join(" ");
  const tokenAt = tokenIndexByOffset(tokens);
  const starts = [...tokenAt.keys()].filter((offset) => offset < canon.length);
  const mask = letterMask(canon);
  let hits = cueHits(lexiconFor(country), mask, starts, canon, tokenAt, tokens.length);
  hits = dropContained(hits);
  hits = dropMosqueDays(tokens, hits);
  // "nan nan j'annule rien du tout wesh je l'attends": in French slang "wesh" is a "hey", no "what" (round 22).
  if (country === "FR")
    hits = hits.filter(
      (h) =>
        !((h.signal === "qword" || h.signal === "what") && h.end === h.start + 1 && WESH.test(tokens[h.start] ?? "")),
    );
  // "el rizo ta3ban houni fel jbal": "jbal", "jbel" (the mountain) only looks like "jib…" (bring it; round 27).
  // ("el flous fi jibi": "in my pocket", not "bring it"; round 27.)
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "send" &&
        h.end === h.start + 1 &&
        (/^(?:l|el|fel|fl)?jb[ae]l$/.test(tokens[h.start] ?? "") ||
          (/^jib(?:i|k|ek|na|u|ha)$/.test(tokens[h.start] ?? "") &&
            /^(?:fi|f|3la|3al)$/.test(tokens[h.start - 1] ?? "")))
      ),
  );
  // "خلي الليفرور يجيبها", "khalli ydou99": "leave (him)" before the courier or a verb only looks like "كحلي" (navy) or
  // "khla" (black) (round 27).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "attr" &&
        h.end === h.start + 1 &&
        /^kh[ae]?l+i$/.test(tokens[h.start] ?? "") &&
        (COURIER_NOUN.test(tokens[h.end] ?? "") || /^[yt][^aeiou\s][a-z0-9]+$/.test(tokens[h.end] ?? ""))
      ),
  );
  // "c'est pas la peine de tout me relire", "pas la peine de répéter": no need to read it again, the order untouched
  // (round 28).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "refuse" &&
        tokens[h.end - 1] === "peine" &&
        /^(?:de|d)$/.test(tokens[h.end] ?? "") &&
        tokens
          .slice(h.end + 1, h.end + 4)
          .some((t) => /^(?:relire|lire|repeter|redire|reexpliquer|expliquer|detailer)$/.test(t))
      ),
  );
  // "أنا ما نهبطش", "ma nhbtch" (I won't come down): the customer's stairs, no "I don't want" ("ma nheb…"; round 28).
  hits = hits.filter((h) => !(h.signal === "refuse" && /^nh[ae]?bt(?:ch|ech|ich)$/.test(tokens[h.end - 1] ?? "")));
  // "vous m'aviez oubliée", "j'avais oublié que…": "forgotten" after "have" is the past, no "forget it" (round 28).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "refuse" &&
        /^ublie[es]?$/.test(tokens[h.start] ?? "") &&
        tokens
          .slice(Math.max(0, h.start - 2), h.start)
          .some((t) => /^(?:avez|aviez|avais|avait|avaient|ont|a|ai|as|avons|etes|suis|est)$/.test(t))
      ),
  );
  // "اثنين واربعين", "tnin w arb3in" (forty-two): a unit before "and forty" is a number, no Monday ("ltnin") nor any
  // day (round 28).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "day" &&
        h.end === h.start + 1 &&
        (TENS.test(tokens[h.end] ?? "") || (tokens[h.end] === "w" && TENS.test(`w${tokens[h.end + 1] ?? ""}`)))
      ),
  );
  // "راه جابو ليا خويا من كازا" (my brother brought it to me from Casa): "jab…" is the past, "brought"; "bring it" is
  // "jib…" (round 38). The lexicon's vowels are loose, so "jibu*" also took "jabu".
  hits = hits.filter((h) => !(h.signal === "send" && /^ja+b/.test(tokens[h.start] ?? "")));
  // "je l'ai déjà retiré en liquide" (I already withdrew it in cash): "taken out" after "have" is the past, no item
  // taken out of the order (round 38).
  hits = hits.filter((h) => {
    if (h.signal !== "add" || !/^(?:retire|enleve)$/.test(tokens[h.start] ?? "")) return true;
    const k = tokens[h.start - 1] === "deja" ? h.start - 2 : h.start - 1;
    return !/^(?:a|ai|as|avons|avez|ont|avait|avais)$/.test(tokens[k] ?? "");
  });
  // "ما تعطوهاش لحد آخر" (don't give it to anyone else): "لحد" before "other" is "to anyone", no Sunday (round 38).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "day" &&
        h.end === h.start + 1 &&
        /^l?h[ae]?d$/.test(tokens[h.start] ?? "") &&
        /^(?:akh[ae]?r|[ou]kh[ou]?r|akhra)$/.test(tokens[h.end] ?? "")
      ),
  );
  // "encore un appel chelou", "attendre encore une semaine", "encore une fois": another call, week or time adds
  // nothing to the order (round 28).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "add" &&
        tokens[h.start] === "enkore" &&
        /^(?:un|une)$/.test(tokens[h.start + 1] ?? "") &&
        /^(?:apel|apels|fois|semaine|jur|journee|heure|minute|mois|kup|an|anee)$/.test(tokens[h.start + 2] ?? "")
      ),
  );
  // "نأكد في بلاصتو" (I confirm in his place), "كنهضر معاك من بلاصتها" (I speak to you in her place): confirming or
  // speaking in a person's place is on their behalf, nothing put for another thing ("ابعثلي البيضاء في بلاصتها", the
  // white one in its place, stays; round 28).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "instead" &&
        /^blas[ae]?t(?:u|o|ha|a|i|hum|hom|kum)$/.test(tokens[h.end - 1] ?? "") &&
        (hits.some((a) => a.signal === "accept" && a.end <= h.start && a.end >= h.start - 2) ||
          tokens.slice(Math.max(0, h.start - 3), h.start).some((t) => /^(?:n|kan|kn|ka)?(?:hd[ae]?r|7ki|hki)/.test(t)))
      ),
  );
  // "le 8 ans ça va plus": a child's size in years, not the 8th of the month (round 14).
  hits = hits.filter((h) => !(h.signal === "day" && ["ans", "an"].includes(tokens[h.end] ?? "")));
  // "hna b3id chwiya", "بعيد": "far" only looks like "b 3id" (at the Eid), which takes its article, "bl3id" (round 19).
  hits = hits.filter(
    (h) => !(h.signal === "day" && h.end === h.start + 1 && /^b3id[ae]?$/.test(tokens[h.start] ?? "")),
  );
  // "la facture داخل الكوليس": "dakhel" (inside) only looks like "d'lkhel" (of the black) with its glued article.
  hits = hits.filter((h) => !(h.signal === "attr" && h.end - h.start === 1 && INSIDE.test(tokens[h.start] ?? "")));
  // "3malt zouz commandes, wa7da mel page hedhi w wa7da men boutique okhra", "j'ai commandé sur deux sites": a number
  // that counts the customer's orders or shops, or "one from you, one from another site", is no quantity of the item
  // (round 24).
  hits = hits.filter((h) => !(h.signal === "qty" && countsShops(tokens, h)));
  // "علاش تزيدو تعيطو؟", "zid 3ayetli": "add" right before a call verb is "again" (you call again), nothing added;
  // "c'était encore une arnaque", "c'est encore vous": "encore" after "is", "was" is "still", "again" (round 25).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "add" &&
        (hits.some((c) => c.signal === "callVerb" && c.start === h.end) ||
          (tokens[h.start] === "enkore" && COPULA.test(tokens[h.start - 1] ?? "")))
      ),
  );
  // "أنا مراتو ونستلمو فبلاصتو" (I'm his wife and we receive it in his place): "in his place" after "I receive" is who
  // receives, not an item put for another (round 25).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "instead" &&
        IN_PLACE_OF.test(tokens[h.start] ?? "") &&
        hits.some((t) => t.signal === "take" && t.end === h.start)
      ),
  );
  // "je prends quand même": "quand même" (anyway) asks no "when"; "en tout cas" (anyway) names no case (round 25).
  hits = hits.filter(
    (h) =>
      !(
        (h.signal === "qword" && tokens[h.start] === "9uand" && tokens[h.start + 1] === "meme") ||
        (h.signal === "attrNoun" && tokens[h.start] === "kas" && tokens[h.start - 1] === "tut")
      ),
  );
  // "3yitouni b les appels" (you wore me out with the calls): "3yit-" with "me" is being tired, not the call verb
  // "3ayet" (round 45; only as spelt in Latin letters: in Arabic script "عيطوني" and "عييتوني" read alike).
  hits = hits.filter((h) => !(h.signal === "callVerb" && WORE_OUT.test(tokens[h.start] ?? "")));
  // "il rigole en plus", "et en plus il rigole": "en plus" (moreover) around a clause with its own subject adds nothing to
  // the order; "le chargeur en plus" still does (round 45).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "add" &&
        tokens[h.start] === "en" &&
        tokens[h.start + 1] === "plus" &&
        ((SUBJECT.test(tokens[h.start - 2] ?? "") &&
          !/^(?:le|la|les|l|un|une|des|du|\d+)$/.test(tokens[h.start - 1] ?? "")) ||
          (/^(?:et|mais|pis|w)$/.test(tokens[h.start - 1] ?? "") && SUBJECT.test(tokens[h.end] ?? "")))
      ),
  );
  // "f dak sbbat" (in those shoes): after "in", "with", "on", "dak" is "that", not the French "dac" (d'accord; round 45).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "yes" &&
        tokens[h.start] === "dak" &&
        h.end === h.start + 1 &&
        BEFORE_THAT.test(tokens[h.start - 1] ?? "")
      ),
  );
  // "dites au livreur de monter, au lieu de mettre « absent »": "instead of" a verb, with no colour, size or quantity
  // after it, says what someone should have done, it puts no item for another (round 45).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "instead" &&
        tokens[h.start] === "au" &&
        INFINITIVE.test(tokens[h.end] ?? "") &&
        !hits.some(
          (x) =>
            (x.signal === "attr" || x.signal === "attrNoun" || x.signal === "qty") &&
            x.start > h.end &&
            x.start <= h.end + 4,
        )
      ),
  );
  // "el 41 … baddaltouhali bla mochkla" (you exchanged it for me without trouble): "without a problem" right after a
  // change verb says how the change went, it agrees to nothing (round 45).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "accept" &&
        /^(?:bla|bila|bdun|sans)$/.test(tokens[h.start] ?? "") &&
        hits.some((c) => c.signal === "changeVerb" && c.end === h.start)
      ),
  );
  // "ma n9drch nkhallih wahdou" (I can't leave him alone): a "leave it" in the first person after "I can't" is no
  // refusal ("ما نقدرش، خليوها", I can't, leave it, still is). "c'est pas trop cher" denies the reason. "tel quel" (as
  // it is) asks nothing (round 45).
  hits = hits.filter(
    (h) =>
      !(
        (h.signal === "refuse" &&
          /^n/.test(tokens[h.start] ?? "") &&
          CANNOT.test(tokens[h.start - 1] ?? "") &&
          tokens[h.start - 2] === "ma") ||
        (h.signal === "reason" &&
          /^(?:trop|cher|chere)$/.test(tokens[h.start] ?? "") &&
          (tokens[h.start - 1] === "pas" || (tokens[h.start - 1] === "si" && tokens[h.start - 2] === "pas"))) ||
        (h.signal === "qword" && tokens[h.start] === "9uel" && tokens[h.start - 1] === "tel")
      ),
  );
  // "hedha telifouni", "هذا تليفوني" (this is my phone): after "this", the phone is named, nobody asks to be called
  // (round 45).
  hits = hits.filter(
    (h) => !(h.signal === "callVerb" && PHONE_NOUN.test(tokens[h.start] ?? "") && THIS.test(tokens[h.start - 1] ?? "")),
  );
  // "c'est ce que j'ai commandé": "c'est ce que" is no "est-ce que" (round 25). ("c'est où le point relais" still asks;
  // round 46.)
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "qword" &&
        tokens[h.start] === "est" &&
        tokens[h.start - 1] === "c" &&
        tokens[h.start + 1] !== "u"
      ),
  );
  // "le jogging noir taille M c'est bien celui que j'ai choisi", "القميص الأزرق الميديوم اللي قلت عليهم", "lk7el hwa li
  // tlbt": a colour, a size or a number the reply says is what was ordered names the order, it asks no change (round 25).
  const restated = restatements(tokens);
  const named = hits.length;
  if (restated.length > 0)
    hits = hits.filter((h) => !(RESTATABLE.has(h.signal) && restatedIn(tokens, hits, h, restated)));
  const restatedSome = hits.length < named;
  // "le portail vert, le chien ne mord pas", "الباب الخضر", "el bab el a7mer": a colour on a door, a gate, a house or a
  // car says where the courier goes, not what the item is (round 25).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "attr" &&
        h.end === h.start + 1 &&
        (PLACE_THING.test(tokens[h.start - 1] ?? "") ||
          (ARTICLE_BEFORE_ATTR.has(tokens[h.start - 1] ?? "") && PLACE_THING.test(tokens[h.start - 2] ?? "")))
      ),
  );
  // "7atta yjini el 5las", "ki touselni la paye": what comes is the pay, not the parcel (round 24).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "delivery" &&
        h.end === h.start + 1 &&
        tokens.slice(h.end, h.end + 3).some((t) => PAY.test(t) || MONEY.test(t))
      ),
  );
  // "l'argent est sur la table", "mon argent": money, not the colour silver, which has no article of its own (round 24).
  hits = hits.filter(
    (h) =>
      !(h.signal === "attr" && /^argent$/.test(tokens[h.start] ?? "") && MONEY_OWNER.test(tokens[h.start - 1] ?? "")),
  );
  // "rani 3yit m3a les commandes ta3kom", "عييت مع الخدمة": "I am tired (of)", not "I called" (round 19). Latin "3yit"
  // is only "tired"; Arabic "عييت" and "عيطت" both read "3it", so there only when "with", "of" follows.
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "callVerb" &&
        h.end === h.start + 1 &&
        (/^3y+i+t+e?$/.test(tokens[h.start] ?? "") ||
          (/^3i+t$/.test(tokens[h.start] ?? "") && TIRED_OF.has(tokens[h.end] ?? "")))
      ),
  );
  // "قبل ما فماش شكون يحلو", "ma kanch chkoun": "there is nobody (to open)", no question "who?" (round 19).
  hits = hits.filter(
    (h) =>
      !(h.signal === "qword" && /^a?chk[ou]+n$/.test(tokens[h.start] ?? "") && NOBODY.test(tokens[h.start - 1] ?? "")),
  );
  // "kan chi wa7ed akhor li hder m3ak": "someone else who talked to you" is a person, not one more item (round 19).
  hits = hits.filter(
    (h) => !(h.signal === "add" && RELATIVE_WHO.has(tokens[h.end] ?? "") && TALKED.test(tokens[h.end + 1] ?? "")),
  );
  // "نكون كملت الخدمة", "kmlt lkhdma": "I (have) finished (work)", a past, not "kemmel" (go ahead, send it; round 20).
  hits = hits.filter((h) => !(h.signal === "send" && h.end === h.start + 1 && FINISHED.test(tokens[h.start] ?? "")));
  // "9aletli confirmi blastha", "أكد بلاصتي": "in her place" after a confirm is on her behalf, no item for another
  // (round 20).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "instead" &&
        h.end === h.start + 1 &&
        /^blas[ae]?t(?:i|ha|a|u|o|ou|hum|hom|na)$/.test(tokens[h.start] ?? "") &&
        hits.some((a) => a.signal === "accept" && a.end === h.start)
      ),
  );
  // "من بعد صلاة العصر", "9bel sla": "after, before the prayer" tells a time, nobody is at prayer now (round 20).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "busy" &&
        /^(?:[bfl]|el|fl|bl)?s[aeiou]?la[th]?$/.test(tokens[h.end - 1] ?? "") &&
        AROUND_TIME.has(tokens[h.start - 1] ?? "")
      ),
  );
  // "ما يدخلش بالكرهبة للزنقة" (he mustn't drive into the alley): a car after someone else's verb is the courier's, the
  // customer is not driving (round 21).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "busy" &&
        h.end === h.start + 1 &&
        /(?:krhba|karhba|tomobil|tonobil|tumubil)$/.test(tokens[h.start] ?? "") &&
        /^y[\p{L}\d]{2,}$/u.test(tokens[h.start - 1] ?? "")
      ),
  );
  // "dakchi 3lach la lghiha": "that's why" before a "la", no "why not" (round 21).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "accept" &&
        h.end === h.start + 2 &&
        /^3l[ae](?:ch|sh|h)$/.test(tokens[h.start] ?? "") &&
        THATS_WHY.test(tokens[h.start - 1] ?? "")
      ),
  );
  // "نخلص كلشي مع بعض", "m3a ba3d": "together", not "later" (round 20).
  hits = hits.filter(
    (h) => !(h.signal === "later" && /^b[a3]*3?d$/.test(tokens[h.start] ?? "") && WITH.has(tokens[h.start - 1] ?? "")),
  );
  // "بالكراسي الأربعة", "bel kraser larb3a": a number after a noun with its article ("the four chairs") is no Wednesday,
  // Tuesday or Monday, which share its word (round 20).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "day" &&
        h.end === h.start + 1 &&
        DAY_NUMBER.test(tokens[h.start] ?? "") &&
        (/^(?:[bfw]?e?l|al)\p{L}{3,}$/u.test(tokens[h.start - 1] ?? "") ||
          (ARTICLE_WORD.has(tokens[h.start - 2] ?? "") && /^\p{L}{3,}$/u.test(tokens[h.start - 1] ?? ""))) &&
        !DAY_OPENER.has(tokens[h.start - 1] ?? "") &&
        !hits.some((t) => TIME_SIGNAL.has(t.signal) && t.start < h.start && t.end >= h.start)
      ),
  );
  // "الجيب فارغ", "ljib khawi": the pocket is empty, no bringing of the parcel (round 20).
  hits = hits.filter(
    (h) => !(h.signal === "delivery" && tokens[h.start] === "ljib" && EMPTY.test(tokens[h.end] ?? "")),
  );
  // "khliwha 3andkom": "leave it with you" said to the shop is "keep it", not an instruction for the courier.
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "instruction" && hits.some((r) => r.signal === "refuse" && r.start === h.start && r.end === h.end)
      ),
  );
  // ("عندي سؤال على la garantie": a "la" in Latin letters, and no "لا" anywhere, is the French article; round 16.)
  hits.push(...noHits(tokens, hits, isMostlyArabicScript(text) && (ARABIC_LA.test(text) || !LATIN_LA.test(text))));
  hits.push(...nameHits(text, tokens, hits));
  for (const h of hits) if (NEGATABLE.has(h.signal)) h.negated = isNegated(tokens, h);
  // "3lach nbeddel? Jibouha", "pourquoi changer ?": why would I change, asked and closed, changes nothing (round 28).
  for (const h of hits)
    if (
      h.signal === "changeVerb" &&
      // ("pourquoi j'aurais changé ?", "3lech bech nbadel?": a subject, an auxiliary or "going to" between; round 37.)
      [1, 2, 3].some(
        (k) =>
          /^(?:3lach|3lech|3lah|3leh|lach|pur9uoi)$/.test(tokens[h.start - k] ?? "") &&
          tokens.slice(h.start - k + 1, h.start).every((t) => !PUNCT.has(t)),
      ) &&
      tokens.slice(h.end, h.end + 2).includes("?")
    )
      h.negated = true;
  for (const h of hits) if (h.signal === "yes" || h.signal === "accept") h.negated = isAssentNegated(tokens, h);
  hits = dropAuxiliaryRefusals(hits);
  hits = dropSharedPas(tokens, hits);
  hits = dropPoliteNoProblem(tokens, hits);
  hits = dropBlessingsAndNoDelay(tokens, hits);
  hits = dropMisunderstood(tokens, hits);
  hits = dropLeftAsSomeones(tokens, hits);
  hits = dropChangedCircumstances(tokens, hits);
  hits = dropLateCalls(tokens, hits);
  // "mouch ena elli nrajja3 commande" (I'm not one who sends an order back), "ماشي أنا اللي نطلب ومن بعد نقول لا": "not me"
  // before "who" and a first-person present says what kind of customer one is, not that one is someone else; "machi
  // ana li tlabt" (it's not me who ordered), in the past, stays (round 23).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "notMe" &&
        h.end === h.start + 2 &&
        RELATIVE_WHO.has(tokens[h.end] ?? "") &&
        /^n(?!t[aeiu])[a-z0-9]{2,}$/.test(tokens[h.end + 1] ?? "")
      ),
  );
  // "le livreur de la dernière fois m'a mal parlé, j'espère que ce sera un autre", "الليفرور … كان معصب، بغيت واحد ظريف":
  // "another one", "I want one" after the courier named, and nothing of the order's (no colour, size, model, change
  // verb) named: the other one is the courier (round 23).
  if (!hits.some((h) => ORDER_THINGS.has(h.signal)))
    hits = hits.filter(
      (h) =>
        !(
          (h.signal === "add" || h.signal === "qty" || h.signal === "want") &&
          tokens.slice(Math.max(0, h.start - 16), h.start).some((t) => COURIER.test(t))
        ),
    );
  // "dir sonnette joj merrat", "sonnez deux fois", "دق جوج مرات": a number of times (to ring, to call) is no quantity of
  // the order (round 39).
  // (Times to ring, knock or call: an instruction or a call just before; "j'ai commandé deux fois" is a duplicate order.)
  const ringing = (at: number) =>
    tokens.slice(Math.max(0, at - 3), at).some((t) => /^(?:[iy]?d9|[iy]?dq|tape[rz]?|frape[rz]?)$/.test(t)) ||
    hits.some((x) => (x.signal === "instruction" || x.signal === "callVerb") && x.end <= at && at - x.end <= 3);
  hits = hits.filter(
    (h) => !(h.signal === "qty" && /^(?:m[ae]?r+[ae]?t|fois)$/.test(tokens[h.end] ?? "") && ringing(h.start)),
  );
  // "je confirme encore une fois" (once more): "encore une" before "fois" adds nothing (round 23).
  hits = hits.filter((h) => !(h.signal === "add" && tokens[h.start] === "enkore" && tokens[h.end] === "fois"));
  // "3ayetli marra okhra", "عاود مرة أخرى", "marra okhra nhar ssebt": "another time" to call, to repeat or on a day is no
  // refusal (round 39).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "reason" &&
        /^m[ae]?r+a$/.test(tokens[h.start] ?? "") &&
        hits.some((x) => x.signal === "callVerb" || x.signal === "repeat" || x.signal === "day" || x.signal === "slot")
      ),
  );
  // "w el flous fi jibi" (and the money is in my pocket): money ready to pay, no remark on the price (round 23).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "reason" &&
        tokens[h.start] === "fi" &&
        MONEY.test(tokens[h.start - 1] ?? "") &&
        /^jib/.test(tokens[h.start + 1] ?? "")
      ),
  );
  // "manich nrejja3 fiha" (I'm not going back on it): "ma nich" before a first-person verb negates the verb, nobody
  // is away (round 23).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "absent" &&
        h.end === h.start + 2 &&
        tokens[h.start] === "ma" &&
        tokens[h.start + 1] === "nich" &&
        /^n[^i]/.test(tokens[h.end] ?? "")
      ),
  );
  // "zid envoie", "zid sifto liya": "zid" right before a "send it" is "go ahead", not "add one" (round 15).
  hits = hits.filter(
    (h) =>
      !(
        h.signal === "add" &&
        h.end === h.start + 1 &&
        /^zid/.test(tokens[h.start] ?? "") &&
        hits.some((s) => s.signal === "send" && s.start === h.end)
      ),
  );
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  return restatedSome ? { tokens, hits, restated: true } : { tokens, hits };
}

/**
 * The lexicon's cues found in the canonical text, each tried at every token start. A hot loop (~600 cues times the
 * tokens, every turn): indexed loops and test(), which allocate nothing. A sticky test that matches leaves lastIndex
 * at the match's end, which is all we need; exec() allocated its result, and the for-of loops their iterator results
 * (together ~160 KB per utterance, most of what a turn allocated, which the node's scavenges then copy and pay for).
 */
function cueHits(
  cues: readonly CompiledCue[],
  mask: number,
  starts: readonly number[],
  canon: string,
  tokenAt: Map<number, number>,
  tokenCount: number,
): SignalHit[] {
  const hits: SignalHit[] = [];
  for (let c = 0; c < cues.length; c++) {
    const cue = cues[c]!;
    if (!mayMatch(cue, mask)) continue;
    const re = cue.re;
    for (let s = 0; s < starts.length; s++) {
      const offset = starts[s]!;
      re.lastIndex = offset;
      if (!re.test(canon)) continue;
      const start = tokenAt.get(offset) ?? 0;
      const end = tokenAt.get(re.lastIndex + 1) ?? tokenCount;
      if (end > start) hits.push({ signal: cue.signal, weight: cue.weight, start, end, negated: false });
    }
  }
  return hits;
}

/** Maps each token's character offset in the space-joined text to its index (regex matches -> token spans). */
export function tokenIndexByOffset(tokens: string[]): Map<number, number> {
  const map = new Map<number, number>();
  let offset = 0;
  tokens.forEach((t, i) => {
    map.set(offset, i);
    offset += t.length + 1;
  });
  map.set(offset, tokens.length);
  return map;
}

/** A phrase inside a longer matched phrase is not a signal of its own ("3awed" in "3awed 3ayet"). */
function dropContained(hits: SignalHit[]): SignalHit[] {
  const sorted = [...hits].sort((a, b) => b.end - b.start - (a.end - a.start));
  const kept: SignalHit[] = [];
  for (const h of sorted) {
    const inside = kept.some(
      (k) => k.start <= h.start && h.end <= k.end && (k.end - k.start > h.end - h.start || k.signal === h.signal),
    );
    if (!inside) kept.push(h);
  }
  return kept;
}

/** Orders, shops and sites, canonical ("komandes", "sites", "buti9ue", "l7anout"; round 24). */
const SHOPS = /^(?:l|el)?(?:komand\w*|site|sites|page|pages|buti9\w*|magasin\w*|hanut|hwanet|store)$/;
/** "from" before a shop ("wa7da mn 3ndkom", "une de chez vous", "wa7da mel page"; round 24). */
const FROM = /^(?:mn|men|min|mel|mil|de|chez|3nd|3and)$/;
/** "Yours", "you" after that "from" ("mn 3ndkom", "de chez vous"; round 24). */
const YOURS = /^(?:3ndkom|3andkom|3ndkum|3andkum|3andek|3ndek|ndkom|vus|chez)$/;
/** A number that counts the customer's orders or shops ("zouz commandes"), or one of them from each (round 24). */
function countsShops(tokens: string[], h: SignalHit): boolean {
  let i = h.end;
  while (/^(?:d|de|des|ta3|mta3|dyal)$/.test(tokens[i] ?? "")) i++;
  if (SHOPS.test(tokens[i] ?? "")) return true;
  // ("wahda mn 3ndkom w wahda mn site akhor": one from each; "tlebt jouj d l7wayej, wa7da mn 3ndkom …": the number they
  // make up.)
  const fromShop = (k: number) =>
    FROM.test(tokens[k] ?? "") && (SHOPS.test(tokens[k + 1] ?? "") || YOURS.test(tokens[k + 1] ?? ""));
  return (
    fromShop(h.end) ||
    tokens.slice(h.end, h.end + 5).some((t, k) => /^(?:wahda|wahed|wahd|une|un)$/.test(t) && fromShop(h.end + k + 1))
  );
}
/** "just", "only" before an imperative (canonical): "ghir lghiha", "juste annulez" (round 25). */
const JUST_BEFORE = /^(?:ghir|gher|ghi|kan|ken|juste|seulement|bas|bes)$/;
/** "in his (her, their) place" (canonical): "fblastu", "f blastha", "fi blasetha" (round 25). */
const IN_PLACE_OF = /^(?:f|fi)?bla[sz]e?t(?:u|o|ou|ha|hom|hum|hm)$/;
/** "is", "was" before "encore" (canonical; round 25). */
const COPULA = /^(?:est|etait|etaient|sont|sera|serait|ete)$/;
/** What a restatement can name: a value or a number (not a day: "the day I said" may be a new one). */
const RESTATABLE: ReadonlySet<string> = new Set(["attr", "attrNoun", "qty", "address"]);
/** "c'est (bien) celui que j'ai choisi", "c'est bien ma commande" (canonical, joined). */
const RESTATE_FR =
  /\bc est (?:bien |exactement |justement )?(?:ce 9ue|celui 9ue|cel+e 9ue|ceux 9ue|cel+es 9ue|ca 9ue|sa 9ue|ma komande|ma commande|mon komande)\b/g;
/** "(hwa) li tlbt", "اللي قلت عليهم", "elli tlabtha" (canonical, joined). */
const RESTATE_AR =
  /\b(?:li|lli|eli|elli|illi) (?:tlbt|tlebt|tlabt|tlbtu|tlbtha|tlebtha|tlabta|tlabtha|tlabtou|9lt 3lih\w*|9olt 3lih\w*|glt 3lih\w*|golt 3lih\w*|khtart|khtert|khtarit|komandit|commandit|htit|7tit|hatit|7atit|htitha|3tit|3titkom|3titlkom|3titkum)\b/g;
/** "as", opening "as you read it" (canonical; round 26). */
const AS: ReadonlySet<string> = new Set(["kima", "kif", "kifma", "bhal", "b7al", "comme"]);
/**
 * "kima 9rithom", "bhal ma golti", "comme vous l'avez lu": as the agent read or said it (canonical, joined; round 26);
 * "كيما طلبت", "comme j'ai commandé": as the customer ordered it (round 39).
 */
const RESTATE_AS =
  /\b(?:kima|kif|kifma|bhal|b7al)(?: ma)? (?:9rit\w*|9rat\w*|golti\w*|9olti\w*|glti\w*|9lti\w*|9ulti\w*|9ritom|9rithom|tlbt\w*|tlebt\w*|tlabt\w*|komandit\w*)\b|\bcomme (?:vous (?:l )?(?:avez|l avez) (?:dit|lu)|vous (?:le|la|les) dites|dit|lu|j (?:l )?ai (?:komande|commande))\b/g;
/** A negation right before a restatement ("c'est pas celui que j'ai choisi", "machi hwa li tlbt"). */
const NOT_BEFORE = /^(?:pas|machi|mashi|mouch|mech|mich|mechi|ma)$/;
/** Clause bounds for a restatement: punctuation and "but". */
const CLAUSE_END = /^(?:[,.;!?…]|mais|walakin|walakine|ama|bas|bs7|bsah|bessah)$/;

/** Token ranges [start, end) of the restatements in `tokens` (round 25). */
function restatements(tokens: string[]): [number, number][] {
  // (Both shapes hold "que" or a relative "li": most replies hold neither and are not joined nor matched.)
  if (!tokens.some((t) => t === "9ue" || t === "komande" || t === "commande" || RELATIVE_WHO.has(t) || AS.has(t)))
    return [];
  const joined = tokens.join(" ");
  const starts: number[] = [];
  let offset = 0;
  for (const t of tokens) {
    starts.push(offset);
    offset += t.length + 1;
  }
  const at = (o: number) => starts.findIndex((x) => x >= o);
  const out: [number, number][] = [];
  for (const re of [RESTATE_FR, RESTATE_AR, RESTATE_AS])
    for (const m of joined.matchAll(re)) {
      const from = at(m.index);
      const to = at(m.index + m[0].length + 1);
      if (from < 0) continue;
      // (The French form holds no negation by its shape: "c'est pas celui que" is none.)
      if (re === RESTATE_AR && tokens.slice(Math.max(0, from - 2), from).some((t) => NOT_BEFORE.test(t))) continue;
      out.push([from, to < 0 ? tokens.length : to]);
    }
  return out;
}

/**
 * The hit sits in the clause of a restatement (no punctuation or "but" between), and no wish, change verb or "instead"
 * comes before it in that clause.
 */
function restatedIn(tokens: string[], hits: SignalHit[], h: SignalHit, restated: [number, number][]): boolean {
  // A value said to be wrong is not the one ordered, whatever relative stands before it: "marti hiya li commandit w el
  // adresse ghalta" (my wife is the one who ordered, and the address is wrong; round 45).
  if (tokens.slice(h.end, h.end + 2).some((t) => SAID_WRONG.test(t))) return false;
  return restated.some(([from, to]) => {
    const lo = Math.min(h.start, from);
    const hi = Math.max(h.end, to);
    if (tokens.slice(lo, hi).some((t, k) => CLAUSE_END.test(t) && lo + k !== h.start)) return false;
    let clause = lo;
    while (clause > 0 && !CLAUSE_END.test(tokens[clause - 1] ?? "")) clause--;
    return !hits.some(
      (w) =>
        (w.signal === "want" || w.signal === "changeVerb" || w.signal === "instead" || w.signal === "add") &&
        w.start >= clause &&
        w.start < h.start,
    );
  });
}

/** "You wore me (us) out" (canonical, Latin letters): "3yitouni", "3yitini", "3yitna" (round 45). */
const WORE_OUT = /^3yit(?:u|i)?n[ia]$/;
/** A subject pronoun (canonical), opening a clause of its own: "il", "elle", "je", "on" (round 45). */
const SUBJECT = /^(?:il|ils|ele|eles|elle|elles|je|j|tu|on|c)$/;
/**
 * A preposition before "dak" (that), canonical: "f dak", "b dak", "m3a dak", "3la dak" (round 45; not "bhal dak", like
 * that, which the readable sets hold once in a confirm the model reads only with the yes).
 */
const BEFORE_THAT = /^(?:f|fi|b|bi|m3a|m3|ma3a|3la|3l|mn|min|men)$/;
/** A French infinitive (canonical): "mettre", "soner", "apeler", "venir", "laiser" (round 45). */
const INFINITIVE = /^[a-z]{2,}(?:er|ir|re)$/;
/** "I can" with the negation's "-ch" (canonical): "n9drch", "n9derch", "nqderch", "nkdarch" (round 45). */
const CANNOT = /^n[9kq][ae]?d[ae]?rch$/;
/** "My phone" (canonical): "telifuni", "tlifuni", "tilifoni", also read as "call me" (round 45). */
const PHONE_NOUN = /^t[ie]?l[ie]f[ou]ni$/;
/** "This (is)" (canonical): "hada", "hadi", "heda", "hda", "hadha" (round 45). */
const THIS = /^(?:hada|hadi|heda|hedi|hda|hdi|hadha|hedha)$/;
/**
 * "Wrong", said of a value (canonical): "ghalta", "ghalet", "faux", "fausse" (round 45). reading.ts `WRONG` also takes
 * "erreur" and "trompé", which name the customer's mistake, not a value.
 */
const SAID_WRONG = /^(?:gh[ae]?l[ae]?t[ae]?|faux|fause)$/;
/** Before "argent", the article or possessive of money ("l'argent", "de l'argent", "mon argent"; round 24). */
const MONEY_OWNER = /^(?:l|d|mon|ton|son|votre|notre|leur|mes|sans|pas|assez|trop|peu)$/;
/** "wesh" (canonical "wech"): a "hey" in French slang (round 22). */
const WESH = /^we?[cs]h$/;
/** "I am" before a participle (canonical): "rani", "rana", "ana", "kont" (round 22). */
const I_AM = /^(?:rani|rana|ana|kont|knt|kunt)$/;

/**
 * "jame3", "الجامع" (the mosque) is read both as a place one is busy at and, by vowel flexibility, as "jem3a"
 * (Friday): the mosque has its long "a" after the j and ends on the consonant (jame3, ljam3), Friday does not
 * (jem3a, jema3, الجمعة), so that word names no day; and next to the mosque ("حدا الجامع") nobody is at prayer
 * (round 21), nor is one who "is gathering" ("راني جامع الدراهم": "jam3" right after "I am", a verb; round 22).
 */
function dropMosqueDays(tokens: string[], hits: SignalHit[]): SignalHit[] {
  return hits.filter(
    (h) =>
      // "حدا الجامع", "bhda ljam3": next to the mosque is a place, nobody at prayer (round 21).
      // ("راني جامع الدراهم", I am gathering the money: "jam3" right after "I am", no "at" nor "the", is a verb; round 22.)
      // ("eli wra jeme3 el ferdaous": the Tunisian "jeme3", the mosque, behind or next to which one lives; round 25.)
      !(
        h.signal === "busy" &&
        /j[ae]+m[ae]?3$/.test(tokens[h.end - 1] ?? "") &&
        (NEXT_TO.test(tokens[h.start - 1] ?? "") ||
          // ("9rib l jame3": near to the mosque, with its "to"; round 28.)
          (/^(?:l|el|li|men|mn)$/.test(tokens[h.start - 1] ?? "") && NEXT_TO.test(tokens[h.start - 2] ?? "")) ||
          (/^ja/.test(tokens[h.start] ?? "") && I_AM.test(tokens[h.start - 1] ?? "")))
      ) &&
      !(
        h.signal === "day" &&
        h.end === h.start + 1 &&
        ((/ja+m[ae]?3$/.test(tokens[h.start] ?? "") &&
          hits.some((b) => b.signal === "busy" && b.start === h.start && b.end === h.end)) ||
          (/^(?:l|el)?j[ae]+m[ae]?3$/.test(tokens[h.start] ?? "") && NEXT_TO.test(tokens[h.start - 1] ?? "")))
      ),
  );
}

const REFUSAL_SIGNALS = new Set<Signal>([
  "refuse",
  "cancelVerb",
  "didntOrder",
  "reason",
  "changedMind",
  "notMe",
  "accept",
  "yes",
]);

/** Bare "no" words; "la"/"le" only where they cannot be the French article. */
/** "لا" as a word (with a glued "و" or "ف"), and "la"/"là" in Latin letters. */
const ARABIC_LA = /(?<!\p{L})[وف]?لا(?!\p{L})/u;
const LATIN_LA = /(?<!\p{L})l[aà](?!\p{L})/iu;

function noHits(tokens: string[], hits: SignalHit[], arabicScript: boolean): SignalHit[] {
  const out: SignalHit[] = [];
  tokens.forEach((t, i) => {
    if (!NO_WORDS.has(t)) return;
    if (hits.some((h) => h.start <= i && i < h.end)) return;
    const prev = tokens[i - 1];
    if ((t === "lala" || t === "la") && (prev === "a" || prev === "ya")) return; // "a lalla": a vocative
    // "j'vais pas dire non quand même", "ma ngoulch la" (I won't say no): a "no" denied by its own saying (round 23).
    // ("je dis pas non", "j'ai pas dit non": the spoken French "pas" after the verb as well; round 37.)
    if (
      (/^(?:dire|dis|dit|dirai)$/.test(prev ?? "") && ["pas", "jamais"].includes(tokens[i - 2] ?? "")) ||
      (["pas", "jamais"].includes(prev ?? "") && /^(?:dis|dit|dirai)$/.test(tokens[i - 2] ?? "")) ||
      /^n[g9][ou]lch$/.test(prev ?? "")
    )
      return;
    // "envoyez le", "prenez la": the pronoun of a French imperative written apart, in Latin script (round 24).
    if ((t === "la" || t === "le") && !arabicScript && prev !== undefined && /ez$/.test(prev)) return;
    // "mais là je conduis", "je suis là": French "là" after a French word, in Latin script.
    if (t === "la" && !arabicScript && prev !== undefined && FRENCH_BEFORE_LA.has(prev)) return;
    // ("je suis en cours là, en amphi", "au boulot là": "là" after a place said with "en", "au"; not "on va en rester
    // là", we'll stop there; round 45.)
    if (
      t === "la" &&
      !arabicScript &&
      /^(?:en|au|aux)$/.test(tokens[i - 2] ?? "") &&
      /^[a-z]{3,}$/.test(prev ?? "") &&
      !INFINITIVE.test(prev ?? "")
    )
      return;
    if (t === "la" || t === "le") {
      const next = tokens[i + 1];
      const beforeRefusal = hits.some((h) => h.start === i + 1 && REFUSAL_SIGNALS.has(h.signal));
      // (Arabic "لا" reads "la": a "le" was written in Latin letters, French "sur le coup", even in an Arabic reply;
      // round 11.)
      const ok =
        (arabicScript && t === "la") || next === undefined || PUNCT.has(next) || NO_FOLLOW.has(next) || beforeRefusal;
      if (!ok) return;
    }
    out.push({ signal: "no", weight: 0.6, start: i, end: i + 1, negated: false });
  });
  return out;
}

/** "ana machi Karim", "ena mouch sonia", "je ne suis pas Karim": the speaker is not the customer. */
function nameHits(text: string, tokens: string[], hits: SignalHit[]): SignalHit[] {
  const out: SignalHit[] = [];
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    const name = tokens[i + 2];
    if (!["ana", "ena", "rani"].includes(t) || !next || !["machi", "much", "mech", "mahich"].includes(next) || !name)
      return;
    if (PUNCT.has(name) || name.length < 3 || NOT_A_NAME.has(name) || /\d/.test(name)) return;
    if (hits.some((h) => h.start <= i + 2 && i + 2 < h.end)) return;
    out.push({ signal: "notMe", weight: 0.85, start: i, end: i + 3, negated: false });
  });
  const french =
    /\b(?:je\s+ne\s+suis\s+pas|je\s+suis\s+pas|moi\s+c'?est\s+pas)\s+(?:M\.?\s+|Mme\s+|Mr\.?\s+)?[A-ZÀ-Ý][a-zà-ÿ]+/;
  const otherName =
    /\b(?:c'?est|je\s+suis|moi\s+c'?est)\s+[A-ZÀ-Ý][\wà-ÿ-]+\s*,?\s*(?:pas|et\s+pas|non\s+pas)\s+[A-ZÀ-Ý]/;
  // "c'est Colomiers pas Tournefeuille, … la ville": two places, not two names (round 8).
  // Letter-aware edges: a plain `\b` never closes after "é", so "cité" never matched.
  const place = /(?<!\p{L})(?:ville|adresse|quartier|rue|commune|village|cit[ée]|wilaya|avenue|boulevard)(?!\p{L})/iu;
  const names = otherName.test(text) && !place.test(text);
  if ((french.test(text) || names) && !hits.some((h) => h.signal === "notMe")) {
    out.push({ signal: "notMe", weight: 0.85, start: 0, end: 1, negated: false });
  }
  return out;
}

function isNegated(tokens: string[], hit: SignalHit): boolean {
  const before = (k: number): string | undefined => {
    for (let j = hit.start - 1, n = 0; j >= 0; j--) {
      const t = tokens[j] ?? "";
      if (PUNCT.has(t)) return undefined;
      if (++n === k) return t;
    }
    return undefined;
  };
  const t1 = before(1);
  const t2 = before(2);
  const t3 = before(3);
  // ("9bel ma nkhalles": before I pay; but "ghir ma tab3athhach l'dar", just don't send it home: the verb's own "-ch"
  // closes the negation the conjunction would not; round 44.)
  if (t1 === "ma" && t2 && CONJUNCTION_MA.test(t2) && !NEGATED_VERB.test(tokens[hit.end - 1] ?? "")) return false;
  // French "pas" follows the verb it negates and comes before an infinitive only ("ne pas rappeler"): before a verb
  // in "-ez" ("ça capte pas, rappelez-moi") it closes the clause before.
  // (So do "rien", "plus", "jamais": "ça sert à rien, annulez", "je le veux plus annulez"; round 17.)
  if ((t1 === "pas" || t1 === "rien" || t1 === "plus" || t1 === "jamais") && /ez$/.test(tokens[hit.start] ?? ""))
    return false;
  if (t1 && NEGATORS.has(t1)) return true;
  // ("mabghit nzid walo", "mab9itch nbeddel": "ma" glued to the wish or the "no longer" before the verb, as "ma bghitch
  // nbeddel" is written apart; not "mala", "so then"; round 44.)
  if (t1 && /^ma[^aeiou]/.test(t1) && t1.length >= 5 && isAuxiliary(t1.slice(2))) return true;
  // ("pas question nlghiha", "مستحيل نلغيها": no way, the word before `w` being `prev`; round 43.)
  // ("y a aucune raison que je refuse", "pas de raison que j'annule": no reason to; round 44.)
  const noWay = (w: string | undefined, prev: string | undefined) =>
    (w === "9uestion" && prev === "pas") ||
    (w === "raison" && (prev === "aukune" || prev === "de")) ||
    (w !== undefined && NO_WAY.test(w));
  if (noWay(t1, t2)) return true;
  // ("pas question que j'annule", "impossible d'annuler": its "que" or "de", and the subject, between; round 43.)
  const [n1, n2, n3] = t1 === "j" || t1 === "je" ? [t2, t3, before(4)] : [t1, t2, t3];
  if ((n1 === "9ue" || n1 === "de" || n1 === "d") && noWay(n2, n3)) return true;
  // ("ماكانش إلغاء", "mafamech annulation", "pas d'annulation": there is no cancelling; round 23.)
  if (hit.signal === "cancelVerb" && t1 && (NOBODY.test(t1) || (t1 === "d" && t2 === "pas"))) return true;
  // ("rien à changer", "rien à modifier": nothing to change; round 16.)
  if (t1 === "a" && t2 === "rien") return true;
  if (t2 && NEGATORS.has(t2) && t1 && isAuxiliary(t1)) return true;
  if (t3 && NEGATORS.has(t3) && t2 && isAuxiliary(t2) && t1 && isAuxiliary(t1)) return true;
  // ("Ma ni bech nbaddel 7atta chay": "mani", "manich" (I am not) written apart, before "going to"; round 24.)
  if (t3 === "ma" && (t2 === "ni" || t2 === "nich") && t1 && isAuxiliary(t1)) return true;
  // ("لالا ما راني نلغي والو", "ma rani nelghi walou": "I am not" written apart, "ma" and "rani", before the verb;
  // round 28.)
  if (t2 === "ma" && t1 && /^(?:rani|rana|rahi|rah)$/.test(t1)) return true;
  // ("ما راني حاب نلغي والو": "I don't want to cancel anything", the wish between "ma rani" and the verb; round 38.)
  if (t3 === "ma" && t2 && /^(?:rani|rana|rahi|rah)$/.test(t2) && t1 && /^(?:hab+a?|habit|baghi|bagh)$/.test(t1))
    return true;
  // ("je suis pas du genre à annuler": not the kind who cancels; round 38.)
  if (
    (t1 === "a" || t1 === "de" || t1 === "d") &&
    t2 === "genre" &&
    (t3 === "du" || t3 === "le") &&
    before(4) === "pas"
  )
    return true;
  const after = tokens[hit.end];
  const after2 = tokens[hit.end + 1];
  // The subject before the verb, or the hit's own first word when the cue holds it ("je prends" in "moi je prends
  // rien": round 20).
  // (Or the subject before an object pronoun: "je l'annule pas", "on la renvoie pas"; round 37.)
  const subject = ["je", "j", "on"].includes(tokens[hit.start] ?? "")
    ? (tokens[hit.start] ?? "")
    : /^(?:l|le|la|les|lui|leur|m|me|t|te|y|en)$/.test(tokens[hit.start - 1] ?? "")
      ? (tokens[hit.start - 2] ?? "")
      : (tokens[hit.start - 1] ?? "");
  if (after === "pas" || (after2 === "pas" && after && !PUNCT.has(after)))
    return (
      tokens.slice(0, hit.start).includes("n") ||
      tokens.slice(0, hit.start).includes("ne") ||
      // Spoken French drops the "ne" after a subject: "je refuse pas", "j'annule pas" (round 11).
      (after === "pas" && ["je", "j", "on", "il", "elle"].includes(subject))
    );
  // So it does before "rien" and "jamais": "je refuse rien", "j'annule jamais" (round 18).
  if ((after === "rien" || after === "jamais") && ["je", "j", "on"].includes(subject)) return true;
  return false;
}

/**
 * A yes-word or an assent under a negation of its own: "machi wakha", "mouch behi", "pas d'accord", "ma confirmit
 * walo", "je confirme pas": no yes at all (issue 33). Not the "n" of "n'y a pas de souci" (the phrase holds its own
 * negation) nor "rien"/"sans"/"bla", which only come inside assent phrases ("sans souci", "bla mouchkil").
 */
function isAssentNegated(tokens: string[], hit: SignalHit): boolean {
  const t1 = tokens[hit.start - 1];
  const t2 = tokens[hit.start - 2];
  const clause = (t: string | undefined) => t !== undefined && !PUNCT.has(t);
  const strong = (t: string | undefined) => t !== undefined && ASSENT_NEGATORS.has(t);
  // "ma kach mouchkil", "mouch mochkl", "pas de souci": the phrase holds its own negation.
  if (strong(tokens[hit.start]) || tokens[hit.start] === "bla" || tokens[hit.start] === "sans") return false;
  if (t1 === "ma" && t2 !== undefined && CONJUNCTION_MA.test(t2)) return false; // "kima ma bghiti": as you like
  // A one-word yes under a negation ends its clause ("machi wakha,", "mouch behi"): "machi dak lwalad" (that boy) and
  // "mouch houni ya sidi" (not here) only look like one.
  const ends = hit.end - hit.start > 1 || tokens[hit.end] === undefined || PUNCT.has(tokens[hit.end]!);
  // ("bougez pas d'accord", "quittez pas, d'accord": the "pas" after an imperative is that verb's; round 24.)
  if (t1 === "pas" && t2 !== undefined && /ez$/.test(t2)) return false;
  if (clause(t1) && strong(t1) && (hit.signal === "accept" || ends)) return true;
  if (hit.signal === "accept" && clause(t1) && clause(t2) && strong(t2) && isAuxiliary(t1!)) return true;
  const after = tokens[hit.end];
  if (after === "pas")
    return (
      tokens.slice(0, hit.start).includes("n") || tokens.slice(0, hit.start).includes("ne") || hit.signal === "accept"
    );
  // "je ne confirme rien du tout", "je ne valide plus": "ne" before the verb and "rien", "plus" or "jamais" after it
  // (round 18).
  if ((after === "rien" || after === "plus" || after === "jamais") && (t1 === "ne" || t1 === "n")) return true;
  return false;
}
const ASSENT_NEGATORS = new Set(["ma", "mat", "much", "mech", "mich", "machi", "mahich", "pas", "jamais"]);

/** Arabic script drops short vowels ("ما نحبش" is "ma nhbch"): compare skeletons too. */
function isAuxiliary(token: string): boolean {
  // ("ma nhebhach bettelha": a wish with its own object, "it", negated, is the refusal; the next verb stands alone; round 16.)
  // (Not the "h" of "gh": "ma nbghich annulation" is "I don't want a cancelling"; round 37.)
  if (/(?<!g)h[aeiou]*m?ch$/.test(token)) return false;
  // ("ma3adech n7ebha annuli": "I no longer want it, cancel": a wish with its object "it" or "them" is whole; the next verb
  // stands alone, the cancel not negated by the wish's "no longer"; round 29.)
  if (/[bt]h(?:a|om|um)$/.test(token)) return false;
  return AUXILIARY.test(token) || AUXILIARY_SKELETON.test(token.replace(/[aeiou]/g, ""));
}

/** The words of a "no problem" ("machi mouchkil", "pas de souci", "ma kayn bas"). */
export const NO_PROBLEM = /^(?:m[ou]*chk?[aeiou]*l|mochkl|machakil|s[ou]+cis?|probl[eè]me?|bas)$/;

/**
 * "lghiha, machi mouchkil", "annulez, pas de souci": a "no problem" right after the customer's own cancel or refusal
 * is that refusal's politeness, not an assent (round 11).
 */
function dropPoliteNoProblem(tokens: string[], hits: SignalHit[]): SignalHit[] {
  return hits.filter(
    (h) =>
      !(
        h.signal === "accept" &&
        tokens.slice(h.start, h.end).some((t) => NO_PROBLEM.test(t)) &&
        hits.some(
          (r) =>
            (r.signal === "cancelVerb" || r.signal === "refuse") &&
            !r.negated &&
            (r.end === h.start ||
              (r.end === h.start - 1 && tokens[r.end] === ",") ||
              // ("صافي صافي ماشي مشكل غير لغيوها", "pas de souci, annulez juste": the "no problem" right before the
              // customer's own cancel, "just" or a comma between at most, is that cancel's politeness; round 25.)
              (r.signal === "cancelVerb" &&
                r.start >= h.end &&
                tokens.slice(h.end, r.start).every((t) => t === "," || JUST_BEFORE.test(t)) &&
                r.start - h.end <= 2)),
        )
      ),
  );
}

/**
 * "je le prends pas de souci" (unpunctuated speech: "I'll take it, no problem"): the "pas" opens "pas de souci", it
 * does not negate "prends"; a refusal ending on the "pas" an assent starts with is no refusal (round 14).
 */
function dropSharedPas(tokens: string[], hits: SignalHit[]): SignalHit[] {
  return hits.filter(
    (h) =>
      !(
        h.signal === "refuse" &&
        tokens[h.end - 1] === "pas" &&
        hits.some((a) => a.signal === "accept" && a.start === h.end - 1)
      ),
  );
}

/** "ma bghitch" right before a negated verb is that verb's auxiliary, not a refusal of its own. */
function dropAuxiliaryRefusals(hits: SignalHit[]): SignalHit[] {
  return hits.filter((h) => {
    if (h.signal !== "refuse") return true;
    return !hits.some((v) => NEGATABLE.has(v.signal) && v.negated && v.start >= h.end && v.start <= h.end + 1);
  });
}

/** "بركة الله", "على بركة الله", "barka llahu fik": a blessing ("enough" is "baraka" alone, or "baraka 3lia"). */
const BLESSED = new Set([
  "lh",
  "llah",
  "allah",
  "lah",
  "elah",
  "alah",
  "alahu",
  "lahu",
  "fik",
  "ufik",
  "fikom",
  "fikum",
  "fikm",
  "3likom",
  "3lik",
]);
const DELAY = /^(?:t3a?ta?l|ta3a?ta?l|t3etl|ta3tal)/;
/**
 * Round 15: the "reason" family read where the customer gives none. "صيفطوها على بركة الله" (send it with God's
 * blessing: "بركة" is not "baraka", enough) and "جيبوها بلا تعطال", "ما تعطلوش برك" (without delay, don't be late: an
 * instruction, not "it was late") refuse nothing.
 */
function dropBlessingsAndNoDelay(tokens: string[], hits: SignalHit[]): SignalHit[] {
  return hits.filter((h) => {
    if (h.signal !== "reason" || h.end !== h.start + 1) return true;
    const t = tokens[h.start] ?? "";
    const before = tokens[h.start - 1] ?? "";
    if (/^ba?ra?ka$/.test(t) && (BLESSED.has(tokens[h.end] ?? "") || before === "3la" || before === "3al"))
      return false;
    if (DELAY.test(t) && (["bla", "sans", "bidun", "ma", "blach"].includes(before) || /ch$/.test(t))) return false;
    // ("ken jit w ma l9itnich", if you come and don't find me: "found me" is no "I found it cheaper"; round 16.)
    if (/^l9it.*ni(?:ch|ich)?$/.test(t)) return false;
    return true;
  });
}

/**
 * "فهمتيني غلط", "fhemtini ghalet" (you understood me wrong): the agent's mistake, not a wrong number; "ghalet" alone
 * says "wrong" of the call only when no verb of understanding stands right before it (round 16).
 */
function dropMisunderstood(tokens: string[], hits: SignalHit[]): SignalHit[] {
  return hits.filter(
    (h) =>
      !(
        h.signal === "notMe" &&
        h.end === h.start + 1 &&
        /^gh?[aeiou]?l[aeiou]?t$/.test(tokens[h.start] ?? "") &&
        /^t?fh[aeiou]?m/.test(tokens[h.start - 1] ?? "")
      ),
  );
}

/**
 * "النومرو … خليه متاع ولدي" (make it my son's), "khalliha dyal khti": "leave it" with a "whose" after it says whose the
 * thing is to be, not "keep it"; "خلّيها الجمعة" (make it Friday) with a day after it, when (round 16).
 */
function dropLeftAsSomeones(tokens: string[], hits: SignalHit[]): SignalHit[] {
  return hits.filter(
    (h) =>
      !(
        h.signal === "refuse" &&
        h.end === h.start + 1 &&
        /^kh?[aeiou]?l/.test(tokens[h.start] ?? "") &&
        (/^(?:mta3|mte3|nta3|ta3|dyal|dial|d)$/.test(tokens[h.end] ?? "") ||
          hits.some((d) => d.signal === "day" && d.start === h.end))
      ),
  );
}

/** "تبدلت الظروف" (circumstances changed), "l7ala tbeddlet": a reason, not a change asked of the order (round 16). */
const CIRCUMSTANCES = /^(?:[lz]?[dz]h?ru?f|l?[dz]h?ru?f|lhala|hala|l?a?hwal|lwad3|wad3|situation)$/;
function dropChangedCircumstances(tokens: string[], hits: SignalHit[]): SignalHit[] {
  return hits.filter(
    (h) =>
      !(
        h.signal === "changeVerb" &&
        h.end === h.start + 1 &&
        (CIRCUMSTANCES.test(tokens[h.end] ?? "") || CIRCUMSTANCES.test(tokens[h.start - 1] ?? ""))
      ),
  );
}

/** "Took long", "was late" (canonical), the shop's or one's own: "tawaltu", "tawwelt", "طولتو", "t3atltu", "takhrtu". */
const TOOK_LONG =
  /^(?:t[ae]?w+[ae]?l|tul|t[ae]?3[ae]?t+[ae]?l|t[ae]?2?[ae]?kh+[ae]?r)(?:t|tu|ti|to|tou|tiw|twa|tw|na)?$/;
/**
 * "Tawaltou bezzaf bach 3ayattou" (you took long to call), "tawwelt barcha bech tkallemni": a call after "took long"
 * in its clause is the call just made, complained of, and asks for none (round 23; "ça vous a pris dix jours pour
 * m'appeler", round 28).
 */
function dropLateCalls(tokens: string[], hits: SignalHit[]): SignalHit[] {
  return hits.filter((h) => {
    if (h.signal !== "callVerb") return true;
    for (let i = h.start - 1; i >= Math.max(0, h.start - 4); i--) {
      const t = tokens[i] ?? "";
      if (PUNCT.has(t)) return true;
      if (TOOK_LONG.test(t)) return false;
      // ("Ça vous a pris dix jours pour m'appeler", "vous avez mis une semaine à m'appeler": round 28.)
      if ((t === "pris" || t === "mis") && /^(?:a|as|avez|ont|ai|aviez)$/.test(tokens[i - 1] ?? "")) return false;
    }
    return true;
  });
}

/** Money (canonical): "flus", "drahem", "sold", "l'argent", "le liquide" (round 23). */
const MONEY = /^(?:e?l?flus|flous|e?l?drahem|drahm|e?l?dra[h7]em|sold|argent|li9uide|lflus)$/;

/** Pay (canonical): "5las", "la paye", "الشهرية", "le salaire", "el mandat", "la retraite" (round 24). */
const PAY = /^(?:e?l?khlas|e?l?khals|salaire|e?l?ch[aeh]*r[iy]+a?|paye|mandat|retraite|e?l?manda)$/;

/** The courier (canonical): "livreur", "الليفرور" ("lifrur"), "lfrur". */
const COURIER = /^(?:l?livreur|l?lifrur|l?[ie]?fr[ou]+r)$/;
/** Signals that name something of the order itself (round 23). */
const ORDER_THINGS = new Set<Signal>(["attr", "attrNoun", "changeVerb", "instead", "address"]);
