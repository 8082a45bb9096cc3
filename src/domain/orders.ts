// An order's one resolution (issue 16): what the customer answered, by voice or on WhatsApp, and the rule by which a
// later answer replaces an earlier one. Pure: no I/O. src/calls/orders/settle.ts applies it under the order's row lock.
import type { CallOutcome, CallStatus } from "./calls.ts";

export const ORDER_RESOLUTIONS = [
  "confirmed",
  "declined",
  "rescheduled",
  "callback_requested",
  "change_requested",
  "wrong_number",
  "unresolved",
] as const;
export type OrderResolution = (typeof ORDER_RESOLUTIONS)[number];

/** The way an answer reached Wakha: a call (the engine), a WhatsApp reply, or a person of the shop (issue 34: after a transfer). */
export const RESOLUTION_CHANNELS = ["voice", "whatsapp", "agent"] as const;
export type ResolutionChannel = (typeof RESOLUTION_CHANNELS)[number];

/**
 * An order's status, derived from its resolution (never stored apart from it):
 * - `resolved`: the customer gave a decisive answer (see DECISIVE_RESOLUTIONS); the order needs no more contact.
 * - `open`: no decisive answer yet: `unresolved` (nobody reached, or no decision) or `callback_requested` (the
 *   customer asked to be called again). An open order may still be settled by a retry or a WhatsApp reply.
 */
export const ORDER_STATUSES = ["open", "resolved"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The answers that settle an order: the customer said what is to happen to it. */
export const DECISIVE_RESOLUTIONS = [
  "confirmed",
  "declined",
  "rescheduled",
  "change_requested",
  "wrong_number",
] as const satisfies readonly OrderResolution[];

/** The details of an answer: the same typed details as a call's `outcome_details` (reason, preferred_date, ...). */
export type ResolutionDetails = Record<string, unknown>;

/** The resolution an order has, or an answer that may replace it. */
export interface ResolutionState {
  resolution: OrderResolution;
  /** When the answer was given; null only for an order nothing has settled yet (`unresolved`). */
  at: Date | null;
  details: ResolutionDetails | null;
}

/** The resolutions a person of the shop may give an order (issue 34): any answer but `unresolved`. */
export const AGENT_RESOLUTIONS = [
  "confirmed",
  "declined",
  "rescheduled",
  "callback_requested",
  "change_requested",
  "wrong_number",
] as const satisfies readonly OrderResolution[];

/** How much an answer says: 0 nothing, 1 "call me again", 2 a decision. */
export function resolutionRank(resolution: OrderResolution): 0 | 1 | 2 {
  if (resolution === "unresolved") return 0;
  if (resolution === "callback_requested") return 1;
  return 2;
}

export function orderStatusOf(resolution: OrderResolution): OrderStatus {
  return resolutionRank(resolution) === 2 ? "resolved" : "open";
}

/** The resolutions an order status covers (the `status` filter of GET /v1/orders). */
export function resolutionsOfStatus(status: OrderStatus): OrderResolution[] {
  return ORDER_RESOLUTIONS.filter((r) => orderStatusOf(r) === status);
}

/**
 * Whether `next` replaces the order's `current` resolution. The rule (docs and README "Orders" say the same):
 *
 * 1. `unresolved` never replaces anything: an unreached call, a call without a decision or an unclear reply
 *    leaves the order as it was. Every order starts `unresolved`.
 * 2. A more telling answer replaces a less telling one whatever their times: a decisive answer (confirmed, declined,
 *    rescheduled, change_requested, wrong_number) beats `callback_requested`, which beats `unresolved`. A
 *    `callback_requested` never replaces a decisive answer (the decision stands; ask on the order's channels).
 * 3. Between two answers of the same rank, the one given later replaces the earlier one (a customer may change
 *    their mind: confirmed by voice, then "cancel" on WhatsApp is declined), and only if it says something else:
 *    another resolution, or the same one with other details (another date, other changes). The customer's words
 *    (`transcript_excerpt`) are not compared. An answer given at the same instant as, or before, the current one
 *    does not replace it, so a replayed or late-arriving answer changes nothing.
 *
 * The order's result therefore does not depend on the order in which answers are applied (for answers at
 * distinct times): it is the latest answer of the highest rank given.
 */
export function supersedes(current: ResolutionState, next: ResolutionState): boolean {
  const rankNext = resolutionRank(next.resolution);
  if (rankNext === 0) return false;
  const rankCurrent = resolutionRank(current.resolution);
  if (rankNext !== rankCurrent) return rankNext > rankCurrent;
  if (next.at === null) return false;
  if (current.at !== null && next.at.getTime() <= current.at.getTime()) return false;
  return next.resolution !== current.resolution || !sameDetails(current.details, next.details);
}

/** Details equal as JSON values, keys in any order, the customer's words aside. */
export function sameDetails(a: ResolutionDetails | null, b: ResolutionDetails | null): boolean {
  const strip = (d: ResolutionDetails | null) => {
    if (!d) return {};
    const { transcript_excerpt: _words, ...rest } = d;
    return rest;
  };
  return canonical(strip(a)) === canonical(strip(b));
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The resolution a call's end gives its order: a completed call's outcome, except `no_decision`; `unresolved` for a
 * call that reached nobody or no decision (no_answer, busy, voicemail, failed, canceled, completed without a
 * decision) and for a call that has not ended.
 */
export function resolutionOfCall(status: CallStatus, outcome: CallOutcome | null): OrderResolution {
  if (status !== "completed" || outcome === null || outcome === "no_decision") return "unresolved";
  return outcome;
}
