// The console's home (issue 38.4): how today, the last 7 and the last 30 days went, calls by hour of day, and the
// latest calls a person should follow up. One function, so every figure of the page comes from one place (and the
// delivered rate of order analytics can join it); two queries on the account's calls of the last 30 days.
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

interface FigureRow { placed: number; reached: number; confirmed: number; declined: number; waiting: number; billed: number }

const figures = (r: FigureRow): PeriodFigures => ({
  placed: r.placed, reached: r.reached, confirmed: r.confirmed, declined: r.declined, waiting: r.waiting, billedSeconds: r.billed,
  confirmationRate: r.reached > 0 ? r.confirmed / r.reached : null,
});

// The periods start at local midnight (today, 6 and 29 days before); one pass over the 30 days' calls.
const PERIODS_SQL = `
WITH bounds AS (
  SELECT ((($1::timestamptz AT TIME ZONE $2)::date)::timestamp AT TIME ZONE $2) AS today,
         (((($1::timestamptz AT TIME ZONE $2)::date) - 6)::timestamp AT TIME ZONE $2) AS d7,
         (((($1::timestamptz AT TIME ZONE $2)::date) - 29)::timestamp AT TIME ZONE $2) AS d30
), c AS (
  SELECT c.created_at, c.status, c.outcome, c.answered_at IS NOT NULL AS reached, COALESCE(c.billed_seconds, 0) AS billed,
         c.created_at >= b.today AS in_today, c.created_at >= b.d7 AS in_d7,
         EXTRACT(HOUR FROM c.created_at AT TIME ZONE $2)::int AS hour
  FROM calls c, bounds b WHERE c.account_id = $3 AND c.created_at >= b.d30
)
SELECT p.name,
       COUNT(*) FILTER (WHERE p.keep)::int AS placed,
       COUNT(*) FILTER (WHERE p.keep AND c.reached)::int AS reached,
       COUNT(*) FILTER (WHERE p.keep AND c.outcome = 'confirmed')::int AS confirmed,
       COUNT(*) FILTER (WHERE p.keep AND c.outcome = 'declined')::int AS declined,
       COUNT(*) FILTER (WHERE p.keep AND c.status IN ('queued', 'ringing', 'in_progress'))::int AS waiting,
       COALESCE(SUM(c.billed) FILTER (WHERE p.keep), 0)::int AS billed,
       CASE WHEN p.name = 'days30' THEN (SELECT array_agg(n ORDER BY h) FROM (
         SELECT h, COUNT(c2.hour)::int AS n FROM generate_series(0, 23) AS h LEFT JOIN c c2 ON c2.hour = h GROUP BY h) x) END AS by_hour
FROM c CROSS JOIN LATERAL (VALUES ('today', c.in_today), ('days7', c.in_d7), ('days30', true)) AS p(name, keep)
GROUP BY p.name`;

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
  const [periods, follow] = await Promise.all([
    ctx.db.query<FigureRow & { name: OverviewPeriod; by_hour: number[] | null }>(PERIODS_SQL, [now, zone, who.accountId]),
    ctx.db.query<{ id: string; created_at: Date; customer_name: string; customer_phone: string; shop_external_id: string; order_external_id: string; status: CallStatus; outcome: CallOutcome | null; reason: FollowUpReason }>(
      FOLLOW_UPS_SQL, [who.accountId, now]),
  ]);
  const empty: FigureRow = { placed: 0, reached: 0, confirmed: 0, declined: 0, waiting: 0, billed: 0 };
  const row = (name: OverviewPeriod) => periods.rows.find((r) => r.name === name) ?? empty;
  const byHour = periods.rows.find((r) => r.name === "days30")?.by_hour ?? Array.from({ length: 24 }, () => 0);
  return {
    periods: { today: figures(row("today")), days7: figures(row("days7")), days30: figures(row("days30")) },
    byHour,
    followUps: follow.rows.map((r) => ({
      id: r.id, createdAt: r.created_at.toISOString(), customerName: r.customer_name, phoneNumber: r.customer_phone,
      shopExternalId: r.shop_external_id, orderExternalId: r.order_external_id, status: r.status, outcome: r.outcome, reason: r.reason,
    })),
  };
}
