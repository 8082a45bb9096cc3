// A call's life and its result, as every layer names them.

export const CALL_STATUSES = [
  "queued",
  "ringing",
  "in_progress",
  "completed",
  "no_answer",
  "busy",
  "voicemail",
  "failed",
  "canceled",
] as const;
/** Statuses a call can still be cancelled from (CONTRACT §4). */
export const ACTIVE_STATUSES = ["queued", "ringing", "in_progress"] as const;
export const CALL_OUTCOMES = [
  "confirmed",
  "declined",
  "rescheduled",
  "callback_requested",
  "change_requested",
  "wrong_number",
  "no_decision",
] as const;

export type CallStatus = (typeof CALL_STATUSES)[number];
export type ActiveCallStatus = (typeof ACTIVE_STATUSES)[number];
/** The statuses a call ends in; none is ever left. */
export type TerminalCallStatus = Exclude<CallStatus, ActiveCallStatus>;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** The channel a call goes out on when it names none. */
export const DEFAULT_CHANNEL = "gsm";

/**
 * Why a queued call's `scheduled_at` is later than asked (issue 32.6): the calling hours were closed then (outside the
 * day's hours, the Friday prayer, a weekend day, a public holiday). A call over a cap is parked without a new time.
 */
export const SCHEDULE_REASONS = ["outside_hours", "friday_prayer", "weekend", "holiday"] as const;
export type ScheduleReason = (typeof SCHEDULE_REASONS)[number];
