-- 013: reserved for work landing in parallel (issue 18); this branch's placeholder keeps the
-- numbering without a gap (check_migration_names). Replace it with the real 013 on merge.
SELECT 1;
