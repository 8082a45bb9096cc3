// Call recordings on disk under ${WAKHA_DATA_DIR}/recordings, and their 30-day purge (spec 2.4).
import { createReadStream, type ReadStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../context.ts";
import { ApiError } from "../errors.ts";

export const RECORDING_RETENTION_DAYS = 30;
const PURGE_BATCH = 500;

const EXTENSIONS: Record<string, string> = {
  "audio/wav": ".wav",
  "audio/x-wav": ".wav",
  "audio/mpeg": ".mp3",
  "audio/ogg": ".ogg",
  "audio/webm": ".webm",
  "audio/basic": ".ulaw",
};

export function recordingsDir(ctx: Pick<AppContext, "config">): string {
  return path.resolve(ctx.config.WAKHA_DATA_DIR, "recordings");
}

// Stored paths are relative to the recordings folder, so the data dir can move; they never come from a client.
function absolute(ctx: Pick<AppContext, "config">, relative: string): string {
  const dir = recordingsDir(ctx);
  const full = path.resolve(dir, relative);
  if (!full.startsWith(dir + path.sep)) throw new Error(`recording path ${relative} escapes ${dir}`);
  return full;
}

/** Writes a call's audio (atomically: temp file then rename) and records it on the call. */
export async function saveRecording(ctx: AppContext, callId: string, audio: Uint8Array, contentType: string): Promise<void> {
  const dir = recordingsDir(ctx);
  await mkdir(dir, { recursive: true });
  const relative = `${callId}${EXTENSIONS[contentType] ?? ".bin"}`;
  const temp = path.join(dir, `.${relative}.${process.pid}.tmp`);
  await writeFile(temp, audio, { mode: 0o600 });
  await rename(temp, absolute(ctx, relative));
  const { rowCount } = await ctx.db.query(
    `UPDATE calls SET recording_path = $2, recording_content_type = $3, recording_bytes = $4, recording_saved_at = now(),
       recording_purged_at = NULL, updated_at = now() WHERE id = $1`,
    [callId, relative, contentType, audio.byteLength],
  );
  if (!rowCount) {
    await rm(absolute(ctx, relative), { force: true });
    throw new Error(`no call ${callId} to attach a recording to`);
  }
}

export interface OpenedRecording {
  size: number;
  /** Reads bytes start..end inclusive (the whole file without arguments). */
  stream(range?: { start: number; end: number }): ReadStream;
}

/** Opens a stored recording; a file that is no longer there is as gone as a purged one (410). */
export async function openRecording(ctx: AppContext, callId: string, relative: string): Promise<OpenedRecording> {
  const full = absolute(ctx, relative);
  try {
    const { size } = await stat(full);
    return { size, stream: (range) => createReadStream(full, range) };
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT") {
      throw new ApiError("recording_gone", `The recording of call ${callId} is no longer stored.`);
    }
    throw err;
  }
}

/** Deletes one call's audio for good and marks it purged; returns false when there was none. */
export async function purgeRecording(ctx: AppContext, callId: string): Promise<boolean> {
  const { rows } = await ctx.db.query<{ recording_path: string }>(
    "SELECT recording_path FROM calls WHERE id = $1 AND recording_path IS NOT NULL AND recording_purged_at IS NULL",
    [callId],
  );
  if (!rows[0]) return false;
  // The file goes first: a crash in between leaves a row the next purge finishes, never an orphaned file.
  await rm(absolute(ctx, rows[0].recording_path), { force: true });
  await ctx.db.query("UPDATE calls SET recording_path = NULL, recording_purged_at = now(), updated_at = now() WHERE id = $1", [callId]);
  return true;
}

/** The retention job: purges recordings saved more than 30 days ago, a batch at a time; returns how many. */
export async function purgeExpiredRecordings(ctx: AppContext, retentionDays = RECORDING_RETENTION_DAYS): Promise<number> {
  let purged = 0;
  for (;;) {
    const { rows } = await ctx.db.query<{ id: string }>(
      `SELECT id FROM calls WHERE recording_path IS NOT NULL AND recording_purged_at IS NULL
         AND recording_saved_at < now() - make_interval(days => $1) ORDER BY recording_saved_at LIMIT $2`,
      [retentionDays, PURGE_BATCH],
    );
    for (const { id } of rows) if (await purgeRecording(ctx, id)) purged++;
    if (rows.length < PURGE_BATCH) return purged;
  }
}
