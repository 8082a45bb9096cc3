// get_account, get_balance, get_usage, list_transactions, list_webhook_deliveries: GET /v1/me and what hangs under it.
import { z } from "zod";
import { accountSchema, balanceSchema, transactionSchema, usageQuery, usageSchema } from "../../schemas/account.ts";
import { pageQuery, pageSchema } from "../../schemas/common.ts";
import { deliveryListQuery, deliverySchema } from "../../schemas/deliveries.ts";
import { getAccount, getBalance, getUsage, listTransactions } from "../../services/accounts.ts";
import { listWebhookDeliveries, redeliverWebhookDelivery } from "../../services/webhooks.ts";
import { defineTool, rootObject } from "./tool.ts";

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const getAccountTool = defineTool({
  name: "get_account",
  title: "Read the account",
  description:
    "Reads the reseller account the API key belongs to: its id, name, creation date and prepaid balance in seconds of call. Use it first to check which account you are acting for.",
  input: z.strictObject({}),
  output: rootObject(accountSchema),
  annotations: READ,
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/me" },
  run: (_args, { ctx, who }) => getAccount(ctx, who),
});

export const getBalanceTool = defineTool({
  name: "get_balance",
  title: "Read the balance",
  description:
    "Reads the prepaid balance in seconds (`balance_seconds`), the minimum needed to start a call (`required_seconds`, 10) and whether a call can start now (`can_start_call`). Calls are billed per answered second and never drive the balance below zero. Check it before a batch of create_call: below 10 seconds every creation fails with insufficient_balance.",
  input: z.strictObject({}),
  output: rootObject(balanceSchema),
  annotations: READ,
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/me/balance" },
  run: (_args, { ctx, who }) => getBalance(ctx, who),
});

export const getUsageTool = defineTool({
  name: "get_usage",
  title: "Read a month's usage",
  description:
    "Sums one UTC calendar month: seconds billed for calls, the number of billed calls, and seconds credited. `period` is YYYY-MM (for example 2026-11); omit it for the current month. Any other format is invalid_period_format.",
  input: z.strictObject(usageQuery.shape),
  output: rootObject(usageSchema),
  annotations: READ,
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/me/usage" },
  run: ({ period }, { ctx, who }) => getUsage(ctx, who, period),
});

export const listTransactionsTool = defineTool({
  name: "list_transactions",
  title: "List balance transactions",
  description:
    "Lists the balance ledger, newest first: `credit` entries (top-ups, positive `seconds`) and one `debit` per billed call (negative `seconds`, with its `call_id`), each with the balance after it. Pages hold `limit` entries (1 to 100, default 20); when `has_more` is true, call again with `cursor` set to `next_cursor`.",
  input: z.strictObject(pageQuery),
  output: pageSchema(transactionSchema),
  annotations: READ,
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/me/transactions" },
  run: (page, { ctx, who }) => listTransactions(ctx, who, page),
});

export const listWebhookDeliveriesTool = defineTool({
  name: "list_webhook_deliveries",
  title: "List webhook deliveries",
  description:
    "Lists the deliveries of events (call.answered, call.ended, call.retry_scheduled, recording.ready, message.received, order.resolved, webhook.test, customer.opted_out, order.delivery_updated) to the account's webhook, newest first, with each one's status, attempts and the receiver's last answer. Use it to debug a receiver that misses events. `status` filters: `pending` (waiting for a retry; the schedule is 3 h, 6 h, 12 h, 24 h), `delivered`, or `failed` (the dead-letter queue: the schedule ran out); omit it for all. Pages as in the other lists (`limit`, `cursor` = `next_cursor`).",
  input: z.strictObject(deliveryListQuery.shape),
  output: pageSchema(deliverySchema),
  annotations: READ,
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/me/webhooks/deliveries" },
  run: (input, { ctx, who }) => listWebhookDeliveries(ctx, who, input),
});

export const redeliverWebhookDeliveryTool = defineTool({
  name: "redeliver_webhook_delivery",
  title: "Send a webhook event again",
  description:
    "Sends the event of one webhook delivery (found with list_webhook_deliveries) again now, for example after a receiver outage emptied the retry schedule (`status: failed`) or lost an event it had acknowledged. It creates a new delivery of the same event, with the same event id so the receiver can de-duplicate, to the account's current webhook, and returns it after its first attempt (`status` delivered, or pending with retries on the schedule). A delivery still `pending` fails with conflict (its retries are under way); an unknown id is not_found; no active webhook is webhook_url_not_configured. Shares the 10 per minute of webhook configuration.",
  input: z.strictObject({ delivery_id: z.string().describe("The delivery's `id`, from list_webhook_deliveries.") }),
  output: rootObject(deliverySchema),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  rateClass: "webhooks",
  mirrors: { method: "POST", path: "/v1/me/webhooks/deliveries/{id}/redeliver" },
  run: ({ delivery_id }, { ctx, who }) => redeliverWebhookDelivery(ctx, who, delivery_id),
});

export const ACCOUNT_TOOLS = [
  getAccountTool,
  getBalanceTool,
  getUsageTool,
  listTransactionsTool,
  listWebhookDeliveriesTool,
  redeliverWebhookDeliveryTool,
];
