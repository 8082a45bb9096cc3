// Per-second billing of calls (CONTRACT §4, §10): one `debit` transaction per billed call, written in the
// transaction that ends the call, exactly once, and never taking the balance below zero.
import { randomUUID } from "node:crypto";
import type { Queryable } from "../db/pool.ts";

/** Billed seconds for a connected time: answered seconds rounded up (0 when nothing was connected). */
export function billableSeconds(connectedSeconds: number): number {
  return connectedSeconds > 0 ? Math.ceil(connectedSeconds - 1e-9) : 0;
}

export interface Debit {
  /** Seconds actually debited: the billable seconds, capped by the balance. */
  seconds: number;
  balanceAfter: number;
}

/**
 * Debits a call inside the caller's transaction, which must already hold the call's row lock (lock order:
 * call, then account). The account row is locked so concurrent calls of one account debit one after the
 * other; a call can only take what is left. FOR NO KEY UPDATE, like every lock on an account row in the engine: it
 * excludes the other debits, holds and claims, but not the key-share lock that inserting a call (a retry) or a
 * transaction takes on its account, so two ends of calls that each inserted a retry never wait on each other in a cycle. The unique index on transactions(call_id) for debits makes a
 * second debit for the same call a no-op that returns the first.
 */
export async function debitCall(client: Queryable, accountId: string, callId: string, billable: number): Promise<Debit> {
  const { rows: accounts } = await client.query<{ balance_seconds: number }>(
    "SELECT balance_seconds FROM accounts WHERE id = $1 FOR NO KEY UPDATE", [accountId],
  );
  const balance = accounts[0]?.balance_seconds ?? 0;
  const { rows: earlier } = await client.query<{ seconds: number; balance_after: number }>(
    "SELECT seconds, balance_after FROM transactions WHERE call_id = $1 AND type = 'debit'", [callId],
  );
  if (earlier[0]) return { seconds: -earlier[0].seconds, balanceAfter: earlier[0].balance_after };
  const seconds = Math.max(0, Math.min(billable, balance));
  if (seconds === 0) return { seconds: 0, balanceAfter: balance };
  const { rows } = await client.query<{ balance_after: number }>(
    `WITH d AS (
       INSERT INTO transactions (id, account_id, type, seconds, balance_after, call_id, description)
       VALUES ($1, $2, 'debit', $3, $4, $5, $6)
       ON CONFLICT (call_id) WHERE type = 'debit' DO NOTHING
       RETURNING balance_after)
     UPDATE accounts SET balance_seconds = balance_seconds + $3 WHERE id = $2 AND EXISTS (SELECT 1 FROM d)
     RETURNING balance_seconds AS balance_after`,
    [randomUUID(), accountId, -seconds, balance - seconds, callId, `Call ${callId}: ${seconds} s`],
  );
  if (!rows[0]) throw new Error(`call ${callId} was debited concurrently`);
  return { seconds, balanceAfter: rows[0].balance_after };
}
