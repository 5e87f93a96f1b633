-- accounting 003: the authorisations to use the contingency and self-insurance funds (arts. 1071,
-- 1071.1). The board decides them (the funds module's authorize_fund_use); the ledger keeps them,
-- since every entry that takes money from those funds must name one, and records what each entry
-- used of it. Money in integer cents.

CREATE TABLE fund_use_authorizations (
    id                 TEXT PRIMARY KEY,
    syndicate_id       TEXT NOT NULL REFERENCES syndicates(id),
    fund               TEXT NOT NULL CHECK (fund IN ('contingency', 'self-insurance')),
    amount_cents       INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 100000000000000),
    purpose            TEXT NOT NULL,
    use_kind           TEXT NOT NULL CHECK (use_kind IN ('major-repair', 'replacement', 'deductible', 'uninsured-damage')),
    project_id         TEXT,
    insurance_claim_id TEXT,
    resolution_id      TEXT NOT NULL,
    status             TEXT NOT NULL DEFAULT 'authorized' CHECK (status IN ('authorized', 'used', 'cancelled')),
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
) STRICT;
CREATE INDEX fund_use_authorizations_by_fund ON fund_use_authorizations (syndicate_id, fund, status);

-- What an entry took from the fund under an authorisation.
CREATE TABLE fund_use_authorization_uses (
    authorization_id TEXT NOT NULL REFERENCES fund_use_authorizations(id),
    entry_id         TEXT NOT NULL REFERENCES journal_entries(id),
    cents            INTEGER NOT NULL CHECK (cents > 0),
    PRIMARY KEY (authorization_id, entry_id)
) STRICT, WITHOUT ROWID;
