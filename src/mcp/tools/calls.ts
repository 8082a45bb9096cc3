// create_call, get_call, list_calls, cancel_call: the calls API (POST/GET /v1/calls, GET /v1/calls/{id}, POST /v1/calls/{id}/cancel).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { callCreateSchema, callOutSchema, listCallsQuery } from "../../schemas/calls.ts";
import { pageSchema, safeString } from "../../schemas/common.ts";
import { cancelCall, createCall, getCall, listCalls } from "../../services/calls.ts";
import { transcriptSchema } from "../../schemas/transcripts.ts";
import { getCallTranscript } from "../../services/transcripts.ts";
import { checkIdempotencyKey } from "../../db/idempotency.ts";
import { defineTool, rootObject } from "./tool.ts";

const callOut = rootObject(
  callOutSchema,
  "A call: its status, and once it is over, the customer's decision (`outcome`, `outcome_details`).",
);
const callIdInput = z.strictObject({
  call_id: z.string().describe("The call's `id`, as returned by create_call or list_calls."),
});

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const createCallTool = defineTool({
  name: "create_call",
  title: "Call a customer to confirm an order",
  description: [
    "Places an automated phone call to a cash-on-delivery customer, in their own dialect (Moroccan, Algerian or Tunisian Arabic, or French, chosen from `country`), to confirm their order before it ships.",
    'The call is queued and runs in the background: the result has `status: "queued"`; read it later with get_call (or list_calls) to learn the customer\'s decision in `outcome` (confirmed, declined, rescheduled, callback_requested, change_requested, wrong_number, no_decision).',
    "Before calling: the shop (`shop_external_id`) must exist and be active (create_shop), and the account needs at least 10 seconds of balance (get_balance). An item line either names a product of the shop (`product_external_id`, plus `variant_external_id` when the product has several variants) or is ad hoc with `name` and `unit_price` (custom items, shipping fees, gifts).",
    'Rules: `amount` and prices are decimal strings such as "249.00", never numbers; `customer.phone_number` is E.164 (+212612345678); FR calls cannot be in `ar`; `order.external_id` is unique per shop.',
    "Idempotency: pass your own `idempotency_key` (a UUID) and reuse it when you retry after a timeout or an unclear failure: the same key with the same arguments returns the same call (`replayed: true`) instead of phoning twice. Without one, a new key is generated and returned; keep it if you may retry. The same key with different arguments fails with idempotency_key_conflict.",
    "To call the customer again about an order already called, use a NEW key and set `order.previous_attempts` to one more than the last call's (reusing the order id otherwise fails with order_external_id_already_exists).",
    "When: omit `scheduled_at` to call as soon as possible, or give an RFC 3339 time (at most 30 days ahead). Calls ring only inside the customer's calling hours (get_calling_hours): outside them the call waits, `queued` with `scheduled_at` set to the next opening. A number on the do-not-call list fails with number_do_not_call; a premium-rate, satellite or foreign number (only mobile and fixed-line numbers of the call's country are called), or a number already called for 3 other orders today, fails with phone_number_not_allowed. `retry_policy` sets this call's automatic retries (see set_retry_policy).",
    "Costs money: billed per answered second. 60 calls per minute per key.",
  ].join("\n\n"),
  input: callCreateSchema.extend({
    idempotency_key: safeString()
      .optional()
      .meta({ minLength: 1, maxLength: 255 })
      .describe(
        "1 to 255 characters; a UUID is ideal. Reuse it, with identical arguments, to retry safely. Generated when absent.",
      ),
  }),
  output: z.object({
    call: callOut,
    idempotency_key: z
      .string()
      .describe(
        "The key this creation is stored under; retry with it and the same arguments to get the same call back.",
      ),
    replayed: z.boolean().describe("True when this key had already created the call: nothing new was queued."),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  rateClass: "calls_create",
  mirrors: { method: "POST", path: "/v1/calls" },
  async run({ idempotency_key, ...body }, { ctx, who }) {
    const key = idempotency_key === undefined ? randomUUID() : checkIdempotencyKey(idempotency_key);
    const created = await createCall(ctx, who, body, key);
    // A replay gives the call exactly as first created, as REST replays it.
    return { call: created.call, idempotency_key: key, replayed: created.replayed };
  },
});

export const getCallTool = defineTool({
  name: "get_call",
  title: "Read a call",
  description:
    "Reads one call by id: its status (queued, ringing, in_progress, then completed, no_answer, busy, voicemail, failed or canceled) and, when completed, the customer's decision in `outcome` with `outcome_details` (reason, preferred_date, callback_at, changes, transcript_excerpt). Use it to follow a call made with create_call. `billed_seconds` and `recording_url` are filled in once the call ends. An unknown id, or one of another account, is call_not_found.",
  input: callIdInput,
  output: callOut,
  annotations: READ,
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/calls/{id}" },
  run: ({ call_id }, { ctx, who }) => getCall(ctx, who, call_id),
});

export const listCallsTool = defineTool({
  name: "list_calls",
  title: "List calls",
  description:
    "Lists the account's calls, newest first, with optional filters: `status`, `outcome`, `shop_external_id`, `merchant_id` (a merchant's `merchant_external_id`: the way to follow up every call of one merchant's batch across their shops), `created_after` and `created_before` (RFC 3339 or YYYY-MM-DD). Pages hold `limit` calls (1 to 100, default 20); when `has_more` is true, call again with `cursor` set to `next_cursor` and the SAME filters. A bad `status` is invalid_status_filter.",
  input: z.strictObject(listCallsQuery.shape),
  output: pageSchema(callOutSchema),
  annotations: READ,
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/calls" },
  run: ({ limit, cursor, ...filters }, { ctx, who }) => listCalls(ctx, who, filters, { limit, cursor }),
});

export const cancelCallTool = defineTool({
  name: "cancel_call",
  title: "Cancel a call",
  description:
    "Cancels a call that is queued, ringing or in progress: it becomes `canceled` at once. A call already answered is ended politely within seconds and its connected seconds are billed (`ended_at` and `billed_seconds` appear then; read them with get_call). A call that has already ended (any terminal status, canceled included) fails with `conflict`: nothing changes, read it with get_call instead. Use it when an order was cancelled or the call was made by mistake.",
  input: callIdInput,
  output: callOut,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  rateClass: "calls_cancel",
  mirrors: { method: "POST", path: "/v1/calls/{id}/cancel" },
  run: ({ call_id }, { ctx, who }) => cancelCall(ctx, who, call_id),
});

export const getTranscriptTool = defineTool({
  name: "get_transcript",
  title: "Read a call's transcript",
  description:
    "Reads the full two-sided conversation of a call: every turn of the agent and of the customer, in order, with its start and end in seconds since the call was answered, and for the customer's turns what the intent classifier understood (`intent`: confirm, cancel, reschedule, callback, change_request, wrong_number, question or unclear) with its `confidence`. Use it to check why a call got its outcome, beyond the short `transcript_excerpt` of get_call. The transcript is written when the call ends: before that `complete` is false and `turns` is empty. An unknown id, or one of another account, is call_not_found.",
  input: callIdInput,
  output: rootObject(transcriptSchema),
  annotations: READ,
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/calls/{id}/transcript" },
  run: ({ call_id }, { ctx, who }) => getCallTranscript(ctx, who, call_id),
});

export const CALL_TOOLS = [createCallTool, getCallTool, listCallsTool, cancelCallTool, getTranscriptTool];
