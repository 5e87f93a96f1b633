-- meetings 009: who chaired the meeting and who took its minutes, and when it opened and closed
-- (or was adjourned), as update_meeting records them for the minutes. Null until recorded: the
-- minutes then leave a line to fill by hand.
--   chair, secretary     names as typed
--   opened_at, closed_at UTC instants

ALTER TABLE meetings ADD COLUMN chair TEXT;
ALTER TABLE meetings ADD COLUMN secretary TEXT;
ALTER TABLE meetings ADD COLUMN opened_at TEXT;
ALTER TABLE meetings ADD COLUMN closed_at TEXT;
