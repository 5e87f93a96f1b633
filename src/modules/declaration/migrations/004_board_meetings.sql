-- declaration 004: what the declaration (or its by-laws) says of board meetings (catalogue §3.1,
-- §3.2; shared decisions §10):
--   board_quorum        the number of directors a board meeting needs; NULL = a majority of the
--                       directors in office (art. 1084 with arts. 335 ff.);
--   board_notice_days   the notice a board meeting needs, in days (default 2; the 21 days are for
--                       meetings of co-owners).
-- A syndicate's existing row takes the defaults.

ALTER TABLE declarations ADD COLUMN board_quorum INTEGER CHECK (board_quorum IS NULL OR board_quorum >= 1);
ALTER TABLE declarations ADD COLUMN board_notice_days INTEGER NOT NULL DEFAULT 2 CHECK (board_notice_days >= 0);
