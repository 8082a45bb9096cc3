// The automatic-retry policy an account and its shops set (issue 15). PUT replaces the override as a whole.
import type { AppContext, Principal } from "../context.ts";
import { effectiveRetryPolicy } from "../calls/policy/retries.ts";
import type { RetryPolicyInput, RetryPolicySettings } from "../schemas/retry-policy.ts";
import { shopNotFound } from "./shops.ts";

const stored = (input: RetryPolicyInput) => (Object.keys(input).length === 0 ? null : input);

/** The account's override and the policy its calls follow where shops and calls set nothing. */
export async function getAccountRetryPolicy(ctx: AppContext, who: Principal): Promise<RetryPolicySettings> {
  const { rows } = await ctx.db.query<{ retry_policy: RetryPolicyInput | null }>(
    "SELECT retry_policy FROM accounts WHERE id = $1",
    [who.accountId],
  );
  const override = rows[0]?.retry_policy ?? null;
  return { override, effective: effectiveRetryPolicy(override) };
}

/** Replaces the account's override; `{}` goes back to the defaults (no automatic retries). */
export async function setAccountRetryPolicy(
  ctx: AppContext,
  who: Principal,
  input: RetryPolicyInput,
): Promise<RetryPolicySettings> {
  const override = stored(input);
  await ctx.db.query("UPDATE accounts SET retry_policy = $2 WHERE id = $1", [
    who.accountId,
    override === null ? null : JSON.stringify(override),
  ]);
  return { override, effective: effectiveRetryPolicy(override) };
}

async function policies(ctx: AppContext, who: Principal, externalId: string) {
  const { rows } = await ctx.db.query<{ account: RetryPolicyInput | null; shop: RetryPolicyInput | null }>(
    `SELECT a.retry_policy AS account, s.retry_policy AS shop FROM shops s JOIN accounts a ON a.id = s.account_id
     WHERE s.account_id = $1 AND s.external_id = $2 AND s.status = 'active'`,
    [who.accountId, externalId],
  );
  if (!rows[0]) throw shopNotFound(externalId);
  return rows[0];
}

/** A shop's override and the policy its calls follow. */
export async function getShopRetryPolicy(
  ctx: AppContext,
  who: Principal,
  externalId: string,
): Promise<RetryPolicySettings> {
  const { account, shop } = await policies(ctx, who, externalId);
  return { override: shop, effective: effectiveRetryPolicy(account, shop) };
}

/** Replaces a shop's override; `{}` leaves the shop on the account's policy. */
export async function setShopRetryPolicy(
  ctx: AppContext,
  who: Principal,
  externalId: string,
  input: RetryPolicyInput,
): Promise<RetryPolicySettings> {
  const { account } = await policies(ctx, who, externalId);
  const override = stored(input);
  await ctx.db.query(
    "UPDATE shops SET retry_policy = $3 WHERE account_id = $1 AND external_id = $2 AND status = 'active'",
    [who.accountId, externalId, override === null ? null : JSON.stringify(override)],
  );
  return { override, effective: effectiveRetryPolicy(account, override) };
}
