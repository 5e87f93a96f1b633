-- insurance 002: the syndicate's insurance claims, and the co-owners' certificates of civil
-- liability insurance (catalogue §3.3). A claim follows the insurer's answer (open, accepted or
-- denied, paid, closed; withdrawn); its deductible is paid from the self-insurance fund under an
-- authorisation (art. 1071.1) and may be charged back to the co-owner responsible; the indemnity is
-- booked when paid. A certificate proves a co-owner's liability insurance of at least $1M ($2M
-- from 13 fractions used as dwellings or enterprises: art. 1064.1, r. 4.1 s. 1); a newer one for
-- the same co-owner supersedes the older. Money in integer cents; days "YYYY-MM-DD".
CREATE TABLE insurance_claims (
    id                            TEXT PRIMARY KEY,
    syndicate_id                  TEXT NOT NULL REFERENCES syndicates(id),
    policy_id                     TEXT NOT NULL REFERENCES insurance_policies(id),
    claim_number                  TEXT,
    occurred_on                   TEXT NOT NULL,
    reported_on                   TEXT NOT NULL CHECK (reported_on >= occurred_on),
    peril                         TEXT NOT NULL,
    description                   TEXT NOT NULL,
    location                      TEXT NOT NULL CHECK (location IN ('common', 'private', 'both')),
    unit_ids                      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(unit_ids)),
    estimated_loss_cents          INTEGER NOT NULL CHECK (estimated_loss_cents >= 0),
    deductible_cents              INTEGER NOT NULL CHECK (deductible_cents >= 0),
    indemnity_cents               INTEGER CHECK (indemnity_cents IS NULL OR indemnity_cents >= 0),
    indemnity_entry_id            TEXT REFERENCES journal_entries(id),
    status                        TEXT NOT NULL DEFAULT 'open'
                                  CHECK (status IN ('open', 'accepted', 'denied', 'paid', 'closed', 'withdrawn')),
    responsible_co_owner_id       TEXT REFERENCES co_owners(id),
    deductible_recovery_charge_id TEXT REFERENCES charges(id),
    document_ids                  TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(document_ids)),
    created_at                    TEXT NOT NULL,
    updated_at                    TEXT NOT NULL
) STRICT;
CREATE INDEX insurance_claims_by_date ON insurance_claims (syndicate_id, occurred_on);

CREATE TABLE co_owner_insurance_certificates (
    id              TEXT PRIMARY KEY,
    syndicate_id    TEXT NOT NULL REFERENCES syndicates(id),
    co_owner_id     TEXT NOT NULL REFERENCES co_owners(id),
    unit_id         TEXT NOT NULL REFERENCES units(id),
    insurer         TEXT NOT NULL,
    policy_number   TEXT NOT NULL,
    liability_cents INTEGER NOT NULL CHECK (liability_cents > 0),
    start_date      TEXT NOT NULL,
    end_date        TEXT NOT NULL CHECK (end_date > start_date),
    document_id     TEXT REFERENCES documents(id),
    superseded_by   TEXT REFERENCES co_owner_insurance_certificates(id),
    created_at      TEXT NOT NULL
) STRICT;
CREATE INDEX co_owner_insurance_by_co_owner ON co_owner_insurance_certificates (syndicate_id, co_owner_id) WHERE superseded_by IS NULL;
