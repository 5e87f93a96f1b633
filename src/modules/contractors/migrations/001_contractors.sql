-- contractors 001 (schema version 8): the contractors and professionals the syndicate deals with
-- (entrepreneurs), with their Régie du bâtiment licence (RBQ), their Quebec enterprise number (NEQ)
-- and the expiry of their liability insurance.

CREATE TABLE contractors (
    id                 TEXT PRIMARY KEY,
    syndicate_id       TEXT NOT NULL REFERENCES syndicates(id),
    name               TEXT NOT NULL,
    trade              TEXT NOT NULL,
    contact_name       TEXT,
    email              TEXT,
    phone              TEXT,
    rbq_licence        TEXT,        -- "5678-1234-01"
    neq                TEXT,        -- ten digits
    insurance_expiry   TEXT,
    professional_order TEXT,
    notes              TEXT,
    search_text        TEXT NOT NULL,  -- name and trade, folded (lower case, no accents)
    sort_key           TEXT NOT NULL,  -- name, folded
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    deleted_at         TEXT
) STRICT;
CREATE INDEX contractors_by_name ON contractors (syndicate_id, sort_key) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX contractors_neq_unique ON contractors (syndicate_id, neq)
    WHERE deleted_at IS NULL AND neq IS NOT NULL;
