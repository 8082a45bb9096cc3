-- Stored responses of POST /v1/calls by Idempotency-Key (spec 7.3, part 8; CONTRACT §10).
-- Only a completed creation is stored: a request that fails writes nothing and can be retried with its key.
-- Rows older than 24 h are ignored by lookups, overwritten when their key comes back, and purged in batches
-- (src/services/idempotency.ts).
CREATE TABLE idempotency_keys (
  account_id uuid NOT NULL REFERENCES accounts(id),
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  -- SHA-256 of the operation and the canonical JSON of the parsed body.
  request_hash bytea NOT NULL,
  call_id uuid NOT NULL,
  response_status integer NOT NULL,
  -- The exact bytes sent the first time, replayed byte for byte.
  response_body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
