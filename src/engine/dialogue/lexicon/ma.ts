import { cue, type LexiconEntry } from "./types.ts";

/** Moroccan Darija words not shared with the other dialects (see shared.ts). */
export const MOROCCAN: LexiconEntry[] = [
  cue("yes", 0.6, ["zwin|zwina", "=hani|=hania"]),
  cue("accept", 0.85, ["mwafe9|mwaf9|kanwafe9|nwafe9, ana mwafe9", "ma kayn* ma ytzad, ma 3andi ma nzid"]),
  cue("refuse", 0.8, [
    "ma 3andi* ma ndir* biha|bih",
    "ma ghadi* nakhod*|nchri*|nkhales*",
    "ma bghit* nakhod*",
    "ma kayn* lach|3lach",
    // "ghadi nfoutha had lmerra" (I'll pass on it this time): "pass on it" with its object (round 13; "nfout 3lik" is
    // "I'll pass by you").
    "=nfoutha|=nfotha|=nfawetha|=nfawtha|=nfoutouha|=nfawtouha",
  ]),
  cue("busy", 0.8, ["ma ymken* nhder*|nhdar*|nahder*", "ana mchghoul|mchghoula daba"]),
  // "دوزوه", "dowzouha" (pass it on: send it; round 26). With its object only: "ndowz 3lik" is "I'll pass by you".
  cue("send", 0.8, [
    "duzuh|duzuha|duzuhum|duzih|duziha|duzha|dawzuh|dawzuha|dawzuhum|dowzuh|dowzuha|dwzuh|dwzuha|dwzoh|dwzoha|dozoha|dozoh",
  ]),
  cue("later", 0.55, ["3tini chi|wahed ~sa3a|d9i9a|chwiya"]),
  // "dreb liya" (ring me): the Moroccan call verb, missing until issue 33's development set.
  cue("callVerb", 0.85, ["dreb|drb|drab|dareb liya|lia|lya|3liya|3lia"]),
  // Spanish as the North speaks it beside Darija (Tangier, Tétouan, Nador, Al Hoceima): "vale, vale, seguramente sí,
  // pero ahora estoy conduciendo…, llámame en una hora y te lo confirmo" was acted on as a confirmation, its call and
  // its "later" unread (blind59, round 31). The words, not the sentence: the yes-words, the call verb, "later", busy.
  cue("yes", 0.7, ["=vale", "=claro"]),
  cue("callVerb", 0.85, ["=llamame|=llameme|=llamadme|=llamar|=llamas"]),
  cue("later", 0.55, ["=luego", "=mas =tarde", "=despues", "=en =una =hora"]),
  cue("busy", 0.8, ["=conduciendo|=trabajando|=ocupado|=ocupada"]),
  cue("day", 0.85, ["~simana|~usbu3|~jem3a l9adem|l9adma|l9adma|jaya", "had ~simana|~jem3a"]),
  cue("notMe", 0.9, ["ana machi mol|mul|sahb ~comand*|~telefon|~numero"]),
  cue("qword", 0.75, ["bach|b ach men|ach", "ina|ach hiya|ach huwa"]),
];
