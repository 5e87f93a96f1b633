-- accounting 006: the syndicate's expenses (catalogue §4.4 record_expense): a supplier's invoice
-- posted to an expense account of its fund against that fund's payables on the invoice date, and
-- its payment from a bank account of the same fund when paid. Money leaves the contingency and
-- self-insurance funds only under an authorisation (arts. 1071, 1071.1), used by the invoice's
-- entry. Money in integer cents, taxes included; days "YYYY-MM-DD".
CREATE TABLE expenses (
    id                        TEXT PRIMARY KEY,
    syndicate_id              TEXT NOT NULL REFERENCES syndicates(id),
    contractor_id             TEXT REFERENCES contractors(id),
    payee                     TEXT NOT NULL,  -- the contractor's name when there is one
    payee_key                 TEXT NOT NULL,  -- the contractor's id, else the payee folded: duplicates are found by it
    invoice_number            TEXT NOT NULL,
    invoice_date              TEXT NOT NULL,
    due_on                    TEXT,
    fund                      TEXT NOT NULL CHECK (fund IN ('operating', 'contingency', 'self-insurance')),
    account_id                TEXT NOT NULL REFERENCES accounts(id),
    amount_cents              INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 100000000000000),
    fund_use_authorization_id TEXT REFERENCES fund_use_authorizations(id),
    document_id               TEXT REFERENCES documents(id),
    status                    TEXT NOT NULL DEFAULT 'unpaid' CHECK (status IN ('unpaid', 'paid', 'void')),
    paid_on                   TEXT,
    payment_method            TEXT CHECK (payment_method IS NULL OR payment_method IN ('cheque', 'transfer', 'pre-authorized-debit', 'cash', 'card', 'other')),
    bank_account_id           TEXT REFERENCES accounts(id),
    entry_id                  TEXT NOT NULL REFERENCES journal_entries(id),
    payment_entry_id          TEXT REFERENCES journal_entries(id),
    description               TEXT,
    created_at                TEXT NOT NULL,
    updated_at                TEXT NOT NULL,
    CHECK ((status = 'paid') = (paid_on IS NOT NULL AND payment_entry_id IS NOT NULL AND bank_account_id IS NOT NULL))
) STRICT;
CREATE INDEX expenses_by_invoice ON expenses (syndicate_id, payee_key, invoice_number);
CREATE INDEX expenses_by_status ON expenses (syndicate_id, status, due_on);
