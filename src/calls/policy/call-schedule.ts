// When a new call rings (issue 15): the `scheduled_at` asked for, checked against the clock, then moved to the
// next opening of the customer's calling hours (country defaults, the account's and the shop's overrides).
import type { Config } from "../../config/config.ts";
import type { ScheduleReason } from "../../domain/calls.ts";
import { closedReason, effectiveHours, nextCallingTime } from "./calling-hours.ts";
import type { CallPolicyInputs } from "./policy-store.ts";
import { ApiError } from "../../errors.ts";
import type { CallCreate } from "../../schemas/calls.ts";

/** How far in the past a `scheduled_at` may be (clock skew, a slow client): it then means "now". */
export const SCHEDULE_PAST_TOLERANCE_MS = 60_000;
/** How far ahead a call may be scheduled. */
export const SCHEDULE_HORIZON_MS = 30 * 24 * 3600 * 1000;

function invalidSchedule(msg: string): ApiError {
  return new ApiError("validation_error", `scheduled_at: ${msg}`, {
    issues: [{ path: ["scheduled_at"], msg, type: "value_error" }],
  });
}

/**
 * The instant a new call may ring, or null for "as soon as possible": `scheduled_at` if given, refused when more than
 * 60 s in the past or more than 30 days ahead of `now`.
 */
export function requestedStart(input: Pick<CallCreate, "scheduled_at">, now: number): Date | null {
  if (input.scheduled_at === undefined) return null;
  const at = Date.parse(input.scheduled_at);
  if (at < now - SCHEDULE_PAST_TOLERANCE_MS) {
    throw invalidSchedule(
      `Value error, scheduled_at is in the past (more than 60 s before ${new Date(now).toISOString()}); omit it to call now`,
    );
  }
  if (at > now + SCHEDULE_HORIZON_MS) {
    throw invalidSchedule(
      `Value error, scheduled_at is more than 30 days ahead (after ${new Date(now + SCHEDULE_HORIZON_MS).toISOString()})`,
    );
  }
  return at <= now ? null : new Date(at);
}

/**
 * When a new call rings: null for now, else the instant its place-call job waits for. A time asked for, or now, that
 * falls outside the calling hours moves to their next opening.
 */
export function plannedStart(
  config: Pick<Config, "WAKHA_CALLING_HOURS">,
  input: Pick<CallCreate, "scheduled_at" | "country">,
  policy: CallPolicyInputs,
  now: number,
): Date | null {
  return plannedSchedule(config, input, policy, now).at;
}

/** plannedStart, with why the calling hours moved it (`reason`, null when they did not: issue 32.6). */
export function plannedSchedule(
  config: Pick<Config, "WAKHA_CALLING_HOURS">,
  input: Pick<CallCreate, "scheduled_at" | "country">,
  policy: CallPolicyInputs,
  now: number,
): { at: Date | null; reason: ScheduleReason | null } {
  const requested = requestedStart(input, now);
  if (!config.WAKHA_CALLING_HOURS) return { at: requested, reason: null };
  const hours = effectiveHours(input.country, policy.accountHours, policy.shopHours);
  const from = requested ?? new Date(now);
  const ring = nextCallingTime(from, input.country, hours);
  if (!ring) {
    throw new ApiError(
      "conflict",
      `The calling hours set for ${input.country} on this account or shop leave no time to call in the next 40 days. Widen them (PUT /v1/me/calling-hours).`,
    );
  }
  return {
    at: ring.getTime() <= now ? null : ring,
    reason: ring.getTime() > from.getTime() ? closedReason(from, input.country, hours) : null,
  };
}
