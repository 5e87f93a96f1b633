-- assessment-notices 003: what a special contribution pays for (catalogue §4.5
-- create_special_assessment): the project it finances (the projects module's, checked by the code)
-- and the insurance claim (a deductible, uninsured damage).
ALTER TABLE special_assessments ADD COLUMN project_id TEXT;
ALTER TABLE special_assessments ADD COLUMN insurance_claim_id TEXT REFERENCES insurance_claims(id);
