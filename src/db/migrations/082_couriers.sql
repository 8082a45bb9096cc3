-- Issue 35: a shop's courier webhooks (Yalidine first). `webhook_token` is the opaque part of the address the courier
-- posts to; the secret that signs its deliveries is sealed like the store connectors' secrets.
CREATE TABLE courier_connectors (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL,
  shop_id uuid NOT NULL REFERENCES shops(id),
  courier text NOT NULL,
  webhook_secret_sealed text NOT NULL,
  webhook_secret_last4 text NOT NULL,
  webhook_token text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (shop_id, courier)
);

-- A courier's parcel and the order it carries, learnt from the courier's own "parcel created" event (its order id).
CREATE TABLE courier_parcels (
  courier_connector_id uuid NOT NULL REFERENCES courier_connectors(id) ON DELETE CASCADE,
  tracking text NOT NULL,
  order_id uuid NOT NULL REFERENCES orders(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (courier_connector_id, tracking)
);
-- A parcel the seller reported by API (tracking_number on a delivery event) is found through its events.
CREATE INDEX delivery_events_tracking ON delivery_events (tracking_number) WHERE tracking_number IS NOT NULL;
