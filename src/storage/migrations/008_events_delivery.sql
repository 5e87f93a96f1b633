-- core 008 (schema version 14): the events of catalogue section 6, written in each write's own
-- transaction (a refused call writes none), the webhooks that subscribe to them, one delivery per
-- event and webhook, and the outbox's delivery columns: a message is claimed with a lease, sent
-- over SMTP, retried with back-off, and ends sent or failed with the server's answer.

CREATE TABLE events (
    seq          INTEGER PRIMARY KEY,          -- the order the events happened in
    id           TEXT NOT NULL UNIQUE,
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    type         TEXT NOT NULL,
    record_type  TEXT NOT NULL,
    record_id    TEXT NOT NULL,
    occurred_at  TEXT NOT NULL,                -- UTC instant
    body         TEXT NOT NULL CHECK (json_valid(body))  -- the envelope, as every attempt posts it
) STRICT;
CREATE INDEX events_by_syndicate ON events (syndicate_id, seq);

-- The signing secret is not stored: it is derived from the key in <database>.webhook-key, the
-- webhook's id and its secret_generation (src/delivery/webhook_secrets.hpp).
CREATE TABLE webhooks (
    id                    TEXT PRIMARY KEY,
    syndicate_id          TEXT NOT NULL REFERENCES syndicates(id),
    url                   TEXT NOT NULL,
    events                TEXT NOT NULL CHECK (json_valid(events)),  -- JSON array of names and module.* wildcards
    active                INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    description           TEXT,
    secret_generation     INTEGER NOT NULL DEFAULT 1,
    secret_prefix         TEXT NOT NULL,
    previous_secret_until TEXT,               -- the previous generation also signs until then
    consecutive_failures  INTEGER NOT NULL DEFAULT 0,
    last_delivery_at      TEXT,
    paused_at             TEXT,               -- paused by the server after repeated failures
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL,
    deleted_at            TEXT
) STRICT;
CREATE INDEX webhooks_by_syndicate ON webhooks (syndicate_id, created_at);

CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    syndicate_id    TEXT NOT NULL REFERENCES syndicates(id),
    webhook_id      TEXT NOT NULL REFERENCES webhooks(id),
    event_seq       INTEGER NOT NULL REFERENCES events(seq),
    event_id        TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    record_key      TEXT NOT NULL,             -- record_type/record_id: deliveries of one record go in order
    attempt         INTEGER NOT NULL DEFAULT 0,
    status          TEXT NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'succeeded', 'failed', 'abandoned')),
    response_status INTEGER,
    error           TEXT,
    next_attempt_at TEXT NOT NULL,
    delivered_at    TEXT,
    lease_owner     TEXT,
    lease_until     TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_record ON webhook_deliveries (webhook_id, record_key, event_seq);
CREATE INDEX webhook_deliveries_by_syndicate ON webhook_deliveries (syndicate_id, created_at);

ALTER TABLE outbox ADD COLUMN related_type TEXT;
ALTER TABLE outbox ADD COLUMN related_id TEXT;
ALTER TABLE outbox ADD COLUMN attachments TEXT NOT NULL DEFAULT '[]';
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN error TEXT;
ALTER TABLE outbox ADD COLUMN sent_at TEXT;
ALTER TABLE outbox ADD COLUMN next_attempt_at TEXT;
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until TEXT;
ALTER TABLE outbox ADD COLUMN updated_at TEXT;
UPDATE outbox SET related_type = 'meeting', related_id = meeting_id WHERE meeting_id IS NOT NULL;
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
CREATE INDEX outbox_by_syndicate ON outbox (syndicate_id, created_at);

-- What the daily tick has already announced: one derived event per record and state.
CREATE TABLE derived_event_marks (
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    type         TEXT NOT NULL,
    record_id    TEXT NOT NULL,
    state        TEXT NOT NULL,
    emitted_at   TEXT NOT NULL,
    PRIMARY KEY (syndicate_id, type, record_id, state)
) STRICT;
