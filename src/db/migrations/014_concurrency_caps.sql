-- Issue 15: at most N calls ringing or in progress at once per account (NULL: the installation's default,
-- WAKHA_MAX_CONCURRENT_CALLS). A call over the cap is put back for a few seconds (deferred_until) instead of dialled.
ALTER TABLE accounts ADD COLUMN max_concurrent_calls integer CHECK (max_concurrent_calls >= 1);
ALTER TABLE calls ADD COLUMN deferred_until timestamptz;
-- When the claim took the call out of `queued` (the dial), and how often it waited for a place: the scheduler's measures.
ALTER TABLE calls ADD COLUMN dialed_at timestamptz;
ALTER TABLE calls ADD COLUMN deferrals integer NOT NULL DEFAULT 0;
-- The live calls of an account, counted at each claim.
CREATE INDEX calls_account_live ON calls (account_id) WHERE ended_at IS NULL AND status <> 'queued';
-- The calls waiting for a place, oldest first: the end of a call wakes the next one.
CREATE INDEX calls_account_waiting ON calls (account_id, seq) WHERE status = 'queued' AND deferred_until IS NOT NULL;
