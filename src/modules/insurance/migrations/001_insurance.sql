-- insurance 001 (schema version 7): the syndicate's insurance policies: property, civil liability,
-- directors and officers. Amounts are integer cents; coverages is a JSON array of {peril,
-- amountCents, deductibleCents}. Dates are calendar dates. Whether a policy expires soon, and
-- whether a property policy's reconstruction-cost appraisal is older than 5 years, is computed when
-- read.

CREATE TABLE insurance_policies (
    id                  TEXT PRIMARY KEY,
    syndicate_id        TEXT NOT NULL REFERENCES syndicates(id),
    kind                TEXT NOT NULL CHECK (kind IN ('property', 'civil-liability', 'directors-and-officers', 'other')),
    insurer             TEXT NOT NULL,
    broker              TEXT,
    policy_number       TEXT NOT NULL,
    start_date          TEXT NOT NULL,
    end_date            TEXT NOT NULL CHECK (end_date > start_date),
    coverages           TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(coverages) AND json_type(coverages) = 'array'),
    premium_cents       INTEGER CHECK (premium_cents >= 0),
    last_appraisal_date TEXT,
    notes               TEXT,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    deleted_at          TEXT
) STRICT;
CREATE INDEX insurance_policies_by_end ON insurance_policies (syndicate_id, end_date) WHERE deleted_at IS NULL;
