// get_retention, set_retention: how long recordings and transcripts are kept (/v1/me/retention, issue 36.5).
import { z } from "zod";
import { retentionSchema } from "../../schemas/retention.ts";
import { getRetention, setRetention } from "../../services/retention.ts";
import { defineTool, rootObject } from "./tool.ts";

export const getRetentionTool = defineTool({
  name: "get_retention",
  title: "Read the retention of recordings and transcripts",
  description:
    "Reads how long the account keeps call recordings (`recording_days`, 1 to 30, default 30) and transcripts with the customer's words (`transcript_days`, 1 to 365, default 365) before the hourly sweep purges them. Outcomes, amounts, durations and billing are never purged.",
  input: z.strictObject({}),
  output: rootObject(retentionSchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  rateClass: "read",
  mirrors: { method: "GET", path: "/v1/me/retention" },
  run: (_input, { ctx, who }) => getRetention(ctx, who),
});

export const setRetentionTool = defineTool({
  name: "set_retention",
  title: "Set the retention of recordings and transcripts",
  description:
    "Sets how long the account keeps call recordings (`recording_days`, 1 to 30) and transcripts with the customer's words (`transcript_days`, 1 to 365); both are required. The next hourly sweep purges whatever is older, including what was kept under the previous setting: shortening it deletes data for good.",
  input: z.strictObject(retentionSchema.shape),
  output: rootObject(retentionSchema),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  rateClass: "write",
  mirrors: { method: "PUT", path: "/v1/me/retention" },
  run: (input, { ctx, who }) => setRetention(ctx, who, input),
});

export const RETENTION_TOOLS = [getRetentionTool, setRetentionTool];
