-- Issue 34: a shop's warm transfer to a person. One handoff per shop: the number to dial, what hands a call over
-- (triggers), how long the person's phone rings, and the person's weekly hours (null: any time).
CREATE TABLE shop_handoffs (
  shop_id uuid PRIMARY KEY REFERENCES shops(id),
  account_id uuid NOT NULL,
  phone_number text NOT NULL,
  triggers text[] NOT NULL,
  ring_timeout_seconds integer NOT NULL CHECK (ring_timeout_seconds BETWEEN 5 AND 60),
  hours jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
