// The schemas of /v1/me/do-not-call and its MCP tools (issue 15): numbers the account never calls.
import { z } from "zod";
import { DO_NOT_CALL_SOURCES } from "../domain/do-not-call.ts";
import { phoneNumber } from "./calls.ts";
import { pageQuery, safeString, timestamp } from "./common.ts";

export const doNotCallEntrySchema = z
  .object({
    phone_number: z.string().describe("E.164."),
    source: z
      .enum(DO_NOT_CALL_SOURCES)
      .describe(
        "`api`: added by the reseller; `customer_request`: the customer asked during a call not to be called again (the call is the evidence).",
      ),
    reason: z
      .string()
      .nullable()
      .describe("Your note (source `api`), or the customer's words (source `customer_request`)."),
    call_id: z
      .string()
      .nullable()
      .describe("The call during which the customer asked (source `customer_request`); null otherwise."),
    created_at: timestamp,
  })
  .meta({
    id: "DoNotCallEntry",
    description:
      "A number on the account's do-not-call list: calls to it are refused (`number_do_not_call`) and never dialled.",
  });

export const doNotCallCreateBody = z
  .strictObject({
    phone_number: phoneNumber.describe("E.164, for example +212612345678."),
    reason: safeString().min(1).max(500).optional().describe("A note for your own use."),
  })
  .meta({ id: "DoNotCallCreate" });

export const doNotCallParams = z.object({
  phone_number: z.string().describe("The listed number in E.164 (`+` may be sent as is or as %2B)."),
});

export const doNotCallListQuery = z.object({ ...pageQuery });

export type DoNotCallEntry = z.output<typeof doNotCallEntrySchema>;
export type DoNotCallCreate = z.output<typeof doNotCallCreateBody>;
