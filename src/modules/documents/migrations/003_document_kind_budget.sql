-- documents 003 (schema version 19): a document kind for the budget forecast (prévisions
-- budgétaires), which the notice of the annual meeting must carry (art. 1087) and which is none of
-- the catalogue's other kinds. The kind column is rebuilt in place as in documents 002 (add, copy,
-- drop, rename): only its CHECK changes.

ALTER TABLE documents ADD COLUMN kind_checked TEXT NOT NULL DEFAULT 'other' CHECK (kind_checked IN (
    'minutes', 'notice', 'assessment-notice', 'attestation', 'charges-statement', 'financial-statements',
    'budget', 'invoice', 'quote', 'contract', 'insurance-policy', 'insurance-certificate', 'appraisal', 'logbook',
    'fund-study', 'inspection-report', 'declaration', 'bylaws', 'cadastral-plan', 'plans-specs',
    'location-certificate', 'photo', 'correspondence', 'other'));
UPDATE documents SET kind_checked = kind;
ALTER TABLE documents DROP COLUMN kind;
ALTER TABLE documents RENAME COLUMN kind_checked TO kind;
