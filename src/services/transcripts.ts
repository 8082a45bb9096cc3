// The two-sided transcript of a call (issue 20): what the engine stored when the call ended, as turns with their
// start and end seconds, and for the customer's turns what the classifier understood.
import type { AppContext, Principal } from "../context.ts";
import type { CallStatus } from "../domain/calls.ts";
import { ApiError } from "../errors.ts";
import { isCallId } from "../calls/read-model.ts";
import { TRANSCRIPT_INTENTS, type TranscriptOut, type TranscriptTurnOut } from "../schemas/transcripts.ts";

/** An entry as the engine stores it in calls.transcript (engine/dialogue/types.ts TranscriptEntry). */
interface StoredEntry {
  speaker: "agent" | "customer";
  text: string;
  at: number;
  intent?: string;
  confidence?: number;
}

const tenths = (n: number) => Math.round(n * 10) / 10;

/** Turns with their end: the next turn's start, or the call's connected seconds for the last one. */
export function toTurns(entries: StoredEntry[], durationSeconds: number | null): TranscriptTurnOut[] {
  return entries.map((e, i) => {
    const next = entries[i + 1];
    const end = next ? next.at : durationSeconds !== null ? Math.max(durationSeconds, e.at) : null;
    const customer = e.speaker === "customer";
    const intent =
      customer && (TRANSCRIPT_INTENTS as readonly string[]).includes(e.intent ?? "")
        ? (e.intent as TranscriptTurnOut["intent"])
        : null;
    return {
      speaker: e.speaker,
      text: e.text,
      start_seconds: tenths(e.at),
      end_seconds: end === null ? null : tenths(end),
      intent,
      confidence: customer && typeof e.confidence === "number" ? e.confidence : null,
    };
  });
}

/** A call's transcript; another account's call or an unknown id is call_not_found, as on GET /v1/calls/{id}. */
export async function getCallTranscript(ctx: AppContext, who: Principal, id: string): Promise<TranscriptOut> {
  const notFound = () => new ApiError("call_not_found", `No call ${id.slice(0, 64)} on this account.`);
  if (!isCallId(id)) throw notFound();
  const { rows } = await ctx.db.query<{
    status: CallStatus;
    transcript: StoredEntry[] | null;
    duration_seconds: number | null;
    ended: boolean;
  }>(
    "SELECT status, transcript, duration_seconds, ended_at IS NOT NULL AS ended FROM calls WHERE id = $1 AND account_id = $2",
    [id, who.accountId],
  );
  const row = rows[0];
  if (!row) throw notFound();
  // A canceled call that was live is only over once the engine has closed the line and written its transcript.
  return {
    call_id: id,
    status: row.status,
    complete: row.ended,
    turns: toTurns(row.transcript ?? [], row.duration_seconds),
  };
}
