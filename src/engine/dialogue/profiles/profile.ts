// What a dialect profile says at each step of the confirmation call, and the shared pieces the profiles
// build their text from (number words, item lists). The words themselves live in ma.ts, dz.ts, tn.ts, fr.ts.
import type { DialogueOrder } from "../types.ts";

export type QuestionTopic = "price" | "items" | "delivery";
export type Choose = <T>(choices: readonly T[]) => T;
export type OrderItem = DialogueOrder["items"][number];

/** The agent's lines for one dialect and language; `pick` chooses among equivalent phrasings. */
export interface DialogueProfile {
  /** The amount as the agent says it, with the local currency words. */
  spokenAmount(amount: string): string;
  /** Greeting naming the shop, then "am I speaking with <name>?". */
  opening(order: DialogueOrder, pick: Choose): string;
  /** Identity check again, after an unclear answer. */
  identityAgain(order: DialogueOrder): string;
  /** Who is calling and why, then the identity check again (the customer asked "who is this?"). */
  introduceAgain(order: DialogueOrder): string;
  /** The order read back: items, quantities, variants and the amount, then the confirmation question. */
  readBack(order: DialogueOrder, pick: Choose): string;
  confirmationQuestion(): string;
  /** The confirmation question again after an unclear reply (attempt 1 or 2). */
  confirmationAgain(attempt: number): string;
  /** An answer from the order, without the confirmation question. */
  answer(topic: QuestionTopic, order: DialogueOrder): string;
  /** Thanks, the delivery line and the closing line. */
  confirmed(pick: Choose): string;
  askReason(): string;
  declined(): string;
  askDate(): string;
  /** `date` is YYYY-MM-DD or null. */
  rescheduled(date: string | null): string;
  askCallbackTime(): string;
  callbackSet(known: boolean): string;
  askChange(): string;
  changeNoted(): string;
  wrongNumber(): string;
  /** Closing after two unsuccessful re-asks. */
  giveUp(): string;
  /** The short yes/no check asked instead of deciding an unsure confirm or cancel ("so I confirm the order, yes?"). */
  checkConfirm(): string;
  /** The identity check as a yes/no question, asked instead of deciding an unsure wrong number. */
  checkIdentity(order: DialogueOrder): string;
  /** The keypad offer on lines that carry digits: 1 confirms, 2 cancels. */
  offerKeypad(): string;
  /** The customer objected to the recording (issue 36): it is stopped and nothing is kept; the question follows. */
  recordingStopped(): string;
}

/** How a dialect counts: 0-19, the tens, the hundreds and the thousands. */
export interface NumberWords {
  units: readonly string[]; // 0..19
  tens: readonly string[]; // index 2..9
  hundreds: readonly string[]; // index 1..9
  thousand: string;
  twoThousand: string;
  /** 3000 to 10000: "<prefix> <thousands>". */
  thousandsPrefix: readonly string[]; // index 3..10
  thousands: string;
  million: string;
  and: string;
}

/** A whole number in words (units before tens, as the Maghreb says "nine and forty"); digits past a billion. */
export function spellNumber(n: number, w: NumberWords): string {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 1_000_000_000) return String(n);
  if (n < 20) return w.units[n] ?? String(n);
  if (n < 100) {
    const unit = n % 10;
    const ten = w.tens[Math.floor(n / 10)] ?? "";
    return unit === 0 ? ten : `${w.units[unit]}${w.and}${ten}`;
  }
  if (n < 1000) return join(w.hundreds[Math.floor(n / 100)] ?? "", n % 100, w);
  if (n < 1_000_000) {
    const k = Math.floor(n / 1000);
    const head =
      k === 1
        ? w.thousand
        : k === 2
          ? w.twoThousand
          : k <= 10
            ? `${w.thousandsPrefix[k]} ${w.thousands}`
            : `${spellNumber(k, w)} ${w.thousand}`;
    return join(head, n % 1000, w);
  }
  const m = Math.floor(n / 1_000_000);
  return join(m === 1 ? w.million : `${spellNumber(m, w)} ${w.million}`, n % 1_000_000, w);
}

function join(head: string, rest: number, w: NumberWords): string {
  return rest === 0 ? head : `${head}${w.and}${spellNumber(rest, w)}`;
}

/** "249.90" -> { whole: 249, fraction: "90" }; the fraction keeps its written digits. */
export function splitAmount(amount: string): { whole: number; fraction: string } {
  const [whole = "0", fraction = ""] = amount.replace(/^-/, "").split(".");
  return { whole: Number.parseInt(whole, 10) || 0, fraction };
}

/** Minor units from a fraction: ("9", 2) -> 90, ("5", 3) -> 500 (millimes). */
export function minorUnits(fraction: string, digits: number): number {
  return Number.parseInt(fraction.padEnd(digits, "0").slice(0, digits), 10) || 0;
}

/** 4500 -> "4 500", the French way of grouping thousands. */
export function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

/** "a, b and c" with the dialect's separators. */
export function listOf(parts: readonly string[], comma: string, and: string): string {
  if (parts.length <= 1) return parts[0] ?? "";
  return `${parts.slice(0, -1).join(comma)}${and}${parts[parts.length - 1]}`;
}

/** Item lines with a per-dialect formatter, in order. */
export function itemsText(order: DialogueOrder, line: (item: OrderItem) => string, comma: string, and: string): string {
  return listOf(order.items.map(line), comma, and);
}

/** "the X costs Y" for each priced line, then the total; used by every profile's price answer. */
export function pricedLines(order: DialogueOrder, line: (item: OrderItem, price: string) => string): string[] {
  return order.items.filter((i) => i.unit_price !== null).map((i) => line(i, i.unit_price ?? "0"));
}

/** 2026-11-28 -> 28/11, how a date is read out in every profile. */
export function dayMonth(date: string): string {
  const [, month, day] = date.split("-");
  return `${Number(day)}/${Number(month)}`;
}
