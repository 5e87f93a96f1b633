-- administration 001: a message reported sent by a person (update_outbox_message, admins only)
-- says so, apart from those the server's delivery marked itself (issue 28, point 4): a notice's
-- sending is the evidence of its 21 days. Messages already marked keep 0: their report was not told
-- apart then.
ALTER TABLE outbox ADD COLUMN reported_by_hand INTEGER NOT NULL DEFAULT 0 CHECK (reported_by_hand IN (0, 1));
