-- Issue 15: concurrency caps per caller number (a GSM gateway's SIM slots), and a scheduler that parks the calls over
-- a cap instead of putting them back every few seconds.
-- The number a call took a line of (`simulator:+212...`, `jambonz:+212...`); busy while the call has not ended.
ALTER TABLE calls ADD COLUMN caller_line text;
-- The limited numbers a parked call waits for a line of (NULL: it waits for its account's place).
ALTER TABLE calls ADD COLUMN wait_lines text[];
-- Calls put back under the old scheme (deferred_until a few seconds ahead, with a job of their own) become new calls:
-- their job still comes, and deferred_until now means parked ('infinity') or woken (a time).
UPDATE calls SET deferred_until = NULL WHERE status = 'queued' AND deferred_until IS NOT NULL;
-- The places an account's calls hold: live calls, and calls woken for a place (counted at each claim).
DROP INDEX calls_account_live;
CREATE INDEX calls_account_live ON calls (account_id)
  WHERE ended_at IS NULL AND (status <> 'queued' OR (deferred_until < 'infinity' AND wait_lines IS NULL));
-- The busy lines of a number, counted at each claim that may take one of its lines.
CREATE INDEX calls_line_busy ON calls (caller_line) WHERE ended_at IS NULL AND status <> 'queued' AND caller_line IS NOT NULL;
-- The calls parked for an account's place, oldest first (the end of a call wakes the next one).
DROP INDEX calls_account_waiting;
CREATE INDEX calls_account_waiting ON calls (account_id, seq) WHERE status = 'queued' AND deferred_until = 'infinity' AND wait_lines IS NULL;
-- The calls parked for a line, oldest first; and every parked call, for the sweep's second look.
CREATE INDEX calls_line_waiting ON calls (seq) WHERE status = 'queued' AND deferred_until = 'infinity' AND wait_lines IS NOT NULL;
CREATE INDEX calls_parked ON calls (updated_at) WHERE status = 'queued' AND deferred_until = 'infinity';
