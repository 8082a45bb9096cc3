-- Issue 31.3: a call that finds the balance held by the account's live calls waits for a hold to free, parked like a
-- call over the concurrency cap, with wait_lines = '{balance}' (no caller line has that name: theirs are
-- `provider:number`). The end of a call of the account wakes the oldest; the dispatcher hands out what ends missed.
CREATE INDEX calls_balance_waiting ON calls (account_id, seq)
  WHERE status = 'queued' AND deferred_until = 'infinity' AND wait_lines = '{balance}'::text[];
