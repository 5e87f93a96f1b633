-- accounting 009: a reconciliation remembers the last entry the books held when it was finalised,
-- so closing a year sees an entry of the year posted after it (the reconciliation no longer
-- matches the books).
ALTER TABLE bank_reconciliations ADD COLUMN last_entry_number INTEGER NOT NULL DEFAULT 0;
