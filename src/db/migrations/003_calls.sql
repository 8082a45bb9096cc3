-- Orders and their confirmation calls (spec 2.1 to 2.4; CONTRACT §4).

-- One row per (shop, order.external_id): a creation never turns into an update. Each call on the order is an
-- attempt; a new attempt must carry a higher `previous_attempts` than the last one (CONTRACT §4, spec 7.3.2).
CREATE TABLE orders (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  shop_id uuid NOT NULL REFERENCES shops(id),
  external_id text NOT NULL,
  last_attempt integer NOT NULL DEFAULT 0 CHECK (last_attempt >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (shop_id, external_id)
);

CREATE TABLE calls (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts(id),
  shop_id uuid NOT NULL REFERENCES shops(id),
  order_id uuid NOT NULL REFERENCES orders(id),
  order_external_id text NOT NULL,
  previous_attempts integer NOT NULL DEFAULT 0 CHECK (previous_attempts >= 0),
  status text NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'ringing', 'in_progress', 'completed', 'no_answer', 'busy', 'voicemail', 'failed', 'canceled')),
  outcome text
    CHECK (outcome IN ('confirmed', 'declined', 'rescheduled', 'callback_requested', 'change_requested', 'wrong_number', 'no_decision')),
  end_reason text,
  customer_name text NOT NULL,
  customer_phone text NOT NULL,
  amount numeric NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency IN ('MAD', 'DZD', 'TND', 'EUR')),
  country text NOT NULL CHECK (country IN ('MA', 'DZ', 'TN', 'FR')),
  language text NOT NULL CHECK (language IN ('ar', 'fr')),
  dialect text NOT NULL CHECK (dialect IN ('ma', 'dz', 'tn', 'fr')),
  channel text NOT NULL,
  -- The resolved item lines as CallOut shows them: names, variant, unit price (decimal string), quantity.
  items jsonb NOT NULL,
  outcome_details jsonb,
  transcript jsonb,
  answered_at timestamptz,
  ended_at timestamptz,
  duration_seconds integer CHECK (duration_seconds >= 0),
  billed_seconds integer CHECK (billed_seconds >= 0),
  -- Relative to ${WAKHA_DATA_DIR}/recordings; null until the engine saves one (see src/engine/recordings.ts).
  recording_path text,
  recording_content_type text,
  recording_bytes bigint,
  recording_saved_at timestamptz,
  recording_purged_at timestamptz,
  -- Set by POST /v1/calls/{id}/cancel: the engine must not dial a queued call and must hang up a live one.
  cancel_requested_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX calls_account_seq ON calls (account_id, seq DESC);
CREATE INDEX calls_account_status_seq ON calls (account_id, status, seq DESC);
CREATE INDEX calls_account_outcome_seq ON calls (account_id, outcome, seq DESC) WHERE outcome IS NOT NULL;
CREATE INDEX calls_shop_seq ON calls (shop_id, seq DESC);
CREATE INDEX calls_account_created ON calls (account_id, created_at);
CREATE INDEX calls_order ON calls (order_id);
-- The 30-day purge reads recordings by age.
CREATE INDEX calls_recording_saved ON calls (recording_saved_at) WHERE recording_path IS NOT NULL AND recording_purged_at IS NULL;
