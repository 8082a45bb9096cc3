// The shape of a simulated customer's phrase bank: what a customer of one dialect says in each situation.
// Banks mix Arabic script, Latin-script Arabic with digits (3, 7, 9, 5) and French, as customers do.

export interface PhraseBank {
  /** "Yes, it's me" to the identity check. */
  identityYes: readonly string[];
  /** "Who is this?" before saying who they are. */
  whoIsCalling: readonly string[];
  /** Not that person, not their number. */
  wrongPerson: readonly string[];
  /** Yes to the order, negation traps ("no no, no problem") and delivery instructions included. */
  confirm: readonly string[];
  /** "Inshallah", "we'll see": not a yes. */
  hedge: readonly string[];
  decline: readonly string[];
  /** The answer to "why?". */
  declineReason: readonly string[];
  /** Wants the order but not now, without naming a day. */
  reschedule: readonly string[];
  /** The answer to "when?": a day. */
  rescheduleDay: readonly string[];
  /** A question about the order: price, items, delivery. */
  question: readonly string[];
  /** Wants something changed, sometimes saying what. */
  change: readonly string[];
  /** The answer to "what do you want to change?". */
  changeDetails: readonly string[];
  /** Busy now, call me back. */
  callback: readonly string[];
  /** The answer to "when shall we call you back?": a time, sometimes a day. */
  callbackTime: readonly string[];
  /** Fillers, requests to repeat, half words. */
  mumble: readonly string[];
  /** A plain yes to a yes/no check ("so I confirm, yes?"). */
  shortYes: readonly string[];
  /** A plain no to a yes/no check. */
  shortNo: readonly string[];
}
