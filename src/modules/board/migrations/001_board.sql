-- board 001 (schema version 16): the board of directors (catalogue §4.3): the directors' mandates
-- (kept when they end), the interests a director declares (art. 324) and the manager's (gérant)
-- mandates (art. 1085), one active at a time. Days are "YYYY-MM-DD"; instants UTC ISO 8601; money
-- integer cents.

CREATE TABLE directors (
    id                TEXT PRIMARY KEY,
    syndicate_id      TEXT NOT NULL REFERENCES syndicates(id),
    co_owner_id       TEXT REFERENCES co_owners(id),  -- null: an outside director
    name              TEXT NOT NULL,
    email             TEXT,
    phone             TEXT,
    role              TEXT NOT NULL CHECK (role IN ('president', 'vice-president', 'secretary', 'treasurer', 'director')),
    appointed_by      TEXT NOT NULL CHECK (appointed_by IN ('meeting', 'board-vacancy', 'court', 'developer')),
    resolution_id     TEXT REFERENCES resolutions(id),
    term_start        TEXT NOT NULL,
    term_end          TEXT CHECK (term_end IS NULL OR term_end >= term_start),
    status            TEXT NOT NULL CHECK (status IN ('active', 'ended')),
    ended_on          TEXT,
    end_reason        TEXT CHECK (end_reason IS NULL OR end_reason IN ('term', 'resignation', 'removal', 'disqualified',
                                                                      'death', 'ownership-ended')),
    end_resolution_id TEXT REFERENCES resolutions(id),  -- the meeting's decision to remove
    end_document_id   TEXT REFERENCES documents(id),    -- a resignation letter, a death certificate...
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    CHECK ((status = 'active') = (ended_on IS NULL AND end_reason IS NULL))
) STRICT;
CREATE INDEX directors_by_status ON directors (syndicate_id, status, term_start);
-- One president, one secretary, one treasurer at a time (DUPLICATE_OFFICER is checked first).
CREATE UNIQUE INDEX directors_one_officer ON directors (syndicate_id, role)
    WHERE status = 'active' AND role IN ('president', 'secretary', 'treasurer');

CREATE TABLE interest_disclosures (
    id            TEXT PRIMARY KEY,
    syndicate_id  TEXT NOT NULL REFERENCES syndicates(id),
    director_id   TEXT NOT NULL REFERENCES directors(id),
    disclosed_on  TEXT NOT NULL,
    subject_type  TEXT NOT NULL CHECK (subject_type IN ('contractor', 'project', 'contract', 'other')),
    subject_id    TEXT,
    nature        TEXT NOT NULL,
    value_cents   INTEGER CHECK (value_cents IS NULL OR value_cents >= 0),
    meeting_id    TEXT REFERENCES meetings(id),   -- the board meeting whose minutes record it
    document_id   TEXT REFERENCES documents(id),
    active        INTEGER NOT NULL DEFAULT 1,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
) STRICT;
CREATE INDEX interest_disclosures_by_director ON interest_disclosures (syndicate_id, director_id, disclosed_on);
CREATE INDEX interest_disclosures_by_subject ON interest_disclosures (syndicate_id, subject_type, subject_id);

CREATE TABLE management_mandates (
    id                  TEXT PRIMARY KEY,
    syndicate_id        TEXT NOT NULL REFERENCES syndicates(id),
    manager_name        TEXT NOT NULL,
    firm                TEXT,
    contractor_id       TEXT REFERENCES contractors(id),
    email               TEXT,
    phone               TEXT,
    start_on            TEXT NOT NULL,
    end_on              TEXT CHECK (end_on IS NULL OR end_on >= start_on),
    fee_cents_per_month INTEGER CHECK (fee_cents_per_month IS NULL OR fee_cents_per_month >= 0),
    delegated_powers    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(delegated_powers) AND json_type(delegated_powers) = 'array'),
    resolution_id       TEXT NOT NULL REFERENCES resolutions(id),
    document_id         TEXT REFERENCES documents(id),
    status              TEXT NOT NULL CHECK (status IN ('active', 'ended')),
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL
) STRICT;
-- One active mandate at a time: a new one ends the previous.
CREATE UNIQUE INDEX management_mandates_one_active ON management_mandates (syndicate_id) WHERE status = 'active';
CREATE INDEX management_mandates_by_start ON management_mandates (syndicate_id, start_on);
