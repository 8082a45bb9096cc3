-- Issue 20, finding 3: a live call holds part of its account's balance (src/engine/call-states.ts). A call is
-- dialled only when the balance not held by the account's other live calls covers the 10-second minimum; the
-- dialer extends the hold as the call goes on and closes the call before it runs out. The hold is released when
-- the call ends (held seconds only count while ended_at IS NULL), in the transaction that bills it.
ALTER TABLE calls ADD COLUMN held_seconds integer NOT NULL DEFAULT 0 CHECK (held_seconds >= 0);

-- An account's live holds: summed under the account's row lock whenever a hold is taken or extended.
CREATE INDEX calls_account_held ON calls (account_id) WHERE ended_at IS NULL AND held_seconds > 0;

-- The balance gate no longer sums the connected seconds of an account's answered calls (the holds replace it), so
-- no query reads this index any more (migration 009 lists what each index on calls serves).
DROP INDEX IF EXISTS calls_account_connected;
