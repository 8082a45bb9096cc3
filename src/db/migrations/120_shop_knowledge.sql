-- The shop's knowledge (issue 37): the answers the agent may give during a call, read with the shop when a call is
-- placed. NULL: none set (GET answers 404 knowledge_not_configured).
ALTER TABLE shops ADD COLUMN knowledge jsonb, ADD COLUMN knowledge_updated_at timestamptz;

-- Rehearsals (POST /v1/simulations) replayed on their Idempotency-Key for 24 h, like calls (004_idempotency.sql),
-- in their own table: a rehearsal creates no call.
CREATE TABLE simulation_replays (
  account_id uuid NOT NULL,
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  request_hash bytea NOT NULL,
  response_body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);
CREATE INDEX simulation_replays_created ON simulation_replays (created_at);
