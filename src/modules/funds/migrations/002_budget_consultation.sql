-- funds 002: what ties a consultation and an adoption to the budget (art. 1072).
--   lines_changed_at  when the budget's lines last changed (its creation at first): a meeting held
--                     before it was not consulted on these lines.
--   one resolution adopts one budget.
ALTER TABLE budgets ADD COLUMN lines_changed_at TEXT;
UPDATE budgets SET lines_changed_at = created_at;
CREATE UNIQUE INDEX budgets_by_resolution ON budgets (syndicate_id, resolution_id) WHERE resolution_id IS NOT NULL;
