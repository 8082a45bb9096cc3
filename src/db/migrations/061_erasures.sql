-- Issue 36.4: erasure requests. The row is the audit record: who asked (the key), when, what was erased, when it
-- finished. The number is kept only while the job runs, and cleared with its completion (keeping it would keep what
-- is erased).
CREATE TABLE erasures (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts(id),
  key_id uuid NOT NULL REFERENCES api_keys(id),
  phone_number text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed')),
  counts jsonb,
  store_write_backs jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  CHECK ((status = 'completed') = (phone_number IS NULL))
);
CREATE INDEX erasures_account_seq ON erasures (account_id, seq DESC);
