// get_calling_hours, set_calling_hours, get_retry_policy, set_retry_policy: when customers are called, and called
// again (/v1/me/calling-hours, /v1/me/retry-policy and the shops' own, issue 15).
import { z } from "zod";
import { callingHoursOverrideSchema, callingHoursSchema } from "../../schemas/calling-hours.ts";
import { retryPolicyInputSchema, retryPolicySettingsSchema } from "../../schemas/retry-policy.ts";
import {
  getAccountCallingHours,
  getShopCallingHours,
  setAccountCallingHours,
  setShopCallingHours,
} from "../../services/calling-hours.ts";
import {
  getAccountRetryPolicy,
  getShopRetryPolicy,
  setAccountRetryPolicy,
  setShopRetryPolicy,
} from "../../services/retry-policy.ts";
import { defineTool, rootObject } from "./tool.ts";

const shopArg = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe("A shop's external id: its own hours (over the account's); omit for the account's.");

export const getCallingHoursTool = defineTool({
  name: "get_calling_hours",
  title: "Read the calling hours",
  description:
    "Reads when customers are called, per country, in their local time: the override the account (or, with `shop_external_id`, the shop) sets and the `effective` hours that result. Defaults: MA and TN 09:00-21:00 (Sundays 10:00-20:00), DZ 09:00-21:00 (Fri and Sat from 10:00), a Friday prayer pause 12:00-14:30 in the Maghreb, Ramadan hours (10:30-16:00, then from an hour after iftar to 23:00), no calls on public holidays; FR follows the consumer-call law: weekdays 10:00-13:00 and 14:00-20:00 only. A call created outside them waits (`queued`, `scheduled_at` = the next opening).",
  input: z.strictObject({ shop_external_id: shopArg }),
  output: rootObject(callingHoursSchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/me/calling-hours" },
  run: ({ shop_external_id }, { ctx, who }) =>
    shop_external_id ? getShopCallingHours(ctx, who, shop_external_id) : getAccountCallingHours(ctx, who),
});

export const setCallingHoursTool = defineTool({
  name: "set_calling_hours",
  title: "Set the calling hours",
  description:
    'Replaces the calling-hours override of the account (or, with `shop_external_id`, of one shop, applied over the account\'s). `hours` maps a country (MA, DZ, TN, FR) to the fields that replace its defaults: `days` ({mon: [{from: "09:00", to: "13:00"}], ...}; `[]` for no calls that day), `friday_prayer` (a window, or null), `ramadan` ({day: [...], evening_after_iftar_minutes, evening_until}, or null), `public_holidays` (true: none on holidays), `enabled`. `{}` restores the defaults. Returns the override and the effective hours. Mind the law: French consumers may only be called on weekdays 10:00-13:00 and 14:00-20:00.',
  input: z.strictObject({ shop_external_id: shopArg, hours: callingHoursOverrideSchema }),
  output: rootObject(callingHoursSchema),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "PUT", path: "/v1/me/calling-hours" },
  run: ({ shop_external_id, hours }, { ctx, who }) =>
    shop_external_id ? setShopCallingHours(ctx, who, shop_external_id, hours) : setAccountCallingHours(ctx, who, hours),
});

export const CALLING_POLICY_TOOLS = [getCallingHoursTool, setCallingHoursTool];

export const getRetryPolicyTool = defineTool({
  name: "get_retry_policy",
  title: "Read the automatic-retry policy",
  description:
    "Reads the automatic-retry policy of the account (or, with `shop_external_id`, of one shop, over the account's): the override set and the `effective` policy. When `enabled`, a call ending in one of the `on` ways (no_answer, busy, voicemail, failed for a carrier cause, callback_requested) is retried as a new call on the same order, `max_attempts` calls per order at most, after `delays_minutes`, inside the calling hours; each retry has `retry_of` and is announced by a `call.retry_scheduled` event. Off by default.",
  input: z.strictObject({ shop_external_id: shopArg }),
  output: rootObject(retryPolicySettingsSchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/me/retry-policy" },
  run: ({ shop_external_id }, { ctx, who }) =>
    shop_external_id ? getShopRetryPolicy(ctx, who, shop_external_id) : getAccountRetryPolicy(ctx, who),
});

export const setRetryPolicyTool = defineTool({
  name: "set_retry_policy",
  title: "Set the automatic-retry policy",
  description:
    "Replaces the automatic-retry policy of the account (or, with `shop_external_id`, of one shop): `enabled`, `on` (which ends retry), `max_attempts` (calls per order, the first included), `delays_minutes` (before retry 1, 2, ...; the last repeats). Fields left out keep the value below (defaults, then the account). `{}` restores the defaults (off). Retries cost like any call: confirm with the user before enabling. create_call also takes a per-call `retry_policy`; cancel_call on a pending retry stops the chain; list_calls with `order_external_id` shows an order's attempts.",
  input: z.strictObject({ shop_external_id: shopArg, policy: retryPolicyInputSchema }),
  output: rootObject(retryPolicySettingsSchema),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "PUT", path: "/v1/me/retry-policy" },
  run: ({ shop_external_id, policy }, { ctx, who }) =>
    shop_external_id ? setShopRetryPolicy(ctx, who, shop_external_id, policy) : setAccountRetryPolicy(ctx, who, policy),
});

export const RETRY_POLICY_TOOLS = [getRetryPolicyTool, setRetryPolicyTool];
