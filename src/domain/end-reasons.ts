// The closed catalogue of how a call ends (issue 32.4): every `end_reason` and every `outcome`, with its cause and
// remedy. It feeds the CallOut schema's enums (so OpenAPI lists them), /docs/call-endings, docs/call-endings.md and
// explain_error. To add an end reason: add one entry to END_REASONS (the enum, the docs page and explain_error follow),
// then run test/end-reasons.test.ts, which checks docs/call-endings.md lists it.
import type { CallOutcome, CallStatus } from "./calls.ts";

export interface EndingEntry {
  /** The statuses a call ending this way has. */
  statuses: readonly CallStatus[];
  /** When it happens, in the reseller's terms. */
  cause: string;
  /** What to do about it. */
  remedy: string;
}

export const END_REASONS = {
  completed: {
    statuses: ["completed"],
    cause:
      "The conversation ran to its end: the agent said goodbye after the customer's answer (or after asking too many times without understanding one: outcome `no_decision`).",
    remedy: "Nothing to do on the call; act on its `outcome`.",
  },
  customer_hangup: {
    statuses: ["completed"],
    cause:
      "The customer hung up before the conversation ended (simulator numbers ending in 11). An answer already given stands; otherwise the outcome is `no_decision`.",
    remedy:
      "If the outcome is `no_decision`, call again later (the retry policy can do it) or reach the customer another way.",
  },
  line_dropped: {
    statuses: ["completed"],
    cause:
      "The line went quiet or closed without the dialogue reaching a decision, with no hang-up reported by the carrier.",
    remedy: "Call again later; if it happens often on one carrier, check its audio path (docs/going-live.md).",
  },
  balance_exhausted: {
    statuses: ["completed"],
    cause: "The account's balance ran out during the call: the agent closed it politely before talking on credit.",
    remedy: "Credit the account (`wakha accounts credit`), then call the customer again.",
  },
  do_not_call_requested: {
    statuses: ["completed"],
    cause:
      "The customer asked not to be called again (outcome `declined`, reason `do_not_call`); the number was put on the do-not-call list with the call's end.",
    remedy:
      "Do not call this customer again. Remove the number from the list (DELETE /v1/me/do-not-call/{phone_number}) only if the customer asks to be called.",
  },
  transferred: {
    statuses: ["completed"],
    cause:
      "The agent put the customer through to the shop's person (issue 34: the shop's handoff, `transfer.status` `bridged`); the call ended when the bridged conversation did. Outcome `no_decision`: the person records the decision on the order (PUT /v1/shops/{shop_external_id}/orders/{order_external_id}/resolution). Billed for the connected seconds, the bridged part included.",
    remedy: "Nothing to do on the call; the order's resolution (channel `agent`) says what the person settled.",
  },
  canceled: {
    statuses: ["canceled"],
    cause:
      "The call was canceled through the API, MCP or the console (an answered call was closed politely and billed).",
    remedy: "Nothing to do; create a new call (with `previous_attempts` one higher) to try again.",
  },
  no_answer: {
    statuses: ["no_answer"],
    cause: "Nobody picked up within the ring time (simulator numbers ending in 03). Not billed.",
    remedy: "Try again later, or let the retry policy do it; a WhatsApp fallback can reach the customer in writing.",
  },
  busy: {
    statuses: ["busy"],
    cause: "The line was busy or the customer rejected the call (simulator numbers ending in 04). Not billed.",
    remedy: "Try again in a few minutes, or let the retry policy do it.",
  },
  voicemail: {
    statuses: ["voicemail"],
    cause:
      "A voicemail or answering machine answered (simulator numbers ending in 05); the agent left a short message. Billed for the connected seconds.",
    remedy: "Try again later, or let the retry policy do it.",
  },
  number_unreachable: {
    statuses: ["failed"],
    cause:
      "The network answered with a recorded announcement (number not in service, switched off, out of coverage) instead of the customer.",
    remedy: "Check the number with the customer; retrying the same number rarely helps soon.",
  },
  insufficient_balance: {
    statuses: ["failed"],
    cause:
      "When the call's turn came, the account's free balance (after what its other live calls hold) was below the 10-second minimum. Nothing rang; not billed.",
    remedy: "Credit the account, then create the call again.",
  },
  carrier_unavailable: {
    statuses: ["failed"],
    cause:
      "The carrier's API could not be reached (DNS failure, refused connection, timeout) or answered 5xx or 429. Nothing rang; not billed. `outcome_details.error` says which.",
    remedy:
      "Check the node's network and the carrier's status page; `wakha doctor --online` tries the carrier. The retry policy tries again.",
  },
  carrier_refused: {
    statuses: ["failed"],
    cause:
      "The carrier refused to place the call (4xx: bad credentials, an unverified caller number, a blocked destination) or the node has no caller number for the country. `outcome_details.error` says which.",
    remedy:
      "Fix the carrier configuration `outcome_details.error` names (docs/going-live.md), then create the call again.",
  },
  carrier_failed: {
    statuses: ["failed"],
    cause:
      "The carrier accepted the call but reported it failed before an answer; `outcome_details.error` carries the SIP status when the carrier gave one.",
    remedy: "Check the number and the carrier's logs for that SIP status; try again later.",
  },
  carrier_no_response: {
    statuses: ["failed"],
    cause:
      "The carrier accepted the call but never reported its progress (no status callback within a minute after the ring time).",
    remedy: "Check that the carrier reaches this node's WAKHA_PUBLIC_URL (`wakha doctor --online`), then try again.",
  },
  speech_refused: {
    statuses: ["failed"],
    cause: "The speech service (Azure Speech) refused the node's key (401 or 403) during the call.",
    remedy:
      "Fix WAKHA_AZURE_SPEECH_KEY and WAKHA_AZURE_SPEECH_REGION (`wakha doctor --online` checks them), then call again.",
  },
  speech_unavailable: {
    statuses: ["failed"],
    cause:
      "The speech service failed during the call: recognition failed on several turns in a row, or text-to-speech was unreachable or erred (5xx, 429). Billed only for the carrier's connected seconds.",
    remedy: "Check the speech service's status and the node's network, then call again.",
  },
  carrier_auth_failed: {
    statuses: ["failed"],
    cause:
      "The carrier's media socket for the call (a text relay or an audio stream) was refused for a bad signature or password, and no genuine socket attached: a misconfigured auth token or application password, or someone forging the carrier. Logged as a security event; billed only for the carrier's connected seconds.",
    remedy:
      "Check that the carrier's credentials in the node's environment (its auth token or application password) match the carrier account (`wakha doctor --online` checks them), and look for security events in the node's log (docs/going-live.md).",
  },
  engine_error: {
    statuses: ["failed"],
    cause: "An unexpected error inside Wakha ended the call; the node's log has the details under the call id.",
    remedy: "Call again; report the call id if it repeats.",
  },
  worker_lost: {
    statuses: ["failed"],
    cause:
      "The worker node running the call stopped (crash, restart) or lost the database; the sweep ended the call, billed for the seconds last seen answered.",
    remedy: "Call again; check the worker node's health (docs/scaling.md).",
  },
  number_do_not_call: {
    statuses: ["failed"],
    cause:
      "The number was put on the do-not-call list after the call was created: the call was ended at once without dialling. Not billed.",
    remedy: "Do not call this customer. Remove the number from the list only if the customer asks to be called.",
  },
  no_calling_hours: {
    statuses: ["failed"],
    cause:
      "The calling hours (account or shop) leave no time to call in the next 40 days, so the queued call can never ring. Not billed.",
    remedy: "Fix the calling hours (PUT /v1/me/calling-hours or the shop's), then create the call again.",
  },
} as const satisfies Record<string, EndingEntry>;

export type EndReason = keyof typeof END_REASONS;
export const END_REASON_VALUES = Object.keys(END_REASONS) as [EndReason, ...EndReason[]];

export function isEndReason(value: string): value is EndReason {
  return Object.hasOwn(END_REASONS, value);
}

/** Each outcome (set when a call is `completed`) with what it means and what to do. */
export const OUTCOMES = {
  confirmed: {
    cause: "The customer confirmed the order (simulator 01, and 08 after a question).",
    remedy: "Ship the order.",
  },
  declined: {
    cause: "The customer refused the order; `outcome_details.reason` says why when they said it (simulator 02).",
    remedy: "Cancel the order; do not ship.",
  },
  rescheduled: {
    cause:
      "The customer wants the delivery on another day; `outcome_details.preferred_date` (null when no day was named) (simulator 06).",
    remedy: "Ship for that day.",
  },
  callback_requested: {
    cause: "The customer asked to be called back; `outcome_details.callback_at` says when (simulator 10).",
    remedy: "Create a call with `scheduled_at` at that time.",
  },
  change_requested: {
    cause:
      "The customer wants something changed (size, colour, quantity, address); `outcome_details.changes` (simulator 09).",
    remedy: "Apply the change, then confirm again if needed.",
  },
  wrong_number: {
    cause: "The person who answered is not the customer and knows nothing of the order (simulator 07).",
    remedy: "Check the number with the store; do not ship on this call.",
  },
  no_decision: {
    cause:
      "The call ended without an answer: the customer hung up mid-call (simulator 11, `end_reason` `customer_hangup`) or stayed unintelligible after the agent asked again (simulator 12, `end_reason` `completed`).",
    remedy: "Call again later, or reach the customer another way (a WhatsApp fallback).",
  },
} as const satisfies Record<CallOutcome, { cause: string; remedy: string }>;

/** The cause of a failed call, on the call as `outcome_details.error`: a stable code and one sentence, never a secret. */
export interface CallFailure {
  code: string;
  message: string;
}

/** The failure a failed call carries when nothing more precise was known: its end reason and the catalogue's cause. */
export function failureOf(endReason: string): CallFailure {
  return { code: endReason, message: isEndReason(endReason) ? END_REASONS[endReason].cause : "The call failed." };
}

/** A failed call's `outcome_details` as stored (JSON): its cause, the end reason's own sentence unless one is given. */
export function failureDetails(endReason: string, error: CallFailure = failureOf(endReason)): string {
  return JSON.stringify({ error });
}
