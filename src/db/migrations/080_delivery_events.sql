-- Issue 35: what the courier reports after the confirmation. One row per delivery event, de-duplicated per order on
-- the sender's event_id; the order keeps the status of its latest event (by occurred_at, not by arrival).
CREATE TABLE delivery_events (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL,
  order_id uuid NOT NULL REFERENCES orders(id),
  event_id text NOT NULL,
  status text NOT NULL
    CHECK (status IN ('in_transit', 'out_for_delivery', 'delivered', 'refused', 'returned', 'unreachable', 'lost')),
  occurred_at timestamptz NOT NULL,
  carrier text,
  tracking_number text,
  reason text,
  -- Who reported it: `api` (POST .../delivery-events), a store connector (`shopify`, `woocommerce`, `youcan`) or a courier.
  source text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (order_id, event_id)
);

-- The order's current delivery state: the status of its deciding event (latest occurred_at), null before any event.
ALTER TABLE orders ADD COLUMN delivery_status text
  CHECK (delivery_status IN ('in_transit', 'out_for_delivery', 'delivered', 'refused', 'returned', 'unreachable', 'lost'));
ALTER TABLE orders ADD COLUMN delivery_updated_at timestamptz;
