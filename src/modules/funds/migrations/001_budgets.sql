-- funds 001: the budget forecasts and the contingency fund studies (catalogue §4.6). A budget is
-- one per fiscal year, drafted, consulted at a general meeting (art. 1072) and adopted by the
-- board; its lines say what each fund spends, earns and asks of the co-owners. A fund study
-- (arts. 1071, 1070.2; Reg. 991-2025) recommends a contribution per year. The authorisations to use
-- a fund are the ledger's (accounting 003). Money in integer cents; days "YYYY-MM-DD".

CREATE TABLE budgets (
    id                        TEXT PRIMARY KEY,
    syndicate_id              TEXT NOT NULL REFERENCES syndicates(id),
    fiscal_year               INTEGER NOT NULL CHECK (fiscal_year BETWEEN 1900 AND 9999),
    status                    TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'consulted', 'adopted')),
    consultation_meeting_id   TEXT,
    consulted_on              TEXT,
    adopted_on                TEXT,
    resolution_id             TEXT,
    contingency_justification TEXT,
    notes                     TEXT,
    created_at                TEXT NOT NULL,
    updated_at                TEXT NOT NULL,
    UNIQUE (syndicate_id, fiscal_year),
    CHECK (status = 'draft' OR consultation_meeting_id IS NOT NULL),
    CHECK ((status = 'adopted') = (adopted_on IS NOT NULL AND resolution_id IS NOT NULL))
) STRICT;

-- A line of a budget: what a fund spends (expense) or earns besides the co-owners' contributions
-- (income) under an account of its chart, or a contribution asked to the contingency or
-- self-insurance fund; a line of a restricted common portion is shared among its users (art. 1064).
CREATE TABLE budget_lines (
    id                TEXT PRIMARY KEY,
    budget_id         TEXT NOT NULL REFERENCES budgets(id),
    syndicate_id      TEXT NOT NULL REFERENCES syndicates(id),
    line_no           INTEGER NOT NULL CHECK (line_no > 0),
    fund              TEXT NOT NULL CHECK (fund IN ('operating', 'contingency', 'self-insurance')),
    kind              TEXT NOT NULL CHECK (kind IN ('expense', 'income', 'contribution')),
    account_id        TEXT REFERENCES accounts(id),
    label             TEXT NOT NULL,
    amount_cents      INTEGER NOT NULL CHECK (amount_cents BETWEEN 0 AND 100000000000000),
    common_portion_id TEXT,
    UNIQUE (budget_id, line_no)
) STRICT;

CREATE TABLE fund_studies (
    id                           TEXT PRIMARY KEY,
    syndicate_id                 TEXT NOT NULL REFERENCES syndicates(id),
    received_on                  TEXT NOT NULL,
    preparer_name                TEXT NOT NULL,
    preparer_firm                TEXT,
    preparer_order               TEXT NOT NULL CHECK (preparer_order IN ('OIQ', 'OAQ', 'OTPQ', 'OEAQ', 'CPA')),
    preparer_member_number       TEXT NOT NULL,
    independence_attested        INTEGER NOT NULL CHECK (independence_attested IN (0, 1)),
    based_on_logbook_revision_on TEXT,
    horizon_years                INTEGER NOT NULL CHECK (horizon_years BETWEEN 1 AND 100),
    document_id                  TEXT NOT NULL,
    created_at                   TEXT NOT NULL
) STRICT;
CREATE INDEX fund_studies_by_day ON fund_studies (syndicate_id, received_on);

CREATE TABLE fund_study_recommendations (
    study_id                TEXT NOT NULL REFERENCES fund_studies(id),
    fiscal_year             INTEGER NOT NULL,
    contribution_cents      INTEGER NOT NULL CHECK (contribution_cents BETWEEN 0 AND 100000000000000),
    projected_balance_cents INTEGER,
    PRIMARY KEY (study_id, fiscal_year)
) STRICT, WITHOUT ROWID;
