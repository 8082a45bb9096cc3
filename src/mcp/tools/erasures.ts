// erase_customer_data, get_erasure: erasing a customer's personal data (/v1/erasures, issue 36.4).
import { z } from "zod";
import { erasureCreateBody, erasureOutSchema, erasureParams } from "../../schemas/erasures.ts";
import { getErasure, requestErasure } from "../../services/erasures.ts";
import { defineTool, rootObject } from "./tool.ts";

export const eraseCustomerDataTool = defineTool({
  name: "erase_customer_data",
  title: "Erase a customer's personal data",
  description:
    "Erases, across the account, everything personal about a customer's phone number (E.164): names and numbers on calls, transcripts and the customer's words, recordings (local or in the bucket), WhatsApp message bodies, customer fields of stored webhook events. Amounts, durations and billing stay, anonymised; the number stays on the do-not-call list. Runs as a job: the answer is `pending`; read get_erasure until `completed` for the counts and the store write-backs the shop must erase on its store. A repeat completes with zero counts.",
  input: z.strictObject(erasureCreateBody.shape),
  output: rootObject(erasureOutSchema),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "POST", path: "/v1/erasures" },
  run: (input, { ctx, who }) => requestErasure(ctx, who, input),
});

export const getErasureTool = defineTool({
  name: "get_erasure",
  title: "Read an erasure",
  description:
    "Reads an erasure started with erase_customer_data: `pending` or `completed`, how many of each thing were erased (calls, transcripts, recordings, messages, orders, webhook events, stored replies, do-not-call notes) and the store write-backs already sent about the customer's orders, which the shop must erase on its store. An unknown id fails with erasure_not_found.",
  input: z.strictObject(erasureParams.shape),
  output: rootObject(erasureOutSchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/erasures/{id}" },
  run: ({ id }, { ctx, who }) => getErasure(ctx, who, id),
});

export const ERASURE_TOOLS = [eraseCustomerDataTool, getErasureTool];
