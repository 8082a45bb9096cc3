-- Issue 36: compliance as data on each call, and the customer's own opt-out named as such on the do-not-call list.
-- legal_basis: why the customer may be called (the order they placed; never marketing). recording_declined: the
-- customer objected to the recording during the call, and none is kept.
ALTER TABLE calls
  ADD COLUMN legal_basis text NOT NULL DEFAULT 'order_confirmation' CHECK (legal_basis IN ('order_confirmation')),
  ADD COLUMN recording_declined boolean NOT NULL DEFAULT false;

-- A customer's request during a call was source 'call' (issue 15); it is now 'customer_request', the call its evidence.
ALTER TABLE do_not_call DROP CONSTRAINT do_not_call_source_check;
UPDATE do_not_call SET source = 'customer_request' WHERE source = 'call';
ALTER TABLE do_not_call ADD CONSTRAINT do_not_call_source_check CHECK (source IN ('api', 'customer_request'));

-- customer.opted_out (issue 36). The list of event types lives in the code (domain/webhooks.ts EVENT_TYPES); the
-- table only checks the shape, so migrations that add types (this one and others' in parallel) stop undoing each other.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check CHECK (type ~ '^[a-z]+(_[a-z]+)*\.[a-z]+(_[a-z]+)*$');
