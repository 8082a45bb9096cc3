-- Issue 16: orders as resources, each with one resolution reached by voice or WhatsApp (src/domain/orders.ts holds
-- the supersede rule; src/orders/settle.ts applies it under the order's row lock and emits order.resolved).

-- The list position of GET /v1/orders (keyset cursors, newest first), as calls.seq is for calls.
ALTER TABLE orders ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE orders ADD CONSTRAINT orders_seq_key UNIQUE (seq);

-- Every order starts unresolved; unresolved never replaces an answer, so a settled order has all of channel,
-- resolved_at and details' source set. details: the same typed details as a call's outcome_details.
ALTER TABLE orders ADD COLUMN resolution text NOT NULL DEFAULT 'unresolved'
  CHECK (resolution IN ('confirmed', 'declined', 'rescheduled', 'callback_requested', 'change_requested', 'wrong_number', 'unresolved'));
ALTER TABLE orders ADD COLUMN resolution_channel text CHECK (resolution_channel IN ('voice', 'whatsapp'));
ALTER TABLE orders ADD COLUMN resolved_at timestamptz;
ALTER TABLE orders ADD COLUMN resolution_details jsonb;
-- The call whose end settled it (voice), or the WhatsApp message id (`wamid...`) of the reply that did.
ALTER TABLE orders ADD COLUMN resolution_call_id uuid REFERENCES calls(id);
ALTER TABLE orders ADD COLUMN resolution_message_id text;
ALTER TABLE orders ADD CONSTRAINT orders_resolution_settled CHECK (
  (resolution = 'unresolved') = (resolution_channel IS NULL)
  AND (resolution = 'unresolved') = (resolved_at IS NULL)
  AND (resolution_call_id IS NULL OR resolution_channel = 'voice')
  AND (resolution_message_id IS NULL OR resolution_channel = 'whatsapp'));

-- The filters of GET /v1/orders: none, resolution (and status, a set of resolutions), shop, created range.
CREATE INDEX orders_account_seq ON orders (account_id, seq DESC);
CREATE INDEX orders_account_resolution_seq ON orders (account_id, resolution, seq DESC);
CREATE INDEX orders_shop_seq ON orders (shop_id, seq DESC);
CREATE INDEX orders_account_created ON orders (account_id, created_at);

-- The event that follows each change of an order's resolution. A later migration that changes this list must
-- keep every type in it.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check
  CHECK (type IN ('call.answered', 'call.ended', 'call.retry_scheduled', 'recording.ready', 'message.received', 'order.resolved', 'webhook.test'));
