-- Issue 19: a call's creation is one write statement in a transaction of its own (src/services/calls.ts): the order,
-- the call, the idempotency record and pg-boss's place-call job. Some of its parts write nothing without an error: the
-- call when the order already has this attempt (ON CONFLICT ... WHERE), the job when pg-boss's INSERT ... ON CONFLICT
-- DO NOTHING finds its queue missing or its id taken. The statement then calls this to abort itself with its own
-- SQLSTATE, so nothing of it is committed: never a job without its call, nor a call without the job that will dial it.
CREATE FUNCTION wakha_check(ok boolean, code text, message text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION '%', message USING ERRCODE = code;
  END IF;
  RETURN true;
END
$$;

-- The foreign keys a creation's rows would check: each is a row lock (FOR KEY SHARE) on the parent. With 50 creations
-- in flight on one account and one shop, those locks on the same two rows make MultiXacts, and the checks cost about a
-- fifth of PostgreSQL's CPU per creation (bench/results/notes.md, 2026-11-24). Dropped, because nothing can break them:
--   calls.order_id: the same statement writes (or locks, by its upsert) the order first.
--   calls.account_id, calls.shop_id, orders.account_id, orders.shop_id, idempotency_keys.account_id: the creation reads
--   the account and the active shop of the key's account just before its write, and accounts, shops and orders are
--   never deleted (a shop is archived; test/parent-rows.test.ts keeps any DELETE of them out of src/).
ALTER TABLE calls DROP CONSTRAINT calls_order_id_fkey;
ALTER TABLE calls DROP CONSTRAINT calls_account_id_fkey;
ALTER TABLE calls DROP CONSTRAINT calls_shop_id_fkey;
ALTER TABLE orders DROP CONSTRAINT orders_account_id_fkey;
ALTER TABLE orders DROP CONSTRAINT orders_shop_id_fkey;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_account_id_fkey;

-- Indexes on orders that no query reads (each is one more entry per creation):
--   orders_seq_key: uniqueness of seq, which GENERATED ALWAYS AS IDENTITY already gives; the list's keyset goes through
--   orders_account_seq (as calls_seq_key, dropped by 009).
--   orders_account_created: the created_after/created_before filters of GET /v1/orders ride on orders_account_seq, the
--   list being newest first by seq (as calls_account_created, dropped by 009).
ALTER TABLE orders DROP CONSTRAINT orders_seq_key;
DROP INDEX orders_account_created;
