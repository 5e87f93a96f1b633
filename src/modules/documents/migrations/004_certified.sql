-- documents 004: a protected kind is protected once the document is certified (issue 28, point
-- 4): a document the server writes (final minutes) is certified when written, an admin's upload
-- when uploaded, a member's upload only when an admin certifies it (attach_document certify), so a
-- member's "minutes" cannot become a record no admin may archive. An admin may void a protected
-- document with a reason, kept here and in the audit trail. Existing documents keep the protection
-- they had: certified as of their recording.
ALTER TABLE documents ADD COLUMN certified_at TEXT;
ALTER TABLE documents ADD COLUMN certified_by TEXT;
ALTER TABLE documents ADD COLUMN voided_at TEXT;
UPDATE documents SET certified_at = created_at;
