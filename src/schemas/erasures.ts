// The schemas of /v1/erasures and its MCP tools (issue 36.4): erasing what Wakha holds about a customer's number.
import { z } from "zod";
import { phoneNumber } from "./calls.ts";
import { timestamp } from "./common.ts";

export const erasureCreateBody = z
  .strictObject({
    phone_number: phoneNumber.describe(
      "The customer's number, E.164 (for example +212612345678): everything personal about it on this account is erased.",
    ),
  })
  .meta({ id: "ErasureCreate" });

export const erasureCountsSchema = z
  .object({
    calls: z.int().describe("Calls whose customer name and number were replaced by `erased`."),
    transcripts: z
      .int()
      .describe(
        "Call transcripts deleted, and the customer's words in `outcome_details` (transcript_excerpt, reason, changes).",
      ),
    recordings: z.int().describe("Recordings deleted from storage (local files or the bucket)."),
    messages: z.int().describe("WhatsApp messages, received and sent, whose text and number were erased."),
    orders: z.int().describe("Orders whose resolution details (the customer's words) were erased."),
    webhook_events: z.int().describe("Stored webhook events (kept for redelivery) whose customer fields were erased."),
    idempotency_records: z.int().describe("Stored replies of POST /v1/calls (kept 24 h for replays) deleted."),
    do_not_call_notes: z
      .int()
      .describe(
        "Do-not-call entries whose note (the customer's words) was erased; the number stays listed, so the customer's objection is still honoured.",
      ),
  })
  .meta({ id: "ErasureCounts" });

export const storeWriteBackSchema = z
  .object({
    platform: z.string().describe("shopify, woocommerce or youcan."),
    store_url: z.string(),
    platform_order_id: z.string().describe("The order on the store, where the shop must erase the note Wakha wrote."),
    written_at: timestamp,
  })
  .meta({ id: "StoreWriteBack" });

export const erasureOutSchema = z
  .object({
    id: z.string().describe("The erasure id (UUID), used in /v1/erasures/{id}."),
    status: z
      .enum(["pending", "completed"])
      .describe(
        "`pending` until the job has erased everything (it waits for calls to the number still under way), then `completed`.",
      ),
    counts: erasureCountsSchema
      .nullable()
      .describe(
        "How many of each thing were erased; null while pending. A second erasure of the same number finds nothing: all zero.",
      ),
    store_write_backs: z
      .array(storeWriteBackSchema)
      .nullable()
      .describe(
        "Resolutions Wakha already wrote to the shop's store about this customer's orders: the shop must erase them there. Null while pending.",
      ),
    created_at: timestamp,
    completed_at: timestamp.nullable(),
  })
  .meta({
    id: "Erasure",
    description: "A request to erase a customer's personal data. Amounts, durations and billing are kept, anonymised.",
  });

export const erasureParams = z.object({ id: z.string().describe("The erasure id returned at creation.") });

export type ErasureCreate = z.output<typeof erasureCreateBody>;
export type ErasureOut = z.output<typeof erasureOutSchema>;
export type ErasureCounts = z.output<typeof erasureCountsSchema>;
