-- core 002 (schema version 2 before migrations were numbered by module, with meetings 001): the
-- outbox of messages waiting for delivery, the delivery layer's (core 008 adds its delivery
-- columns). meeting_id names a meetings row (the first messages were meetings' notices; core 008's
-- related_type and related_id say which record a message is about): SQLite resolves a REFERENCES
-- clause when a row is written, after every module's migrations have run.

-- Messages rendered and waiting for delivery (delivery comes later).
CREATE TABLE outbox (
    id           TEXT PRIMARY KEY,
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    meeting_id   TEXT REFERENCES meetings(id),
    co_owner_id  TEXT REFERENCES co_owners(id),
    channel      TEXT NOT NULL,
    recipient    TEXT NOT NULL,
    language     TEXT NOT NULL,
    subject      TEXT NOT NULL,
    body         TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'queued',
    created_at   TEXT NOT NULL
) STRICT;
CREATE INDEX outbox_by_status ON outbox (status, created_at);
