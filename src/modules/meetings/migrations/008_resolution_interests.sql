-- meetings 008: a director may declare an interest in a resolution (catalogue §4.3, subjectType
-- resolution): at a board meeting, that director abstains on it and is left out of its base
-- (arts. 324-326; catalogue §3.2). The table is the board's (board 001), rebuilt here because SQLite
-- cannot widen a CHECK in place and the table references meetings: dropping it re-reads that
-- reference, which only resolves once this module's tables exist. Same rows, columns and indexes.

CREATE TEMP TABLE interest_disclosures_copy AS SELECT * FROM interest_disclosures;
DROP TABLE interest_disclosures;
CREATE TABLE interest_disclosures (
    id            TEXT PRIMARY KEY,
    syndicate_id  TEXT NOT NULL REFERENCES syndicates(id),
    director_id   TEXT NOT NULL REFERENCES directors(id),
    disclosed_on  TEXT NOT NULL,
    subject_type  TEXT NOT NULL CHECK (subject_type IN ('contractor', 'project', 'contract', 'resolution', 'other')),
    subject_id    TEXT,
    nature        TEXT NOT NULL,
    value_cents   INTEGER CHECK (value_cents IS NULL OR value_cents >= 0),
    meeting_id    TEXT REFERENCES meetings(id),   -- the board meeting whose minutes record it
    document_id   TEXT REFERENCES documents(id),
    active        INTEGER NOT NULL DEFAULT 1,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
) STRICT;
INSERT INTO interest_disclosures
    SELECT id, syndicate_id, director_id, disclosed_on, subject_type, subject_id, nature, value_cents, meeting_id,
           document_id, active, created_at, updated_at FROM interest_disclosures_copy;
DROP TABLE interest_disclosures_copy;
CREATE INDEX interest_disclosures_by_director ON interest_disclosures (syndicate_id, director_id, disclosed_on);
CREATE INDEX interest_disclosures_by_subject ON interest_disclosures (syndicate_id, subject_type, subject_id);
