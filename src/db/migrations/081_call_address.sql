-- Issue 35: the delivery address given with a call (CallCreate customer.address), read back after a confirmation.
ALTER TABLE calls ADD COLUMN customer_address jsonb;
