-- Accounts, API keys and their audit trail, and the balance ledger.

CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  balance_seconds bigint NOT NULL DEFAULT 0 CHECK (balance_seconds >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts(id),
  name text,
  prefix text NOT NULL,
  key_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_account_seq ON api_keys (account_id, seq DESC);

CREATE TABLE api_key_events (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  key_id uuid NOT NULL REFERENCES api_keys(id),
  type text NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_key_events_key_seq ON api_key_events (key_id, seq DESC);

CREATE TABLE transactions (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts(id),
  type text NOT NULL CHECK (type IN ('credit', 'debit')),
  seconds bigint NOT NULL CHECK ((type = 'credit' AND seconds > 0) OR (type = 'debit' AND seconds < 0)),
  balance_after bigint NOT NULL CHECK (balance_after >= 0),
  call_id uuid,
  description text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transactions_account_seq ON transactions (account_id, seq DESC);
CREATE INDEX transactions_account_created ON transactions (account_id, created_at);
-- Each billed call has exactly one debit.
CREATE UNIQUE INDEX transactions_one_debit_per_call ON transactions (call_id) WHERE type = 'debit';
