-- assessment-notices 002: special assessments (cotisations spéciales, catalogue §4.5): a special
-- contribution the board decided (its resolution), shared by relative value, among the users of
-- a restricted common portion, or by the shares an art. 1097 resolution fixed, and paid in
-- instalments of given percents. Its notices are drafted with it and issued like the year's.
-- Money in integer cents; percents in millionths of a percent; days "YYYY-MM-DD".
CREATE TABLE special_assessments (
    id                      TEXT PRIMARY KEY,
    syndicate_id            TEXT NOT NULL REFERENCES syndicates(id),
    title                   TEXT NOT NULL,
    reason                  TEXT NOT NULL,
    fund                    TEXT NOT NULL CHECK (fund IN ('operating', 'contingency', 'self-insurance')),
    total_cents             INTEGER NOT NULL CHECK (total_cents BETWEEN 1 AND 100000000000000),
    apportionment           TEXT NOT NULL CHECK (apportionment IN ('fractions', 'restricted-users', 'resolution')),
    common_portion_id       TEXT REFERENCES common_portions(id),
    shares                  TEXT CHECK (shares IS NULL OR json_valid(shares)),  -- [{unitId, units}] when by resolution
    shares_resolution_id    TEXT,
    resolution_id           TEXT NOT NULL,
    decided_on              TEXT NOT NULL,  -- the board's decision, the Montreal day
    consultation_meeting_id TEXT REFERENCES meetings(id),
    installments            TEXT NOT NULL CHECK (json_valid(installments)),  -- [{dueOn, units}]
    fiscal_year             INTEGER NOT NULL,  -- its notices' numbering year: the first instalment's
    created_at              TEXT NOT NULL,
    CHECK ((apportionment = 'restricted-users') = (common_portion_id IS NOT NULL)),
    CHECK ((apportionment = 'resolution') = (shares IS NOT NULL AND shares_resolution_id IS NOT NULL))
) STRICT;
CREATE INDEX special_assessments_by_syndicate ON special_assessments (syndicate_id, created_at);
