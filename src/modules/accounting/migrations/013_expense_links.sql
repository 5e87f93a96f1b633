-- accounting 013: what an expense pays for, when another module books it or the treasurer names it
-- (catalogue §4.4 record_expense): the project (the projects module), the logbook's maintenance
-- record, the insurance claim. Shown by record_expense; the project's invoices are counted by it.
ALTER TABLE expenses ADD COLUMN project_id TEXT;  -- the projects module's, checked by it
ALTER TABLE expenses ADD COLUMN maintenance_record_id TEXT;  -- the logbook's, checked by record_expense
ALTER TABLE expenses ADD COLUMN insurance_claim_id TEXT REFERENCES insurance_claims(id);
CREATE INDEX expenses_by_project ON expenses (project_id) WHERE project_id IS NOT NULL;
