-- Shops, products and their variants (spec 2.5, 2.6; CONTRACT §3b).
-- External ids stay reserved after archiving: a creation never turns into an update or a revival.

CREATE TABLE shops (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts(id),
  external_id text NOT NULL,
  merchant_external_id text NOT NULL,
  name text NOT NULL,
  contact_phone text,
  default_country text CHECK (default_country IN ('MA', 'DZ', 'TN', 'FR')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  archived_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, external_id)
);
CREATE INDEX shops_account_seq ON shops (account_id, seq DESC);
CREATE INDEX shops_account_merchant ON shops (account_id, merchant_external_id);

CREATE TABLE products (
  id uuid PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  shop_id uuid NOT NULL REFERENCES shops(id),
  external_id text NOT NULL,
  name text NOT NULL,
  description text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  archived_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (shop_id, external_id)
);
CREATE INDEX products_shop_seq ON products (shop_id, seq DESC);

-- A retired variant keeps its row (past orders may name it) but is no longer offered or resolvable.
CREATE TABLE product_variants (
  id uuid PRIMARY KEY,
  product_id uuid NOT NULL REFERENCES products(id),
  variant_external_id text NOT NULL,
  name text,
  price numeric NOT NULL CHECK (price >= 0 AND scale(price) <= 3 AND price < 1e12),
  position integer NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retired')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (product_id, variant_external_id)
);
