// The schemas of automatic retries (issue 15): which ends of a call are tried again, how often and after how long.
import { z } from "zod";
import { RETRY_TRIGGERS } from "../domain/retries.ts";

export const retryPolicyInputSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .optional()
      .describe("Whether calls are retried automatically (default false: each retry costs like any call)."),
    on: z
      .array(z.enum(RETRY_TRIGGERS))
      .max(RETRY_TRIGGERS.length)
      .optional()
      .describe(
        "Which ends are retried: `no_answer`, `busy`, `voicemail`, `failed` (carrier causes only: unreachable number, carrier down), `callback_requested` (at the customer's `callback_at` when given). Default all but `callback_requested`.",
      ),
    max_attempts: z.int().min(1).max(10).optional().describe("Calls per order, the first included (default 3)."),
    delays_minutes: z
      .array(
        z
          .int()
          .min(1)
          .max(30 * 24 * 60),
      )
      .min(1)
      .max(10)
      .optional()
      .describe(
        "Minutes before retry 1, 2, ...; the last repeats (default [30, 180, 1440]). Always moved into the calling hours.",
      ),
  })
  .meta({
    id: "RetryPolicyOverride",
    description: "Fields left out keep the value below: defaults, then the account, the shop, the call.",
  });

export const retryPolicySchema = z
  .object({
    enabled: z.boolean(),
    on: z.array(z.enum(RETRY_TRIGGERS)),
    max_attempts: z.int(),
    delays_minutes: z.array(z.int()),
  })
  .meta({ id: "RetryPolicy" });

export const retryPolicySettingsSchema = z
  .object({
    override: retryPolicyInputSchema.nullable().describe("What this account (or shop) sets; null for nothing."),
    effective: retryPolicySchema.describe(
      "The policy its calls follow (a call's own `retry_policy` may still override it).",
    ),
  })
  .meta({ id: "RetryPolicySettings" });

export type RetryPolicyInput = z.output<typeof retryPolicyInputSchema>;
export type RetryPolicy = z.output<typeof retryPolicySchema>;
export type RetryPolicySettings = z.output<typeof retryPolicySettingsSchema>;
