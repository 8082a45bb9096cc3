// The do-not-call list as the engine and the services read and write it (issue 15): one table, scoped by account.
import type { AppContext } from "../../context.ts";
import type { Queryable } from "../../db/pool.ts";
import type { DoNotCallSource } from "../../domain/do-not-call.ts";
import { emitEvent } from "../../webhooks/events.ts";

export interface DoNotCallRow {
  seq: number;
  phone_number: string;
  source: DoNotCallSource;
  reason: string | null;
  call_id: string | null;
  created_at: Date;
}

export const DO_NOT_CALL_COLUMNS = "seq, phone_number, source, reason, call_id, created_at";

/**
 * Lists the number unless it already is (the first entry stands, so a repeat changes nothing). Returns the entry
 * and whether this call created it.
 */
export async function listNumber(
  db: Queryable,
  accountId: string,
  phone: string,
  entry: { source: DoNotCallSource; reason: string | null; callId: string | null },
): Promise<{ row: DoNotCallRow; created: boolean }> {
  const { rows } = await db.query<DoNotCallRow & { created: boolean }>(
    `WITH i AS (
       INSERT INTO do_not_call (account_id, phone_number, source, reason, call_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account_id, phone_number) DO NOTHING
       RETURNING ${DO_NOT_CALL_COLUMNS})
     SELECT *, true AS created FROM i
     UNION ALL
     SELECT ${DO_NOT_CALL_COLUMNS}, false AS created FROM do_not_call WHERE account_id = $1 AND phone_number = $2 AND NOT EXISTS (SELECT 1 FROM i)`,
    [accountId, phone, entry.source, entry.reason, entry.callId],
  );
  if (!rows[0]) {
    // A concurrent insert committed after this statement's snapshot: read it now.
    const again = await db.query<DoNotCallRow>(
      `SELECT ${DO_NOT_CALL_COLUMNS} FROM do_not_call WHERE account_id = $1 AND phone_number = $2`,
      [accountId, phone],
    );
    return { row: again.rows[0]!, created: false };
  }
  const { created, ...row } = rows[0];
  return { row, created };
}

/**
 * A customer's "never call me again" at a call's end (issue 36), in its transaction: the number listed with source
 * `customer_request` and the call as evidence (an earlier entry stands), and `customer.opted_out` emitted.
 */
export async function recordOptOut(
  ctx: AppContext,
  client: Queryable,
  accountId: string,
  callId: string,
  phone: string,
  words: string | null,
): Promise<void> {
  const { row } = await listNumber(client, accountId, phone, { source: "customer_request", reason: words, callId });
  const { rows } = await client.query<{ shop_external_id: string; order_external_id: string }>(
    "SELECT s.external_id AS shop_external_id, c.order_external_id FROM calls c JOIN shops s ON s.id = c.shop_id WHERE c.id = $1",
    [callId],
  );
  await emitEvent(ctx, client, accountId, "customer.opted_out", {
    phone_number: phone,
    call_id: callId,
    shop_external_id: rows[0]?.shop_external_id ?? null,
    order_external_id: rows[0]?.order_external_id ?? null,
    words,
    do_not_call: { source: row.source, call_id: row.call_id, created_at: row.created_at.toISOString() },
  });
}
