-- requests 001: the residents' service requests (catalogue §4.9): a leak, noise, keys, a document,
-- approval of renovations in a private portion; their priority and due day by the settings'
-- service delays, comments (internal, or replies to the requester), and what resolved them: work
-- recorded in the logbook, a project, a dispute. Numbered R-<year>-<NNNN> per syndicate and year.
CREATE TABLE requests (
    id                       TEXT PRIMARY KEY,
    syndicate_id             TEXT NOT NULL REFERENCES syndicates(id),
    number                   TEXT NOT NULL,
    requester_co_owner_id    TEXT REFERENCES co_owners(id),
    requester_occupancy_id   TEXT,  -- the register's occupancies (batch 4), checked by the code
    requester_name           TEXT NOT NULL,
    unit_id                  TEXT REFERENCES units(id),
    category                 TEXT NOT NULL CHECK (category IN ('maintenance', 'leak', 'noise', 'security', 'parking', 'access-keys',
                                 'document', 'renovation-approval', 'other')),
    location                 TEXT NOT NULL CHECK (location IN ('private', 'common')),
    common_portion_id        TEXT REFERENCES common_portions(id),
    component_id             TEXT REFERENCES logbook_components(id),
    priority                 TEXT NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
    status                   TEXT NOT NULL DEFAULT 'open'
                             CHECK (status IN ('open', 'acknowledged', 'in-progress', 'resolved', 'closed', 'rejected')),
    assignee_director_id     TEXT REFERENCES directors(id),
    contractor_id            TEXT REFERENCES contractors(id),
    description              TEXT NOT NULL,
    due_on                   TEXT NOT NULL,
    outside_syndicate_scope  INTEGER NOT NULL DEFAULT 0 CHECK (outside_syndicate_scope IN (0, 1)),
    resolution               TEXT,
    renovation_decision      TEXT CHECK (renovation_decision IS NULL OR renovation_decision IN ('approved', 'refused')),
    resolved_on              TEXT,
    project_id               TEXT,  -- the projects module's, checked by the code
    maintenance_record_id    TEXT REFERENCES maintenance_records(id),
    dispute_id               TEXT,  -- the disputes module's (batch 4)
    document_ids             TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(document_ids)),
    search_text              TEXT NOT NULL,
    created_at               TEXT NOT NULL,
    updated_at               TEXT NOT NULL,
    CHECK ((status IN ('resolved', 'closed')) = (resolved_on IS NOT NULL) OR status = 'rejected')
) STRICT;
CREATE UNIQUE INDEX requests_by_number ON requests (syndicate_id, number);
CREATE INDEX requests_by_status ON requests (syndicate_id, status, due_on);

CREATE TABLE request_comments (
    id           TEXT PRIMARY KEY,
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    request_id   TEXT NOT NULL REFERENCES requests(id),
    author       TEXT NOT NULL,
    body         TEXT NOT NULL,
    visibility   TEXT NOT NULL CHECK (visibility IN ('internal', 'requester')),
    created_at   TEXT NOT NULL
) STRICT;
CREATE INDEX request_comments_by_request ON request_comments (request_id, created_at);
