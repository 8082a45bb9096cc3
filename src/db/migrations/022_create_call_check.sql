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
