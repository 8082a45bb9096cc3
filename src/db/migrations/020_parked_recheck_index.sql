-- Issue 15: the index of the sweep's second look at parked calls (calls_parked, 017) also matched the wake's query (the
-- oldest call parked for an account's place): on a fresh or unanalysed table the planner took it, read every parked
-- call and sorted them at each end of a call (the burst bench: about 3,500 rows read per end, a third of PostgreSQL's
-- work). `updated_at IS NOT NULL` is implied by the sweep's `updated_at < ...` but not by the wake's query, so only the
-- sweep can use it now; the wake keeps calls_account_waiting (account, seq).
DROP INDEX calls_parked;
CREATE INDEX calls_parked ON calls (updated_at) WHERE status = 'queued' AND deferred_until = 'infinity' AND updated_at IS NOT NULL;
