// The CallOut read model: the one query and mapping from a call's row to the CallOut that REST and MCP return
// (services/calls.ts) and that call.* webhook events carry (calls/call-states.ts). Below both, so the engine
// builds its events without calling a service written for REST.
import { type Queryable, queryPrepared } from "../db/pool.ts";
import type { Address } from "../schemas/address.ts";
import type { CallOutcome, CallStatus, ScheduleReason } from "../domain/calls.ts";
import type { LegalBasis } from "../domain/compliance.ts";
import type { EndReason } from "../domain/end-reasons.ts";
import type { Country, Currency, Dialect, Language } from "../domain/locale.ts";
import type { CallItem, CallOut } from "../schemas/calls.ts";

/** A call's row as CALL_COLUMNS selects it (`c` is calls, `s` its shop). */
export interface CallRow {
  seq: number;
  id: string;
  status: CallStatus;
  outcome: CallOutcome | null;
  end_reason: EndReason | null;
  shop_external_id: string;
  customer_name: string;
  customer_phone: string;
  /** Issue 35: the delivery address given at creation, or null. */
  customer_address: Address | null;
  amount: string;
  currency: Currency;
  country: Country;
  language: Language;
  dialect: Dialect;
  channel: string;
  order_external_id: string;
  previous_attempts: number;
  items: CallItem[];
  outcome_details: CallOut["outcome_details"];
  created_at: Date;
  answered_at: Date | null;
  ended_at: Date | null;
  duration_seconds: number | null;
  billed_seconds: number | null;
  recording_path: string | null;
  recording_purged_at: Date | null;
  scheduled_at: Date | null;
  retry_of: string | null;
  legal_basis: LegalBasis;
  recording_declined: boolean;
  schedule_reason: ScheduleReason | null;
  billing_adjustment: CallOut["billing_adjustment"];
  transfer: CallOut["transfer"];
  waiting_reason: CallOut["waiting_reason"];
}

export const CALL_COLUMNS = `c.seq, c.id, c.status, c.outcome, c.end_reason, s.external_id AS shop_external_id, c.customer_name,
  c.customer_phone, c.customer_address, c.amount::text AS amount, c.currency, c.country, c.language, c.dialect, c.channel, c.order_external_id,
  c.previous_attempts, c.items, c.outcome_details, c.created_at, c.answered_at, c.ended_at, c.duration_seconds,
  c.billed_seconds, c.recording_path, c.recording_purged_at, c.scheduled_at, c.retry_of,
  c.legal_basis, c.recording_declined,
  c.schedule_reason,
  c.billing_adjustment, c.transfer,
  CASE WHEN c.status = 'queued' AND c.deferred_until = 'infinity' THEN CASE WHEN c.wait_lines IS NULL THEN 'concurrency_cap'
    WHEN c.wait_lines = '{balance}'::text[] THEN 'balance_held' ELSE 'caller_line_busy' END END AS waiting_reason`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The call id shape; anything else names no call. */
export function isCallId(id: string): boolean {
  return UUID.test(id);
}

/** The CallOut of a row; `baseUrl` makes recording_url absolute. */
export function toCallOut(baseUrl: string, r: CallRow): CallOut {
  return {
    id: r.id,
    status: r.status,
    outcome: r.outcome,
    end_reason: r.end_reason,
    shop_external_id: r.shop_external_id,
    customer: {
      name: r.customer_name,
      phone_number: r.customer_phone,
      ...(r.customer_address ? { address: r.customer_address } : {}),
    },
    amount: r.amount,
    currency: r.currency,
    country: r.country,
    language: r.language,
    dialect: r.dialect,
    channel: r.channel,
    order: { external_id: r.order_external_id, previous_attempts: r.previous_attempts, items: r.items },
    outcome_details: r.outcome_details,
    created_at: r.created_at.toISOString(),
    answered_at: r.answered_at?.toISOString() ?? null,
    ended_at: r.ended_at?.toISOString() ?? null,
    duration_seconds: r.duration_seconds,
    billed_seconds: r.billed_seconds,
    recording_url: r.recording_path && !r.recording_purged_at ? `${baseUrl}/v1/calls/${r.id}/recording` : null,
    scheduled_at: r.scheduled_at?.toISOString() ?? null,
    retry_of: r.retry_of,
    legal_basis: r.legal_basis,
    recording_declined: r.recording_declined,
    schedule_reason: r.schedule_reason,
    billing_adjustment: r.billing_adjustment ?? null,
    // Calls transferred before `ended_by` existed read as not cut.
    transfer: r.transfer ? { ...r.transfer, ended_by: r.transfer.ended_by ?? null } : null,
    waiting_reason: r.waiting_reason ?? null,
  };
}

/** One call of the account as a CallOut, through the given client (a transaction's, or the pool); null if none. */
export async function readCallOut(
  db: Queryable,
  baseUrl: string,
  accountId: string,
  id: string,
): Promise<CallOut | null> {
  if (!isCallId(id)) return null;
  const { rows } = await queryPrepared<CallRow>(
    db,
    "wakha_read_call",
    `SELECT ${CALL_COLUMNS} FROM calls c JOIN shops s ON s.id = c.shop_id WHERE c.id = $1 AND c.account_id = $2`,
    [id, accountId],
  );
  return rows[0] ? toCallOut(baseUrl, rows[0]) : null;
}

/** A call's row with the account it belongs to (readCallRows). */
export type AccountCallRow = CallRow & { account_id: string };

/**
 * The calls of several ids in one statement (the batched GET /v1/calls/{id}, services/calls.ts), each with the account
 * it belongs to: the caller hands a row only to a request of that account. The statement names no account: with one,
 * PostgreSQL may pick an account's index and read every call of the account instead of one primary-key entry per id.
 * Ids must be call ids (isCallId).
 */
export async function readCallRows(db: Queryable, ids: readonly string[]): Promise<AccountCallRow[]> {
  const { rows } = await queryPrepared<AccountCallRow>(
    db,
    "wakha_read_calls",
    `SELECT c.account_id, ${CALL_COLUMNS} FROM calls c JOIN shops s ON s.id = c.shop_id WHERE c.id = ANY($1::uuid[])`,
    [[...new Set(ids.map((id) => id.toLowerCase()))]],
  );
  return rows;
}
