-- Issue 19: every index on calls costs each creation an index entry (and WAL); keep only those a query uses.
-- Kept, with the query each serves:
--   calls_pkey (id)                          readCallOut, cancelCall, openCallRecording, the engine's claim/heartbeat/settle
--   calls_account_seq (account_id, seq DESC) GET /v1/calls newest first, and its created_after/created_before filters
--   calls_account_status_seq                 GET /v1/calls?status=
--   calls_account_outcome_seq (partial)      GET /v1/calls?outcome= (written only once a call has an outcome)
--   calls_shop_seq (shop_id, seq DESC)       GET /v1/calls?shop_external_id= (and merchant_id through the shop)
--   calls_customer_phone_created             inbound messaging: the latest call that reached a phone (services/messaging.ts)
--   calls_open (partial: ended_at IS NULL)   the sweep's live and queued calls (engine/sweeper.ts)
--   calls_account_connected (partial)        the balance gate over answered, unfinished calls (engine/call-states.ts)
--   calls_recording_saved (partial)          the 30-day recording purge (storage/recordings.ts)
-- Dropped: no query reads them.
--   calls_seq_key: uniqueness of seq, which GENERATED ALWAYS AS IDENTITY already gives; lookups go through calls_account_seq.
--   calls_account_created: the created_at filters of the list ride on calls_account_seq (seq follows created_at).
--   calls_order: nothing reads calls by order_id (orders are never deleted, so the foreign key never scans it).
ALTER TABLE calls DROP CONSTRAINT IF EXISTS calls_seq_key;
DROP INDEX IF EXISTS calls_account_created;
DROP INDEX IF EXISTS calls_order;
