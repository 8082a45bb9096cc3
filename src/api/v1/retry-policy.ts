import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.ts";
import { shopCallingHoursParams } from "../../schemas/calling-hours.ts";
import { retryPolicyInputSchema, retryPolicySettingsSchema } from "../../schemas/retry-policy.ts";
import {
  getAccountRetryPolicy,
  getShopRetryPolicy,
  setAccountRetryPolicy,
  setShopRetryPolicy,
} from "../../services/retry-policy.ts";

const ABOUT =
  "When enabled, a call that ends in one of the `on` ways is retried automatically: a new call on the same order " +
  "(`previous_attempts` + 1, `retry_of` = the call it retries), created with the end of the previous one, scheduled after " +
  "`delays_minutes` and inside the calling hours, and announced by a `call.retry_scheduled` event. Each retry is billed like any call. " +
  "Cancel the pending retry to stop the chain. The policy is the defaults, then the account's, the shop's and the call's own `retry_policy`.";

/** /v1/me/retry-policy and /v1/shops/{shop_external_id}/retry-policy (issue 15). */
export function retryPolicyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/me/retry-policy",
    {
      schema: {
        operationId: "getRetryPolicy",
        tags: ["Calling policy"],
        summary: "Read the account's retry policy",
        description: ABOUT,
        response: { 200: retryPolicySettingsSchema },
      },
    },
    (req) => getAccountRetryPolicy(ctx, req.principal),
  );

  r.put(
    "/me/retry-policy",
    {
      schema: {
        operationId: "setRetryPolicy",
        tags: ["Calling policy"],
        summary: "Set the account's retry policy (replaces the override)",
        description: `${ABOUT} \`{}\` restores the defaults (no automatic retries).`,
        body: retryPolicyInputSchema,
        response: { 200: retryPolicySettingsSchema },
      },
    },
    (req) => setAccountRetryPolicy(ctx, req.principal, req.body),
  );

  r.get(
    "/shops/:shop_external_id/retry-policy",
    {
      schema: {
        operationId: "getShopRetryPolicy",
        tags: ["Calling policy"],
        summary: "Read a shop's retry policy",
        params: shopCallingHoursParams,
        response: { 200: retryPolicySettingsSchema },
      },
      config: { errors: ["shop_not_found"] },
    },
    (req) => getShopRetryPolicy(ctx, req.principal, req.params.shop_external_id),
  );

  r.put(
    "/shops/:shop_external_id/retry-policy",
    {
      schema: {
        operationId: "setShopRetryPolicy",
        tags: ["Calling policy"],
        summary: "Set a shop's retry policy (over the account's)",
        params: shopCallingHoursParams,
        body: retryPolicyInputSchema,
        response: { 200: retryPolicySettingsSchema },
      },
      config: { errors: ["shop_not_found"] },
    },
    (req) => setShopRetryPolicy(ctx, req.principal, req.params.shop_external_id, req.body),
  );
}
