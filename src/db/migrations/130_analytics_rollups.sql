-- Issue 35, round 3: order analytics read from rollups, kept without slowing the writers.
--
-- The write path only appends: a trigger on calls and orders INSERTs one marker (account, order) into analytics_dirty
-- whenever something an order's figures depend on changes; no shared row is touched, so concurrent commits never queue
-- on each other. A job (foldAnalytics, src/services/analytics-rollups.ts) folds the markers every few seconds: it
-- recomputes the marked orders' figures from orders and calls (analytics_order_live), and applies the difference with
-- what was folded before (analytics_orders) to the rollups (analytics_counts, analytics_minutes). A query adds, for the
-- orders still marked, their live figures minus their folded ones, so its answer is exact at any moment.

-- Orders whose figures changed since the last fold. No index: the fold takes rows by ctid, a query reads one account's
-- (a few seconds of writes at most).
CREATE TABLE analytics_dirty (
  account_id uuid NOT NULL,
  order_id uuid NOT NULL
);

-- One order's figures, as computed from orders and calls now (only orders with at least one call).
CREATE VIEW analytics_order_live AS
SELECT o.id AS order_id, o.account_id, o.shop_id, o.created_at, c.country,
       extract(hour FROM c.first_dial AT TIME ZONE 'UTC')::smallint AS hour,
       floor(extract(epoch FROM c.first_dial - o.created_at))::integer AS delay_seconds,
       c.attempts, c.reached, o.resolution, o.delivery_status, c.billed,
       ARRAY(SELECT DISTINCT e->>'product_external_id' FROM calls p CROSS JOIN LATERAL jsonb_array_elements(p.items) e
             WHERE p.account_id = o.account_id AND p.order_external_id = o.external_id AND p.order_id = o.id
               AND e->>'product_external_id' IS NOT NULL ORDER BY 1) AS products
FROM orders o
CROSS JOIN LATERAL (
  SELECT count(*)::integer AS attempts, COALESCE(bool_or(c.status = 'completed'), false) AS reached,
         min(c.dialed_at) AS first_dial, sum(COALESCE(c.billed_seconds, 0))::bigint AS billed, min(c.country) AS country
  FROM calls c WHERE c.account_id = o.account_id AND c.order_external_id = o.external_id AND c.order_id = o.id
) c
WHERE c.attempts > 0;

-- The figures of each order as last folded into the rollups (the same columns as analytics_order_live).
CREATE TABLE analytics_orders (
  order_id uuid PRIMARY KEY,
  account_id uuid NOT NULL,
  shop_id uuid NOT NULL,
  created_at timestamptz NOT NULL,
  country text NOT NULL,
  hour smallint,
  delay_seconds integer,
  attempts integer NOT NULL,
  reached boolean NOT NULL,
  resolution text NOT NULL,
  delivery_status text,
  billed bigint NOT NULL,
  products text[] NOT NULL
);
CREATE INDEX analytics_orders_account_created ON analytics_orders (account_id, created_at);

-- Counts per account, shop (the nil uuid: all shops), grain ('d': UTC day, 'm': UTC month; period is its first day),
-- dimension (0 all, 1 country, 2 hour of first dial ('' never dialed), 3 attempts, 4 product) and the dimension's value.
CREATE TABLE analytics_counts (
  account_id uuid NOT NULL,
  shop_id uuid NOT NULL,
  grain "char" NOT NULL,
  dim smallint NOT NULL,
  period date NOT NULL,
  value text NOT NULL,
  orders integer NOT NULL,
  reached integer NOT NULL,
  confirmed integer NOT NULL,
  declined integer NOT NULL,
  other_outcomes integer NOT NULL,
  delivered integer NOT NULL,
  refused_or_returned integer NOT NULL,
  confirmed_delivered integer NOT NULL,
  billed bigint NOT NULL,
  PRIMARY KEY (account_id, shop_id, grain, dim, period, value)
);

-- The histogram of whole seconds from an order's creation to its first dial, per the same key: the exact median.
CREATE TABLE analytics_minutes (
  account_id uuid NOT NULL,
  shop_id uuid NOT NULL,
  grain "char" NOT NULL,
  dim smallint NOT NULL,
  period date NOT NULL,
  value text NOT NULL,
  seconds integer NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (account_id, shop_id, grain, dim, period, value, seconds)
);

-- The markers. A creation batch is one INSERT statement: one trigger run per batch, one INSERT ... SELECT.
CREATE FUNCTION analytics_mark_new_calls() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty (account_id, order_id) SELECT account_id, order_id FROM analytics_new_calls;
  RETURN NULL;
END $$;
CREATE TRIGGER analytics_calls_insert AFTER INSERT ON calls REFERENCING NEW TABLE AS analytics_new_calls
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_new_calls();

CREATE FUNCTION analytics_mark_call() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty (account_id, order_id) VALUES (OLD.account_id, OLD.order_id);
  IF TG_OP = 'UPDATE' AND (NEW.account_id, NEW.order_id) IS DISTINCT FROM (OLD.account_id, OLD.order_id) THEN
    INSERT INTO analytics_dirty (account_id, order_id) VALUES (NEW.account_id, NEW.order_id);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION analytics_mark_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty (account_id, order_id) VALUES (OLD.account_id, OLD.id);
  IF TG_OP = 'UPDATE' AND (NEW.account_id, NEW.id) IS DISTINCT FROM (OLD.account_id, OLD.id) THEN
    INSERT INTO analytics_dirty (account_id, order_id) VALUES (NEW.account_id, NEW.id);
  END IF;
  RETURN NULL;
END $$;
-- Only the columns the figures read; `WHEN` is checked before any function runs, so a call's other updates (heartbeats,
-- transcript, ringing, in progress) cost nothing.
CREATE TRIGGER analytics_calls_update AFTER UPDATE ON calls FOR EACH ROW
  WHEN ((OLD.status = 'completed') IS DISTINCT FROM (NEW.status = 'completed')
        OR OLD.dialed_at IS DISTINCT FROM NEW.dialed_at
        OR OLD.billed_seconds IS DISTINCT FROM NEW.billed_seconds
        OR OLD.country IS DISTINCT FROM NEW.country
        OR OLD.order_id IS DISTINCT FROM NEW.order_id
        OR OLD.account_id IS DISTINCT FROM NEW.account_id
        OR OLD.items IS DISTINCT FROM NEW.items)
  EXECUTE FUNCTION analytics_mark_call();
CREATE TRIGGER analytics_calls_delete AFTER DELETE ON calls FOR EACH ROW EXECUTE FUNCTION analytics_mark_call();
CREATE TRIGGER analytics_orders_update AFTER UPDATE ON orders FOR EACH ROW
  WHEN (OLD.resolution IS DISTINCT FROM NEW.resolution
        OR OLD.delivery_status IS DISTINCT FROM NEW.delivery_status
        OR OLD.created_at IS DISTINCT FROM NEW.created_at
        OR OLD.shop_id IS DISTINCT FROM NEW.shop_id
        OR OLD.account_id IS DISTINCT FROM NEW.account_id)
  EXECUTE FUNCTION analytics_mark_order();
CREATE TRIGGER analytics_orders_delete AFTER DELETE ON orders FOR EACH ROW EXECUTE FUNCTION analytics_mark_order();

-- Backfill: every existing order is marked; the fold job folds them in batches, and until then queries count them
-- live (exact, only slower). analyticsRebuild() (the bench, a repair) does the same set-based in one go.
INSERT INTO analytics_dirty (account_id, order_id) SELECT account_id, id FROM orders;
