-- meetings 001 (schema version 2 before migrations were numbered by module, with core 002, the
-- outbox, and documents 001, the minutes' table): meetings, their attendance, resolutions and
-- votes. Fractions are integer millionths of a percent.

CREATE TABLE meetings (
    id                 TEXT PRIMARY KEY,
    syndicate_id       TEXT NOT NULL REFERENCES syndicates(id),
    title              TEXT NOT NULL,
    type               TEXT NOT NULL CHECK (type IN ('aga', 'aga-special', 'board')),
    status             TEXT NOT NULL DEFAULT 'draft'
                       CHECK (status IN ('draft', 'notice-sent', 'held', 'minutes-sent')),
    scheduled_at       TEXT NOT NULL,            -- UTC instant
    location           TEXT NOT NULL,
    agenda             TEXT NOT NULL DEFAULT '[]',  -- JSON array of strings
    notice_sent_at     TEXT,
    notice_channel     TEXT,
    notice_with_agenda INTEGER,
    notice_justification TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
) STRICT;
CREATE INDEX meetings_by_date ON meetings (syndicate_id, scheduled_at);

-- Who attended, as recorded; name and fraction are kept as they were at the meeting.
CREATE TABLE meeting_attendees (
    meeting_id     TEXT NOT NULL REFERENCES meetings(id),
    co_owner_id    TEXT NOT NULL REFERENCES co_owners(id),
    syndicate_id   TEXT NOT NULL REFERENCES syndicates(id),
    name           TEXT NOT NULL,
    fraction_units INTEGER NOT NULL,
    attendance     TEXT NOT NULL CHECK (attendance IN ('present', 'proxy', 'absent')),
    proxy_holder   TEXT,
    recorded_at    TEXT NOT NULL,
    PRIMARY KEY (meeting_id, co_owner_id)
) STRICT;

CREATE TABLE resolutions (
    id                TEXT PRIMARY KEY,
    meeting_id        TEXT NOT NULL REFERENCES meetings(id),
    syndicate_id      TEXT NOT NULL REFERENCES syndicates(id),
    position          INTEGER NOT NULL,
    title             TEXT NOT NULL,
    description       TEXT NOT NULL DEFAULT '',
    majority_required TEXT NOT NULL CHECK (majority_required IN ('simple', 'absolute', 'special')),
    votes_recorded    INTEGER NOT NULL DEFAULT 0,
    votes_for         INTEGER NOT NULL DEFAULT 0,
    votes_against     INTEGER NOT NULL DEFAULT 0,
    votes_abstain     INTEGER NOT NULL DEFAULT 0,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL
) STRICT;
CREATE INDEX resolutions_by_meeting ON resolutions (meeting_id, position);
