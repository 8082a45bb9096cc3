// Transcript retention (issue 36.5): the hourly sweep (the purge-recordings job) also deletes the transcripts of calls
// ended longer ago than their account's `transcript_days`, with the customer's words in outcome_details. Outcomes,
// amounts, durations and billing stay.
import type { Queryable } from "../../db/pool.ts";

const BATCH = 500;

/** outcome_details without the customer's words (the same rule as an erasure: the excerpt goes, reason and changes become null). */
export const STRIP_WORDS = (
  col: string,
) => `CASE WHEN ${col} IS NULL THEN NULL ELSE (${col} - 'transcript_excerpt' - 'words' - 'delivery')
  || COALESCE((SELECT jsonb_object_agg(k, 'null'::jsonb) FROM jsonb_object_keys(${col}) AS k WHERE k IN ('reason', 'changes')), '{}'::jsonb) END`;

/** Purges expired transcripts, a batch at a time; returns how many calls lost theirs. */
export async function purgeExpiredTranscripts(db: Queryable): Promise<number> {
  let purged = 0;
  for (;;) {
    const { rowCount } = await db.query(
      `UPDATE calls SET transcript = NULL, outcome_details = ${STRIP_WORDS("outcome_details")}, transcript_purged_at = now(), updated_at = now()
       WHERE id IN (SELECT c.id FROM calls c JOIN accounts a ON a.id = c.account_id
                    WHERE c.transcript IS NOT NULL AND c.ended_at < now() - make_interval(days => a.transcript_days)
                    ORDER BY c.ended_at LIMIT ${BATCH} FOR UPDATE OF c SKIP LOCKED)`,
    );
    purged += rowCount ?? 0;
    if ((rowCount ?? 0) < BATCH) return purged;
  }
}
