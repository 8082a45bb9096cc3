import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { accountSchema, balanceSchema, transactionSchema, usageQuery, usageSchema } from "../../schemas/account.ts";
import { pageQuery, pageSchema } from "../../schemas/common.ts";
import { getAccount, getBalance, getUsage, listTransactions } from "../../services/accounts.ts";

/** /v1/me, balance, usage and transactions. */
export function accountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/me",
    {
      schema: {
        operationId: "getAccount",
        tags: ["Account"],
        summary: "Read the account",
        response: { 200: accountSchema },
      },
    },
    (req) => getAccount(ctx, req.principal),
  );

  r.get(
    "/me/balance",
    {
      schema: {
        operationId: "getBalance",
        tags: ["Account"],
        summary: "Read the balance in seconds",
        response: { 200: balanceSchema },
      },
    },
    (req) => getBalance(ctx, req.principal),
  );

  r.get(
    "/me/usage",
    {
      schema: {
        operationId: "getUsage",
        tags: ["Account"],
        summary: "Usage of one UTC month",
        querystring: usageQuery,
        response: { 200: usageSchema },
      },
      config: { errors: ["invalid_period_format"] },
    },
    (req) => getUsage(ctx, req.principal, req.query.period),
  );

  r.get(
    "/me/transactions",
    {
      schema: {
        operationId: "listTransactions",
        tags: ["Account"],
        summary: "List balance transactions, newest first",
        querystring: z.object(pageQuery),
        response: { 200: pageSchema(transactionSchema) },
      },
      config: { paginated: true },
    },
    (req) => listTransactions(ctx, req.principal, req.query),
  );
}
