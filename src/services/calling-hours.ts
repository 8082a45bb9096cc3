// The calling hours an account and its shops set over the per-country defaults (issue 15). PUT replaces the
// override as a whole (idempotent); the answer shows it with the hours that result for each country.
import type { AppContext, Principal } from "../context.ts";
import { COUNTRIES } from "../domain/locale.ts";
import { effectiveHours } from "../calls/policy/calling-hours.ts";
import type { CallingHoursOut, CallingHoursOverride } from "../schemas/calling-hours.ts";
import { shopNotFound } from "./shops.ts";

function shape(override: CallingHoursOverride | null, ...layers: (CallingHoursOverride | null)[]): CallingHoursOut {
  const effective = Object.fromEntries(
    COUNTRIES.map((c) => [c, effectiveHours(c, ...layers, override)]),
  ) as CallingHoursOut["effective"];
  return { override, effective };
}

/** The account's override and the hours its calls follow where its shops set nothing. */
export async function getAccountCallingHours(ctx: AppContext, who: Principal): Promise<CallingHoursOut> {
  const { rows } = await ctx.db.query<{ calling_hours: CallingHoursOverride | null }>(
    "SELECT calling_hours FROM accounts WHERE id = $1",
    [who.accountId],
  );
  return shape(rows[0]?.calling_hours ?? null);
}

/** Replaces the account's override; an empty object goes back to the defaults. */
export async function setAccountCallingHours(
  ctx: AppContext,
  who: Principal,
  input: CallingHoursOverride,
): Promise<CallingHoursOut> {
  const stored = Object.keys(input).length === 0 ? null : input;
  await ctx.db.query("UPDATE accounts SET calling_hours = $2 WHERE id = $1", [
    who.accountId,
    stored === null ? null : JSON.stringify(stored),
  ]);
  return shape(stored);
}

async function shopHours(
  ctx: AppContext,
  who: Principal,
  externalId: string,
): Promise<{ account: CallingHoursOverride | null; shop: CallingHoursOverride | null }> {
  const { rows } = await ctx.db.query<{ account: CallingHoursOverride | null; shop: CallingHoursOverride | null }>(
    `SELECT a.calling_hours AS account, s.calling_hours AS shop FROM shops s JOIN accounts a ON a.id = s.account_id
     WHERE s.account_id = $1 AND s.external_id = $2 AND s.status = 'active'`,
    [who.accountId, externalId],
  );
  if (!rows[0]) throw shopNotFound(externalId);
  return rows[0];
}

/** A shop's override and the hours its calls follow (defaults, the account's override, the shop's). */
export async function getShopCallingHours(
  ctx: AppContext,
  who: Principal,
  externalId: string,
): Promise<CallingHoursOut> {
  const { account, shop } = await shopHours(ctx, who, externalId);
  return shape(shop, account);
}

/** Replaces a shop's override; an empty object leaves the shop on the account's hours. */
export async function setShopCallingHours(
  ctx: AppContext,
  who: Principal,
  externalId: string,
  input: CallingHoursOverride,
): Promise<CallingHoursOut> {
  const { account } = await shopHours(ctx, who, externalId);
  const stored = Object.keys(input).length === 0 ? null : input;
  await ctx.db.query(
    "UPDATE shops SET calling_hours = $3 WHERE account_id = $1 AND external_id = $2 AND status = 'active'",
    [who.accountId, externalId, stored === null ? null : JSON.stringify(stored)],
  );
  return shape(stored, account);
}
