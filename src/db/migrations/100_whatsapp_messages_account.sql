-- Issue 38.3: the console's WhatsApp page lists an account's latest messages, newest first.
CREATE INDEX whatsapp_messages_account_created ON whatsapp_messages (account_id, created_at DESC);
