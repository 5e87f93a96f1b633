-- logbook 001: the maintenance logbook (carnet d'entretien) of art. 1070.2 and Reg. 991-2025
-- (catalogue §4.7): the inventory of the common portions and of the equipment in private portions
-- the syndicate maintains (components), the recurring maintenance to do (schedules), the work done
-- (maintenance records), the condition assessments (inspections and their findings), and the
-- logbook's own history (its preparation, professional revisions and the board's yearly updates).
-- The logbook's status is computed from its revisions. Years are calendar years; days "YYYY-MM-DD".
CREATE TABLE logbook_revisions (
    id                     TEXT PRIMARY KEY,
    syndicate_id           TEXT NOT NULL REFERENCES syndicates(id),
    kind                   TEXT NOT NULL CHECK (kind IN ('initial-preparation', 'professional-revision', 'annual-update')),
    performed_on           TEXT NOT NULL,
    preparer_name          TEXT,
    preparer_firm          TEXT,
    preparer_order         TEXT CHECK (preparer_order IS NULL OR preparer_order IN ('OIQ', 'OAQ', 'OTPQ', 'OEAQ')),
    preparer_member_number TEXT,
    independence_attested  INTEGER NOT NULL DEFAULT 0 CHECK (independence_attested IN (0, 1)),
    works_not_done         TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(works_not_done)),
    document_id            TEXT REFERENCES documents(id),
    notes                  TEXT,
    created_at             TEXT NOT NULL,
    CHECK (kind = 'annual-update' OR (preparer_name IS NOT NULL AND preparer_order IS NOT NULL AND document_id IS NOT NULL))
) STRICT;
CREATE INDEX logbook_revisions_by_day ON logbook_revisions (syndicate_id, performed_on);

CREATE TABLE logbook_components (
    id                     TEXT PRIMARY KEY,
    syndicate_id           TEXT NOT NULL REFERENCES syndicates(id),
    code                   TEXT,
    name                   TEXT NOT NULL,
    category               TEXT NOT NULL CHECK (category IN ('structure', 'envelope', 'roofing', 'windows-doors', 'plumbing',
                               'heating-ventilation', 'electrical', 'fire-safety', 'elevator', 'interior', 'site', 'parking', 'other')),
    location               TEXT,
    common_portion_id      TEXT REFERENCES common_portions(id),
    private_unit_ids       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(private_unit_ids)),
    quantity               REAL CHECK (quantity IS NULL OR quantity > 0),
    quantity_unit          TEXT CHECK (quantity_unit IS NULL OR quantity_unit IN ('m2', 'm', 'each')),
    installed_year         INTEGER,
    expected_life_years    INTEGER CHECK (expected_life_years IS NULL OR expected_life_years BETWEEN 1 AND 150),
    condition              TEXT NOT NULL DEFAULT 'unknown' CHECK (condition IN ('good', 'fair', 'poor', 'critical', 'unknown')),
    replacement_cost_cents INTEGER CHECK (replacement_cost_cents IS NULL OR replacement_cost_cents >= 0),
    -- The year of replacement set by hand or by the latest inspection; null: installed + expected life.
    replacement_year       INTEGER,
    warranty_until         TEXT,
    manufacturer           TEXT,
    model                  TEXT,
    document_ids           TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(document_ids)),
    notes                  TEXT,
    last_inspected_on      TEXT,
    search_text            TEXT NOT NULL DEFAULT '',  -- name, code and location folded (search)
    created_at             TEXT NOT NULL,
    updated_at             TEXT NOT NULL,
    deleted_at             TEXT
) STRICT;
CREATE INDEX logbook_components_by_syndicate ON logbook_components (syndicate_id, deleted_at);

-- A recurring task on a component; next_due_on is kept by the writes (last done, else the start, plus
-- the frequency) so that what is due reads by index.
CREATE TABLE maintenance_schedules (
    id                        TEXT PRIMARY KEY,
    syndicate_id              TEXT NOT NULL REFERENCES syndicates(id),
    component_id              TEXT NOT NULL REFERENCES logbook_components(id),
    task                      TEXT NOT NULL,
    frequency_months          INTEGER NOT NULL CHECK (frequency_months BETWEEN 1 AND 600),
    start_on                  TEXT NOT NULL,
    last_done_on              TEXT,
    next_due_on               TEXT NOT NULL,
    responsible_contractor_id TEXT REFERENCES contractors(id),
    responsible               TEXT,
    legal_basis               TEXT,
    active                    INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at                TEXT NOT NULL,
    updated_at                TEXT NOT NULL
) STRICT;
CREATE INDEX maintenance_schedules_due ON maintenance_schedules (syndicate_id, active, next_due_on);
CREATE INDEX maintenance_schedules_by_component ON maintenance_schedules (component_id);

CREATE TABLE maintenance_records (
    id              TEXT PRIMARY KEY,
    syndicate_id    TEXT NOT NULL REFERENCES syndicates(id),
    component_id    TEXT NOT NULL REFERENCES logbook_components(id),
    schedule_id     TEXT REFERENCES maintenance_schedules(id),
    performed_on    TEXT NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('routine', 'repair', 'inspection', 'replacement', 'major-work')),
    description     TEXT NOT NULL,
    contractor_id   TEXT REFERENCES contractors(id),
    cost_cents      INTEGER CHECK (cost_cents IS NULL OR cost_cents >= 0),
    expense_id      TEXT REFERENCES expenses(id),
    project_id      TEXT,  -- a project or request of the modules built on the logbook (checked by them)
    request_id      TEXT,
    condition_after TEXT CHECK (condition_after IS NULL OR condition_after IN ('good', 'fair', 'poor', 'critical', 'unknown')),
    document_ids    TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(document_ids)),
    created_at      TEXT NOT NULL
) STRICT;
CREATE INDEX maintenance_records_by_component ON maintenance_records (component_id, performed_on);
CREATE INDEX maintenance_records_by_day ON maintenance_records (syndicate_id, performed_on);

CREATE TABLE inspections (
    id                      TEXT PRIMARY KEY,
    syndicate_id            TEXT NOT NULL REFERENCES syndicates(id),
    performed_on            TEXT NOT NULL,
    inspector_name          TEXT NOT NULL,
    inspector_firm          TEXT,
    inspector_order         TEXT,
    inspector_member_number TEXT,
    scope                   TEXT NOT NULL CHECK (scope IN ('general', 'component')),
    document_id             TEXT REFERENCES documents(id),
    created_at              TEXT NOT NULL
) STRICT;
CREATE INDEX inspections_by_day ON inspections (syndicate_id, performed_on);

CREATE TABLE inspection_findings (
    inspection_id          TEXT NOT NULL REFERENCES inspections(id),
    line_no                INTEGER NOT NULL,
    component_id           TEXT NOT NULL REFERENCES logbook_components(id),
    condition              TEXT NOT NULL CHECK (condition IN ('good', 'fair', 'poor', 'critical', 'unknown')),
    remaining_life_years   INTEGER CHECK (remaining_life_years IS NULL OR remaining_life_years BETWEEN 0 AND 150),
    recommendation         TEXT,
    estimated_cost_cents   INTEGER CHECK (estimated_cost_cents IS NULL OR estimated_cost_cents >= 0),
    recommended_year       INTEGER,
    PRIMARY KEY (inspection_id, line_no)
) STRICT;
CREATE INDEX inspection_findings_by_component ON inspection_findings (component_id);
