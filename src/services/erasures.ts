// Erasure requests (issue 36.4): POST /v1/erasures and the erase_customer_data tool record the request (the audit
// record) and enqueue its job in one transaction; the job (calls/compliance/erasure.ts) erases and completes it.
import { randomUUID } from "node:crypto";
import type { AppContext, Principal } from "../context.ts";
import { ApiError } from "../errors.ts";
import { JOBS } from "../jobs/catalogue.ts";
import type { ErasureCreate, ErasureOut } from "../schemas/erasures.ts";

interface ErasureRow {
  id: string;
  status: ErasureOut["status"];
  counts: ErasureOut["counts"];
  store_write_backs: ErasureOut["store_write_backs"];
  created_at: Date;
  completed_at: Date | null;
}

const COLUMNS = "id, status, counts, store_write_backs, created_at, completed_at";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toErasure(r: ErasureRow): ErasureOut {
  return {
    id: r.id,
    status: r.status,
    counts: r.counts,
    store_write_backs: r.store_write_backs,
    created_at: r.created_at.toISOString(),
    completed_at: r.completed_at?.toISOString() ?? null,
  };
}

/** Records an erasure of the number's personal data and enqueues its job; every request is a new erasure (a repeat erases nothing more). */
export async function requestErasure(ctx: AppContext, who: Principal, input: ErasureCreate): Promise<ErasureOut> {
  return ctx.db.tx(async (client) => {
    const { rows } = await client.query<ErasureRow>(
      `INSERT INTO erasures (id, account_id, key_id, phone_number) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [randomUUID(), who.accountId, who.keyId, input.phone_number],
    );
    const erasure = rows[0]!;
    await client.query(
      "INSERT INTO api_key_events (id, key_id, type, detail) VALUES ($1, $2, 'erasure_requested', $3)",
      [randomUUID(), who.keyId, JSON.stringify({ erasure_id: erasure.id })],
    );
    await ctx.queue.enqueue(client, JOBS.eraseCustomerData, { erasure_id: erasure.id });
    return toErasure(erasure);
  });
}

/** One erasure of the account; another account's, or an id that is not a UUID, is 404 erasure_not_found. */
export async function getErasure(ctx: AppContext, who: Principal, id: string): Promise<ErasureOut> {
  const notFound = () => new ApiError("erasure_not_found", `No erasure ${id.slice(0, 64)} on this account.`);
  if (!UUID.test(id)) throw notFound();
  const { rows } = await ctx.db.query<ErasureRow>(`SELECT ${COLUMNS} FROM erasures WHERE id = $1 AND account_id = $2`, [
    id,
    who.accountId,
  ]);
  if (!rows[0]) throw notFound();
  return toErasure(rows[0]);
}
