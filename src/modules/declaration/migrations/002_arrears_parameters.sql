-- declaration 002: two parameters of the declaration the legal review of issue 27 asked for
-- (catalogue §3.1):
--   arrears_make_ineligible   a by-law clause that bars a co-owner in arrears from being appointed
--                             director (art. 1086 alone only lets the syndicate replace one);
--                             false unless the declaration says so;
--   default_by_lapse_of_time  the declaration makes the mere lapse of time a default, so late
--                             interest runs from the due date (arts. 1594, 1617); true unless the
--                             declaration says otherwise.
-- A syndicate's existing row takes the defaults: no appointment is refused for arrears.

ALTER TABLE declarations ADD COLUMN arrears_make_ineligible INTEGER NOT NULL DEFAULT 0
    CHECK (arrears_make_ineligible IN (0, 1));
ALTER TABLE declarations ADD COLUMN default_by_lapse_of_time INTEGER NOT NULL DEFAULT 1
    CHECK (default_by_lapse_of_time IN (0, 1));
