// Call recordings and their 30-day purge (spec 2.4), on whichever RecordingStore the composition root chose
// (local files, or an S3-compatible bucket when API and worker nodes are separate machines). The engine saves
// them, the calls service opens them, the purge job deletes them.
import type { Readable } from "node:stream";
import type { Database } from "../db/pool.ts";
import type { RecordingTransfers } from "../storage/recording-transfer.ts";
import type { RecordingSource } from "../domain/recording-source.ts";
import { recordingKey } from "../storage/recording-download.ts";
import type { RecordingStore, StoredRecording } from "../storage/recording-store.ts";

export const RECORDING_RETENTION_DAYS = 30;
const PURGE_BATCH = 500;

/** What these functions need from the app context (kept structural so storage stays below context.ts). */
export interface RecordingsContext {
  db: Database;
  recordings: RecordingStore;
  recordingTransfers: RecordingTransfers;
}

/** Stores a call's audio (streamed to the store) and records it on the call. */
export async function saveRecording(
  ctx: RecordingsContext,
  callId: string,
  audio: Uint8Array | Readable,
  contentType: string,
  size?: number,
): Promise<void> {
  const key = recordingKey(callId, contentType);
  const bytes = size ?? (audio instanceof Uint8Array ? audio.byteLength : undefined);
  if (bytes === undefined) throw new Error("saveRecording: a streamed recording needs its size");
  await ctx.recordings.put(key, audio, bytes, contentType);
  await attachRecording(ctx, callId, key, contentType, bytes);
}

/**
 * Downloads a carrier's recording into the store (in the node's recording-transfer thread: recording-transfer.ts) and
 * records it on the call; false when the carrier has none.
 */
export async function saveCarrierRecording(
  ctx: RecordingsContext,
  callId: string,
  source: RecordingSource,
): Promise<boolean> {
  const stored = await ctx.recordingTransfers.run(ctx.recordings, callId, source);
  if (!stored) return false;
  await attachRecording(ctx, callId, stored.key, stored.contentType, stored.bytes);
  return true;
}

async function attachRecording(
  ctx: RecordingsContext,
  callId: string,
  key: string,
  contentType: string,
  bytes: number,
): Promise<void> {
  const { rowCount } = await ctx.db.query(
    `UPDATE calls SET recording_path = $2, recording_content_type = $3, recording_bytes = $4, recording_saved_at = now(),
       recording_purged_at = NULL, updated_at = now() WHERE id = $1`,
    [callId, key, contentType, bytes],
  );
  if (!rowCount) {
    await ctx.recordings.deleteMany([key]);
    throw new Error(`no call ${callId} to attach a recording to`);
  }
}

export type OpenedRecording = StoredRecording;

/** Opens a stored recording; null when the object is no longer there. */
export async function openRecording(
  ctx: Pick<RecordingsContext, "recordings">,
  key: string,
): Promise<OpenedRecording | null> {
  return ctx.recordings.open(key);
}

/** Deletes one call's audio for good and marks it purged; returns false when there was none. */
export async function purgeRecording(ctx: RecordingsContext, callId: string): Promise<boolean> {
  return (await purgeBatch(ctx, "id = $1", [callId])) > 0;
}

/** The retention job: purges recordings older than their account's retention (30 days at most), a batch at a time; returns how many. */
export async function purgeExpiredRecordings(
  ctx: RecordingsContext,
  retentionDays = RECORDING_RETENTION_DAYS,
): Promise<number> {
  let purged = 0;
  for (;;) {
    // Each account's own retention (issue 36.5), never longer than `retentionDays`.
    const n = await purgeBatch(
      ctx,
      `recording_saved_at < now() - make_interval(days => LEAST($1::int,
      COALESCE((SELECT a.recording_days FROM accounts a WHERE a.id = calls.account_id), $1::int)))`,
      [retentionDays],
    );
    purged += n;
    if (n < PURGE_BATCH) return purged;
  }
}

// One batch: the objects go first (one DeleteObjects per 1,000 keys on a bucket), then one UPDATE marks the rows;
// a crash in between leaves rows the next purge finishes, never an orphaned object.
async function purgeBatch(ctx: RecordingsContext, where: string, params: unknown[]): Promise<number> {
  const { rows } = await ctx.db.query<{ id: string; recording_path: string }>(
    `SELECT id, recording_path FROM calls WHERE recording_path IS NOT NULL AND recording_purged_at IS NULL AND ${where}
       ORDER BY recording_saved_at LIMIT ${PURGE_BATCH}`,
    params,
  );
  if (!rows.length) return 0;
  await ctx.recordings.deleteMany(rows.map((r) => r.recording_path));
  const { rowCount } = await ctx.db.query(
    `UPDATE calls SET recording_path = NULL, recording_purged_at = now(), updated_at = now()
       WHERE id = ANY($1::uuid[]) AND recording_purged_at IS NULL`,
    [rows.map((r) => r.id)],
  );
  return rowCount ?? 0;
}
