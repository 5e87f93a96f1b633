-- water-heaters 001 (schema version 6): the water heaters of the building (chauffe-eau), and the
-- age at which the syndicate's insurer wants them replaced. Dates are calendar dates
-- ("2016-05-01"); replaceBy and the status are computed when read, from the manufacture date (or
-- the installation date when the manufacture date is unknown) and the syndicate's replacement age.

ALTER TABLE syndicates ADD COLUMN water_heater_replacement_years INTEGER NOT NULL DEFAULT 10
    CHECK (water_heater_replacement_years BETWEEN 1 AND 30);

CREATE TABLE water_heaters (
    id                            TEXT PRIMARY KEY,
    syndicate_id                  TEXT NOT NULL REFERENCES syndicates(id),
    unit_id                       TEXT REFERENCES units(id),   -- null: in the common portions
    brand                         TEXT,
    model                         TEXT,
    serial_number                 TEXT,
    capacity_litres               REAL CHECK (capacity_litres > 0),
    manufacture_date              TEXT,
    install_date                  TEXT,
    has_drain_pan                 INTEGER NOT NULL DEFAULT 0 CHECK (has_drain_pan IN (0, 1)),
    has_leak_detector             INTEGER NOT NULL DEFAULT 0 CHECK (has_leak_detector IN (0, 1)),
    has_auto_shutoff              INTEGER NOT NULL DEFAULT 0 CHECK (has_auto_shutoff IN (0, 1)),
    replacement_proof_document_id TEXT REFERENCES documents(id),
    notes                         TEXT,
    created_at                    TEXT NOT NULL,
    updated_at                    TEXT NOT NULL,
    deleted_at                    TEXT
) STRICT;
CREATE INDEX water_heaters_by_unit ON water_heaters (syndicate_id, unit_id) WHERE deleted_at IS NULL;
