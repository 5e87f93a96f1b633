-- core 005 (schema version 5): the audit trail. One row per record a tool call created, changed or
-- deleted: who (an API key, or a user through an OAuth application), when, which tool, which
-- record, and the change (the stored columns that changed, before and after, as a JSON object).
-- Rows are written by the registry in the same transaction as the change itself, so a write and its
-- audit row are kept or lost together. Nothing may change or delete them: the triggers below refuse
-- it.

CREATE TABLE audit_events (
    seq          INTEGER PRIMARY KEY,          -- the order of writing
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    occurred_at  TEXT NOT NULL,                -- UTC instant
    actor_kind   TEXT NOT NULL CHECK (actor_kind IN ('api-key', 'user', 'system')),
    actor_id     TEXT NOT NULL,                -- api_keys.id or users.id, never a secret; 'syndic-mcp'
                                               -- for the program's own writes (the demo's seeding)
    client_id    TEXT,                         -- the OAuth application a user called through
    tool         TEXT NOT NULL,
    record_type  TEXT NOT NULL,                -- 'co-owner', 'unit', 'meeting'...
    record_id    TEXT NOT NULL,
    action       TEXT NOT NULL CHECK (action IN ('create', 'update', 'archive', 'restore', 'delete')),
    changes      TEXT NOT NULL                 -- {"column": {"before": .., "after": ..}}
) STRICT;
CREATE INDEX audit_events_by_syndicate ON audit_events (syndicate_id, seq);
CREATE INDEX audit_events_by_record ON audit_events (syndicate_id, record_id, seq);

CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events BEGIN
    SELECT RAISE(ABORT, 'audit events cannot be changed');
END;
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events BEGIN
    SELECT RAISE(ABORT, 'audit events cannot be deleted');
END;
