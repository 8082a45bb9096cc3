-- Outbound webhooks: configuration, events, deliveries and their attempts (issue 6; CONTRACT §6).

-- At most one active webhook per account; deleted and disabled ones are kept for their deliveries' history.
CREATE TABLE webhooks (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  url text NOT NULL,
  description text,
  -- The whsec_ secret sealed with WAKHA_ENCRYPTION_KEY (src/webhooks/secret-box.ts): signing needs it back.
  secret_sealed text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'deleted', 'disabled')),
  disabled_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX webhooks_one_active_per_account ON webhooks (account_id) WHERE status = 'active';

-- One row per event sent to a webhook. `payload` is json, not jsonb, so the bytes of `data` (and thus the
-- body and its signature input) stay the same at every retry.
CREATE TABLE webhook_events (
  id text PRIMARY KEY CHECK (id ~ '^evt_[0-9a-f]{24}$'),
  account_id uuid NOT NULL REFERENCES accounts(id),
  type text NOT NULL CHECK (type IN ('call.answered', 'call.ended', 'recording.ready', 'message.received', 'webhook.test')),
  payload json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts(id),
  webhook_id uuid NOT NULL REFERENCES webhooks(id),
  event_id text NOT NULL REFERENCES webhook_events(id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  failed_at timestamptz
);
CREATE INDEX webhook_deliveries_account_seq ON webhook_deliveries (account_id, seq DESC);
CREATE INDEX webhook_deliveries_account_status_seq ON webhook_deliveries (account_id, status, seq DESC);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id),
  attempt integer NOT NULL CHECK (attempt >= 1),
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL CHECK (duration_ms >= 0),
  status_code integer,
  -- At most about 1 KiB of the receiver's answer, for the integrator's debugging.
  response_excerpt text,
  error text
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempt);

-- Inbound WhatsApp messages (CONTRACT §7). The platform delivers at least once: the message id is the key,
-- so a duplicate insert does nothing.
CREATE TABLE inbound_messages (
  message_id text PRIMARY KEY,
  from_phone text NOT NULL,
  type text NOT NULL,
  text text,
  sent_at timestamptz,
  -- The latest call to that phone in the 30 days before; null when none matched.
  call_id uuid REFERENCES calls(id),
  account_id uuid REFERENCES accounts(id),
  event_id text REFERENCES webhook_events(id),
  received_at timestamptz NOT NULL DEFAULT now()
);
-- Matching a sender to the latest call on that phone.
CREATE INDEX calls_customer_phone_created ON calls (customer_phone, created_at DESC);
