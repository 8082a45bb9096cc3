import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageSchema } from "../../pagination.ts";
import { getAccount, getBalance, getUsage, listTransactions } from "../../services/accounts.ts";

const timestamp = z.string().describe("RFC 3339 UTC timestamp.");

export const accountSchema = z.object({
  id: z.string().describe("The account id."),
  name: z.string(),
  balance_seconds: z.int().describe("Prepaid balance, in seconds of call."),
  created_at: timestamp,
}).meta({ id: "Account" });

export const balanceSchema = z.object({
  balance_seconds: z.int(),
  required_seconds: z.int().describe("Minimum balance needed to start a call (10)."),
  can_start_call: z.boolean(),
}).meta({ id: "Balance" });

export const usageSchema = z.object({
  period: z.string().describe("The month reported, YYYY-MM (UTC)."),
  period_start: timestamp,
  period_end: timestamp.describe("Exclusive end of the period."),
  billed_seconds: z.int().describe("Seconds debited for calls in the period."),
  billed_calls: z.int().describe("Calls billed in the period."),
  credited_seconds: z.int().describe("Seconds credited in the period."),
}).meta({ id: "Usage" });

export const transactionSchema = z.object({
  id: z.string(),
  type: z.enum(["credit", "debit"]),
  seconds: z.int().describe("Signed: positive for a credit, negative for a debit."),
  balance_after: z.int(),
  call_id: z.string().nullable().describe("The billed call; null for credits."),
  description: z.string(),
  created_at: timestamp,
}).meta({ id: "Transaction" });

export const usageQuery = z.object({
  period: z.string().optional().describe("Month as YYYY-MM; default the current UTC month."),
});

/** /v1/me, balance, usage and transactions. */
export function accountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get("/me", {
    schema: { operationId: "getAccount", tags: ["Account"], summary: "Read the account", response: { 200: accountSchema } },
  }, (req) => getAccount(ctx, req.principal));

  r.get("/me/balance", {
    schema: { operationId: "getBalance", tags: ["Account"], summary: "Read the balance in seconds", response: { 200: balanceSchema } },
  }, (req) => getBalance(ctx, req.principal));

  r.get("/me/usage", {
    schema: { operationId: "getUsage", tags: ["Account"], summary: "Usage of one UTC month", querystring: usageQuery, response: { 200: usageSchema } },
    config: { errors: ["invalid_period_format"] },
  }, (req) => getUsage(ctx, req.principal, req.query.period));

  r.get("/me/transactions", {
    schema: {
      operationId: "listTransactions", tags: ["Account"], summary: "List balance transactions, newest first",
      querystring: z.object(pageQuery), response: { 200: pageSchema(transactionSchema) },
    },
    config: { paginated: true },
  }, (req) => listTransactions(ctx, req.principal, req.query));
}
