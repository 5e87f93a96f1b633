-- accounting 004: an interest charge keeps the exact interest of the days it charged, in
-- millionths of a cent (its amount is that rounded, with what earlier runs rounded off carried
-- over), so charging often never adds up roundings (apply_late_interest).
ALTER TABLE charges ADD COLUMN accrued_microcents INTEGER CHECK (accrued_microcents IS NULL OR accrued_microcents >= 0);
