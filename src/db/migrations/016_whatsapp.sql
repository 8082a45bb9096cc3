-- Issue 16, the WhatsApp fallback: per-account Cloud API settings, the messages Wakha sends on an order (templates and
-- the one clarifying message) with their delivery statuses, and the customer's replies kept on the order.

CREATE TABLE whatsapp_settings (
  account_id uuid PRIMARY KEY REFERENCES accounts(id),
  phone_number_id text NOT NULL,
  -- The Cloud API access token, sealed like webhook secrets (crypto/secret-box.ts); never shown again.
  access_token_sealed text NOT NULL,
  token_last4 text NOT NULL,
  -- {"ar": {"name": "...", "language": "ar"}, "fr": {...}}: the approved template per language.
  templates jsonb NOT NULL,
  fallback text NOT NULL DEFAULT 'after_last_attempt' CHECK (fallback IN ('after_last_attempt', 'immediately')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE whatsapp_messages (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  order_id uuid NOT NULL REFERENCES orders(id),
  -- The call whose end sent it (the template), or null (the clarifying message).
  call_id uuid REFERENCES calls(id),
  -- The order's attempt (previous_attempts + 1 of the call) the template follows; one template and one clarifying
  -- message per order and attempt, whatever the races.
  attempt integer NOT NULL CHECK (attempt >= 1),
  kind text NOT NULL CHECK (kind IN ('template', 'clarification')),
  to_phone text NOT NULL,
  language text NOT NULL,
  -- The Cloud API's message id (wamid...), once accepted.
  wamid text UNIQUE,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'accepted', 'sent', 'delivered', 'read', 'failed', 'skipped')),
  -- Why it failed or was skipped: {code, title, message, details} from the API, or {reason: "do_not_call" | ...}.
  error jsonb,
  sent_at timestamptz,
  delivered_at timestamptz,
  read_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (order_id, attempt, kind)
);
CREATE INDEX whatsapp_messages_phone ON whatsapp_messages (to_phone, created_at DESC);

CREATE TABLE order_messages (
  message_id text PRIMARY KEY REFERENCES inbound_messages(message_id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  order_id uuid NOT NULL REFERENCES orders(id),
  -- `button` (a quick-reply or reply button), `text`, or another WhatsApp type kept as received.
  kind text NOT NULL,
  text text,
  -- The button's payload or id, as WhatsApp returned it.
  payload text,
  -- What Wakha read in it: the classifier's intent (text) or the button's; the resolution it settled, if any.
  intent text,
  resolution text,
  -- What Wakha did: settled, clarified, clarification_refused (window expired), call_scheduled, ignored.
  action text NOT NULL,
  sent_at timestamptz,
  received_at timestamptz NOT NULL
);
CREATE INDEX order_messages_order ON order_messages (order_id, received_at);

-- Every delivery status WhatsApp reported, once each (duplicates ignored); kept apart from the message so a status
-- that arrives before the send's own answer is not lost. The message's status is the furthest of them.
CREATE TABLE whatsapp_statuses (
  wamid text NOT NULL,
  status text NOT NULL CHECK (status IN ('sent', 'delivered', 'read', 'failed')),
  at timestamptz NOT NULL,
  error jsonb,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (wamid, status)
);
