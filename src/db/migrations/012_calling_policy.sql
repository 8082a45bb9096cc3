-- Issue 15: a call may be scheduled (scheduled_at, asked for or set by the calling hours); its place-call job waits
-- until then (pg-boss startAfter). Accounts and shops may override the calling hours' defaults per country.
ALTER TABLE calls ADD COLUMN scheduled_at timestamptz;
ALTER TABLE accounts ADD COLUMN calling_hours jsonb;
ALTER TABLE shops ADD COLUMN calling_hours jsonb;
