-- meetings 005 (schema version 20): what an annual meeting's notice carried and why a meeting was
-- called (catalogue §3.2).
--   notice_package  the documents sent with the notice of an aga (art. 1087): a JSON array of
--                   document ids, fixed when the notice is sent; '[]' before, and for other meetings.
--   requisition     the co-owners' written request that called the meeting (art. 352):
--                   {"receivedOn": "YYYY-MM-DD", "coOwnerIds": [...]}, or null.

ALTER TABLE meetings ADD COLUMN notice_package TEXT NOT NULL DEFAULT '[]';
ALTER TABLE meetings ADD COLUMN requisition TEXT;
