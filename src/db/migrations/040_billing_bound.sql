-- Issue 31.1: billed seconds never exceed the wall-clock time from the answer to the end plus a small tolerance,
-- whatever the carrier reports. A report over that bound is kept on the call, not billed: what was reported, what
-- was billed and why (CallOut.billing_adjustment).
ALTER TABLE calls ADD COLUMN billing_adjustment jsonb;
