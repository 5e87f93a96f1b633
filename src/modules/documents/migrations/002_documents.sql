-- documents 002 (schema version 13, with meetings 006): the documents table (minutes until now) becomes the store of
-- every file the syndicate keeps (catalogue §4.1), and document_links attaches a document to any
-- number of records. Columns whose rule changes are rebuilt in place (add, copy, drop, rename)
-- rather than the table: water_heaters' foreign key names documents, and dropping a referenced
-- table inside the migrations' transaction would count every reference as a broken key at commit.
--   kind       one of the catalogue's kinds (CHECK);
--   language   fr, en or null (was required: an upload need not say);
--   pages      null when unknown (an upload that is not generated);
-- and new: title, file_name (the name a download is saved under), mime_type, register_item (an
-- art. 1070 key), visibility, uploaded_by (the API key or user; null for rows made before),
-- deleted_at and archive_reason (archived), updated_at, search_text.

ALTER TABLE documents ADD COLUMN kind_checked TEXT NOT NULL DEFAULT 'other' CHECK (kind_checked IN (
    'minutes', 'notice', 'assessment-notice', 'attestation', 'charges-statement', 'financial-statements',
    'invoice', 'quote', 'contract', 'insurance-policy', 'insurance-certificate', 'appraisal', 'logbook',
    'fund-study', 'inspection-report', 'declaration', 'bylaws', 'cadastral-plan', 'plans-specs',
    'location-certificate', 'photo', 'correspondence', 'other'));
UPDATE documents SET kind_checked = CASE WHEN kind IN (
    'minutes', 'notice', 'assessment-notice', 'attestation', 'charges-statement', 'financial-statements',
    'invoice', 'quote', 'contract', 'insurance-policy', 'insurance-certificate', 'appraisal', 'logbook',
    'fund-study', 'inspection-report', 'declaration', 'bylaws', 'cadastral-plan', 'plans-specs',
    'location-certificate', 'photo', 'correspondence', 'other') THEN kind ELSE 'other' END;
ALTER TABLE documents DROP COLUMN kind;
ALTER TABLE documents RENAME COLUMN kind_checked TO kind;

ALTER TABLE documents ADD COLUMN language_checked TEXT CHECK (language_checked IN ('fr', 'en'));
UPDATE documents SET language_checked = CASE WHEN language IN ('fr', 'en') THEN language END;
ALTER TABLE documents DROP COLUMN language;
ALTER TABLE documents RENAME COLUMN language_checked TO language;

ALTER TABLE documents ADD COLUMN pages_known INTEGER CHECK (pages_known >= 0);
UPDATE documents SET pages_known = pages;
ALTER TABLE documents DROP COLUMN pages;
ALTER TABLE documents RENAME COLUMN pages_known TO pages;

ALTER TABLE documents ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN file_name TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN mime_type TEXT NOT NULL DEFAULT 'application/pdf';
ALTER TABLE documents ADD COLUMN register_item TEXT;
ALTER TABLE documents ADD COLUMN visibility TEXT NOT NULL DEFAULT 'board'
    CHECK (visibility IN ('board', 'co-owners'));
ALTER TABLE documents ADD COLUMN uploaded_by TEXT;
ALTER TABLE documents ADD COLUMN deleted_at TEXT;
ALTER TABLE documents ADD COLUMN archive_reason TEXT;
ALTER TABLE documents ADD COLUMN updated_at TEXT;
ALTER TABLE documents ADD COLUMN search_text TEXT;  -- title, line feed, file name; folded (core/text)

-- The minutes made before: a title until meetings 006 gives them their meeting's (the PDF's), the
-- file's own name; final minutes are part of the register the co-owners may consult.
UPDATE documents SET
    title = CASE WHEN language = 'en' THEN 'Minutes' ELSE 'Procès-verbal' END,
    file_name = replace(path, rtrim(path, replace(path, '/', '')), ''),
    mime_type = 'application/pdf',
    visibility = CASE WHEN draft = 0 THEN 'co-owners' ELSE 'board' END
WHERE kind = 'minutes';
-- search_text: lower case only here (SQL cannot fold accents); list_documents also matches the
-- lower-cased words as typed, so "procès" finds the minutes made before.
UPDATE documents SET updated_at = created_at, search_text = lower(title || char(10) || file_name);

CREATE INDEX documents_by_syndicate ON documents (syndicate_id, created_at);
CREATE INDEX documents_by_hash ON documents (syndicate_id, sha256);

-- A document attached to a record: record_type is the audit trail's name of the record's table
-- (meeting, unit, water-heater...), record_id its id. Detaching archives the row (deleted_at and
-- the reason given); attaching the same document to the same record again brings it back.
CREATE TABLE document_links (
    id           TEXT PRIMARY KEY,
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    document_id  TEXT NOT NULL REFERENCES documents(id),
    record_type  TEXT NOT NULL CHECK (length(record_type) BETWEEN 1 AND 64),
    record_id    TEXT NOT NULL CHECK (length(record_id) BETWEEN 1 AND 64),
    created_at   TEXT NOT NULL,
    deleted_at   TEXT,
    reason       TEXT,
    UNIQUE (document_id, record_type, record_id)
) STRICT;
CREATE INDEX document_links_by_record ON document_links (syndicate_id, record_type, record_id);

-- Every minutes document made before is attached to its meeting.
INSERT INTO document_links (id, syndicate_id, document_id, record_type, record_id, created_at)
SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
             substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       syndicate_id, id, 'meeting', meeting_id, created_at
FROM documents WHERE meeting_id IS NOT NULL;
