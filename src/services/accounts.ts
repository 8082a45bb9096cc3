import { randomUUID } from "node:crypto";
import type { AppContext, Principal } from "../context.ts";
import type { Database } from "../db/pool.ts";
import { REQUIRED_SECONDS } from "../domain/money.ts";
import { ApiError } from "../errors.ts";
import type { Page, PageInput } from "../pagination.ts";
import type { AccountOut, BalanceOut, TransactionOut, UsageOut } from "../schemas/account.ts";
import { issueApiKey } from "./api-keys.ts";

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Creates an account with its first API key (and an opening credit), all in one transaction. */
export async function createAccount(db: Database, input: { name: string; balanceSeconds: number }) {
  if (!input.name.trim()) throw new Error("the account name must not be empty");
  if (!Number.isSafeInteger(input.balanceSeconds) || input.balanceSeconds < 0)
    throw new Error("--balance-seconds must be a whole number of seconds, 0 or more");
  return db.tx(async (client) => {
    const accountId = randomUUID();
    await client.query("INSERT INTO accounts (id, name) VALUES ($1, $2)", [accountId, input.name]);
    if (input.balanceSeconds > 0) {
      await client.query("UPDATE accounts SET balance_seconds = $2 WHERE id = $1", [accountId, input.balanceSeconds]);
      await client.query(
        "INSERT INTO transactions (id, account_id, type, seconds, balance_after, description) VALUES ($1, $2, 'credit', $3, $3, 'Opening balance')",
        [randomUUID(), accountId, input.balanceSeconds],
      );
    }
    const key = await issueApiKey(client, accountId, "default", null);
    return { account_id: accountId, key_id: key.id, api_key: key.api_key };
  });
}

/** Adds seconds to an account's balance and records the `credit` transaction. */
/** Sets whether the account's calls may go to any valid number, not only mobile and fixed-line numbers of the call's country (issue 31.5). */
export async function setAllowAnyNumber(
  db: Database,
  accountId: string,
  allow: boolean,
): Promise<{ account_id: string; allow_any_number: boolean }> {
  const { rows } = await db
    .query<{ allow_any_number: boolean }>(
      "UPDATE accounts SET allow_any_number = $2 WHERE id = $1 RETURNING allow_any_number",
      [accountId, allow],
    )
    .catch((err: { code?: string }) => {
      if (err.code === "22P02") return { rows: [] }; // not a uuid: same answer as an unknown account
      throw err;
    });
  if (!rows[0]) throw new Error(`no account ${accountId}`);
  return { account_id: accountId, allow_any_number: rows[0].allow_any_number };
}

export async function creditAccount(db: Database, accountId: string, seconds: number, description = "Credit") {
  if (!Number.isSafeInteger(seconds) || seconds <= 0)
    throw new Error("--seconds must be a whole number of seconds above 0");
  return db.tx(async (client) => {
    const { rows } = await client
      .query<{ balance_seconds: number }>(
        "UPDATE accounts SET balance_seconds = balance_seconds + $2 WHERE id = $1 RETURNING balance_seconds",
        [accountId, seconds],
      )
      .catch((err: { code?: string }) => {
        if (err.code === "22P02") return { rows: [] }; // not a uuid: same answer as an unknown account
        throw err;
      });
    if (!rows[0]) throw new Error(`no account ${accountId}`);
    const id = randomUUID();
    await client.query(
      "INSERT INTO transactions (id, account_id, type, seconds, balance_after, description) VALUES ($1, $2, 'credit', $3, $4, $5)",
      [id, accountId, seconds, rows[0].balance_seconds, description],
    );
    return { account_id: accountId, transaction_id: id, balance_seconds: rows[0].balance_seconds };
  });
}

/** The caller's account. */
export async function getAccount(ctx: AppContext, who: Principal): Promise<AccountOut> {
  const { rows } = await ctx.db.query<{ id: string; name: string; balance_seconds: number; created_at: Date }>(
    "SELECT id, name, balance_seconds, created_at FROM accounts WHERE id = $1",
    [who.accountId],
  );
  const row = rows[0];
  if (!row) throw new ApiError("invalid_api_key");
  return { id: row.id, name: row.name, balance_seconds: row.balance_seconds, created_at: row.created_at.toISOString() };
}

/** The balance and whether it is enough to start a call. */
export async function getBalance(ctx: AppContext, who: Principal): Promise<BalanceOut> {
  const { balance_seconds } = await getAccount(ctx, who);
  return { balance_seconds, required_seconds: REQUIRED_SECONDS, can_start_call: balance_seconds >= REQUIRED_SECONDS };
}

/** Seconds billed and credited in one UTC calendar month (default: the current one). */
export async function getUsage(ctx: AppContext, who: Principal, period: string | undefined): Promise<UsageOut> {
  const now = new Date(ctx.now());
  const chosen = period ?? `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
  // Year 0000 does not exist in PostgreSQL, and 9999-12 would end in year 10000, which RFC 3339 cannot write.
  if (!PERIOD.test(chosen) || chosen < "0001-01" || chosen > "9999-11") {
    throw new ApiError(
      "invalid_period_format",
      `period "${chosen.slice(0, 32)}" must be YYYY-MM with a month from 01 to 12, from 0001-01 to 9999-11, for example 2026-11.`,
    );
  }
  const [year, month] = chosen.split("-").map(Number) as [number, number];
  // setUTCFullYear, unlike Date.UTC, does not map the years 0 to 99 to 1900 to 1999.
  const start = new Date(0);
  start.setUTCFullYear(year, month - 1, 1);
  const end = new Date(0);
  end.setUTCFullYear(year, month, 1);
  const { rows } = await ctx.db.query<{ billed: number; calls: number; credited: number }>(
    `SELECT COALESCE(-SUM(seconds) FILTER (WHERE type = 'debit'), 0)::bigint AS billed,
            COUNT(*) FILTER (WHERE type = 'debit')::bigint AS calls,
            COALESCE(SUM(seconds) FILTER (WHERE type = 'credit'), 0)::bigint AS credited
     FROM transactions WHERE account_id = $1 AND created_at >= $2 AND created_at < $3`,
    [who.accountId, start, end],
  );
  const r = rows[0]!;
  return {
    period: chosen,
    period_start: start.toISOString(),
    period_end: end.toISOString(),
    billed_seconds: r.billed,
    billed_calls: r.calls,
    credited_seconds: r.credited,
  };
}

/** The balance ledger, newest first. */
export async function listTransactions(
  ctx: AppContext,
  who: Principal,
  page: PageInput,
): Promise<Page<TransactionOut>> {
  const scope = `transactions|${who.accountId}`;
  const after = ctx.paginator.start(scope, page.cursor);
  const { rows } = await ctx.db.query<{
    seq: number;
    id: string;
    type: "credit" | "debit";
    seconds: number;
    balance_after: number;
    call_id: string | null;
    description: string;
    created_at: Date;
  }>(
    `SELECT seq, id, type, seconds, balance_after, call_id, description, created_at FROM transactions
     WHERE account_id = $1 AND ($2::bigint IS NULL OR seq < $2) ORDER BY seq DESC LIMIT $3`,
    [who.accountId, after, page.limit + 1],
  );
  return ctx.paginator.page(scope, rows, page.limit, ({ seq: _s, created_at, ...r }) => ({
    ...r,
    created_at: created_at.toISOString(),
  }));
}
