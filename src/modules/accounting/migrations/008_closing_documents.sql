-- accounting 008: a closed fiscal year keeps the statements it was closed on, as a protected
-- document (the register, art. 1070), and the next year's budget forecast when there was one; and
-- the entries that carried each fund's result to its balance.
ALTER TABLE fiscal_year_closures ADD COLUMN statements_document_id TEXT REFERENCES documents(id);
ALTER TABLE fiscal_year_closures ADD COLUMN forecast_document_id TEXT REFERENCES documents(id);
ALTER TABLE fiscal_year_closures ADD COLUMN closing_entry_ids TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(closing_entry_ids));
