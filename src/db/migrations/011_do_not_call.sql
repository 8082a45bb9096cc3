-- Issue 15: the account's do-not-call list. A listed number is refused at call creation and never dialled;
-- a customer who asks during a call not to be called again is added by the call's end (source 'call').

CREATE TABLE do_not_call (
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts(id),
  phone_number text NOT NULL,
  source text NOT NULL CHECK (source IN ('api', 'call')),
  reason text,
  call_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, phone_number)
);
CREATE INDEX do_not_call_account_seq ON do_not_call (account_id, seq DESC);
