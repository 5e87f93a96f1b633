-- declaration 001 (schema version 15 before migrations were numbered by module, with meetings
-- 002): the declaration of co-ownership (catalogue §3.1): its particulars (one row per syndicate;
-- the quorum stays the setting requiredQuorumPercent), the by-laws of the immovable (each article
-- in versions), the general and restricted common portions with the units entitled to each, and
-- the amendments of the declaration with the co-owners' consents and the fractions they changed.
-- Percentages are integer millionths of a percent; days are "YYYY-MM-DD".

CREATE TABLE declarations (
    syndicate_id            TEXT PRIMARY KEY REFERENCES syndicates(id),
    registration_number     TEXT,
    registered_on           TEXT,
    notary                  TEXT,
    immovable_name          TEXT,
    address                 TEXT,
    common_cadastral_lots   TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(common_cadastral_lots)),
    destination             TEXT NOT NULL DEFAULT 'residential'
                            CHECK (destination IN ('residential', 'mixed', 'commercial')),
    horizontal              INTEGER NOT NULL DEFAULT 0,
    storeys_above_ground    INTEGER,
    fiscal_year_start       TEXT NOT NULL DEFAULT '01-01',
    arrears_interest_rate_units INTEGER,
    penalties_allowed       INTEGER NOT NULL DEFAULT 0,
    nsf_fee_cents           INTEGER,
    special_assessment_requires_consultation INTEGER NOT NULL DEFAULT 0,
    min_quotes              INTEGER,
    quote_threshold_cents   INTEGER,
    board_size_min          INTEGER NOT NULL DEFAULT 1,
    board_size_max          INTEGER,
    director_term_years     INTEGER,
    directors_must_be_co_owners INTEGER NOT NULL DEFAULT 0,
    vacancy_filled_by_board INTEGER NOT NULL DEFAULT 0,
    developer               TEXT CHECK (developer IS NULL OR json_valid(developer)),  -- {coOwnerIds, residenceUnitId}
    created_at              TEXT NOT NULL,
    updated_at              TEXT NOT NULL
) STRICT;

-- One row per version of an article: an amendment adds a version that supersedes the one in
-- force (kept, readable with asOf); a repeal ends the version in force.
CREATE TABLE bylaws (
    id                       TEXT PRIMARY KEY,
    syndicate_id             TEXT NOT NULL REFERENCES syndicates(id),
    article                  TEXT NOT NULL,
    title                    TEXT NOT NULL,
    text                     TEXT NOT NULL,
    category                 TEXT NOT NULL CHECK (category IN ('use', 'noise', 'pets', 'renovation', 'parking',
                                 'common-portions', 'rental', 'amenities', 'safety', 'other')),
    penalty_cents            INTEGER,
    adopted_by_resolution_id TEXT REFERENCES resolutions(id),
    deposited_on             TEXT,
    effective_from           TEXT NOT NULL,
    ended_on                 TEXT,   -- the day a later version or the repeal took effect
    supersedes_id            TEXT REFERENCES bylaws(id),
    status                   TEXT NOT NULL CHECK (status IN ('active', 'superseded', 'repealed')),
    search_text              TEXT NOT NULL,  -- title and text, folded (lower case, no accents)
    sort_key                 TEXT NOT NULL,  -- the article, its numbers zero-padded so 4.10 follows 4.9
    created_at               TEXT NOT NULL,
    updated_at               TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX bylaws_article_in_force ON bylaws (syndicate_id, article) WHERE status = 'active';
CREATE INDEX bylaws_by_article ON bylaws (syndicate_id, sort_key, effective_from);

CREATE TABLE declaration_amendments (
    id                  TEXT PRIMARY KEY,
    syndicate_id        TEXT NOT NULL REFERENCES syndicates(id),
    part                TEXT NOT NULL CHECK (part IN ('constituting-act', 'descriptive-statement', 'by-laws')),
    summary             TEXT NOT NULL,
    resolution_id       TEXT NOT NULL REFERENCES resolutions(id),
    decided_on          TEXT NOT NULL,
    contestable_until   TEXT NOT NULL,
    deed_signed_on      TEXT,
    registration_number TEXT,
    registered_on       TEXT,
    document_id         TEXT REFERENCES documents(id),
    status              TEXT NOT NULL CHECK (status IN ('adopted', 'registered')),
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL
) STRICT;
CREATE INDEX declaration_amendments_by_date ON declaration_amendments (syndicate_id, decided_on);

-- The written consent of a co-owner whose unit's relative value the amendment changes (art. 1102).
CREATE TABLE amendment_consents (
    amendment_id TEXT NOT NULL REFERENCES declaration_amendments(id),
    co_owner_id  TEXT NOT NULL REFERENCES co_owners(id),
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    document_id  TEXT REFERENCES documents(id),
    PRIMARY KEY (amendment_id, co_owner_id)
) STRICT;

-- The fractions an amendment changed, before and after. unit_id names the unit without a foreign
-- key on purpose: history must not keep a unit from being deleted (UNIT_IN_USE reads the keys).
CREATE TABLE amendment_fraction_changes (
    amendment_id TEXT NOT NULL REFERENCES declaration_amendments(id),
    unit_id      TEXT NOT NULL,
    syndicate_id TEXT NOT NULL REFERENCES syndicates(id),
    before_units INTEGER NOT NULL,
    after_units  INTEGER NOT NULL,
    PRIMARY KEY (amendment_id, unit_id)
) STRICT;

CREATE TABLE common_portions (
    id                TEXT PRIMARY KEY,
    syndicate_id      TEXT NOT NULL REFERENCES syndicates(id),
    name              TEXT NOT NULL,
    kind              TEXT NOT NULL CHECK (kind IN ('general', 'restricted')),
    description       TEXT NOT NULL DEFAULT '',
    ordinary_costs_to TEXT NOT NULL CHECK (ordinary_costs_to IN ('all', 'users')),
    major_costs_to    TEXT NOT NULL CHECK (major_costs_to IN ('all', 'users')),
    amendment_id      TEXT REFERENCES declaration_amendments(id),  -- the amendment that last changed its users
    sort_key          TEXT NOT NULL,  -- the name, folded
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    deleted_at        TEXT
) STRICT;
CREATE UNIQUE INDEX common_portions_name ON common_portions (syndicate_id, sort_key) WHERE deleted_at IS NULL;

-- The units entitled to a restricted common portion (art. 1064); removed with the portion's archive.
CREATE TABLE common_portion_units (
    common_portion_id TEXT NOT NULL REFERENCES common_portions(id),
    unit_id           TEXT NOT NULL REFERENCES units(id),
    syndicate_id      TEXT NOT NULL REFERENCES syndicates(id),
    PRIMARY KEY (common_portion_id, unit_id)
) STRICT;
CREATE INDEX common_portion_units_by_unit ON common_portion_units (unit_id);
