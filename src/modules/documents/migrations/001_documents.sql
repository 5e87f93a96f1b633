-- documents 001 (schema version 2 before migrations were numbered by module, with meetings 001 and
-- core 002): the documents table as it began, the minutes of meetings, which documents 002 makes the
-- store of every file. Its REFERENCES meetings is resolved by SQLite when a row is written, after
-- every migration: the documents module needs none of the meetings' tables to exist first.

CREATE TABLE documents (
    id           TEXT PRIMARY KEY,
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    meeting_id   TEXT REFERENCES meetings(id),
    kind         TEXT NOT NULL,                 -- 'minutes'
    draft        INTEGER NOT NULL,
    language     TEXT NOT NULL,
    path         TEXT NOT NULL,
    pages        INTEGER NOT NULL,
    size_bytes   INTEGER NOT NULL,
    sha256       TEXT NOT NULL,
    created_at   TEXT NOT NULL
) STRICT;
CREATE INDEX documents_by_meeting ON documents (meeting_id, created_at);
