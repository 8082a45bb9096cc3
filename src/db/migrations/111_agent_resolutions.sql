-- Issue 34: a person of the shop (after a transfer, or on their own) gives an order its resolution through channel
-- `agent` (PUT /v1/shops/{shop}/orders/{order}/resolution), by the same supersede rule as voice and WhatsApp.
ALTER TABLE orders DROP CONSTRAINT orders_resolution_channel_check;
ALTER TABLE orders ADD CONSTRAINT orders_resolution_channel_check CHECK (resolution_channel IN ('voice', 'whatsapp', 'agent'));
