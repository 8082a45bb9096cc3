-- Issue 17, store connectors: one connector per shop (Shopify, YouCan, WooCommerce) with its sealed credentials, and
-- the connector's log: orders received (a call created, skipped or rejected, with the reason), write-backs of
-- resolutions (pending, succeeded, failed, with attempts and the last error), refused webhooks and catalogue imports.

CREATE TABLE store_connectors (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  -- One connector per shop; PUT replaces it.
  shop_id uuid NOT NULL UNIQUE REFERENCES shops(id),
  platform text NOT NULL CHECK (platform IN ('shopify', 'youcan', 'woocommerce')),
  store_url text NOT NULL,
  -- The platform's API credentials as JSON, and the webhook signing secret, sealed like webhook secrets
  -- (crypto/secret-box.ts); never shown again, only their last four characters.
  credentials_sealed text NOT NULL,
  credential_last4 text NOT NULL,
  webhook_secret_sealed text NOT NULL,
  webhook_secret_last4 text NOT NULL,
  -- The opaque path segment of the connector's inbound address (/connectors/{platform}/{webhook_token}): random, so
  -- a store's address cannot be guessed from a shop's id.
  webhook_token text NOT NULL UNIQUE,
  last_sync_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE connector_events (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  connector_id uuid NOT NULL REFERENCES store_connectors(id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts(id),
  kind text NOT NULL CHECK (kind IN ('order', 'write_back', 'webhook_refused', 'catalogue_sync')),
  -- order: received (being taken in), call_created, skipped, rejected; write_back: pending, succeeded, failed;
  -- webhook_refused: refused; catalogue_sync: succeeded, failed.
  status text NOT NULL CHECK (status IN ('received', 'call_created', 'skipped', 'rejected', 'pending', 'succeeded', 'failed', 'refused')),
  -- A short machine reason: paid, not_cod, phone_not_normalisable, currency_mismatch, bad_signature, an error slug...
  reason text,
  platform_order_id text,
  -- The order and call the intake created (order), or the order written back (write_back).
  order_id uuid REFERENCES orders(id),
  call_id uuid REFERENCES calls(id),
  resolution text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz,
  -- What else the merchant needs to see: the raw phone, the payment words, counts of an import...
  detail jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Intake is idempotent on the platform's order id: a webhook delivered twice, even at once, takes one row.
CREATE UNIQUE INDEX connector_events_order ON connector_events (connector_id, platform_order_id) WHERE kind = 'order';
CREATE INDEX connector_events_list ON connector_events (connector_id, seq DESC);
-- A resolution finds the intake row of its order (orders/settle.ts enqueues the write-back).
CREATE INDEX connector_events_order_id ON connector_events (order_id) WHERE kind = 'order';
