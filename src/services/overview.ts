// The console's home (issue 38.4): how today, the last 7 and the last 30 days went, calls by hour of day, and the
// latest calls a person should follow up. One function, so every figure of the page comes from one place (and the
// delivered rate of order analytics can join it); three queries on the account's calls of the last 30 days.
import type { AppContext, Principal } from "../context.ts";
import type { CallOutcome, CallStatus } from "../domain/calls.ts";
import { DEFAULT_TIME_ZONE, isTimeZone } from "./console.ts";

export const OVERVIEW_PERIODS = ["today", "days7", "days30"] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];

export interface PeriodFigures {
  /** Calls created in the period. */
  placed: number;
  /** Of those, answered by someone. */
  reached: number;
  confirmed: number;
  declined: number;
  /** Still queued, ringing or in progress. */
  waiting: number;
  billedSeconds: number;
  /** Confirmed calls per reached customer, 0 to 1; null when nobody was reached. */
  confirmationRate: number | null;
}

/** Why a call needs a person: the customer asked for a call back, for a change, or asked a question left open. */
export type FollowUpReason = "callback_requested" | "change_requested" | "question";

export interface FollowUp {
  id: string;
  createdAt: string;
  customerName: string;
  phoneNumber: string;
  shopExternalId: string;
  orderExternalId: string;
  status: CallStatus;
  outcome: CallOutcome | null;
  reason: FollowUpReason;
}

export interface Overview {
  periods: Record<OverviewPeriod, PeriodFigures>;
  /** Calls created in each local hour of the day (0 to 23) over the last 30 days. */
  byHour: number[];
  /** The ten latest calls of the last 30 days that need a person, newest first. */
  followUps: FollowUp[];
}

interface FigureRow {
  placed: number;
  reached: number;
  confirmed: number;
  declined: number;
  waiting: number;
  billed: number;
}

const figures = (r: FigureRow): PeriodFigures => ({
  placed: r.placed,
  reached: r.reached,
  confirmed: r.confirmed,
  declined: r.declined,
  waiting: r.waiting,
  billedSeconds: r.billed,
  confirmationRate: r.reached > 0 ? r.confirmed / r.reached : null,
});

// The periods start at local midnight (today, 6 and 29 days before); one pass over the 30 days' calls for the
// figures, one for the hours (the index on (account_id, created_at) bounds both).
const BOUNDS = `
  SELECT ((($1::timestamptz AT TIME ZONE $2)::date)::timestamp AT TIME ZONE $2) AS today,
         (((($1::timestamptz AT TIME ZONE $2)::date) - 6)::timestamp AT TIME ZONE $2) AS d7,
         (((($1::timestamptz AT TIME ZONE $2)::date) - 29)::timestamp AT TIME ZONE $2) AS d30`;
const period = (name: string, keep: string) => `
  COUNT(*) FILTER (WHERE ${keep})::int AS ${name}_placed,
  COUNT(*) FILTER (WHERE ${keep} AND c.answered_at IS NOT NULL)::int AS ${name}_reached,
  COUNT(*) FILTER (WHERE ${keep} AND c.outcome = 'confirmed')::int AS ${name}_confirmed,
  COUNT(*) FILTER (WHERE ${keep} AND c.outcome = 'declined')::int AS ${name}_declined,
  COUNT(*) FILTER (WHERE ${keep} AND c.status IN ('queued', 'ringing', 'in_progress'))::int AS ${name}_waiting,
  COALESCE(SUM(c.billed_seconds) FILTER (WHERE ${keep}), 0)::int AS ${name}_billed`;
const PERIODS_SQL = `WITH b AS (${BOUNDS})
SELECT ${period("today", "c.created_at >= b.today")}, ${period("days7", "c.created_at >= b.d7")}, ${period("days30", "true")}
FROM b JOIN calls c ON c.account_id = $3 AND c.created_at >= b.d30`;
const HOURS_SQL = `WITH b AS (${BOUNDS})
SELECT EXTRACT(HOUR FROM c.created_at AT TIME ZONE $2)::int AS hour, COUNT(*)::int AS n
FROM b JOIN calls c ON c.account_id = $3 AND c.created_at >= b.d30 GROUP BY 1`;

// Newest first; a call asking for a person, or one whose customer asked a question and
// never decided. The 30 days bound keeps the scan short on a large account.
const FOLLOW_UPS_SQL = `
SELECT c.id, c.created_at, c.customer_name, c.customer_phone, s.external_id AS shop_external_id, c.order_external_id,
       c.status, c.outcome,
       CASE WHEN c.outcome IN ('callback_requested', 'change_requested') THEN c.outcome ELSE 'question' END AS reason
FROM calls c JOIN shops s ON s.id = c.shop_id
WHERE c.account_id = $1 AND c.created_at >= $2::timestamptz - interval '30 days'
  AND (c.outcome IN ('callback_requested', 'change_requested')
       OR (c.outcome = 'no_decision' AND c.transcript @> '[{"speaker": "customer", "intent": "question"}]'::jsonb))
ORDER BY c.created_at DESC LIMIT 10`;

/** The overview of the account's calls, in its time zone (UTC for an unknown zone). */
export async function getOverview(ctx: AppContext, who: Principal, timeZone: string): Promise<Overview> {
  const zone = isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const now = new Date(ctx.now());
  const [periods, hours, follow] = await Promise.all([
    ctx.db.query<Record<string, number>>(PERIODS_SQL, [now, zone, who.accountId]),
    ctx.db.query<{ hour: number; n: number }>(HOURS_SQL, [now, zone, who.accountId]),
    ctx.db.query<{
      id: string;
      created_at: Date;
      customer_name: string;
      customer_phone: string;
      shop_external_id: string;
      order_external_id: string;
      status: CallStatus;
      outcome: CallOutcome | null;
      reason: FollowUpReason;
    }>(FOLLOW_UPS_SQL, [who.accountId, now]),
  ]);
  const r = periods.rows[0] ?? {};
  const row = (name: OverviewPeriod): FigureRow => ({
    placed: r[`${name}_placed`] ?? 0,
    reached: r[`${name}_reached`] ?? 0,
    confirmed: r[`${name}_confirmed`] ?? 0,
    declined: r[`${name}_declined`] ?? 0,
    waiting: r[`${name}_waiting`] ?? 0,
    billed: r[`${name}_billed`] ?? 0,
  });
  const byHour = Array.from({ length: 24 }, () => 0);
  for (const h of hours.rows) byHour[h.hour] = h.n;
  return {
    periods: { today: figures(row("today")), days7: figures(row("days7")), days30: figures(row("days30")) },
    byHour,
    followUps: follow.rows.map((r) => ({
      id: r.id,
      createdAt: r.created_at.toISOString(),
      customerName: r.customer_name,
      phoneNumber: r.customer_phone,
      shopExternalId: r.shop_external_id,
      orderExternalId: r.order_external_id,
      status: r.status,
      outcome: r.outcome,
      reason: r.reason,
    })),
  };
}
