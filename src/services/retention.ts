// The account's retention of recordings and transcripts (issue 36.5), read and set; the hourly sweep applies it.
import type { AppContext, Principal } from "../context.ts";
import type { Retention } from "../schemas/retention.ts";

/** The account's retention. */
export async function getRetention(ctx: AppContext, who: Principal): Promise<Retention> {
  const { rows } = await ctx.db.query<Retention>("SELECT recording_days, transcript_days FROM accounts WHERE id = $1", [
    who.accountId,
  ]);
  return rows[0]!;
}

/** Sets the account's retention; what is already older is purged by the next hourly sweep. */
export async function setRetention(ctx: AppContext, who: Principal, input: Retention): Promise<Retention> {
  const { rows } = await ctx.db.query<Retention>(
    "UPDATE accounts SET recording_days = $2, transcript_days = $3 WHERE id = $1 RETURNING recording_days, transcript_days",
    [who.accountId, input.recording_days, input.transcript_days],
  );
  return rows[0]!;
}
