-- Issue 34: how a call's warm transfer to the shop's person went: {status, to, reason, requested_at, answered_at, seconds}.
ALTER TABLE calls ADD COLUMN transfer jsonb;
