// The schemas of /v1/me and the account tools: the account, its balance, a month's usage and the ledger.
import { z } from "zod";
import { timestamp } from "./common.ts";

export const accountSchema = z
  .object({
    id: z.string().describe("The account id."),
    name: z.string(),
    balance_seconds: z.int().describe("Prepaid balance, in seconds of call."),
    created_at: timestamp,
  })
  .meta({ id: "Account" });

export const balanceSchema = z
  .object({
    balance_seconds: z.int(),
    required_seconds: z.int().describe("Minimum balance needed to start a call (10)."),
    can_start_call: z.boolean(),
  })
  .meta({ id: "Balance" });

export const usageSchema = z
  .object({
    period: z.string().describe("The month reported, YYYY-MM (UTC)."),
    period_start: timestamp,
    period_end: timestamp.describe("Exclusive end of the period."),
    billed_seconds: z.int().describe("Seconds debited for calls in the period."),
    billed_calls: z.int().describe("Calls billed in the period."),
    credited_seconds: z.int().describe("Seconds credited in the period."),
  })
  .meta({ id: "Usage" });

export const transactionSchema = z
  .object({
    id: z.string(),
    type: z.enum(["credit", "debit"]),
    seconds: z.int().describe("Signed: positive for a credit, negative for a debit."),
    balance_after: z.int(),
    call_id: z.string().nullable().describe("The billed call; null for credits."),
    description: z.string(),
    created_at: timestamp,
  })
  .meta({ id: "Transaction" });

export const usageQuery = z.object({
  period: z.string().optional().describe("Month as YYYY-MM, from 0001-01 to 9999-11; default the current UTC month."),
});

export type AccountOut = z.output<typeof accountSchema>;
export type BalanceOut = z.output<typeof balanceSchema>;
export type UsageOut = z.output<typeof usageSchema>;
export type TransactionOut = z.output<typeof transactionSchema>;
