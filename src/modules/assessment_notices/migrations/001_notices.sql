-- assessment-notices 001: the notices of assessment (avis de cotisation, catalogue §4.5): what each
-- lot owes for a fiscal year's contributions, by unit and fund (lines) and by instalment. A notice
-- is drafted from the adopted budget, then issued: each instalment of each unit becomes a charge of
-- the ledger, the notice a PDF sent to its addressees. Money in integer cents; days "YYYY-MM-DD".

CREATE TABLE assessment_notices (
    id                    TEXT PRIMARY KEY,
    syndicate_id          TEXT NOT NULL REFERENCES syndicates(id),
    number                TEXT NOT NULL,  -- "2027-014": the fiscal year and a sequence
    fiscal_year           INTEGER NOT NULL,
    kind                  TEXT NOT NULL CHECK (kind IN ('regular', 'special')),
    budget_id             TEXT REFERENCES budgets(id),
    special_assessment_id TEXT,
    unit_id               TEXT NOT NULL REFERENCES units(id),  -- the unit heading the lot
    addressees            TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(addressees)),
    total_cents           INTEGER NOT NULL CHECK (total_cents >= 0),
    status                TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'issued', 'cancelled')),
    issued_at             TEXT,
    document_ids          TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(document_ids)),
    language              TEXT NOT NULL CHECK (language IN ('fr', 'en')),
    cancel_reason         TEXT,
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL,
    UNIQUE (syndicate_id, number),
    CHECK ((status = 'draft') = (issued_at IS NULL) OR status = 'cancelled')
) STRICT;
CREATE INDEX assessment_notices_by_year ON assessment_notices (syndicate_id, fiscal_year, kind, status);
CREATE INDEX assessment_notices_by_unit ON assessment_notices (syndicate_id, unit_id);

-- What a unit of the lot owes a fund for the year, and on what basis it was shared.
CREATE TABLE assessment_notice_lines (
    notice_id         TEXT NOT NULL REFERENCES assessment_notices(id),
    line_no           INTEGER NOT NULL CHECK (line_no > 0),
    unit_id           TEXT NOT NULL REFERENCES units(id),
    fund              TEXT NOT NULL CHECK (fund IN ('operating', 'contingency', 'self-insurance')),
    description       TEXT NOT NULL,
    amount_cents      INTEGER NOT NULL CHECK (amount_cents > 0),
    basis             TEXT NOT NULL CHECK (basis IN ('fractions', 'restricted-users', 'resolution')),
    common_portion_id TEXT,
    PRIMARY KEY (notice_id, line_no)
) STRICT, WITHOUT ROWID;

-- An instalment's share of a unit and fund; the rows of one instalment and unit become one charge.
CREATE TABLE assessment_notice_instalments (
    notice_id    TEXT NOT NULL REFERENCES assessment_notices(id),
    number       INTEGER NOT NULL CHECK (number > 0),
    unit_id      TEXT NOT NULL REFERENCES units(id),
    fund         TEXT NOT NULL CHECK (fund IN ('operating', 'contingency', 'self-insurance')),
    due_on       TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    charge_id    TEXT REFERENCES charges(id),
    PRIMARY KEY (notice_id, number, unit_id, fund)
) STRICT, WITHOUT ROWID;
