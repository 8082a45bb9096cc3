-- Issue 15: automatic retries. A retry is a new call on the same order (previous_attempts + 1) that points at the call
-- it retries; the unique index makes a second retry of one call impossible, whatever races or restarts happen.
-- The retry policy is set per account, per shop and per call (field by field over the defaults).
ALTER TABLE calls ADD COLUMN retry_of uuid REFERENCES calls(id);
ALTER TABLE calls ADD COLUMN retry_policy jsonb;
CREATE UNIQUE INDEX calls_retry_of ON calls (retry_of) WHERE retry_of IS NOT NULL;
-- GET /v1/calls?order_external_id=...
CREATE INDEX calls_account_order_seq ON calls (account_id, order_external_id, seq DESC);
ALTER TABLE accounts ADD COLUMN retry_policy jsonb;
ALTER TABLE shops ADD COLUMN retry_policy jsonb;
-- The event announcing a retry.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check
  CHECK (type IN ('call.answered', 'call.ended', 'call.retry_scheduled', 'recording.ready', 'message.received', 'webhook.test'));
