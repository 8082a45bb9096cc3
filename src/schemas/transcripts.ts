// The schemas of GET /v1/calls/{id}/transcript and the get_transcript tool: the call's two-sided conversation.
import { z } from "zod";
import { CALL_STATUSES } from "../domain/calls.ts";

/** The intent classifier's labels (CONTRACT §5b), as the transcript shows them on the customer's turns. */
export const TRANSCRIPT_INTENTS = [
  "confirm",
  "cancel",
  "reschedule",
  "callback",
  "change_request",
  "wrong_number",
  "question",
  "unclear",
] as const;

export const transcriptTurnSchema = z
  .object({
    speaker: z.enum(["agent", "customer"]),
    text: z
      .string()
      .describe("What was said: the agent's line, or the customer's words as recognised (DTMF keys as `DTMF 1`)."),
    start_seconds: z.number().describe("When the turn started, in seconds since the call was answered (tenths)."),
    end_seconds: z
      .number()
      .nullable()
      .describe(
        "When the turn ended: the start of the next turn, or the end of the call for the last one; null when unknown.",
      ),
    intent: z
      .enum(TRANSCRIPT_INTENTS)
      .nullable()
      .describe("Customer turns: what the classifier understood; null on the agent's turns."),
    confidence: z
      .number()
      .nullable()
      .describe("Customer turns: the classifier's confidence, 0 to 1; null on the agent's turns."),
  })
  .meta({ id: "TranscriptTurn" });

export const transcriptSchema = z
  .object({
    call_id: z.string(),
    status: z.enum(CALL_STATUSES).describe("The call's status when the transcript was read."),
    complete: z
      .boolean()
      .describe("True once the call has ended: the transcript is written when it ends, so it is empty before."),
    turns: z.array(transcriptTurnSchema).describe("Every turn of both speakers, in the order they were said."),
  })
  .meta({ id: "Transcript", description: "The two-sided transcript of a call." });

export type TranscriptOut = z.output<typeof transcriptSchema>;
export type TranscriptTurnOut = z.output<typeof transcriptTurnSchema>;
