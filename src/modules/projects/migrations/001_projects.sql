-- projects 001: works on the building from proposal to warranty (catalogue §4.8): the project with
-- its budget and funding, the decision that approved it, quotes, the contract awarded, tasks,
-- change orders, progress, invoices with their holdback, acceptance with its deficiencies, closing
-- into the logbook, and warranty claims. Numbered P-<year>-<NNN>. Money in integer cents.
CREATE TABLE projects (
    id                          TEXT PRIMARY KEY,
    syndicate_id                TEXT NOT NULL REFERENCES syndicates(id),
    number                      TEXT NOT NULL,
    title                       TEXT NOT NULL,
    description                 TEXT,
    category                    TEXT NOT NULL CHECK (category IN ('maintenance', 'major-repair', 'replacement', 'improvement', 'emergency', 'study')),
    emergency_works             TEXT CHECK (emergency_works IS NULL OR emergency_works IN ('major-repair', 'replacement', 'maintenance', 'other')),
    status                      TEXT NOT NULL DEFAULT 'proposed'
                                CHECK (status IN ('proposed', 'approved', 'in-progress', 'completed', 'closed', 'cancelled')),
    common_portion_ids          TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(common_portion_ids)),
    component_ids               TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(component_ids)),
    request_id                  TEXT REFERENCES requests(id),
    insurance_claim_id          TEXT REFERENCES insurance_claims(id),
    budget_cents                INTEGER NOT NULL CHECK (budget_cents BETWEEN 0 AND 100000000000000),
    funding_sources             TEXT NOT NULL CHECK (json_valid(funding_sources)),
    approval_resolution_id      TEXT REFERENCES resolutions(id),
    approval_body               TEXT,
    approval_majority           TEXT,
    approved_on                 TEXT,
    contestable_until           TEXT,
    contractor_id               TEXT REFERENCES contractors(id),
    quote_id                    TEXT,
    contract_amount_cents       INTEGER,
    award_resolution_id         TEXT REFERENCES resolutions(id),
    planned_start               TEXT,
    planned_end                 TEXT,
    actual_start                TEXT,
    completed_on                TEXT,
    acceptance_document_id      TEXT REFERENCES documents(id),
    warranty_ends_on            TEXT,
    structural_warranty_ends_on TEXT,
    holdback_releasable_on      TEXT,
    progress_percent            INTEGER NOT NULL DEFAULT 0 CHECK (progress_percent BETWEEN 0 AND 100),
    cancel_reason               TEXT,
    closed_on                   TEXT,
    search_text                 TEXT NOT NULL,
    created_at                  TEXT NOT NULL,
    updated_at                  TEXT NOT NULL,
    deleted_at                  TEXT
) STRICT;
CREATE UNIQUE INDEX projects_by_number ON projects (syndicate_id, number);
CREATE INDEX projects_by_status ON projects (syndicate_id, status);

CREATE TABLE project_quotes (
    id                  TEXT PRIMARY KEY,
    syndicate_id        TEXT NOT NULL REFERENCES syndicates(id),
    project_id          TEXT NOT NULL REFERENCES projects(id),
    contractor_id       TEXT NOT NULL REFERENCES contractors(id),
    amount_cents        INTEGER NOT NULL CHECK (amount_cents BETWEEN 0 AND 100000000000000),
    received_on         TEXT NOT NULL,
    valid_until         TEXT,
    scope               TEXT NOT NULL,
    document_id         TEXT REFERENCES documents(id),
    status              TEXT NOT NULL DEFAULT 'received' CHECK (status IN ('received', 'awarded', 'declined')),
    contractor_warnings TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(contractor_warnings)),
    created_at          TEXT NOT NULL
) STRICT;
CREATE INDEX project_quotes_by_project ON project_quotes (project_id);

CREATE TABLE project_tasks (
    id                   TEXT PRIMARY KEY,
    syndicate_id         TEXT NOT NULL REFERENCES syndicates(id),
    project_id           TEXT NOT NULL REFERENCES projects(id),
    title                TEXT NOT NULL,
    due_on               TEXT,
    assignee_director_id TEXT REFERENCES directors(id),
    contractor_id        TEXT REFERENCES contractors(id),
    status               TEXT NOT NULL DEFAULT 'todo' CHECK (status IN ('todo', 'doing', 'blocked', 'done')),
    done_on              TEXT,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL
) STRICT;
CREATE INDEX project_tasks_by_project ON project_tasks (project_id);

CREATE TABLE change_orders (
    id            TEXT PRIMARY KEY,
    syndicate_id  TEXT NOT NULL REFERENCES syndicates(id),
    project_id    TEXT NOT NULL REFERENCES projects(id),
    number        TEXT NOT NULL,
    description   TEXT NOT NULL,
    amount_cents  INTEGER NOT NULL CHECK (amount_cents BETWEEN -100000000000000 AND 100000000000000),
    reason        TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    resolution_id TEXT REFERENCES resolutions(id),
    decided_on    TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
) STRICT;
CREATE INDEX change_orders_by_project ON change_orders (project_id);

CREATE TABLE project_updates (
    id               TEXT PRIMARY KEY,
    syndicate_id     TEXT NOT NULL REFERENCES syndicates(id),
    project_id       TEXT NOT NULL REFERENCES projects(id),
    update_on        TEXT NOT NULL,
    progress_percent INTEGER NOT NULL CHECK (progress_percent BETWEEN 0 AND 100),
    note             TEXT,
    document_ids     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(document_ids)),
    created_at       TEXT NOT NULL
) STRICT;
CREATE INDEX project_updates_by_project ON project_updates (project_id, update_on);

-- An invoice of the project: booked as an expense of what is paid now (expense_id) and, for the
-- contractor's progress bills, an expense of the holdback kept as a payable until released.
CREATE TABLE project_invoices (
    id                  TEXT PRIMARY KEY,
    syndicate_id        TEXT NOT NULL REFERENCES syndicates(id),
    project_id          TEXT NOT NULL REFERENCES projects(id),
    contractor_id       TEXT REFERENCES contractors(id),
    invoice_number      TEXT NOT NULL,
    invoice_date        TEXT NOT NULL,
    fund                TEXT NOT NULL,
    amount_cents        INTEGER NOT NULL CHECK (amount_cents > 0),
    holdback_cents      INTEGER NOT NULL DEFAULT 0 CHECK (holdback_cents >= 0 AND holdback_cents < amount_cents),
    expense_id          TEXT NOT NULL REFERENCES expenses(id),
    holdback_expense_id TEXT REFERENCES expenses(id),
    created_at          TEXT NOT NULL
) STRICT;
CREATE INDEX project_invoices_by_project ON project_invoices (project_id);

CREATE TABLE project_deficiencies (
    id           TEXT PRIMARY KEY,
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    project_id   TEXT NOT NULL REFERENCES projects(id),
    description  TEXT NOT NULL,
    due_on       TEXT,
    resolved_on  TEXT,
    waived_note  TEXT,
    created_at   TEXT NOT NULL
) STRICT;
CREATE INDEX project_deficiencies_by_project ON project_deficiencies (project_id);

CREATE TABLE warranty_claims (
    id             TEXT PRIMARY KEY,
    syndicate_id   TEXT NOT NULL REFERENCES syndicates(id),
    project_id     TEXT NOT NULL REFERENCES projects(id),
    contractor_id  TEXT NOT NULL REFERENCES contractors(id),
    discovered_on  TEXT NOT NULL,
    description    TEXT NOT NULL,
    basis          TEXT NOT NULL CHECK (basis IN ('workmanship', 'loss-of-work', 'contractual')),
    window_ends_on TEXT NOT NULL,
    notified_on    TEXT,
    status         TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'notified', 'repaired', 'refused', 'closed')),
    dispute_id     TEXT,  -- the disputes module's (batch 4)
    note           TEXT,
    document_ids   TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(document_ids)),
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
) STRICT;
CREATE INDEX warranty_claims_by_project ON warranty_claims (project_id);
