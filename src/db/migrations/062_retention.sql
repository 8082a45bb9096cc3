-- Issue 36.5: the account's retention. Recordings: 1 to 30 days (the spec's 30 at most, and by default).
-- Transcripts (and the customer's words in outcome_details): 1 to 365 days, 365 by default; purged by the hourly sweep.
ALTER TABLE accounts
  ADD COLUMN recording_days integer NOT NULL DEFAULT 30 CHECK (recording_days BETWEEN 1 AND 30),
  ADD COLUMN transcript_days integer NOT NULL DEFAULT 365 CHECK (transcript_days BETWEEN 1 AND 365);
ALTER TABLE calls ADD COLUMN transcript_purged_at timestamptz;
-- The sweep's scan: ended calls that still hold a transcript, oldest first.
CREATE INDEX calls_transcript_ended ON calls (ended_at) WHERE transcript IS NOT NULL;
