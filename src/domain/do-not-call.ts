// The do-not-call list's vocabulary (issue 15).

/**
 * Who put a number on the list: the reseller (`api`, REST or MCP) or the customer during a call (`customer_request`,
 * issue 36; `call` before it, renamed by migration 060).
 */
export const DO_NOT_CALL_SOURCES = ["api", "customer_request"] as const;
export type DoNotCallSource = (typeof DO_NOT_CALL_SOURCES)[number];

/** The end_reason of a call the customer ended by asking not to be called again; the call's end lists the number. */
export const DO_NOT_CALL_END_REASON = "do_not_call_requested";

/** The end_reason of a queued call not dialled because its number was listed after the call was created. */
export const DO_NOT_CALL_SKIPPED = "number_do_not_call";
