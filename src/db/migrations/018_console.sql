-- The reseller console (issue 18): server-side sessions opened with an API key, and the account's console
-- preferences. A session is found by the SHA-256 of its cookie value; the value itself is never stored.

CREATE TABLE console_sessions (
  id_hash bytea PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  -- The key it was opened with: revoking that key ends the session (the lookup joins api_keys).
  key_id uuid NOT NULL REFERENCES api_keys(id),
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX console_sessions_key ON console_sessions (key_id);
CREATE INDEX console_sessions_expires ON console_sessions (expires_at);

CREATE TABLE console_preferences (
  account_id uuid PRIMARY KEY REFERENCES accounts(id),
  -- An IANA time zone the console shows times in.
  time_zone text NOT NULL
);

-- One key per installation, shared by every node: it signs the console's CSRF tokens (@fastify/csrf-protection's
-- hmacKey, binding each token to its session).
CREATE TABLE console_secret (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  key bytea NOT NULL
);
