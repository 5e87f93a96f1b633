-- accounting 007: bank reconciliations (catalogue §4.4 reconcile_bank_account): a bank account's
-- book balance on a statement's day matched with the bank's statement, the entries the bank had
-- cleared by then named. A finalised reconciliation is kept with the entries it cleared; the next
-- one starts from it (an entry is cleared once). Money in integer cents; days "YYYY-MM-DD".
CREATE TABLE bank_reconciliations (
    id                      TEXT PRIMARY KEY,
    syndicate_id            TEXT NOT NULL REFERENCES syndicates(id),
    account_id              TEXT NOT NULL REFERENCES accounts(id),
    statement_date          TEXT NOT NULL,
    statement_balance_cents INTEGER NOT NULL,
    book_balance_cents      INTEGER NOT NULL,
    uncleared_cents         INTEGER NOT NULL,  -- the book's entries the bank had not cleared by then (debits positive)
    created_at              TEXT NOT NULL,
    UNIQUE (account_id, statement_date),
    CHECK (statement_balance_cents = book_balance_cents - uncleared_cents)
) STRICT;
CREATE INDEX bank_reconciliations_by_account ON bank_reconciliations (syndicate_id, account_id, statement_date);

-- An entry's movement of the account, cleared by the bank as of a finalised reconciliation.
CREATE TABLE bank_cleared_entries (
    account_id        TEXT NOT NULL REFERENCES accounts(id),
    entry_id          TEXT NOT NULL REFERENCES journal_entries(id),
    reconciliation_id TEXT NOT NULL REFERENCES bank_reconciliations(id),
    cents             INTEGER NOT NULL,  -- the entry's net debit of the account
    PRIMARY KEY (account_id, entry_id)
) STRICT, WITHOUT ROWID;
