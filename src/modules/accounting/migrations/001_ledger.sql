-- accounting 001: the ledger (catalogue §4.4). Three segregated funds (operating, contingency,
-- self-insurance; arts. 1071, 1071.1), each with its chart of accounts; journal entries whose
-- lines balance within each fund (money crossing funds goes through each fund's interfund
-- account); the fiscal years closed. Every syndicate has the default chart: those already here get
-- it now, and a new one when it is created (a trigger). Money in integer cents; days
-- "YYYY-MM-DD"; instants UTC ISO 8601.

CREATE TABLE accounts (
    id               TEXT PRIMARY KEY,
    syndicate_id     TEXT NOT NULL REFERENCES syndicates(id),
    fund             TEXT NOT NULL CHECK (fund IN ('operating', 'contingency', 'self-insurance')),
    code             TEXT NOT NULL CHECK (length(code) BETWEEN 1 AND 20),
    name             TEXT NOT NULL,
    type             TEXT NOT NULL CHECK (type IN ('asset', 'liability', 'equity', 'income', 'expense')),
    role             TEXT,  -- a system account's part in the books (bank, receivables, interfund...)
    system           INTEGER NOT NULL DEFAULT 0 CHECK (system IN (0, 1)),
    is_bank          INTEGER NOT NULL DEFAULT 0 CHECK (is_bank IN (0, 1)),
    bank_institution TEXT,
    bank_last4       TEXT CHECK (bank_last4 IS NULL OR (length(bank_last4) = 4 AND bank_last4 NOT GLOB '*[^0-9]*')),
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (syndicate_id, fund, code),
    CHECK ((role IS NULL) = (system = 0)),
    CHECK (is_bank = 1 OR (bank_institution IS NULL AND bank_last4 IS NULL))
) STRICT;
-- One system account of each role per fund: the books post to it by its role.
CREATE UNIQUE INDEX accounts_by_role ON accounts (syndicate_id, fund, role) WHERE role IS NOT NULL;

-- The default chart (catalogue §4.4), in French as the syndicate's books are kept: what the trigger
-- below and this migration copy for each syndicate.
CREATE VIEW accounting_default_chart (fund, code, name, type, role, is_bank) AS
WITH funds (fund, bank_name, spending_code, spending_name, spending_role) AS (
    VALUES ('operating', 'Encaisse — fonds d''exploitation', NULL, NULL, NULL),
           ('contingency', 'Encaisse — fonds de prévoyance', '5100', 'Réparations majeures et remplacements', 'major-repairs'),
           ('self-insurance', 'Encaisse — fonds d''autoassurance', '5100', 'Franchises et dommages non assurés', 'deductibles')
),
every_fund (code, name, type, role) AS (
    VALUES ('1100', 'Contributions à recevoir des copropriétaires', 'asset', 'receivables'),
           ('1900', 'Interfonds', 'asset', 'interfund'),
           ('2100', 'Comptes fournisseurs', 'liability', 'payables'),
           ('3000', 'Solde du fonds', 'equity', 'fund-balance'),
           ('4000', 'Contributions aux charges communes', 'income', 'contributions'),
           ('4100', 'Contributions spéciales', 'income', 'special-contributions'),
           ('4200', 'Intérêts et pénalités', 'income', 'interest-penalties'),
           ('4300', 'Autres revenus (réservations)', 'income', 'other-income'),
           ('4400', 'Indemnités d''assurance', 'income', 'insurance-indemnities')
),
operating_only (code, name, type, role) AS (
    VALUES ('2200', 'Dépôts détenus', 'liability', 'deposits'),
           ('5100', 'Assurances', 'expense', 'insurance'),
           ('5200', 'Énergie', 'expense', 'energy'),
           ('5300', 'Entretien et réparations', 'expense', 'maintenance'),
           ('5400', 'Déneigement et terrain', 'expense', 'snow-grounds'),
           ('5500', 'Gestion', 'expense', 'management'),
           ('5600', 'Honoraires professionnels', 'expense', 'professional-fees'),
           ('5700', 'Administration', 'expense', 'administration'),
           ('5800', 'Frais bancaires', 'expense', 'bank-fees')
)
SELECT fund, '1010', bank_name, 'asset', 'bank', 1 FROM funds
UNION ALL SELECT f.fund, e.code, e.name, e.type, e.role, 0 FROM funds f CROSS JOIN every_fund e
UNION ALL SELECT 'operating', code, name, type, role, 0 FROM operating_only
UNION ALL SELECT fund, spending_code, spending_name, 'expense', spending_role, 0 FROM funds WHERE spending_code IS NOT NULL;

CREATE TRIGGER syndicates_default_chart AFTER INSERT ON syndicates BEGIN
    INSERT INTO accounts (id, syndicate_id, fund, code, name, type, role, system, is_bank, created_at, updated_at)
    SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
                 substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
           NEW.id, fund, code, name, type, role, 1, is_bank, NEW.created_at, NEW.created_at
    FROM accounting_default_chart;
END;

INSERT INTO accounts (id, syndicate_id, fund, code, name, type, role, system, is_bank, created_at, updated_at)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
             substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       s.id, c.fund, c.code, c.name, c.type, c.role, 1, c.is_bank, s.created_at, s.created_at
FROM syndicates s CROSS JOIN accounting_default_chart c;

CREATE TABLE journal_entries (
    id                        TEXT PRIMARY KEY,
    syndicate_id              TEXT NOT NULL REFERENCES syndicates(id),
    number                    INTEGER NOT NULL CHECK (number > 0),  -- 1, 2, 3... per syndicate
    entry_date                TEXT NOT NULL,
    description               TEXT NOT NULL,
    source                    TEXT NOT NULL CHECK (source IN ('opening', 'assessment', 'payment', 'reversal', 'interest', 'fee',
                                                             'penalty', 'expense', 'transfer', 'adjustment', 'closing')),
    reverses_entry_id         TEXT REFERENCES journal_entries(id),
    fiscal_year               INTEGER NOT NULL,  -- the year it starts in (the declaration's fiscalYearStart)
    fund_use_authorization_id TEXT,              -- the funds module's authorisation (art. 1071)
    created_at                TEXT NOT NULL,
    UNIQUE (syndicate_id, number)
) STRICT;
CREATE INDEX journal_entries_by_date ON journal_entries (syndicate_id, entry_date, number);

-- Each line debits or credits one account of one fund; the entry's lines balance within each fund.
CREATE TABLE journal_lines (
    entry_id      TEXT NOT NULL REFERENCES journal_entries(id),
    line_no       INTEGER NOT NULL CHECK (line_no > 0),
    syndicate_id  TEXT NOT NULL REFERENCES syndicates(id),
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    fund          TEXT NOT NULL CHECK (fund IN ('operating', 'contingency', 'self-insurance')),
    debit_cents   INTEGER NOT NULL CHECK (debit_cents BETWEEN 0 AND 100000000000000),
    credit_cents  INTEGER NOT NULL CHECK (credit_cents BETWEEN 0 AND 100000000000000),
    unit_id       TEXT REFERENCES units(id),
    co_owner_id   TEXT REFERENCES co_owners(id),
    contractor_id TEXT,
    project_id    TEXT,
    charge_id     TEXT,
    PRIMARY KEY (entry_id, line_no),
    CHECK ((debit_cents = 0) <> (credit_cents = 0))
) STRICT;
CREATE INDEX journal_lines_by_account ON journal_lines (account_id, entry_id);
CREATE INDEX journal_lines_by_unit ON journal_lines (syndicate_id, unit_id) WHERE unit_id IS NOT NULL;

-- A fiscal year once closed (close_fiscal_year): no entry is dated in it afterwards.
CREATE TABLE fiscal_year_closures (
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    fiscal_year  INTEGER NOT NULL,
    starts_on    TEXT NOT NULL,
    ends_on      TEXT NOT NULL,
    closed_at    TEXT NOT NULL,
    PRIMARY KEY (syndicate_id, fiscal_year)
) STRICT;
