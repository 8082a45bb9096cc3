export type Country = "MA" | "DZ" | "TN" | "FR";

/**
 * What a phrase tells the classifier. Signals are finer than intents: the rules in classifier.ts
 * combine them (a call verb with a delivery word and a day is a reschedule; a cancel verb under
 * negation is a confirmation; a yes followed by a colour is a change request).
 */
export type Signal =
  | "yes" // bare assent: wakha, iyeh, ey, wah, oui, ok
  | "accept" // strong assent: no problem, everything is right, I confirm
  | "send" // send it / bring it (imperative)
  | "take" // I'll pay / I'll take it / I'm waiting for it (negated: a refusal)
  | "identity" // it's me who ordered
  | "no" // bare no (la, non, lala, le), checked in context
  | "refuse" // I don't want it / no longer / not interested
  | "cancelVerb" // cancel (negated: a confirmation)
  | "changedMind"
  | "reason" // too expensive, no money, found cheaper, enough
  | "didntOrder"
  | "notMe" // not that person, not my name or number, wrong number
  | "changeVerb" // change / modify (negated: a confirmation)
  | "attr" // a colour, size or model value
  | "attrNoun" // colour, size, model, address as nouns
  | "qty" // a quantity (two, three)
  | "add" // add one / remove one
  | "instead" // instead of, not X but Y
  | "want" // I want / I'd rather
  | "address"
  | "day" // a date: tomorrow, Saturday, next week, after Eid, 25/12
  | "today" // today: with a yes it is urgency, not a new day
  | "slot" // a time of day: evening, after six, 18h
  | "absent" // not at home, travelling, on holiday
  | "postpone" // postpone, push back
  | "delivery" // delivery, courier, arrive
  | "callVerb" // call me, call back
  | "busy" // at work, driving, can't talk now
  | "later" // later, in a while
  | "notNow"
  | "beforeArrival" // before the courier comes, when he arrives
  | "instruction" // knock hard, leave it with the neighbour
  | "qword" // how much, when, who, what (with content)
  | "what" // bare what?, pardon? (a request to repeat when alone)
  | "repeat" // repeat please, I can't hear
  | "hedge" // inshallah (alone: not a yes)
  | "doubt" // I'll see, I don't know, maybe (beats a yes said before it)
  | "filler"; // euh, allo, hmm

export interface LexiconEntry {
  signal: Signal;
  /** Phrases in the syntax of pattern.ts. */
  phrases: string[];
  /** Strength of the signal, 0..1. */
  weight: number;
  /** Only for these countries (dialect false friends); all countries when absent. */
  countries?: Country[];
  /** Words match as spelt (French); otherwise vowels are flexible (arabizi, Arabic script). */
  exact?: boolean;
}

/** Shorthand for one lexicon entry; each string may hold several phrases separated by commas. */
export function cue(signal: Signal, weight: number, phrases: string[], countries?: Country[]): LexiconEntry {
  const all = phrases.flatMap((p) => p.split(/\s*,\s*/)).filter((p) => p.length > 0);
  return countries ? { signal, weight, phrases: all, countries } : { signal, weight, phrases: all };
}
