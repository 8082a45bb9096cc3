// The schemas of /v1/me/retention and its MCP tools (issue 36.5): how long recordings and transcripts are kept.
import { z } from "zod";

export const retentionSchema = z
  .strictObject({
    recording_days: z
      .int()
      .min(1)
      .max(30)
      .describe(
        "Days a call's recording is kept after it is stored, 1 to 30 (default 30, the most the spec allows); then purged, and GET .../recording answers 410 recording_gone.",
      ),
    transcript_days: z
      .int()
      .min(1)
      .max(365)
      .describe(
        "Days a call's transcript (and the customer's words in `outcome_details`) is kept after the call ends, 1 to 365 (default 365). Outcomes, amounts, durations and billing stay.",
      ),
  })
  .meta({ id: "Retention", description: "The account's retention; the hourly sweep purges what is older." });

export type Retention = z.output<typeof retentionSchema>;
