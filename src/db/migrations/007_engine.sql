-- The call engine's bookkeeping on live calls (src/engine/dialer.ts, src/engine/sweeper.ts).

-- The dialer refreshes these while a call is ringing or connected. A worker that dies stops refreshing them:
-- the sweep then ends the call as failed (worker_lost) and bills answered_seconds, the last seconds known
-- to have been connected, exactly once.
ALTER TABLE calls
  ADD COLUMN last_heartbeat_at timestamptz,
  ADD COLUMN answered_seconds integer CHECK (answered_seconds >= 0);

-- Calls not yet ended (queued, ringing, in_progress, and canceled ones whose line is still closing): the sweep reads them.
CREATE INDEX calls_open ON calls (status) WHERE ended_at IS NULL;
-- An account's connected calls: what they have used so far is subtracted from the balance left to the others.
CREATE INDEX calls_account_connected ON calls (account_id) WHERE answered_at IS NOT NULL AND ended_at IS NULL;
