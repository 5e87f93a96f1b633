-- accounting 002: what the units owe and what they paid (catalogue §4.4). A charge is a receivable
-- of one unit, split across the funds it belongs to; a payment is imputed to charges by
-- allocations (arts. 1569-1572), each allocation one charge's share in one fund; what a payment
-- does not impute is the unit's credit, held in the operating fund's prepayments account until a
-- later charge takes it. A reversed payment keeps its rows (status reversed): its allocations no
-- longer count from its reversal on. Money in integer cents; days "YYYY-MM-DD".

-- The operating fund's account for credit: payments received before anything was owed.
DROP VIEW accounting_default_chart;
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
           ('2300', 'Paiements reçus d''avance des copropriétaires', 'liability', 'prepayments'),
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

-- Syndicates already here get the new account; a code a treasurer already used for an account of
-- their own moves the system account to the first free code from 2301.
INSERT INTO accounts (id, syndicate_id, fund, code, name, type, role, system, is_bank, created_at, updated_at)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
             substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       s.id, 'operating',
       (SELECT min(c.code) FROM (SELECT '2300' AS code UNION ALL SELECT CAST(2301 + n.value AS TEXT) FROM
            (WITH RECURSIVE n(value) AS (SELECT 0 UNION ALL SELECT value + 1 FROM n WHERE value < 98) SELECT value FROM n) n) c
        WHERE NOT EXISTS (SELECT 1 FROM accounts t WHERE t.syndicate_id = s.id AND t.fund = 'operating' AND t.code = c.code)),
       'Paiements reçus d''avance des copropriétaires', 'liability', 'prepayments', 1, 0, s.created_at, s.created_at
FROM syndicates s
WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.syndicate_id = s.id AND a.fund = 'operating' AND a.role = 'prepayments');

-- A receivable of one unit. kind contribution and special are common expenses (arts. 1094, 1086,
-- 2729); interest names its principal (source_type 'charge'), an NSF fee its payment.
CREATE TABLE charges (
    id                   TEXT PRIMARY KEY,
    syndicate_id         TEXT NOT NULL REFERENCES syndicates(id),
    unit_id              TEXT NOT NULL REFERENCES units(id),
    kind                 TEXT NOT NULL CHECK (kind IN ('contribution', 'special', 'interest', 'fee', 'penalty',
                                                       'deductible-recovery', 'reservation', 'deposit', 'other')),
    assessment_notice_id TEXT,
    source_type          TEXT,
    source_id            TEXT,
    description          TEXT NOT NULL,
    posted_on            TEXT NOT NULL,  -- the day its entry is dated: it is owed from then
    due_on               TEXT NOT NULL,
    amount_cents         INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 100000000000000),
    entry_id             TEXT NOT NULL REFERENCES journal_entries(id),
    cancelled_on         TEXT,           -- cancelled by a counter-entry dated that day
    created_at           TEXT NOT NULL,
    CHECK ((source_type IS NULL) = (source_id IS NULL))
) STRICT;
CREATE INDEX charges_by_unit ON charges (syndicate_id, unit_id, due_on);
CREATE INDEX charges_by_source ON charges (source_type, source_id) WHERE source_type IS NOT NULL;

-- A charge's share of each fund; the shares add up to the charge.
CREATE TABLE charge_fund_lines (
    charge_id    TEXT NOT NULL REFERENCES charges(id),
    fund         TEXT NOT NULL CHECK (fund IN ('operating', 'contingency', 'self-insurance')),
    amount_cents INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 100000000000000),
    PRIMARY KEY (charge_id, fund)
) STRICT, WITHOUT ROWID;

CREATE TABLE payments (
    id                    TEXT PRIMARY KEY,
    syndicate_id          TEXT NOT NULL REFERENCES syndicates(id),
    unit_id               TEXT NOT NULL REFERENCES units(id),
    payer_co_owner_id     TEXT REFERENCES co_owners(id),
    received_on           TEXT NOT NULL,
    amount_cents          INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 100000000000000),
    method                TEXT NOT NULL CHECK (method IN ('cheque', 'transfer', 'pre-authorized-debit', 'cash', 'card', 'other')),
    reference             TEXT,
    deposit_account_id    TEXT NOT NULL REFERENCES accounts(id),
    designated_charge_ids TEXT NOT NULL DEFAULT '[]',  -- JSON array, in the order the debtor gave
    creditor_consent      INTEGER NOT NULL DEFAULT 0 CHECK (creditor_consent IN (0, 1)),
    entry_id              TEXT NOT NULL REFERENCES journal_entries(id),
    status                TEXT NOT NULL DEFAULT 'posted' CHECK (status IN ('posted', 'reversed')),
    reversed_on           TEXT,
    reversal_reason       TEXT CHECK (reversal_reason IS NULL OR reversal_reason IN ('nsf', 'error', 'other')),
    nsf_fee_charge_id     TEXT REFERENCES charges(id),
    created_at            TEXT NOT NULL,
    CHECK ((status = 'reversed') = (reversed_on IS NOT NULL AND reversal_reason IS NOT NULL))
) STRICT;
CREATE INDEX payments_by_unit ON payments (syndicate_id, unit_id, received_on);

-- One payment's share imputed to one charge in one fund, on the day it was applied (the payment's
-- receivedOn, or the day a later charge took the credit), with the entry that posted it.
CREATE TABLE payment_allocations (
    payment_id   TEXT NOT NULL REFERENCES payments(id),
    charge_id    TEXT NOT NULL REFERENCES charges(id),
    fund         TEXT NOT NULL CHECK (fund IN ('operating', 'contingency', 'self-insurance')),
    seq          INTEGER NOT NULL CHECK (seq > 0),  -- the imputation's order within the payment
    applied_on   TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 100000000000000),
    entry_id     TEXT NOT NULL REFERENCES journal_entries(id),
    PRIMARY KEY (payment_id, seq, fund)
) STRICT, WITHOUT ROWID;
CREATE INDEX payment_allocations_by_charge ON payment_allocations (charge_id);
