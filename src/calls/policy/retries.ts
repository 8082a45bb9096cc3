// Automatic retries (issue 15): when a call ends in a way the retry policy retries, a new call on the same order
// (previous_attempts + 1, retry_of = the ended call) is created in the transaction that ends it, scheduled after
// the policy's delay and inside the calling hours, with its place-call job and a call.retry_scheduled event. The
// unique index on retry_of, and the order's last attempt, make a second retry impossible under any race or restart.
import { randomUUID } from "node:crypto";
import type { AppContext } from "../../context.ts";
import type { Queryable } from "../../db/pool.ts";
import type { CallOutcome, CallStatus } from "../../domain/calls.ts";
import type { Country } from "../../domain/locale.ts";
import { CARRIER_FAILURES, type RetryTrigger } from "../../domain/retries.ts";
import { JOBS } from "../../jobs/catalogue.ts";
import type { CallingHoursOverride } from "../../schemas/calling-hours.ts";
import type { RetryPolicy, RetryPolicyInput } from "../../schemas/retry-policy.ts";
import { effectiveHours, nextCallingTime } from "./calling-hours.ts";

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  enabled: false,
  on: ["no_answer", "busy", "voicemail", "failed"],
  max_attempts: 3,
  delays_minutes: [30, 180, 1440],
};

/** The policy a call follows: the defaults, then the account's, the shop's and the call's own fields. */
export function effectiveRetryPolicy(...layers: (RetryPolicyInput | null | undefined)[]): RetryPolicy {
  return layers.reduce<RetryPolicy>(
    (p, o) => ({
      enabled: o?.enabled ?? p.enabled,
      on: o?.on ?? p.on,
      max_attempts: o?.max_attempts ?? p.max_attempts,
      delays_minutes: o?.delays_minutes ?? p.delays_minutes,
    }),
    DEFAULT_RETRY_POLICY,
  );
}

/** What ended the call, in the policy's terms; null for an end that is never retried (confirmed, canceled, ...). */
export function retryTrigger(
  status: CallStatus,
  outcome: CallOutcome | null,
  endReason: string | null,
): RetryTrigger | null {
  switch (status) {
    case "no_answer":
    case "busy":
    case "voicemail":
      return status;
    case "failed":
      return (CARRIER_FAILURES as readonly string[]).includes(endReason ?? "") ? "failed" : null;
    case "completed":
      return outcome === "callback_requested" ? "callback_requested" : null;
    default:
      return null;
  }
}

/**
 * When the retry numbered `attempt` (1 for the first retry) of a call that ended at `endedAt` may ring: after the
 * policy's delay (or at the customer's callback time), moved into the calling hours; null when the hours leave none.
 */
export function retryTime(
  policy: RetryPolicy,
  attempt: number,
  endedAt: Date,
  callbackAt: string | null,
  country: Country,
  hours: ReturnType<typeof effectiveHours> | null,
): Date | null {
  const delay = policy.delays_minutes[Math.min(attempt - 1, policy.delays_minutes.length - 1)] ?? 30;
  const asked = callbackAt ? Date.parse(callbackAt) : Number.NaN;
  const due = new Date(Number.isNaN(asked) || asked < endedAt.getTime() ? endedAt.getTime() + delay * 60_000 : asked);
  return hours ? nextCallingTime(due, country, hours) : due;
}

interface EndedCall {
  account_id: string;
  order_id: string;
  country: Country;
  status: CallStatus;
  outcome: CallOutcome | null;
  end_reason: string | null;
  previous_attempts: number;
  last_attempt: number;
  callback_at: string | null;
  call_policy: RetryPolicyInput | null;
  shop_policy: RetryPolicyInput | null;
  account_policy: RetryPolicyInput | null;
  shop_hours: CallingHoursOverride | null;
  account_hours: CallingHoursOverride | null;
  listed: boolean;
}

/**
 * Schedules the retry of a call that has just ended, in the transaction that ended it (the caller holds its row
 * lock). Returns the new call's id, or null when the policy does not retry it.
 */
export async function scheduleRetry(
  ctx: AppContext,
  client: Queryable,
  callId: string,
  endedAt: Date,
): Promise<string | null> {
  const { rows } = await client.query<EndedCall>(
    `SELECT c.account_id, c.order_id, c.country, c.status, c.outcome, c.end_reason, c.previous_attempts, o.last_attempt,
       c.outcome_details->>'callback_at' AS callback_at, c.retry_policy AS call_policy, s.retry_policy AS shop_policy,
       a.retry_policy AS account_policy, s.calling_hours AS shop_hours, a.calling_hours AS account_hours,
       EXISTS (SELECT 1 FROM do_not_call d WHERE d.account_id = c.account_id AND d.phone_number = c.customer_phone) AS listed
     FROM calls c JOIN orders o ON o.id = c.order_id JOIN shops s ON s.id = c.shop_id JOIN accounts a ON a.id = c.account_id
     WHERE c.id = $1`,
    [callId],
  );
  const call = rows[0];
  if (!call || call.listed) return null;
  const trigger = retryTrigger(call.status, call.outcome, call.end_reason);
  const policy = effectiveRetryPolicy(call.account_policy, call.shop_policy, call.call_policy);
  if (!trigger || !policy.enabled || !policy.on.includes(trigger)) return null;
  const attempt = call.previous_attempts + 1;
  // The chain's length, and a later attempt already made on the order (a manual retry) ends it.
  if (attempt >= policy.max_attempts || call.last_attempt > call.previous_attempts) return null;
  const hours = ctx.config.WAKHA_CALLING_HOURS
    ? effectiveHours(call.country, call.account_hours, call.shop_hours)
    : null;
  const at = retryTime(
    policy,
    attempt,
    endedAt,
    trigger === "callback_requested" ? call.callback_at : null,
    call.country,
    hours,
  );
  if (!at) return null;

  const id = randomUUID();
  const { rowCount } = await client.query(
    `INSERT INTO calls (id, account_id, shop_id, order_id, order_external_id, previous_attempts, customer_name, customer_phone,
       amount, currency, country, language, dialect, channel, items, scheduled_at, retry_of, retry_policy)
     SELECT $2, account_id, shop_id, order_id, order_external_id, previous_attempts + 1, customer_name, customer_phone,
       amount, currency, country, language, dialect, channel, items, $3, id, retry_policy
     FROM calls WHERE id = $1
     ON CONFLICT (retry_of) WHERE retry_of IS NOT NULL DO NOTHING`,
    [callId, id, at],
  );
  if (!rowCount) return null;
  await client.query("UPDATE orders SET last_attempt = GREATEST(last_attempt, $2), updated_at = now() WHERE id = $1", [
    call.order_id,
    attempt,
  ]);
  await ctx.queue.enqueue(client, JOBS.placeCall, { call_id: id }, { id, startAfter: at });
  return id;
}
