-- Issue 31.5: calls go only to mobile and fixed-line numbers of the call's country (no premium-rate, shared-cost,
-- satellite, personal or foreign numbers: the tools of revenue-share fraud) unless the account allows any valid
-- number (`wakha accounts set ACCOUNT_ID --allow-any-number on`). The per-number daily limit reads calls by phone
-- through calls_customer_phone_created (migration 006).
ALTER TABLE accounts ADD COLUMN allow_any_number boolean NOT NULL DEFAULT false;
