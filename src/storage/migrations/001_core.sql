-- core 001 (schema version 1): syndicates, API keys, units and their links, co-owners.
-- Every business row carries syndicate_id; fractions are integer millionths of a percent;
-- timestamps are UTC instants as ISO 8601 text ("2026-11-21T19:42:58.123Z").

CREATE TABLE syndicates (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    is_demo      INTEGER NOT NULL DEFAULT 0,
    quorum_units INTEGER NOT NULL DEFAULT 51000000,
    created_at   TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    name         TEXT NOT NULL,
    key_hash     TEXT NOT NULL UNIQUE,
    key_prefix   TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    scopes       TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    revoked_at   TEXT
) STRICT;

CREATE TABLE units (
    id             TEXT PRIMARY KEY,
    syndicate_id   TEXT NOT NULL REFERENCES syndicates(id),
    number         TEXT NOT NULL,
    type           TEXT NOT NULL CHECK (type IN ('apartment', 'parking', 'storage', 'commercial')),
    floor          INTEGER,
    area_sq_ft     REAL,
    area_sq_m      REAL,
    bedrooms       INTEGER,
    bathrooms      REAL,
    fraction_units INTEGER NOT NULL DEFAULT 0 CHECK (fraction_units BETWEEN 0 AND 100000000),
    cadastral_lot  TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    deleted_at     TEXT
) STRICT;
CREATE UNIQUE INDEX units_number_unique ON units (syndicate_id, number COLLATE NOCASE)
    WHERE deleted_at IS NULL;

-- A parking or storage unit (unit_id) linked to one apartment.
CREATE TABLE unit_links (
    unit_id      TEXT PRIMARY KEY REFERENCES units(id),
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    apartment_id TEXT NOT NULL REFERENCES units(id)
) STRICT;
CREATE INDEX unit_links_apartment ON unit_links (apartment_id);

CREATE TABLE co_owners (
    id                TEXT PRIMARY KEY,
    syndicate_id      TEXT NOT NULL REFERENCES syndicates(id),
    unit_id           TEXT NOT NULL REFERENCES units(id),
    first_name        TEXT NOT NULL,
    last_name         TEXT NOT NULL,
    email             TEXT,
    phone             TEXT,
    fraction_units    INTEGER NOT NULL DEFAULT 0 CHECK (fraction_units BETWEEN 0 AND 100000000),
    is_resident       INTEGER NOT NULL DEFAULT 0,
    is_primary        INTEGER NOT NULL DEFAULT 0,
    language          TEXT NOT NULL DEFAULT 'fr' CHECK (language IN ('fr', 'en')),
    has_portal_access INTEGER NOT NULL DEFAULT 0,
    search_text       TEXT NOT NULL,  -- first name, last name and e-mail, folded (lower case, no accents)
    sort_key          TEXT NOT NULL,  -- last name, first name, folded: register order for French names
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    deleted_at        TEXT
) STRICT;
CREATE UNIQUE INDEX co_owners_one_primary_per_unit ON co_owners (unit_id)
    WHERE is_primary = 1 AND deleted_at IS NULL;
CREATE INDEX co_owners_by_name ON co_owners (syndicate_id, sort_key);
CREATE INDEX co_owners_by_unit ON co_owners (unit_id);
