// add_do_not_call, list_do_not_call, remove_do_not_call: the account's do-not-call list (/v1/me/do-not-call, issue 15).
import { z } from "zod";
import { pageSchema } from "../../schemas/common.ts";
import { doNotCallCreateBody, doNotCallEntrySchema, doNotCallListQuery } from "../../schemas/do-not-call.ts";
import { addDoNotCall, listDoNotCall, removeDoNotCall } from "../../services/do-not-call.ts";
import { defineTool, rootObject } from "./tool.ts";

export const addDoNotCallTool = defineTool({
  name: "add_do_not_call",
  title: "Never call a number again",
  description:
    "Puts a customer's phone number (E.164, for example +212612345678) on the account's do-not-call list: from then on create_call to it fails with number_do_not_call, and a call already queued to it is not dialled. Idempotent: adding a listed number returns its entry unchanged with `created: false`. Customers who ask during a call not to be called again are listed automatically (`source: customer_request`, with the call as evidence; `customer.opted_out` is sent).",
  input: z.strictObject(doNotCallCreateBody.shape),
  output: z.object({
    entry: rootObject(doNotCallEntrySchema),
    created: z.boolean().describe("False when the number was already listed: nothing changed."),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "POST", path: "/v1/me/do-not-call" },
  run: (input, { ctx, who }) => addDoNotCall(ctx, who, input),
});

export const listDoNotCallTool = defineTool({
  name: "list_do_not_call",
  title: "List the do-not-call numbers",
  description:
    "Lists the numbers the account never calls, most recently added first, each with who added it (`api` or, when the customer asked during a call, `customer_request` with its `call_id`). Pages as in the other lists (`limit`, `cursor` = `next_cursor`).",
  input: z.strictObject(doNotCallListQuery.shape),
  output: pageSchema(doNotCallEntrySchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/me/do-not-call" },
  run: (page, { ctx, who }) => listDoNotCall(ctx, who, page),
});

export const removeDoNotCallTool = defineTool({
  name: "remove_do_not_call",
  title: "Allow calls to a number again",
  description:
    "Removes a number from the do-not-call list, so create_call to it works again. Only do this when the customer asked to be called again. Idempotent: `removed: false` when it was not listed.",
  input: z.strictObject({ phone_number: z.string().min(1).max(32).describe("The listed number, E.164.") }),
  output: z.object({ removed: z.boolean().describe("True when the number was listed and is no longer.") }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "DELETE", path: "/v1/me/do-not-call/{phone_number}" },
  run: async ({ phone_number }, { ctx, who }) => ({ removed: await removeDoNotCall(ctx, who, phone_number) }),
});

export const DO_NOT_CALL_TOOLS = [addDoNotCallTool, listDoNotCallTool, removeDoNotCallTool];
