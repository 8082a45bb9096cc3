// What the calling policy reads about an account, a shop and a number (issue 15), in one round trip.
import { type Queryable, queryPrepared } from "../../db/pool.ts";
import type { CallingHoursOverride } from "../../schemas/calling-hours.ts";

export interface CallPolicyInputs {
  /** The number is on the account's do-not-call list. */
  listed: boolean;
  accountHours: CallingHoursOverride | null;
  shopHours: CallingHoursOverride | null;
}

/** The do-not-call entry of `phone` and the calling-hours overrides of the account and the shop. */
export async function readCallPolicy(db: Queryable, accountId: string, shopId: string, phone: string): Promise<CallPolicyInputs> {
  const { rows } = await queryPrepared<CallPolicyInputs>(db, "wakha_call_policy",
    `SELECT EXISTS (SELECT 1 FROM do_not_call WHERE account_id = $1 AND phone_number = $3) AS listed,
       (SELECT calling_hours FROM accounts WHERE id = $1) AS "accountHours",
       (SELECT calling_hours FROM shops WHERE id = $2 AND account_id = $1) AS "shopHours"`,
    [accountId, shopId, phone],
  );
  return rows[0] ?? { listed: false, accountHours: null, shopHours: null };
}
