// Automatic retries' vocabulary (issue 15).

/** The ends of a call a retry policy may retry. */
export const RETRY_TRIGGERS = ["no_answer", "busy", "voicemail", "failed", "callback_requested"] as const;
export type RetryTrigger = (typeof RETRY_TRIGGERS)[number];

/** The end reasons of a `failed` call that are the carrier's or the network's, worth another try. */
export const CARRIER_FAILURES = ["number_unreachable", "carrier_unavailable", "carrier_no_response"] as const;
